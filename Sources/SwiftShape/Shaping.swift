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
    var result = ShapeResult()
    try shape(text, options: options, into: &result)
    return result
  }

  /// Shapes a string into `result`, reusing its storage: the same result as `shape(_:options:)`,
  /// without allocating when `result` came from an earlier call with as many glyphs or more (and
  /// no copy of it is held elsewhere). For loops that shape many strings one after another:
  ///
  /// ```swift
  /// var result = ShapeResult()
  /// for line in lines {
  ///   try font.shape(line, into: &result)
  ///   total += result.runs[0].advance.x
  /// }
  /// ```
  ///
  /// - Throws: what `shape(_:options:)` throws; `result` is then left as it was.
  public func shape(_ text: String, options: ShapeOptions = ShapeOptions(), into result: inout ShapeResult)
    throws
  {
    if options.readsMarkup {
      let markup = try MarkupText(parsing: text, unit: options.clusterUnit, family: identity.family)
      var options = options
      options.readsMarkup = false
      options.spans += markup.spans
      options.paragraph = options.paragraph ?? .auto
      try shape(markup.text, options: options, into: &result)
      return
    }
    if let base = options.paragraph ?? (options.spans.isEmpty ? nil : .auto) {
      guard let width = options.lineWidth else {
        try shapeParagraph(text, options: options, base: base, into: &result)
        return
      }
      // Kashida's places are flagged as the paragraph is shaped (and its lines' edges shaped
      // again); the flag is taken off after, unless asked for (`Kashida.flagsPlaces`).
      let flagsPlaces = Kashida.flagsPlaces(text, options: options)
      var lineOptions = options
      if flagsPlaces { lineOptions.bufferFlags.insert(.produceSafeToInsertTatweel) }
      try shapeParagraph(text, options: lineOptions, base: base, into: &result)
      try breakLines(&result, options: lineOptions, width: width, removingTatweelFlags: flagsPlaces)
      return
    }
    do {
      if options.cacheable, try shapeCached(text, options: options, into: &result) { return }
      try Buffer.withReusable { buffer in
        try shape(text, options: options, in: buffer, into: &result)
      }
    } catch let error as HarfBuzzError {
      throw ShapingError(error)
    }
  }

  /// Shapes `text`, with the options' context, with `buffer`.
  ///
  /// (Without a closure that adds the text: one that captures the options copies them, retaining
  /// and releasing their arrays and strings, at each call: 245 instructions a line of the
  /// Devanagari word list, callgrind, 0.7% of its time, perf stat.)
  func shape(_ text: String, options: ShapeOptions, in buffer: Buffer, into result: inout ShapeResult) throws
  {
    add(text, to: buffer, options: options)
    try shapeAdded(text, options: options, in: buffer, into: &result)
  }

  /// Shapes `text` with `buffer`, which `addText` fills with it (and its context).
  func shape(
    _ text: String, options: ShapeOptions, in buffer: Buffer, into result: inout ShapeResult,
    adding addText: (Buffer) -> Void
  ) throws {
    addText(buffer)
    try shapeAdded(text, options: options, in: buffer, into: &result)
  }

  /// Shapes `text` with `buffer`, which holds it.
  private func shapeAdded(
    _ text: String, options: ShapeOptions, in buffer: Buffer, into result: inout ShapeResult
  ) throws {
    if let direction = options.direction { buffer.direction = direction }
    if let script = options.script { buffer.script = script }
    if let language = options.language { buffer.language = language }
    if !options.bufferFlags.isEmpty { buffer.flags = options.bufferFlags }
    if options.clusterLevel != .monotoneGraphemes { buffer.clusterLevel = options.clusterLevel }
    if options.invisibleGlyph != 0 { buffer.invisibleGlyph = options.invisibleGlyph }
    if options.notFoundGlyph != 0 { buffer.notFoundGlyph = options.notFoundGlyph }
    if let glyph = options.notFoundVariationSelectorGlyph, !buffer.setNotFoundVariationSelectorGlyph(glyph) {
      throw ShapingError(
        .invalidArgument, input: "not-found variation selector glyph",
        reason: EngineFeature.notFoundVariationSelectorGlyph.unavailableReason)
    }
    if options.verify { buffer.flags.insert(.verify) }
    buffer.guessSegmentProperties()

    // Only made when asked for: variables the handler captured would be boxed on the heap at
    // every call.
    let messages = options.trace || options.verify ? listen(to: buffer, options: options) : nil
    // (Taken off the reusable buffer however shaping ends; set only when listening.)
    defer { if messages != nil { buffer.messageHandler = nil } }
    do {
      try font.shape(buffer, features: options.features, shapers: options.shapers)
    } catch let error as HarfBuzzError {
      let checks = (messages?.verifyErrors ?? []).filter { !$0.hasPrefix("text was:") }.map {
        $0.hasSuffix(".") ? String($0.dropLast()) : $0
      }
      if !checks.isEmpty {
        throw ShapingError(
          .verificationFailed, input: text, reason: "verification failed: \(checks.joined(separator: "; "))")
      }
      throw ShapingError(error)
    }
    if let messages, messages.traceOverflowed {
      throw ShapingError(
        .invalidArgument, input: "the trace",
        reason:
          "its steps hold more than \(messages.traceGlyphLimit) glyphs for this text (hb-shape writes them as "
          + "it goes; SwiftShape keeps them with the result): trace a shorter text")
    }
    if options.normalizeGlyphs { buffer.normalizeGlyphs() }
    // Nothing can fail from here on: `result` changes only once shaping has succeeded.
    fillResult(&result, text: text, from: buffer, options: options, trace: messages?.trace ?? [])
  }

  /// Makes `result` the one run of the buffer's glyphs for `text`, reusing its storage.
  func fillResult(
    _ result: inout ShapeResult, text: String, from buffer: Buffer, options: ShapeOptions, trace: [TraceEvent]
  ) {
    prepareOneRun(&result, text: text, options: options)
    result.trace = options.trace ? trace : nil
    fill(&result.runs[0], from: buffer, options: options)
  }

  /// Makes `result` a result of one run for `text` (its run's fields are the caller's to set),
  /// keeping its storage.
  func prepareOneRun(_ result: inout ShapeResult, text: String, options: ShapeOptions) {
    result.text = text
    result.clusterUnit = options.clusterUnit
    result.baseLevel = nil
    if !result.missingCharacters.isEmpty { result.missingCharacters = [] }
    if result.lines != nil {
      result.lines = nil
      result.reshapedEdges = 0
    }
    result.trace = nil
    if result.runs.count != 1 {
      result.runs = [
        ShapedRun(
          font: identity, unit: unit, scale: scale, direction: .leftToRight, script: .unknown, language: nil,
          glyphs: [])
      ]
    }
  }

  /// Makes `run` the run of the shaped buffer, in place (one access to the run, not one a field).
  private func fill(_ run: inout ShapedRun, from buffer: Buffer, options: ShapeOptions) {
    // The identity holds four strings: left alone when equal (a reused result holds the same
    // strings, which compare equal by their storage, without reading their characters), so
    // that assigning does not retain and release each.
    if run.font != identity { run.font = identity }
    run.unit = unit
    run.scale = scale
    run.direction = buffer.direction ?? .leftToRight
    run.script = buffer.script ?? .unknown
    run.language = buffer.language
    run.level = nil
    run.range = nil
    run.glyphs.withArray { fillGlyphs(&$0, from: buffer, options: options) }
  }

  /// Collects HarfBuzz's messages while `buffer` is shaped: trace events and verification errors.
  private func listen(to buffer: Buffer, options: ShapeOptions) -> Messages {
    let messages = Messages()
    buffer.messageHandler = { [unowned buffer] message in
      if message.hasPrefix("buffer verify error: ") {
        messages.verifyErrors.append(String(message.dropFirst("buffer verify error: ".count)))
      } else if options.trace, !messages.traceOverflowed {
        // The steps are kept with the result, each with the buffer's glyphs: bounded, so that a
        // long text's trace is an error rather than the process's memory (a line of 41,000
        // characters of English: 43,890 steps of about 40,000 glyphs each).
        messages.traceGlyphs += buffer.count
        if messages.traceGlyphs > messages.traceGlyphLimit {
          messages.traceOverflowed = true
          messages.trace = []
          return true
        }
        if buffer.contentType == .glyphs {
          messages.trace.append(
            TraceEvent(
              message: message, glyphs: self.glyphs(of: buffer, options: options),
              hasPositions: buffer.hasPositions))
        } else {
          let codePoints = buffer.glyphs {
            ShapedGlyph(id: $0.glyph, cluster: Int($0.cluster), xAdvance: 0, flags: $0.flags)
          }
          messages.trace.append(
            TraceEvent(message: message, glyphs: codePoints, hasPositions: false, holdsCodePoints: true))
        }
      }
      return true
    }
    return messages
  }

  /// The buffer's glyphs as shaped glyphs, with names and extents when the options ask.
  private func glyphs(of buffer: Buffer, options: ShapeOptions) -> [ShapedGlyph] {
    var glyphs: [ShapedGlyph] = []
    fillGlyphs(&glyphs, from: buffer, options: options)
    return glyphs
  }

  /// Replaces `glyphs` with the buffer's glyphs, reusing the array's storage where it can.
  private func fillGlyphs(_ glyphs: inout [ShapedGlyph], from buffer: Buffer, options: ShapeOptions) {
    if options.includeGlyphNames {
      names.fill(&glyphs, from: buffer, font: font)
    } else {
      ShapedGlyph.fill(&glyphs, from: buffer)
    }
    if options.includeExtents {
      for index in glyphs.indices { glyphs[index].extents = font.glyphExtents(glyphs[index].id) }
    }
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
  func add(_ text: String, to buffer: Buffer, options: ShapeOptions) {
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
        // In place when the string's UTF-8 is contiguous (native strings): no copy of the string
        // (a retain and a release of its storage) as `withUTF8` needs.
        let added: Void? = string.utf8.withContiguousStorageIfAvailable {
          buffer.add(utf8: $0, item: item($0.count))
        }
        if added == nil {
          var string = string
          string.withUTF8 { buffer.add(utf8: $0, item: item($0.count)) }
        }
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

/// Blank glyphs (no name, no extents) to append in one call. (Appending `repeatElement` of a
/// blank, or blanks one at a time, which the compiler turns into the same, took a generic path
/// several times slower.)
private struct BlankGlyphs: RandomAccessCollection {
  let count: Int
  var startIndex: Int { 0 }
  var endIndex: Int { count }
  subscript(position: Int) -> ShapedGlyph { ShapedGlyph(id: 0, cluster: 0, xAdvance: 0) }
}

/// What HarfBuzz reported while one text was shaped (used on the shaping thread only).
private final class Messages {
  var trace: [TraceEvent] = []
  var verifyErrors: [String] = []
  /// The glyphs the trace's steps hold, and whether they passed `traceGlyphLimit`.
  var traceGlyphs = 0
  var traceOverflowed = false
  /// The most glyphs a text's trace may hold over its steps (`TraceLimit.glyphs`).
  let traceGlyphLimit = TraceLimit.glyphs
}

/// The most glyphs a text's trace may hold over its steps: 16,777,216, about 1 GB (the Persian
/// benchmark text's longest line, 1,606 characters, takes 4.5 million in Amiri on HarfBuzz
/// 6.0.0). A task-local value, so that a test may lower it for its own shaping alone.
package enum TraceLimit {
  @TaskLocal package static var glyphs = 1 << 24
}

extension ShapedGlyph {
  /// Replaces `glyphs` with the buffer's glyphs, `finish` giving each what else it needs (a name).
  /// When the array has room for them all, its storage is reused: blanks are appended or extra
  /// glyphs removed, then each glyph is overwritten. (A glyph holds no counted reference, so none
  /// of this calls into the runtime for each glyph.)
  static func fill(
    _ glyphs: inout [ShapedGlyph], from buffer: Buffer, _ finish: (inout ShapedGlyph) -> Void = { _ in }
  ) {
    let count = buffer.count
    guard glyphs.capacity >= count else {
      glyphs = [ShapedGlyph](capacity: count) { storage in
        write(buffer, to: storage, finish)
      }
      return
    }
    if glyphs.count > count {
      glyphs.removeLast(glyphs.count - count)
    } else if glyphs.count < count {
      glyphs.append(contentsOf: BlankGlyphs(count: count - glyphs.count))
    }
    glyphs.withUnsafeMutableBufferPointer { storage in
      let written = write(buffer, to: storage, finish)
      precondition(written == storage.count)
    }
  }

  /// Writes the buffer's glyphs to `storage` (initialized or not: a glyph is plain bytes), and
  /// returns how many there are.
  @inline(__always)
  private static func write(
    _ buffer: Buffer, to storage: UnsafeMutableBufferPointer<ShapedGlyph>,
    _ finish: (inout ShapedGlyph) -> Void
  ) -> Int {
    buffer.forEachGlyph { index, record in
      precondition(index < storage.count)
      let glyph = storage.baseAddress! + index
      glyph.initialize(to: ShapedGlyph(record))
      finish(&glyph.pointee)
    }
  }
}
