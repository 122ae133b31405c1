import ArgumentParser
import HarfBuzz
import SwiftShape
import SwiftShapeCommandLine
import SwiftShapeFixtures
import SwiftShapeRequests

extension SwiftShapeCommand {
  struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Shape text and record the result as a case of a fixture file.",
      usage: "swiftshape record -o <fixture> [<text>] [<options>]",
      discussion: """
        Takes the shape command's font, text and shaping options. Creates the fixture when it does \
        not exist; otherwise adds the case at the end and changes nothing else. One case per input \
        line. The font path is written relative to the fixture's folder.
        """ + RecordSettings.options.help() + Examples.record
    )

    /// The arguments, read by the options' declarations (see `OptionDeclaration`).
    @Argument(declaredBy: { RecordSettings.options.declarations.flatMap(\.names) })
    var arguments: [String] = []

    func run() throws { try RecordSettings.options.parse(arguments).run() }
  }
}

/// The `record` command's values.
struct RecordSettings: ShapingCommandSettings {
  /// The text, when given as an argument.
  var first: String?
  /// Never set: `record` takes one argument.
  var second: String?
  var font = FontSettings()
  var text = TextSettings()
  var shaping = ShapingSettings()
  var persona = Persona.swiftshape
  var fixture: String?
  var name: String?

  /// The command's options, each declared once.
  static let options = CommandOptions<RecordSettings>(
    positionalLimit: 1,
    [
      OptionSection(
        title: "Fixture options",
        options: [
          .value("-o", "--output", valueName: "fixture", help: "The fixture file.") { $0.fixture = $1 },
          .value(
            "--name", valueName: "name", help: "The case's name (numbered when there are several lines)."
          ) {
            $0.name = $1
          },
        ])
    ] + OptionSection.shapingSections)

  func run() throws {
    guard let fixture else {
      throw ShapingError(
        .invalidArgument, input: "-o", reason: "the fixture to record into is missing (-o FIXTURE)")
    }
    let fontOptions = try font.shapingFontOptions()
    let shapeOptions = try shaping.shapeOptions()
    let unrecordable = unrecordableOptions(fontOptions, shapeOptions)
    guard unrecordable.isEmpty else {
      // Nothing is dropped silently: a case that would not shape as asked is not written.
      throw ShapingError(
        .invalidArgument, input: unrecordable.joined(separator: ", "),
        reason:
          "a fixture has no key for \(unrecordable.count == 1 ? "this option" : "these options") yet; nothing was recorded"
      )
    }
    var settings = FixtureSettings()
    if let pattern = font.pattern {
      settings.fontPattern = pattern
    } else if let file = font.fontFile {
      settings.fontFile = Paths.relative(file, toFolderOf: fixture)
    }
    settings.faceIndex = font.faceIndex
    if !fontOptions.variations.isEmpty { settings.variations = fontOptions.variations.map(\.description) }
    switch font.fontSize {
    case .unitsPerEm?: settings.fontSize = "upem"
    case .scale(let x, let y)?: settings.fontSize = x == y ? "\(x)" : "\(x) \(y)"
    case .points, nil: break
    }
    if case .points(let points)? = font.points { settings.points = points }
    settings.fontFunctions = fontOptions.functions == .openType ? nil : fontOptions.functions.rawValue
    settings.features = shapeOptions.features.isEmpty ? nil : shapeOptions.features.map(\.description)
    settings.direction = shapeOptions.direction?.rawValue
    settings.script = shapeOptions.script?.description
    settings.language = shapeOptions.language?.identifier
    settings.clusterLevel =
      shapeOptions.clusterLevel == .monotoneGraphemes ? nil : Int(shapeOptions.clusterLevel.rawValue)
    settings.clusterUnit =
      shapeOptions.clusterUnit == .unicodeScalars ? nil : shapeOptions.clusterUnit.rawValue
    settings.paragraph = shapeOptions.paragraph?.rawValue
    if !font.fallbackFiles.isEmpty {
      settings.fallbackFontFiles = font.fallbackFiles.map { Paths.relative($0, toFolderOf: fixture) }
    }
    if font.noFallback { settings.fallback = false }
    settings.lineWidth = shapeOptions.lineWidth.map(Int.init)
    settings.alignment =
      shapeOptions.lineWidth != nil && shapeOptions.alignment != .start
      ? shapeOptions.alignment.rawValue : nil
    settings.breaksAnywhere = shapeOptions.breaksAnywhere ? true : nil
    let lines = try text.lines(positionalText: first)
    guard !lines.isEmpty else {
      throw ShapingError(.invalidArgument, input: "text", reason: "nothing to record")
    }
    for (index, line) in lines.enumerated() {
      let caseName = lines.count > 1 ? name.map { "\($0) \(index + 1)" } : name
      try Fixture.record(text: line, settings: settings, name: caseName, into: fixture)
    }
    let out = Output.standardOutput()
    out.write("\(fixture): recorded \(lines.count) case\(lines.count == 1 ? "" : "s")\n")
    try out.commit()
  }
}

extension RecordSettings {
  /// The options given that a fixture case cannot hold: recording with them would write a case
  /// that does not shape as asked.
  func unrecordableOptions(_ fontOptions: ShapingFont.Options, _ shapeOptions: ShapeOptions) -> [String] {
    var names: [String] = []
    func check(_ given: Bool, _ name: String) { if given { names.append(name) } }
    check(font.strict, "--strict")
    check(fontOptions.ppem != (0, 0), "--font-ppem")
    check(fontOptions.pointSize != 0, "--font-ptem")
    check(fontOptions.syntheticSlant != 0, "--font-slant")
    check(fontOptions.syntheticBold.map { !$0.inPlace } == true, "--font-bold")
    check(fontOptions.syntheticBold.map(\.inPlace) == true, "--font-grade")
    check(fontOptions.namedInstance != nil, "--named-instance")
    check(fontOptions.freeTypeLoadFlags != 2, "--ft-load-flags")
    check(text.textBefore != nil, "--text-before")
    check(text.textAfter != nil, "--text-after")
    check(text.unicodesBefore != nil, "--unicodes-before")
    check(text.unicodesAfter != nil, "--unicodes-after")
    check(text.glyphs, "--glyphs")
    let flags = shapeOptions.bufferFlags
    check(flags.contains(.beginningOfText), "--bot")
    check(flags.contains(.endOfText), "--eot")
    check(flags.contains(.preserveDefaultIgnorables), "--preserve-default-ignorables")
    check(flags.contains(.removeDefaultIgnorables), "--remove-default-ignorables")
    check(flags.contains(.produceUnsafeToConcat), "--unsafe-to-concat")
    check(flags.contains(.produceSafeToInsertTatweel), "--safe-to-insert-tatweel")
    check(shapeOptions.invisibleGlyph != 0, "--invisible-glyph")
    check(shapeOptions.notFoundGlyph != 0, "--not-found-glyph")
    check(shapeOptions.notFoundVariationSelectorGlyph != nil, "--not-found-variation-selector-glyph")
    check(shapeOptions.shapers != nil, "--shapers")
    check(shapeOptions.normalizeGlyphs, "--normalize-glyphs")
    check(shapeOptions.verify, "--verify")
    return names
  }
}

/// Path arithmetic for fixture files.
enum Paths {
  /// `file` relative to the folder holding `fixture` (both as given, relative to the current
  /// folder or absolute).
  static func relative(_ file: String, toFolderOf fixture: String) -> String {
    let target = absolute(file).split(separator: "/")
    let folder = absolute(fixture).split(separator: "/").dropLast()
    var common = 0
    while common < min(target.count, folder.count), target[common] == folder[common] { common += 1 }
    let up = Array(repeating: "..", count: folder.count - common)
    return (up + target[common...].map(String.init)).joined(separator: "/")
  }

  /// An absolute, normalized path.
  static func absolute(_ path: String) -> String {
    var parts: [Substring] = []
    let full = path.hasPrefix("/") ? path : IO.currentDirectory() + "/" + path
    for part in full.split(separator: "/") {
      if part == "." { continue }
      if part == ".." {
        if !parts.isEmpty { parts.removeLast() }
        continue
      }
      parts.append(part)
    }
    return "/" + parts.joined(separator: "/")
  }
}
