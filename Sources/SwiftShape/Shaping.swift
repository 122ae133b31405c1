import HarfBuzz

extension ShapingFont {
  /// Shapes a string.
  ///
  /// - Parameters:
  ///   - text: the text; it is shaped as one piece (split lines yourself, as the CLI does).
  ///   - options: direction, script, language, features, cluster unit and what to include.
  /// - Returns: the glyphs with their clusters and positions in `unit`.
  /// - Throws: `ShapingError` of kind `.internalFailure` when HarfBuzz cannot allocate or no
  ///   requested shaper could shape the text.
  ///
  /// ```swift
  /// var options = ShapeOptions(features: [try Feature(parsing: "-liga")])
  /// options.clusterUnit = .utf16
  /// let result = try font.shape("office", options: options)
  /// ```
  public func shape(_ text: String, options: ShapeOptions = ShapeOptions()) throws -> ShapeResult {
    let buffer: Buffer
    do {
      buffer = try Buffer()
    } catch let error as HarfBuzzError {
      throw ShapingError(error)
    }
    add(text, to: buffer, options: options)
    buffer.direction = options.direction
    buffer.script = options.script
    buffer.language = options.language
    buffer.flags = options.bufferFlags
    buffer.clusterLevel = options.clusterLevel
    buffer.invisibleGlyph = options.invisibleGlyph
    buffer.notFoundGlyph = options.notFoundGlyph
    if options.verify { buffer.flags.insert(.verify) }
    buffer.guessSegmentProperties()

    var names: [UInt32: String] = [:]
    func shapedGlyphs(_ records: [GlyphRecord]) -> [ShapedGlyph] {
      records.map { record in
        var name: String?
        if options.includeGlyphNames {
          if let known = names[record.glyph] {
            name = known
          } else {
            name = font.glyphLabel(record.glyph)
            names[record.glyph] = name
          }
        }
        return ShapedGlyph(
          id: record.glyph, name: name, cluster: Int(record.cluster), xAdvance: record.xAdvance,
          yAdvance: record.yAdvance, xOffset: record.xOffset, yOffset: record.yOffset,
          flags: record.flags, extents: options.includeExtents ? font.glyphExtents(record.glyph) : nil)
      }
    }

    var trace: [TraceEvent] = []
    var verifyErrors: [String] = []
    if options.trace || options.verify {
      buffer.messageHandler = { [unowned buffer] message in
        if message.hasPrefix("buffer verify error: ") {
          verifyErrors.append(String(message.dropFirst("buffer verify error: ".count)))
        } else if options.trace {
          let records = buffer.glyphs()
          if buffer.contentType == .glyphs {
            trace.append(
              TraceEvent(message: message, glyphs: shapedGlyphs(records), hasPositions: buffer.hasPositions))
          } else {
            let codePoints = records.map {
              ShapedGlyph(id: $0.glyph, cluster: Int($0.cluster), xAdvance: 0, flags: $0.flags)
            }
            trace.append(
              TraceEvent(message: message, glyphs: codePoints, hasPositions: false, holdsCodePoints: true))
          }
        }
        return true
      }
    }
    do {
      try font.shape(buffer, features: options.features, shapers: options.shapers)
    } catch let error as HarfBuzzError {
      let checks = verifyErrors.filter { !$0.hasPrefix("text was:") }.map {
        $0.hasSuffix(".") ? String($0.dropLast()) : $0
      }
      if !checks.isEmpty {
        throw ShapingError(
          .verificationFailed, input: text, reason: "verification failed: \(checks.joined(separator: "; "))")
      }
      throw ShapingError(error)
    }
    buffer.messageHandler = nil
    if options.normalizeGlyphs { buffer.normalizeGlyphs() }
    let glyphs = shapedGlyphs(buffer.glyphs())
    let scale = font.scale
    let run = ShapedRun(
      font: identity, unit: unit, scale: Scale(x: scale.x, y: scale.y),
      direction: buffer.direction ?? .leftToRight, script: buffer.script ?? .unknown,
      language: buffer.language, glyphs: glyphs)
    return ShapeResult(
      text: text, clusterUnit: options.clusterUnit, runs: [run], trace: options.trace ? trace : nil)
  }

  /// Shapes a sequence of Unicode scalars (as `-u U+0061,U+0301` gives them).
  public func shape(
    scalars: some Sequence<Unicode.Scalar>, options: ShapeOptions = ShapeOptions()
  ) throws -> ShapeResult {
    var view = String.UnicodeScalarView()
    view.append(contentsOf: scalars)
    return try shape(String(view), options: options)
  }

  /// Adds the text with its context the way hb-shape does: the context before, then the text as
  /// the item (so clusters start at 0), then the context after; each in the encoding whose unit
  /// the clusters are to count.
  private func add(_ text: String, to buffer: Buffer, options: ShapeOptions) {
    func addUnits<Unit>(
      _ units: (String) -> [Unit], _ add: (Buffer, UnsafeBufferPointer<Unit>, Range<Int>) -> Void
    ) {
      if !options.textBefore.isEmpty {
        let before = units(options.textBefore)
        before.withUnsafeBufferPointer { add(buffer, $0, before.count..<before.count) }
      }
      let item = units(text)
      item.withUnsafeBufferPointer { add(buffer, $0, 0..<item.count) }
      if !options.textAfter.isEmpty {
        units(options.textAfter).withUnsafeBufferPointer { add(buffer, $0, 0..<0) }
      }
    }
    switch options.clusterUnit {
    case .unicodeScalars:
      addUnits({ $0.unicodeScalars.map(\.value) }, { $0.add(utf32: $1, item: $2) })
    case .utf8:
      addUnits({ Array($0.utf8) }, { $0.add(utf8: $1, item: $2) })
    case .utf16:
      addUnits({ Array($0.utf16) }, { $0.add(utf16: $1, item: $2) })
    }
  }
}
