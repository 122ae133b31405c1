import SwiftShape
import SwiftShapeFonts
import SwiftShapeRequests

/// One run of the `shape` command, checked and ready: its `ShapingRequest` resolved to a font,
/// the lines, and the output settings. Made from the command's options, on the command line or
/// from a batch line.
package struct ShapeJob {
  package var font: ShapingFont
  package var input: LineSource
  /// The longest line to shape, in bytes.
  package var maximumLength: Int
  package var options: ShapeOptions
  package var output: OutputSettings
  package var format: OutputSettings.Format
  /// The fontconfig pattern the font was found by, with `--font`.
  package var pattern: String?
  /// `--glyphs`: each line is glyphs to read, not text to shape.
  package var readsGlyphs = false
  /// How values are read.
  package var persona = Persona.swiftshape

  /// Checks the command's options and loads what they name.
  ///
  /// - Parameters:
  ///   - fonts: loaded fonts to reuse, or nil to load the font afresh.
  ///   - standardInputAllowed: whether a request without text may read standard input.
  ///   - defaultFormat: the format when the options name none (a batch answers in text).
  ///   - note: gets what the user should know (a substitute font).
  ///
  /// The command's persona decides how values are read: as hb-shape reads them, what hb-shape
  /// accepts is accepted, a face index past the last face among it (it shapes with an empty face).
  package init(
    _ command: ShapeSettings, fonts: FontCache?, standardInputAllowed: Bool,
    defaultFormat: OutputSettings.Format? = nil, note: (String) -> Void = { _ in }
  ) throws {
    let persona = command.persona
    let (_, positionalText) = command.positionals()
    try command.output.check(persona: persona)
    format =
      try command.output.format == nil
      ? defaultFormat ?? command.output.resolvedFormat(persona: persona)
      : command.output.resolvedFormat(persona: persona)
    output = command.output
    var request = try command.shapingRequest()
    request.options.includeGlyphNames = !command.output.noGlyphNames
    request.options.includeExtents = command.output.showExtents
    request.options.trace = command.output.trace
    options = request.options
    let resolved = try request.resolveFont(cache: fonts)
    resolved.notes.forEach(note)
    font = resolved.font
    pattern = resolved.pattern
    input = try command.text.input(
      positionalText: positionalText, standardInputAllowed: standardInputAllowed, persona: persona)
    maximumLength = command.text.maximumLength
    readsGlyphs = command.text.glyphs
    self.persona = persona
    if readsGlyphs, persona == .hbShape, !HBShapeRelease.linked.hasGlyphInput {
      throw ShapingError(.invalidArgument, input: "--glyphs", reason: "unknown option")
    }
    if readsGlyphs, options.paragraph != nil {
      throw ShapingError(.invalidArgument, input: "--glyphs", reason: "cannot be combined with --paragraph")
    }
  }

  /// Shapes every line and writes the result to `out`: line by line for the line-oriented formats
  /// (a file or standard input is read as it goes, shaped by `--jobs` threads, and written in
  /// input order), all at once for the JSON document. A failing line stops the request; what it
  /// would have printed is not written.
  ///
  /// - Parameters:
  ///   - compact: write the JSON document on one line (in a batch, one line per request).
  ///   - progress: called now and then with the bytes of a file read and its size.
  package func run(
    to out: some LineShaperOutput, compact: Bool = false,
    progress: ((_ read: Int, _ size: Int) -> Void)? = nil
  ) throws {
    var shaper = LineShaper(
      font: font, options: options,
      format: format == .jsonl || format == .json
        ? .jsonLines
        : .harfBuzz(
          output.hbFormat(format == .hbJSON ? .json : .text), showText: output.showsText,
          showUnicode: output.showsUnicode, showLineNumbers: output.showsLineNumber),
      pattern: pattern, jobs: output.jobs, iterations: output.iterations, maximumLength: maximumLength)
    if readsGlyphs {
      shaper.input = .serializedGlyphs(asHBShape: persona == .hbShape ? HBShapeRelease.linked.version : nil)
    }
    if options.trace, format == .text || format == .hbJSON, HBShapeRelease.linked.tracesToStandardError {
      // As the hb-shape of the engine in use prints them.
      shaper.traceDestination = .standardError
      shaper.jobs = 1
    }
    if format == .json {
      let chunks = try shaper.documentBytes(input, layout: compact ? .compact : .pretty, progress: progress)
      for chunk in chunks { chunk.withUnsafeBufferPointer { out.write($0) } }
      out.write("\n")
    } else {
      try shaper.run(input, to: out, progress: progress)
    }
  }
}

extension ShapingCommandSettings {
  /// The request the font, text-context and shaping options describe, in the typed model every
  /// entry point shares; values read as the persona reads them.
  ///
  /// - Throws: `ShapingError` of kind `.invalidArgument` for a value that does not parse or a font
  ///   given more than one way.
  package func shapingRequest() throws -> ShapingRequest {
    var options = try shaping.shapeOptions()
    (options.textBefore, options.textAfter) = try text.context(persona: persona)
    var font = FontSpecification(
      faceIndex: self.font.faceIndex, options: try self.font.shapingFontOptions(persona: persona),
      strict: self.font.strict,
      // As hb-shape: HarfBuzz's empty face up to HarfBuzz 10.0, an error from 10.1.0 on.
      allowsMissingFace: persona == .hbShape && !HBShapeRelease.linked.refusesMissingFace)
    font.fallbackFiles = self.font.fallbackFiles
    font.usesFallback = !self.font.noFallback
    let positionalFont = positionals().font
    if let pattern = self.font.pattern {
      guard self.font.fontFile == nil, positionalFont == nil else {
        throw ShapingError(
          .invalidArgument, input: "--font",
          reason: "give the font one way only (--font, --font-file or a path)")
      }
      font.source = .pattern(pattern)
    } else if let path = self.font.fontFile ?? positionalFont {
      font.source = .file(path)
    }
    let request = ShapingRequest(font: font, options: options)
    try request.validate(naming: .options)
    return request
  }
}
