import SwiftShape
import SwiftShapeRequests

/// What the shaping commands (`shape`, `render`) share: a font and a text, given as arguments or
/// options, and how to shape.
package protocol ShapingCommandSettings: Sendable, Equatable {
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
  package func positionals() -> (font: String?, text: String?) {
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

  package func validate() throws {
    if second != nil && font.fontFile != nil {
      throw ShapingError(
        .invalidArgument, input: "--font-file",
        reason: "a font was given both by --font-file and as an argument")
    }
  }
}

/// The `shape` command's values.
package struct ShapeSettings: ShapingCommandSettings {
  package var first: String?
  package var second: String?
  package var font = FontSettings()
  package var text = TextSettings()
  package var shaping = ShapingSettings()
  package var output = OutputSettings()
  package var batch = false
  package var requests: String?
  package var persona = Persona.swiftshape

  /// Every option at its default.
  package init() {}

  /// The command's options, each declared once.
  package static let options = CommandOptions<ShapeSettings>(
    OptionSection.shapingSections + [
      OptionSection(title: "Output options", options: OutputSettings.declarations()),
      OptionSection(
        title: "Requests",
        options: [
          .flag("--batch", help: "Answer requests read from standard input, one per line.") {
            $0.batch = true
          },
          .value(
            "--requests", valueName: "path",
            help: "Answer JSON requests, one per line, from a file or standard input ('-')."
          ) { $0.requests = $1 },
        ]),
    ])

  /// File name endings taken for a font, for a lone positional argument.
  package static let fontExtensions = [".ttf", ".otf", ".ttc", ".otc", ".woff", ".woff2", ".dfont"]
}
