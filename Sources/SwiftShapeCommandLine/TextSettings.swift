import SwiftShape
import SwiftShapeRequests

/// Where the text comes from: hb-shape's text and text-context options. Code point lists are read
/// when the input is made, as the persona reads them.
package struct TextSettings: Sendable, Equatable {
  /// Every option at its default.
  package init() {}

  package var text: String?
  package var textFile: String?
  package var unicodes: String?
  package var singleParagraph = false
  package var textBefore: String?
  package var textAfter: String?
  package var maximumLength = TextLimits.defaultMaximum
  package var unicodesBefore: String?
  package var unicodesAfter: String?
  /// `--glyphs`: the input is glyphs in hb-shape's syntax.
  package var glyphs = false

  /// The options, each declared once (see `OptionDeclaration`).
  package static func declarations<S: ShapingCommandSettings>() -> [OptionDeclaration<S>] {
    [
      .value("--text", valueName: "string", help: "The text to shape; each line is shaped on its own.") {
        $0.text.text = $1
      },
      .value(
        "--text-file", valueName: "path",
        help: "A UTF-8 file of text to shape, one line at a time ('-' for standard input)."
      ) { $0.text.textFile = $1 },
      .value(
        "-u", "--unicodes", valueName: "list",
        help: "Code points to shape, in hex: 'U+0041,U+0301' or '41 301'."
      ) { $0.text.unicodes = $1 },
      .flag("--single-par", help: "Shape all of the input as one paragraph, newlines included.") {
        $0.text.singleParagraph = true
      },
      .flag(
        "--glyphs",
        help:
          "The input is glyphs in hb-shape's syntax ('[o=0+605|f_f_i=1+946]', or 'o|f_f_i'), read onto the font, not shaped."
      ) { $0.text.glyphs = true },
      .value(
        "--text-before", valueName: "string", help: "Context before each line (affects shaping, not shaped)."
      ) { $0.text.textBefore = $1 },
      .value(
        "--text-after", valueName: "string", help: "Context after each line (affects shaping, not shaped)."
      ) {
        $0.text.textAfter = $1
      },
      .value(
        "--max-text-length", valueName: "bytes",
        help: "The longest text (a line, a request) to shape, in UTF-8 bytes (default: 16 MiB)."
      ) { $0.text.maximumLength = try number($1, "--max-text-length") },
      .value("--unicodes-before", valueName: "list", help: "Context before each line, as code points.") {
        $0.text.unicodesBefore = $1
      },
      .value("--unicodes-after", valueName: "list", help: "Context after each line, as code points.") {
        $0.text.unicodesAfter = $1
      },
    ]
  }

  /// Where the text comes from, when it is given by an option.
  package var givenSources: [String] {
    [
      text.map { _ in "--text" }, textFile.map { _ in "--text-file" }, unicodes.map { _ in "--unicodes" },
    ].compactMap { $0 }
  }

  /// The context before and after each line; code point lists read as `persona` reads them.
  package func context(persona: Persona = .swiftshape) throws -> (before: String, after: String) {
    func scalars(_ list: String, _ option: String) throws -> String {
      guard persona == .swiftshape else {
        // hb-shape keeps the context as a C string: it ends at the first U+0000.
        return String(try HBShapeSyntax.unicodes(list, option: option).prefix { $0 != "\0" })
      }
      var view = String.UnicodeScalarView()
      view.append(contentsOf: try TextInput.scalars(fromUnicodesList: list))
      return String(view)
    }
    if textBefore != nil && unicodesBefore != nil {
      throw ShapingError(
        .invalidArgument, input: "--text-before, --unicodes-before", reason: "give the context one way only")
    }
    if textAfter != nil && unicodesAfter != nil {
      throw ShapingError(
        .invalidArgument, input: "--text-after, --unicodes-after", reason: "give the context one way only")
    }
    return (
      try unicodesBefore.map { try scalars($0, "--unicodes-before") } ?? textBefore ?? "",
      try unicodesAfter.map { try scalars($0, "--unicodes-after") } ?? textAfter ?? ""
    )
  }

  /// The input, from exactly one source: `--text`, `--text-file`, `--unicodes`, the positional
  /// text, or standard input (unless `standardInputAllowed` is false, as in a batch). A code point
  /// list is read as `persona` reads it, and its text split into lines as any text is.
  package func input(
    positionalText: String?, standardInputAllowed: Bool = true, persona: Persona = .swiftshape
  )
    throws -> LineSource
  {
    guard maximumLength > 0 else {
      throw ShapingError(
        .invalidArgument, input: "--max-text-length=\(maximumLength)", reason: "must be more than 0")
    }
    let input = try unlimitedInput(
      positionalText: positionalText, standardInputAllowed: standardInputAllowed, persona: persona)
    if case .lines(let lines) = input, let index = lines.firstIndex(where: { $0.utf8.count > maximumLength })
    {
      throw ShapingError(
        .badText, input: lines.count == 1 ? "the text" : "line \(index + 1)",
        reason: "longer than \(maximumLength) bytes (--max-text-length)")
    }
    return input
  }

  private func unlimitedInput(positionalText: String?, standardInputAllowed: Bool, persona: Persona) throws
    -> LineSource
  {
    var settings = self
    if persona == .hbShape, HBShapeRelease.linked.ignoresEmptyTextBesideUnicodes, settings.text != nil,
      settings.unicodes != nil
    {
      // As hb-shape from HarfBuzz 10.3.0: an empty --text beside --unicodes, or an empty
      // --unicodes beside --text, is left out.
      if settings.text == "" {
        settings.text = nil
      } else if settings.unicodes == "" {
        settings.unicodes = nil
      }
    }
    return try settings.singleSourceInput(
      positionalText: positionalText, standardInputAllowed: standardInputAllowed, persona: persona)
  }

  private func singleSourceInput(positionalText: String?, standardInputAllowed: Bool, persona: Persona) throws
    -> LineSource
  {
    let given = givenSources + (positionalText.map { _ in ["the text argument"] } ?? [])
    guard given.count <= 1 else {
      throw ShapingError(
        .invalidArgument, input: given.joined(separator: ", "), reason: "give the text one way only")
    }
    var text = text ?? positionalText
    if let unicodes {
      if persona == .hbShape {
        text = try HBShapeSyntax.unicodes(unicodes, option: "--unicodes")
      } else {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: try TextInput.scalars(fromUnicodesList: unicodes))
        text = String(view)
      }
    }
    if let text {
      return .lines(singleParagraph ? (text.isEmpty ? [] : [text]) : TextInput.lines(of: text))
    }
    let path = textFile ?? "-"
    guard path != "-" || standardInputAllowed else {
      throw ShapingError(
        .invalidArgument, input: "request",
        reason: "no text given (a batch request never reads standard input)")
    }
    if singleParagraph {
      let whole = try TextInput.decode(
        try IO.readAll(path: path), name: path == "-" ? "standard input" : path)
      return .lines(whole.isEmpty ? [] : [whole])
    }
    return .file(path)
  }

  /// All the input lines at once.
  package func lines(positionalText: String?, standardInputAllowed: Bool = true) throws -> [String] {
    switch try input(positionalText: positionalText, standardInputAllowed: standardInputAllowed) {
    case .lines(let lines): return lines
    case .file(let path):
      return try TextInput.lines(
        fromUTF8: IO.readAll(path: path), name: path == "-" ? "standard input" : path)
    }
  }
}
