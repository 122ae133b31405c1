import ArgumentParser
import HarfBuzz
import SwiftShape
import SwiftShapeFixtures
import SwiftShapeRequests

extension SwiftShapeCommand {
  struct Shape: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Shape text and print the glyphs (the default subcommand).",
      usage: "swiftshape shape [<font-file>] [<text>] [<options>]",
      discussion: """
        Arguments as hb-shape takes them: [FONT-FILE] [TEXT]. With one argument and no --font-file, \
        it is the font when it names an existing file or ends in a font extension, else the text \
        (shaped with the built-in font). Without text, standard input is read. Each input line is \
        shaped on its own.

        --requests reads JSON requests, one per line ({"id": 1, "font": "f.ttf", "text": "office", \
        "features": ["-liga"]}), and answers each with one line of SwiftShape's JSON carrying the \
        same id, or {"id": …, "error": {…}}; the stream goes on after a bad request.

        --batch reads requests from standard input, one per line, each a list of these options \
        separated by ';' (hb-shape's batch protocol), and answers each with its output, or with one \
        'error: ...' line, and goes on. Options given with --batch apply to every request.
        """ + ShapeSettings.options.help()
    )

    /// The arguments, read by the options' declarations (see `OptionDeclaration`).
    @Argument(parsing: .allUnrecognized, help: .hidden) var arguments: [String] = []

    func run() throws { try ShapeSettings.options.parse(arguments, persona: Persona.current).run() }
  }
}

/// What the shaping commands (`shape`, `render`) share: a font and a text, given as arguments or
/// options, and how to shape.
protocol ShapingCommandSettings: Sendable, Equatable {
  /// Every option at its default.
  init()
  var first: String? { get set }
  var second: String? { get set }
  var font: FontSettings { get set }
  var text: TextSettings { get set }
  var shaping: ShapingSettings { get set }
  /// How option values are read: strictly, or as hb-shape reads them.
  var persona: Persona { get set }
}

extension ShapingCommandSettings {
  /// Sorts the positional arguments into a font and a text: with one argument and no
  /// `--font-file`, it is the font when it names an existing file or ends in a font extension
  /// (or the text comes from an option), else the text.
  func positionals() -> (font: String?, text: String?) {
    switch (first, second) {
    case (let first?, let second?): return (first, second)
    case (let first?, nil):
      guard font.fontFile == nil else { return (nil, first) }
      let looksLikeFont =
        !text.givenSources.isEmpty || IO.isRegularFile(first)
        || ShapeSettings.fontExtensions.contains { first.lowercased().hasSuffix($0) }
      return looksLikeFont ? (first, nil) : (nil, first)
    default: return (nil, nil)
    }
  }

  func validate() throws {
    if second != nil && font.fontFile != nil {
      throw ValidationError("a font was given both by --font-file and as an argument")
    }
  }
}

/// The `shape` command's values.
struct ShapeSettings: ShapingCommandSettings {
  var first: String?
  var second: String?
  var font = FontSettings()
  var text = TextSettings()
  var shaping = ShapingSettings()
  var output = OutputSettings()
  var batch = false
  var requests: String?
  var persona = Persona.swiftshape

  /// The command's options, each declared once.
  static let options = CommandOptions<ShapeSettings>([
    OptionSection(title: "Font options", options: FontSettings.declarations()),
    OptionSection(title: "Text options", options: TextSettings.declarations()),
    OptionSection(title: "Shaping options", options: ShapingSettings.declarations()),
    OptionSection(title: "Output options", options: OutputSettings.declarations()),
    OptionSection(
      title: "Requests",
      options: [
        .flag("--batch", help: "Answer requests read from standard input, one per line.") { $0.batch = true },
        .value(
          "--requests", valueName: "path",
          help: "Answer JSON requests, one per line, from a file or standard input ('-')."
        ) { $0.requests = $1 },
      ]),
  ])

  /// File name endings taken for a font, for a lone positional argument.
  static let fontExtensions = [".ttf", ".otf", ".ttc", ".otc", ".woff", ".woff2", ".dfont"]

  func run() throws {
    if shaping.listShapers {
      let out = Output.standardOutput()
      out.write(HarfBuzz.shapers.map { $0 + "\n" }.joined())
      try out.commit()
      return
    }
    if let requests {
      guard first == nil, second == nil, !batch else {
        throw ValidationError("--requests takes its requests from the file, not as arguments")
      }
      try output.check(persona: persona)
      let out = Output.standardOutput()
      try JSONRequests.serve(requests, jobs: output.jobs, maximumLength: text.maximumLength, to: out)
      try out.commit()
      return
    }
    if batch {
      guard first == nil, second == nil else {
        throw ValidationError("--batch takes its requests from standard input, not as arguments")
      }
      var defaults = Array(CommandLine.arguments.dropFirst())
      if defaults.first == "shape" { defaults.removeFirst() }
      var batch = Batch(defaults: defaults.filter { $0 != "--batch" }, persona: persona)
      batch.maximumLength = text.maximumLength
      batch.maximumIterations = output.maximumIterations
      try batch.run()
      return
    }
    let request = try ShapeRequest(self, fonts: nil, standardInputAllowed: true)
    let out = try output.outputFile.map(Output.file) ?? .standardOutput()
    do {
      try request.run(to: out)
      try out.commit()
    } catch {
      out.discard()
      throw error
    }
  }
}
