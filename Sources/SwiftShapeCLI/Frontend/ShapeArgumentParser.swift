import ArgumentParser
import SwiftShape

/// Parses `shape` arguments for requests that come in bulk (a batch line, a conformance test),
/// where ArgumentParser's cost per call (about 2 ms: it rebuilds its option table by reflection)
/// would dominate. It fills a copy of a command ArgumentParser parsed once, through the same
/// properties, so the options mean the same; a test checks that the two parsers agree on every
/// option `shape --help` lists.
struct ShapeArgumentParser: Sendable {
  typealias Shape = SwiftShapeCommand.Shape

  /// The command with every default.
  private let template: Shape

  init() { template = ShapeArgumentParser.defaults() }

  /// The command with every option at its default, made without ArgumentParser (which would
  /// take milliseconds to reflect on the options first). A test checks it equals
  /// `Shape.parse([])`.
  static func defaults() -> Shape {
    var font = FontOptions()
    font.fontFile = nil
    font.pattern = nil
    font.strict = false
    font.faceIndex = nil
    font.fontSize = nil
    font.points = nil
    font.ppem = nil
    font.pointSize = nil
    font.slant = nil
    font.fontFuncs = "ot"
    font.freeTypeLoadFlags = 2
    font.variations = nil
    var text = TextOptions()
    text.text = nil
    text.textFile = nil
    text.unicodes = nil
    text.singleParagraph = false
    text.textBefore = nil
    text.textAfter = nil
    text.unicodesBefore = nil
    text.unicodesAfter = nil
    text.maximumLength = TextLimits.defaultMaximum
    var shaping = ShapingOptions()
    shaping.features = nil
    shaping.listShapers = false
    shaping.shapers = nil
    shaping.direction = nil
    shaping.language = nil
    shaping.script = nil
    shaping.beginningOfText = false
    shaping.endOfText = false
    shaping.preserveDefaultIgnorables = false
    shaping.removeDefaultIgnorables = false
    shaping.invisibleGlyph = 0
    shaping.notFoundGlyph = 0
    shaping.utf8Clusters = false
    shaping.clusterUnit = nil
    shaping.clusterLevel = 0
    shaping.normalizeGlyphs = false
    shaping.unsafeToConcat = false
    shaping.safeToInsertTatweel = false
    shaping.verify = false
    var output = OutputOptions()
    output.format = nil
    output.outputFile = nil
    output.showText = false
    output.showUnicode = false
    output.showLineNumber = false
    output.verbose = false
    output.noGlyphNames = false
    output.noPositions = false
    output.noAdvances = false
    output.noClusters = false
    output.showExtents = false
    output.showFlags = false
    output.noExtraData = false
    output.trace = false
    output.jobs = 1
    output.iterations = 1
    var shape = Shape()
    shape.first = nil
    shape.second = nil
    shape.font = font
    shape.text = text
    shape.shaping = shaping
    shape.output = output
    shape.batch = false
    shape.requests = nil
    return shape
  }

  /// What an option does to the command.
  enum Action: Sendable {
    case flag(@Sendable (inout Shape) -> Void)
    case value(@Sendable (inout Shape, String) throws -> Void)
  }

  /// The command for `arguments`, in hb-shape's syntax: `--name=value`, `--name value`, `-u value`,
  /// flags, and up to two positional arguments (`--` ends the options).
  ///
  /// - Throws: `ShapingError` of kind `.invalidArgument` for an unknown option, a missing or
  ///   malformed value, or a third positional argument.
  func parse(_ arguments: [String]) throws -> Shape {
    var command = template
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
      guard let action = ShapeArgumentParser.actions[name] else {
        throw ShapingError(.invalidArgument, input: name, reason: "unknown option")
      }
      switch action {
      case .flag(let apply):
        guard attached == nil else {
          throw ShapingError(.invalidArgument, input: argument, reason: "\(name) takes no value")
        }
        apply(&command)
      case .value(let apply):
        if let attached {
          try apply(&command, attached)
        } else {
          guard index < arguments.count else {
            throw ShapingError(.invalidArgument, input: name, reason: "missing value")
          }
          try apply(&command, arguments[index])
          index += 1
        }
      }
    }
    guard positionals.count <= 2 else {
      throw ShapingError(
        .invalidArgument, input: positionals[2], reason: "unexpected argument (at most a font and a text)")
    }
    command.first = positionals.first
    command.second = positionals.count > 1 ? positionals[1] : nil
    try command.validate()
    return command
  }

  private static func number<T: LosslessStringConvertible>(_ value: String, _ option: String) throws -> T {
    guard let number = T(value) else {
      throw ShapingError(
        .invalidArgument, input: "\(option) '\(value)'",
        reason: "not a valid \(T.self == Double.self ? "number" : "integer")")
    }
    return number
  }

  /// Every option of `shape`, by each of its names.
  static let actions: [String: Action] = {
    var table: [String: Action] = [:]
    func value(_ names: String..., apply: @escaping @Sendable (inout Shape, String) throws -> Void) {
      for name in names { table[name] = .value(apply) }
    }
    func flag(_ names: String..., apply: @escaping @Sendable (inout Shape) -> Void) {
      for name in names { table[name] = .flag(apply) }
    }
    // Font options.
    value("--font-file") { $0.font.fontFile = $1 }
    value("--font") { $0.font.pattern = $1 }
    flag("--strict") { $0.font.strict = true }
    value("--face-index") { $0.font.faceIndex = try number($1, "--face-index") }
    value("--font-size") { $0.font.fontSize = $1 }
    value("--size") { $0.font.points = try number($1, "--size") }
    value("--font-ppem") { $0.font.ppem = $1 }
    value("--font-ptem") { $0.font.pointSize = try number($1, "--font-ptem") }
    value("--font-slant") { $0.font.slant = try number($1, "--font-slant") }
    value("--font-funcs") { $0.font.fontFuncs = $1 }
    value("--ft-load-flags") { $0.font.freeTypeLoadFlags = try number($1, "--ft-load-flags") }
    value("--variations") { $0.font.variations = $1 }
    // Text options.
    value("--text") { $0.text.text = $1 }
    value("--text-file") { $0.text.textFile = $1 }
    value("-u", "--unicodes") { $0.text.unicodes = $1 }
    flag("--single-par") { $0.text.singleParagraph = true }
    value("--text-before") { $0.text.textBefore = $1 }
    value("--text-after") { $0.text.textAfter = $1 }
    value("--unicodes-before") { $0.text.unicodesBefore = $1 }
    value("--max-text-length") { $0.text.maximumLength = try number($1, "--max-text-length") }
    value("--unicodes-after") { $0.text.unicodesAfter = $1 }
    // Shaping options.
    value("--features") { $0.shaping.features = $1 }
    flag("--list-shapers") { $0.shaping.listShapers = true }
    value("--shapers", "--shaper") { $0.shaping.shapers = $1 }
    value("--direction") { $0.shaping.direction = $1 }
    value("--language") { $0.shaping.language = $1 }
    value("--script") { $0.shaping.script = $1 }
    flag("--bot") { $0.shaping.beginningOfText = true }
    flag("--eot") { $0.shaping.endOfText = true }
    flag("--preserve-default-ignorables") { $0.shaping.preserveDefaultIgnorables = true }
    flag("--remove-default-ignorables") { $0.shaping.removeDefaultIgnorables = true }
    value("--invisible-glyph") { $0.shaping.invisibleGlyph = try number($1, "--invisible-glyph") }
    value("--not-found-glyph") { $0.shaping.notFoundGlyph = try number($1, "--not-found-glyph") }
    flag("--utf8-clusters") { $0.shaping.utf8Clusters = true }
    value("--cluster-unit") { $0.shaping.clusterUnit = $1 }
    value("--cluster-level") { $0.shaping.clusterLevel = try number($1, "--cluster-level") }
    flag("--normalize-glyphs") { $0.shaping.normalizeGlyphs = true }
    flag("--unsafe-to-concat") { $0.shaping.unsafeToConcat = true }
    flag("--safe-to-insert-tatweel") { $0.shaping.safeToInsertTatweel = true }
    flag("--verify") { $0.shaping.verify = true }
    // Output options.
    value("-O", "--output-format") { $0.output.format = $1 }
    value("-o", "--output-file") { $0.output.outputFile = $1 }
    flag("--show-text") { $0.output.showText = true }
    flag("--show-unicode") { $0.output.showUnicode = true }
    flag("--show-line-num") { $0.output.showLineNumber = true }
    flag("-v", "--verbose") { $0.output.verbose = true }
    flag("--no-glyph-names") { $0.output.noGlyphNames = true }
    flag("--no-positions") { $0.output.noPositions = true }
    flag("--no-advances") { $0.output.noAdvances = true }
    flag("--no-clusters") { $0.output.noClusters = true }
    flag("--show-extents") { $0.output.showExtents = true }
    flag("--show-flags") { $0.output.showFlags = true }
    flag("--ned") { $0.output.noExtraData = true }
    flag("-V", "--trace") { $0.output.trace = true }
    value("-n", "--num-iterations") { $0.output.iterations = try number($1, "--num-iterations") }
    value("--jobs") { $0.output.jobs = try number($1, "--jobs") }
    flag("--batch") { $0.batch = true }
    value("--requests") { $0.requests = $1 }
    return table
  }()
}
