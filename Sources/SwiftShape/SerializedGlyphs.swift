import HarfBuzz

extension ShapingFont {
  /// Glyphs written in hb-shape's text syntax (`[o=0+605|f_f_i=1+946]`, or `o|f_f_i|c`), read onto
  /// this font as hb-shape's `--glyphs` reads them, into `result`: nothing is shaped. Glyphs
  /// written without positions get the font's advances; positions written are font units, scaled
  /// to the font's size. The options' direction, script, language and buffer settings apply as to
  /// shaping; features, shapers and paragraphs do not (nothing is shaped).
  ///
  /// Reading stops at the first glyph it cannot read, as hb-shape's does: the glyphs before it are
  /// the result.
  ///
  /// - Parameters:
  ///   - text: the glyphs.
  ///   - options: the direction, script, language and buffer settings.
  ///   - asHBShape: read the text exactly as the hb-shape of this release does (its brackets and
  ///     its arithmetic: `PositionScaling`); by default a list without its opening bracket gets one
  ///     (HarfBuzz 6 reads nothing without it) and positions are scaled exactly.
  ///   - result: where the glyphs go, its storage reused.
  /// - Throws: `ShapingError` of kind `.internalFailure` when HarfBuzz cannot allocate a buffer.
  public func readGlyphs(
    _ text: String, options: ShapeOptions = ShapeOptions(), asHBShape: EngineVersion? = nil,
    into result: inout ShapeResult
  ) throws {
    let release = asHBShape
    let text = release != nil || text.isEmpty || text.hasPrefix("[") ? text : "[" + text
    let arithmetic: PositionScaling =
      release.map { $0 >= EngineVersion(11, 0, 1) ? .int : .intOverUnsigned } ?? .exact
    do {
      try Buffer.withReusable { buffer in
        if let direction = options.direction { buffer.direction = direction }
        if let script = options.script { buffer.script = script }
        if let language = options.language { buffer.language = language }
        if !options.bufferFlags.isEmpty { buffer.flags = options.bufferFlags }
        if options.clusterLevel != .monotoneGraphemes { buffer.clusterLevel = options.clusterLevel }
        // The empty buffer's properties are guessed before the glyphs come, as hb-shape's are.
        buffer.guessSegmentProperties()
        buffer.addSerializedGlyphs(text, font: font, arithmetic: arithmetic)
        fillResult(&result, text: text, from: buffer, options: options, trace: [])
      }
    } catch let error as HarfBuzzError {
      throw ShapingError(error)
    }
  }
}
