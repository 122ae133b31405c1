import ArgumentParser
import SwiftShape

/// Where the text comes from: hb-shape's text options.
struct TextOptions: ParsableArguments {
  @Option(
    name: .customLong("text"),
    help: ArgumentHelp("The text to shape; each line is shaped on its own.", valueName: "string"))
  var text: String?

  @Option(
    name: .customLong("text-file"),
    help: ArgumentHelp(
      "A UTF-8 file of text to shape, one line at a time ('-' for standard input).", valueName: "path"))
  var textFile: String?

  @Option(
    name: [.customShort("u"), .customLong("unicodes")],
    help: ArgumentHelp("Code points to shape, in hex: 'U+0041,U+0301' or '41 301'.", valueName: "list"))
  var unicodes: String?

  @Option(
    name: .customLong("text-before"),
    help: ArgumentHelp("Context before the text (affects shaping, not shaped).", valueName: "string"))
  var textBefore: String?

  @Option(
    name: .customLong("text-after"),
    help: ArgumentHelp("Context after the text (affects shaping, not shaped).", valueName: "string"))
  var textAfter: String?

  /// The input lines, from exactly one source: `--text`, `--text-file`, `--unicodes`, the
  /// positional text, or standard input.
  func lines(positionalText: String?) throws -> [String] {
    let given = [
      text.map { _ in "--text" }, textFile.map { _ in "--text-file" }, unicodes.map { _ in "--unicodes" },
      positionalText.map { _ in "the text argument" },
    ].compactMap { $0 }
    guard given.count <= 1 else {
      throw ShapingError(
        .invalidArgument, input: given.joined(separator: ", "), reason: "give the text one way only")
    }
    if let unicodes {
      var view = String.UnicodeScalarView()
      view.append(contentsOf: try TextInput.scalars(fromUnicodesList: unicodes))
      return [String(view)]
    }
    if let text = text ?? positionalText {
      return TextInput.lines(of: text)
    }
    if let textFile {
      let name = textFile == "-" ? "standard input" : textFile
      return try TextInput.lines(fromUTF8: try IO.readAll(path: textFile), name: name)
    }
    return try TextInput.lines(
      fromUTF8: try IO.readAll(descriptor: 0, name: "standard input"), name: "standard input")
  }
}
