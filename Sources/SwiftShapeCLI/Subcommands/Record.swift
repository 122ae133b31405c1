import ArgumentParser
import HarfBuzz
import SwiftShape
import SwiftShapeFixtures
import SwiftShapeRequests

extension SwiftShapeCommand {
  struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Shape text and record the result as a case of a fixture file.",
      discussion: """
        Takes the shape command's font, text and shaping options. Creates the fixture when it does \
        not exist; otherwise adds the case at the end and changes nothing else. One case per input \
        line. The font path is written relative to the fixture's folder.
        """
    )

    @Option(
      name: [.customShort("o"), .customLong("output")],
      help: ArgumentHelp("The fixture file.", valueName: "fixture"))
    var fixture: String

    @Option(
      name: .customLong("name"),
      help: ArgumentHelp("The case's name (numbered when there are several lines).", valueName: "name"))
    var name: String?

    @Argument(help: ArgumentHelp("The text (or give --text, --text-file, -u).", valueName: "text"))
    var positionalText: String?

    @OptionGroup(title: "Font options") var font: FontOptions
    @OptionGroup(title: "Text options") var text: TextOptions
    @OptionGroup(title: "Shaping options") var shaping: ShapingOptions

    func run() throws {
      _ = try font.settings.shapingFontOptions()  // checks the values
      let shapeOptions = try shaping.settings.shapeOptions()
      var settings = FixtureSettings()
      if let pattern = font.pattern {
        settings.fontPattern = pattern
      } else if let file = font.fontFile {
        settings.fontFile = Paths.relative(file, toFolderOf: fixture)
      }
      settings.faceIndex = font.faceIndex
      if let variations = font.variations {
        settings.variations = try ShapingError.parsing("--variations") { try Variation.parseList(variations) }
          .map(
            \.description)
      }
      settings.fontSize = font.fontSize
      settings.points = font.points
      settings.fontFunctions = font.fontFuncs == "ot" ? nil : font.fontFuncs
      settings.features = shaping.features.map { _ in shapeOptions.features.map(\.description) }
      settings.direction = shapeOptions.direction?.rawValue
      settings.script = shapeOptions.script?.description
      settings.language = shapeOptions.language?.identifier
      settings.clusterLevel =
        shapeOptions.clusterLevel == .monotoneGraphemes ? nil : Int(shapeOptions.clusterLevel.rawValue)
      settings.clusterUnit =
        shapeOptions.clusterUnit == .unicodeScalars ? nil : shapeOptions.clusterUnit.rawValue
      let lines = try text.settings.lines(positionalText: positionalText)
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
