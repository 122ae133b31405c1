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
  /// The fixture file (`-o`) and the case's name (`--name`).
  var fixture, name: String?
  /// The text, when given as an argument.
  var first: String?
  /// Never set: `record` takes one argument.
  var second: String?
  var font = FontSettings()
  var text = TextSettings()
  var shaping = ShapingSettings()
  var persona = Persona.swiftshape

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
    // Nothing is dropped silently: every setting has a fixture key (`RequestKey`), and the input
    // must be text (a fixture case holds text).
    if text.glyphs {
      throw ShapingError(
        .invalidArgument, input: "--glyphs",
        reason: "a fixture case holds text, not glyphs; nothing was recorded")
    }
    let request = try shapingRequest()
    let lines = try text.lines(positionalText: first)
    guard !lines.isEmpty else {
      throw ShapingError(.invalidArgument, input: "text", reason: "nothing to record")
    }
    for (index, line) in lines.enumerated() {
      let caseName = lines.count > 1 ? name.map { "\($0) \(index + 1)" } : name
      try Fixture.record(text: line, request: request, name: caseName, into: fixture)
    }
    let out = Output.standardOutput()
    out.write("\(fixture): recorded \(lines.count) case\(lines.count == 1 ? "" : "s")\n")
    try out.commit()
  }
}
