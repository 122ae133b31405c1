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
    do {
      try Buffer.withReusable { buffer in try shape(text, options: options, in: buffer, into: &result) }
    } catch let error as HarfBuzzError {
      throw ShapingError(error)
    }
  }

  private func shape(
    _ text: String, options: ShapeOptions, in buffer: Buffer, into result: inout ShapeResult
  ) throws {
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

    // Only made when asked for: variables the handler captured would be boxed on the heap at
    // every call.
    let messages = options.trace || options.verify ? listen(to: buffer, options: options) : nil
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
    buffer.messageHandler = nil
    if options.normalizeGlyphs { buffer.normalizeGlyphs() }
    // Nothing can fail from here on: `result` changes only once shaping has succeeded.
    result.text = text
    result.clusterUnit = options.clusterUnit
    result.trace = options.trace ? messages?.trace ?? [] : nil
    if result.runs.count == 1 {
      fill(&result.runs[0], from: buffer, options: options)
    } else {
      var run = ShapedRun(
        font: identity, unit: unit, scale: scale, direction: .leftToRight, script: .unknown, language: nil,
        glyphs: [])
      fill(&run, from: buffer, options: options)
      result.runs = [run]
    }
  }

  /// Makes `run` the run of the shaped buffer, in place (one access to the run, not one a field).
  private func fill(_ run: inout ShapedRun, from buffer: Buffer, options: ShapeOptions) {
    // The identity holds four strings: left alone when it is the same bytes (the same strings).
    if !run.font.isBitwiseIdentical(to: identity) { run.font = identity }
    run.unit = unit
    run.scale = scale
    run.direction = buffer.direction ?? .leftToRight
    run.script = buffer.script ?? .unknown
    run.language = buffer.language
    fillGlyphs(&run.glyphs, from: buffer, options: options)
  }

  /// Collects HarfBuzz's messages while `buffer` is shaped: trace events and verification errors.
  private func listen(to buffer: Buffer, options: ShapeOptions) -> Messages {
    let messages = Messages()
    buffer.messageHandler = { [unowned buffer] message in
      if message.hasPrefix("buffer verify error: ") {
        messages.verifyErrors.append(String(message.dropFirst("buffer verify error: ".count)))
      } else if options.trace {
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
      names.fill(&glyphs, from: buffer, glyphCount: identity.glyphCount) { font.glyphLabel($0) }
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

/// The bits of a glyph's optional name, to tell a nil one without copying the value.
private struct NameBits: Equatable {
  var low: UInt64
  var high: UInt64

  init(_ name: String?) {
    var name = name
    (low, high) = withUnsafeBytes(of: &name) {
      ($0.load(as: UInt64.self), $0.load(fromByteOffset: 8, as: UInt64.self))
    }
  }

  init(_ bits: UnsafeRawPointer) {
    (low, high) = (
      bits.loadUnaligned(as: UInt64.self), bits.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
    )
  }
}

/// What HarfBuzz reported while one text was shaped (used on the shaping thread only).
private final class Messages {
  var trace: [TraceEvent] = []
  var verifyErrors: [String] = []
}

extension ShapedGlyph {
  /// Replaces `glyphs` with the buffer's glyphs, `finish` giving each what else it needs (a name).
  /// When the array has room for them all, its storage is reused: the glyphs already there are
  /// overwritten field by field (their names and extents cleared), after blanks are appended or
  /// extra glyphs removed. Otherwise the glyphs are made in new storage by `all(in:_:)`.
  static func fill(
    _ glyphs: inout [ShapedGlyph], from buffer: Buffer, _ finish: (inout ShapedGlyph) -> Void = { _ in }
  ) {
    let count = buffer.count
    guard glyphs.capacity >= count else {
      glyphs = all(in: buffer, finish)
      return
    }
    if glyphs.count > count + 4 {
      glyphs.removeLast(glyphs.count - count)
    } else {
      // A few one at a time: removing a range goes through the runtime's generic destruction,
      // which costs more than a few single removals.
      while glyphs.count > count { glyphs.removeLast() }
    }
    if glyphs.count < count { glyphs.append(contentsOf: BlankGlyphs(count: count - glyphs.count)) }
    let nameOffset = MemoryLayout<ShapedGlyph>.offset(of: \.name)!
    let noName = NameBits(nil)
    glyphs.withUnsafeMutableBufferPointer { storage in
      let written = buffer.forEachGlyph { index, record in
        precondition(index < storage.count)
        let glyph = storage.baseAddress! + index
        // A name is let go only when there is one: clearing one that is nil still calls the
        // runtime's release (twice), which costs more than this comparison of its bits.
        if NameBits(UnsafeRawPointer(glyph) + nameOffset) != noName { glyph.pointee.name = nil }
        glyph.pointee.extents = nil
        set(glyph, to: record)
        finish(&glyph.pointee)
      }
      precondition(written == storage.count)
    }
  }

  /// The buffer's glyphs, `finish` giving each what else it needs (a name), made in new storage
  /// without a copy of a glyph value each: each starts as the bytes of a glyph that holds no
  /// reference (no name, no extents), then takes the record's values. (Built as values and moved
  /// in, glyphs were copied and destroyed through out-of-line value operations, as the compiler
  /// does for a type this large: a twentieth of the time of shaping a short line.)
  private static func all(in buffer: Buffer, _ finish: (inout ShapedGlyph) -> Void) -> [ShapedGlyph] {
    var blank = ShapedGlyph(id: 0, cluster: 0, xAdvance: 0)
    return withUnsafeBytes(of: &blank) { blank in
      [ShapedGlyph](unsafeUninitializedCapacity: buffer.count) { storage, initialized in
        initialized = buffer.forEachGlyph { index, record in
          precondition(index < storage.count)
          let glyph = storage.baseAddress! + index
          UnsafeMutableRawPointer(glyph).copyMemory(from: blank.baseAddress!, byteCount: blank.count)
          set(glyph, to: record)
          finish(&glyph.pointee)
        }
      }
    }
  }

  /// Sets what HarfBuzz gives of a glyph, in place.
  @inline(__always)
  private static func set(_ glyph: UnsafeMutablePointer<ShapedGlyph>, to record: GlyphRecord) {
    glyph.pointee.id = record.glyph
    glyph.pointee.cluster = Int(record.cluster)
    glyph.pointee.xAdvance = record.xAdvance
    glyph.pointee.yAdvance = record.yAdvance
    glyph.pointee.xOffset = record.xOffset
    glyph.pointee.yOffset = record.yOffset
    glyph.pointee.flags = record.flags
  }
}
