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

  /// Every option, by each of its names.
  let actions: [String: Action]

  /// The settings for `arguments`, in hb-shape's syntax: `--name=value`, `--name value`,
  /// `-u value`, flags, and up to two positional arguments (`--` ends the options).
  ///
  /// - Throws: `ShapingError` of kind `.invalidArgument` for an unknown option, a missing or
  ///   malformed value, or a third positional argument; the settings' validation errors.
  func parse(_ arguments: [String]) throws -> Settings {
    var settings = Settings()
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
      guard let action = actions[name] else {
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

/// The option tables of the shaping commands.
enum FastParsers {
  /// `shape`: the font, text, shaping and output options, `--batch` and `--requests`.
  static let shape = FastParser<ShapeSettings>(
    actions: OptionTable<ShapeSettings>.shaping { table in
      table.value("-O", "--output-format") { $0.output.format = $1 }
      table.value("-o", "--output-file") { $0.output.outputFile = $1 }
      table.flag("--show-text") { $0.output.showText = true }
      table.flag("--show-unicode") { $0.output.showUnicode = true }
      table.flag("--show-line-num") { $0.output.showLineNumber = true }
      table.flag("-v", "--verbose") { $0.output.verbose = true }
      table.flag("--no-glyph-names") { $0.output.noGlyphNames = true }
      table.flag("--no-positions") { $0.output.noPositions = true }
      table.flag("--no-advances") { $0.output.noAdvances = true }
      table.flag("--no-clusters") { $0.output.noClusters = true }
      table.flag("--show-extents") { $0.output.showExtents = true }
      table.flag("--show-flags") { $0.output.showFlags = true }
      table.flag("--ned") { $0.output.noExtraData = true }
      table.flag("-V", "--trace") { $0.output.trace = true }
      table.value("-n", "--num-iterations") { $0.output.iterations = try number($1, "--num-iterations") }
      table.value("--jobs") { $0.output.jobs = try number($1, "--jobs") }
      table.flag("--batch") { $0.batch = true }
      table.value("--requests") { $0.requests = $1 }
    })

  /// `render`: the font, text and shaping options, and the drawing's.
  static let render = FastParser<RenderSettings>(
    actions: OptionTable<RenderSettings>.shaping { table in
      table.value("-o", "--output-file") { $0.outputFile = $1 }
      table.value("--margin") { $0.margin = try number($1, "--margin") }
      table.value("--em-pixels") { $0.emPixels = try number($1, "--em-pixels") }
      table.value("--foreground") { $0.foreground = $1 }
      table.value("--background") { $0.background = $1 }
      table.flag("--annotate") { $0.annotate = true }
      table.value("--expect") { $0.expect = $1 }
    })
}

/// Builds an option table: the options every shaping command takes, then a command's own.
struct OptionTable<Settings: ShapingCommandSettings> {
  typealias Action = FastParser<Settings>.Action

  private(set) var actions: [String: Action] = [:]

  mutating func value(_ names: String..., apply: @escaping @Sendable (inout Settings, String) throws -> Void)
  {
    for name in names { actions[name] = .value(apply) }
  }

  mutating func flag(_ names: String..., apply: @escaping @Sendable (inout Settings) -> Void) {
    for name in names { actions[name] = .flag(apply) }
  }

  /// The font, text and shaping options, and those `more` adds.
  static func shaping(_ more: (inout OptionTable) -> Void) -> [String: Action] {
    var table = OptionTable()
    // Font options.
    table.value("--font-file") { $0.font.fontFile = $1 }
    table.value("--font") { $0.font.pattern = $1 }
    table.flag("--strict") { $0.font.strict = true }
    table.value("--face-index") { $0.font.faceIndex = try number($1, "--face-index") }
    table.value("--font-size") { $0.font.fontSize = $1 }
    table.value("--size") { $0.font.points = try number($1, "--size") }
    table.value("--font-ppem") { $0.font.ppem = $1 }
    table.value("--font-ptem") { $0.font.pointSize = try number($1, "--font-ptem") }
    table.value("--font-slant") { $0.font.slant = try number($1, "--font-slant") }
    table.value("--font-funcs") { $0.font.fontFuncs = $1 }
    table.value("--ft-load-flags") { $0.font.freeTypeLoadFlags = try number($1, "--ft-load-flags") }
    table.value("--variations") { $0.font.variations = $1 }
    // Text options.
    table.value("--text") { $0.text.text = $1 }
    table.value("--text-file") { $0.text.textFile = $1 }
    table.value("-u", "--unicodes") { $0.text.unicodes = $1 }
    table.flag("--single-par") { $0.text.singleParagraph = true }
    table.value("--text-before") { $0.text.textBefore = $1 }
    table.value("--text-after") { $0.text.textAfter = $1 }
    table.value("--unicodes-before") { $0.text.unicodesBefore = $1 }
    table.value("--max-text-length") { $0.text.maximumLength = try number($1, "--max-text-length") }
    table.value("--unicodes-after") { $0.text.unicodesAfter = $1 }
    // Shaping options.
    table.value("--features") { $0.shaping.features = $1 }
    table.flag("--list-shapers") { $0.shaping.listShapers = true }
    table.value("--shapers", "--shaper") { $0.shaping.shapers = $1 }
    table.value("--direction") { $0.shaping.direction = $1 }
    table.value("--language") { $0.shaping.language = $1 }
    table.value("--script") { $0.shaping.script = $1 }
    table.flag("--bot") { $0.shaping.beginningOfText = true }
    table.flag("--eot") { $0.shaping.endOfText = true }
    table.flag("--preserve-default-ignorables") { $0.shaping.preserveDefaultIgnorables = true }
    table.flag("--remove-default-ignorables") { $0.shaping.removeDefaultIgnorables = true }
    table.value("--invisible-glyph") { $0.shaping.invisibleGlyph = try number($1, "--invisible-glyph") }
    table.value("--not-found-glyph") { $0.shaping.notFoundGlyph = try number($1, "--not-found-glyph") }
    table.flag("--utf8-clusters") { $0.shaping.utf8Clusters = true }
    table.value("--cluster-unit") { $0.shaping.clusterUnit = $1 }
    table.value("--cluster-level") { $0.shaping.clusterLevel = try number($1, "--cluster-level") }
    table.flag("--normalize-glyphs") { $0.shaping.normalizeGlyphs = true }
    table.flag("--unsafe-to-concat") { $0.shaping.unsafeToConcat = true }
    table.flag("--safe-to-insert-tatweel") { $0.shaping.safeToInsertTatweel = true }
    table.flag("--verify") { $0.shaping.verify = true }
    more(&table)
    return table.actions
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
