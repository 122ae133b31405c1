import HarfBuzz
import SwiftShape
import SwiftShapeFonts

/// One shaping request, checked and ready: the font, the lines, the options and the output
/// settings. Made from the `shape` command's options, on the command line or from a batch line.
struct ShapeRequest {
  var font: ShapingFont
  var lines: [String]
  var options: ShapeOptions
  var output: OutputOptions
  var format: OutputOptions.Format
  /// The fontconfig pattern the font was found by, with `--font`.
  var pattern: String?

  /// Checks the command's options and loads what they name.
  ///
  /// - Parameters:
  ///   - fonts: loaded fonts to reuse, or nil to load the font afresh.
  ///   - standardInputAllowed: whether a request without text may read standard input.
  ///   - defaultFormat: the format when the options name none (a batch answers in text).
  ///   - lenient: accept what hb-shape accepts although SwiftShape refuses it by default: a face
  ///     index past the last face shapes with an empty face.
  init(
    _ command: SwiftShapeCommand.Shape, fonts: FontCache?, standardInputAllowed: Bool,
    defaultFormat: OutputOptions.Format? = nil, lenient: Bool = Persona.current == .hbShape
  ) throws {
    let (positionalFont, positionalText) = command.positionals()
    try command.output.check()
    format =
      try command.output.format == nil
      ? defaultFormat ?? command.output.resolvedFormat() : command.output.resolvedFormat()
    output = command.output
    var options = try command.shaping.shapeOptions()
    (options.textBefore, options.textAfter) = try command.text.context()
    options.includeGlyphNames = !command.output.noGlyphNames
    options.includeExtents = command.output.showExtents
    options.trace = command.output.trace
    self.options = options
    var fontOptions = try command.font.shapingFontOptions()
    var faceIndex = command.font.faceIndex ?? 0
    var fontPath = positionalFont
    if let pattern = command.font.pattern {
      guard command.font.fontFile == nil, fontPath == nil else {
        throw ShapingError(
          .invalidArgument, input: "--font",
          reason: "give the font one way only (--font, --font-file or a path)")
      }
      guard command.font.faceIndex == nil else {
        throw ShapingError(
          .invalidArgument, input: "--face-index",
          reason: "the face comes from the pattern's match with --font")
      }
      let match = try FontLocator.match(pattern)
      if match.isSubstitute {
        let message = "'\(pattern)' is not installed; fontconfig substitutes \(match.family) (\(match.file))"
        if command.font.strict {
          throw ShapingError(
            .badFont, input: "--font '\(pattern)'",
            reason: "no such family installed (--strict); fontconfig would substitute \(match.family)")
        }
        Diagnostics.printNote(message)
      }
      fontPath = match.file
      faceIndex = match.faceIndex
      if let instance = match.namedInstance {
        fontOptions.variations =
          try FontLocator.variations(ofInstance: instance, file: match.file, faceIndex: match.faceIndex)
          + fontOptions.variations
      }
      self.pattern = pattern
    }
    if let path = command.font.fontFile ?? fontPath {
      font =
        try fonts?.font(file: path, faceIndex: faceIndex, options: fontOptions, allowingMissingFace: lenient)
        ?? ShapingFont(file: path, faceIndex: faceIndex, options: fontOptions, allowingMissingFace: lenient)
    } else {
      guard faceIndex == 0 else {
        throw ShapingError(
          .invalidArgument, input: "--face-index=\(faceIndex)",
          reason: "the built-in font has one face (index 0)")
      }
      font = try ShapingFont.defaultFont(options: fontOptions)
    }
    lines = try command.text.lines(positionalText: positionalText, standardInputAllowed: standardInputAllowed)
  }

  /// Shapes every line and writes the result to `out`: line by line for the line-oriented formats,
  /// all at once for the JSON document. A failing line stops the request; what it would have
  /// printed is not written.
  ///
  /// - Parameter compact: write the JSON document on one line (in a batch, one line per request).
  func run(to out: Output, compact: Bool = false) throws {
    switch format {
    case .json:
      let entries = try lines.enumerated().map { index, line in
        ShapeDocument.Entry(line: index + 1, result: try shape(line))
      }
      var document = ShapeDocument(font: font, options: options, entries: entries)
      document.pattern = pattern
      out.write(document.json(compact ? .compact : .pretty) + "\n")
    case .jsonl:
      for (index, line) in lines.enumerated() {
        let entry = ShapeDocument.Entry(line: index + 1, result: try shape(line))
        var document = ShapeDocument(font: font, options: options, entries: [entry])
        document.pattern = pattern
        out.write(document.json(.compact) + "\n")
      }
    case .text, .hbJSON:
      let format = output.hbFormat(self.format == .text ? .text : .json)
      for (index, line) in lines.enumerated() {
        out.write(try hbLines(for: line, number: index + 1, format: format))
      }
    }
  }

  /// Shapes a line as many times as `--num-iterations` asks; the last result counts.
  private func shape(_ line: String) throws -> ShapeResult {
    var result = try font.shape(line, options: options)
    for _ in 1..<output.iterations { result = try font.shape(line, options: options) }
    return result
  }

  /// hb-shape's output for one line: the text and code points when asked, the trace, the glyphs.
  private func hbLines(for line: String, number: Int, format: HBFormat) throws -> String {
    let prefix = output.showsLineNumber ? "\(number): " : ""
    var text = ""
    var results: [ShapeResult] = []
    for _ in 0..<output.iterations { results.append(try font.shape(line, options: options)) }
    let result = results[results.count - 1]
    if output.showsText { text += "\(prefix)(\(line))\n" }
    if output.showsUnicode { text += prefix + HBFormat.unicodeLine(for: result) + "\n" }
    for trace in results.compactMap(\.trace) {
      for event in trace {
        text += "\(prefix)trace: \(event.message)\tbuffer: "
        text += format.line(for: event) + "\n"
      }
    }
    text += prefix + format.line(for: result) + "\n"
    return text
  }
}
