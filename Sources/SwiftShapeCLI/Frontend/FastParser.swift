import SwiftShape

/// Parses the shaping commands' arguments into plain settings without ArgumentParser, whose cost
/// (milliseconds: it builds its option table by reflection) would dominate a command that shapes
/// one word, draws one paragraph, or answers one batch line or conformance test. The options mean
/// what they mean to ArgumentParser: tests check that the two parsers agree on every option
/// `shape --help` and `render --help` list, and on the defaults.
struct FastParser<Settings: ShapingCommandSettings>: Sendable {
  /// What an option does to the settings.
  enum Action: Sendable {
    case flag(@Sendable (inout Settings) -> Void)
    case value(@Sendable (inout Settings, String) throws -> Void)
  }

  /// What the option of a name does; nil for an unknown option.
  let action: @Sendable (String) -> Action?

  /// The settings for `arguments`, in hb-shape's syntax: `--name=value`, `--name value`,
  /// `-u value`, flags, and up to two positional arguments (`--` ends the options). Values are
  /// read as `persona` reads them: strictly, or as hb-shape does (`HBShapeSyntax`).
  ///
  /// - Throws: `ShapingError` of kind `.invalidArgument` for an unknown option, a missing or
  ///   malformed value, or a third positional argument; the settings' validation errors.
  func parse(_ arguments: [String], persona: Persona = .swiftshape) throws -> Settings {
    var settings = Settings()
    settings.persona = persona
    var positionals: [String] = []
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      guard !optionsEnded, argument.hasPrefix("-"), argument != "-" else {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      var name = argument
      var attached: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        attached = String(argument[argument.index(after: equals)...])
      }
      guard let action = action(name) else {
        throw ShapingError(.invalidArgument, input: name, reason: "unknown option")
      }
      switch action {
      case .flag(let apply):
        guard attached == nil else {
          throw ShapingError(.invalidArgument, input: argument, reason: "\(name) takes no value")
        }
        apply(&settings)
      case .value(let apply):
        if let attached {
          try apply(&settings, attached)
        } else {
          guard index < arguments.count else {
            throw ShapingError(.invalidArgument, input: name, reason: "missing value")
          }
          try apply(&settings, arguments[index])
          index += 1
        }
      }
    }
    guard positionals.count <= 2 else {
      throw ShapingError(
        .invalidArgument, input: positionals[2], reason: "unexpected argument (at most a font and a text)")
    }
    settings.first = positionals.first
    settings.second = positionals.count > 1 ? positionals[1] : nil
    try settings.validate()
    return settings
  }
}

/// The options of the shaping commands. Each command's are a `switch` rather than a table, so a
/// run looks up the options it is given and builds nothing at start-up.
enum FastParsers {
  /// `shape`: the font, text, shaping and output options, `--batch` and `--requests`.
  static let shape = FastParser<ShapeSettings> { name in
    if let action: FastParser<ShapeSettings>.Action = shapingAction(name) { return action }
    switch name {
    case "-O", "--output-format": return .value { $0.output.format = $1 }
    case "-o", "--output-file": return .value { $0.output.outputFile = $1 }
    case "--show-text": return .flag { $0.output.showText = true }
    case "--show-unicode": return .flag { $0.output.showUnicode = true }
    case "--show-line-num": return .flag { $0.output.showLineNumber = true }
    case "-v", "--verbose": return .flag { $0.output.verbose = true }
    case "--no-glyph-names": return .flag { $0.output.noGlyphNames = true }
    case "--no-positions": return .flag { $0.output.noPositions = true }
    case "--no-advances": return .flag { $0.output.noAdvances = true }
    case "--no-clusters": return .flag { $0.output.noClusters = true }
    case "--show-extents": return .flag { $0.output.showExtents = true }
    case "--show-flags": return .flag { $0.output.showFlags = true }
    case "--ned": return .flag { $0.output.noExtraData = true }
    case "-V", "--trace": return .flag { $0.output.trace = true }
    case "-n", "--num-iterations":
      return .value { $0.output.iterations = try integer($1, name, $0.persona, wrapsToUnsigned: true) }
    case "--max-iterations": return .value { $0.output.maximumIterations = try number($1, name) }
    case "--jobs": return .value { $0.output.jobs = try number($1, name) }
    case "--batch": return .flag { $0.batch = true }
    case "--requests": return .value { $0.requests = $1 }
    default: return nil
    }
  }

  /// `render`: the font, text and shaping options, and the drawing's.
  static let render = FastParser<RenderSettings> { name in
    if let action: FastParser<RenderSettings>.Action = shapingAction(name) { return action }
    switch name {
    case "-o", "--output-file": return .value { $0.outputFile = $1 }
    case "--margin": return .value { $0.margin = try number($1, name) }
    case "--em-pixels": return .value { $0.emPixels = try number($1, name) }
    case "--foreground": return .value { $0.foreground = $1 }
    case "--background": return .value { $0.background = $1 }
    case "--annotate": return .flag { $0.annotate = true }
    case "--expect": return .value { $0.expect = $1 }
    default: return nil
    }
  }

  /// The font, text and shaping options, which every shaping command takes.
  static func shapingAction<Settings: ShapingCommandSettings>(_ name: String) -> FastParser<Settings>.Action?
  {
    switch name {
    // Font options.
    case "--font-file": return .value { $0.font.fontFile = $1 }
    case "--font": return .value { $0.font.pattern = $1 }
    case "--strict": return .flag { $0.font.strict = true }
    case "--face-index":
      return .value { $0.font.faceIndex = try integer($1, name, $0.persona, wrapsToUnsigned: true) }
    case "--font-size": return .value { $0.font.fontSize = $1 }
    case "--size": return .value { $0.font.points = try number($1, name) }
    case "--font-ppem": return .value { $0.font.ppem = $1 }
    case "--font-ptem":
      return .value { $0.font.pointSize = try decimal($1, name, $0.persona) }
    case "--font-slant":
      return .value { $0.font.slant = try decimal($1, name, $0.persona) }
    case "--font-funcs": return .value { $0.font.fontFuncs = $1 }
    case "--ft-load-flags":
      return .value { $0.font.freeTypeLoadFlags = try integer($1, name, $0.persona, wrapsToUnsigned: false) }
    case "--variations": return .value { $0.font.variations = $1 }
    // Text options.
    case "--text": return .value { $0.text.text = $1 }
    case "--text-file": return .value { $0.text.textFile = $1 }
    case "-u", "--unicodes": return .value { $0.text.unicodes = $1 }
    case "--single-par": return .flag { $0.text.singleParagraph = true }
    case "--text-before": return .value { $0.text.textBefore = $1 }
    case "--text-after": return .value { $0.text.textAfter = $1 }
    case "--unicodes-before": return .value { $0.text.unicodesBefore = $1 }
    case "--unicodes-after": return .value { $0.text.unicodesAfter = $1 }
    case "--max-text-length": return .value { $0.text.maximumLength = try number($1, name) }
    // Shaping options.
    case "--features": return .value { $0.shaping.features = $1 }
    case "--list-shapers": return .flag { $0.shaping.listShapers = true }
    case "--shapers", "--shaper": return .value { $0.shaping.shapers = $1 }
    case "--direction": return .value { $0.shaping.direction = $1 }
    case "--language": return .value { $0.shaping.language = $1 }
    case "--script": return .value { $0.shaping.script = $1 }
    case "--bot": return .flag { $0.shaping.beginningOfText = true }
    case "--eot": return .flag { $0.shaping.endOfText = true }
    case "--preserve-default-ignorables": return .flag { $0.shaping.preserveDefaultIgnorables = true }
    case "--remove-default-ignorables": return .flag { $0.shaping.removeDefaultIgnorables = true }
    case "--invisible-glyph":
      return .value { $0.shaping.invisibleGlyph = try integer($1, name, $0.persona, wrapsToUnsigned: true) }
    case "--not-found-glyph":
      return .value { $0.shaping.notFoundGlyph = try integer($1, name, $0.persona, wrapsToUnsigned: true) }
    case "--utf8-clusters": return .flag { $0.shaping.utf8Clusters = true }
    case "--cluster-unit": return .value { $0.shaping.clusterUnit = $1 }
    case "--cluster-level":
      return .value { $0.shaping.clusterLevel = try integer($1, name, $0.persona, wrapsToUnsigned: false) }
    case "--normalize-glyphs": return .flag { $0.shaping.normalizeGlyphs = true }
    case "--unsafe-to-concat": return .flag { $0.shaping.unsafeToConcat = true }
    case "--safe-to-insert-tatweel": return .flag { $0.shaping.safeToInsertTatweel = true }
    case "--verify": return .flag { $0.shaping.verify = true }
    default: return nil
    }
  }
}

/// An option's number, or the error ArgumentParser would give for it.
private func number<T: LosslessStringConvertible>(_ value: String, _ option: String) throws -> T {
  guard let number = T(value) else {
    throw ShapingError(
      .invalidArgument, input: "\(option) '\(value)'",
      reason: "not a valid \(T.self == Double.self ? "number" : "integer")")
  }
  return number
}

/// A whole-number option as `persona` reads it: decimal and in the type's range, or, as hb-shape,
/// C's syntax for an `int` (GLib's option parser), wrapped to unsigned where HarfBuzz stores it so
/// (`--face-index=-1` is 4294967295).
private func integer<T: FixedWidthInteger & LosslessStringConvertible>(
  _ value: String, _ option: String, _ persona: Persona, wrapsToUnsigned: Bool
) throws -> T {
  guard persona == .hbShape else { return try number(value, option) }
  guard let parsed = HBShapeSyntax.integer(value) else {
    throw ShapingError(.invalidArgument, input: "\(option) '\(value)'", reason: "cannot parse the number")
  }
  return wrapsToUnsigned ? T(truncatingIfNeeded: UInt32(bitPattern: parsed)) : T(truncatingIfNeeded: parsed)
}

/// A number option as `persona` reads it: Swift's syntax, or GLib's (`strtod` over the whole
/// string; out of range is an error).
private func decimal(_ value: String, _ option: String, _ persona: Persona) throws -> Double {
  guard persona == .hbShape else { return try number(value, option) }
  guard let parsed = HBShapeSyntax.double(value) else {
    throw ShapingError(.invalidArgument, input: "\(option) '\(value)'", reason: "cannot parse the number")
  }
  return parsed
}
