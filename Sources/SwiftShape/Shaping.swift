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
    do {
      return try Buffer.withReusable { buffer in try shape(text, options: options, in: buffer) }
    } catch let error as HarfBuzzError {
      throw ShapingError(error)
    }
  }

  private func shape(_ text: String, options: ShapeOptions, in buffer: Buffer) throws -> ShapeResult {
    add(text, to: buffer, options: options)
    if let direction = options.direction { buffer.direction = direction }
    if let script = options.script { buffer.script = script }
    if let language = options.language { buffer.language = language }
    if !options.bufferFlags.isEmpty { buffer.flags = options.bufferFlags }
    if options.clusterLevel != .monotoneGraphemes { buffer.clusterLevel = options.clusterLevel }
    if options.invisibleGlyph != 0 { buffer.invisibleGlyph = options.invisibleGlyph }
    if options.notFoundGlyph != 0 { buffer.notFoundGlyph = options.notFoundGlyph }
    if options.verify { buffer.flags.insert(.verify) }
    buffer.guessSegmentProperties()

    var trace: [TraceEvent] = []
    var verifyErrors: [String] = []
    if options.trace || options.verify {
      buffer.messageHandler = { [unowned buffer] message in
        if message.hasPrefix("buffer verify error: ") {
          verifyErrors.append(String(message.dropFirst("buffer verify error: ".count)))
        } else if options.trace {
          if buffer.contentType == .glyphs {
            trace.append(
              TraceEvent(
                message: message, glyphs: self.glyphs(of: buffer, options: options),
                hasPositions: buffer.hasPositions))
          } else {
            let codePoints = buffer.glyphs {
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
    let glyphs = self.glyphs(of: buffer, options: options)
    let run = ShapedRun(
      font: identity, unit: unit, scale: scale,
      direction: buffer.direction ?? .leftToRight, script: buffer.script ?? .unknown,
      language: buffer.language, glyphs: glyphs)
    return ShapeResult(
      text: text, clusterUnit: options.clusterUnit, runs: [run], trace: options.trace ? trace : nil)
  }

  /// The buffer's glyphs as shaped glyphs, with names and extents when the options ask.
  private func glyphs(of buffer: Buffer, options: ShapeOptions) -> [ShapedGlyph] {
    var glyphs: [ShapedGlyph]
    if options.includeGlyphNames {
      glyphs = names.glyphs(of: buffer, glyphCount: identity.glyphCount) { font.glyphLabel($0) }
    } else {
      glyphs = ShapedGlyph.all(in: buffer)
    }
    if options.includeExtents {
      for index in glyphs.indices { glyphs[index].extents = font.glyphExtents(glyphs[index].id) }
    }
    return glyphs
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
  /// the item (so clusters start at 0), then the context after; clusters then count what the
  /// options' cluster unit counts (hb-shape adds UTF-8 and renumbers by character the same way).
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
    case .unicodeScalars, .utf8:
      func addUTF8(_ string: String, item: (Int) -> Range<Int>) {
        var string = string
        string.withUTF8 { buffer.add(utf8: $0, item: item($0.count)) }
      }
      if !options.textBefore.isEmpty { addUTF8(options.textBefore) { $0..<$0 } }
      addUTF8(text) { 0..<$0 }
      if !options.textAfter.isEmpty { addUTF8(options.textAfter) { _ in 0..<0 } }
      if options.clusterUnit == .unicodeScalars { buffer.numberClustersByItem() }
    case .utf16:
      addUnits({ Array($0.utf16) }, { $0.add(utf16: $1, item: $2) })
    }
  }
}

extension ShapedGlyph {
  /// The buffer's glyphs, `finish` giving each what else it needs (a name), made in the array's
  /// storage without a copy of a glyph value each: each starts as the bytes of a glyph that holds no
  /// reference (no name, no extents), then takes the record's values. (Built as values and moved
  /// in, glyphs were copied and destroyed through out-of-line value operations, as the compiler
  /// does for a type this large: a twentieth of the time of shaping a short line.)
  static func all(in buffer: Buffer, _ finish: (inout ShapedGlyph) -> Void = { _ in }) -> [ShapedGlyph] {
    var blank = ShapedGlyph(id: 0, cluster: 0, xAdvance: 0)
    return withUnsafeBytes(of: &blank) { blank in
      [ShapedGlyph](unsafeUninitializedCapacity: buffer.count) { storage, initialized in
        initialized = buffer.forEachGlyph { index, record in
          precondition(index < storage.count)
          let glyph = storage.baseAddress! + index
          UnsafeMutableRawPointer(glyph).copyMemory(from: blank.baseAddress!, byteCount: blank.count)
          glyph.pointee.id = record.glyph
          glyph.pointee.cluster = Int(record.cluster)
          glyph.pointee.xAdvance = record.xAdvance
          glyph.pointee.yAdvance = record.yAdvance
          glyph.pointee.xOffset = record.xOffset
          glyph.pointee.yOffset = record.yOffset
          glyph.pointee.flags = record.flags
          finish(&glyph.pointee)
        }
      }
    }
  }
}
