import HarfBuzz

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Speed: the shaping cache's pieces made and read (see ShapingCache.swift): the pieces a line did
// not find shaped together and each made with its glyphs, and a line's result made from its
// pieces' glyphs (`shapeCached`, CachedShaping.swift).

extension ShapingFont {
  private typealias Piece = ThreadCache.Piece

  private static let blankGlyph = ShapedGlyph(id: 0, cluster: 0, xAdvance: 0)

  /// Shapes the batch's pieces (`texts`, in the line's order) together, as the plain path shapes
  /// a text, with the line's direction, script and language and the text's edges where the first
  /// and last pieces have them; makes each piece with its glyphs (`shaped`), their clusters from
  /// the piece's start in the options' unit, and its edges as the cache keeps them (`edges`).
  func shapePieces(
    _ batch: inout ThreadCache.Batch, options: ShapeOptions, properties: (Direction, Script, Language?),
    atStart: Bool, atEnd: Bool, scratch shaped: inout ShapeResult
  ) throws {
    var runOptions = options
    (runOptions.direction, runOptions.script, runOptions.language) = properties
    // (Names and extents are not kept in pieces: filled in as their glyphs are copied out.)
    (runOptions.includeGlyphNames, runOptions.includeExtents) = (false, false)
    if !atStart { runOptions.bufferFlags.remove(.beginningOfText) }
    if !atEnd { runOptions.bufferFlags.remove(.endOfText) }
    // (The batch's storage, lent and given back: made anew, three arrays a batch.)
    var run = batch.bytes
    var starts = batch.starts
    var made = batch.shaped
    (batch.bytes, batch.starts, batch.shaped) = ([], [], [])
    defer { (batch.bytes, batch.starts, batch.shaped) = (run, starts, made) }
    made.removeAllKeepingCapacity()
    let (pieces, edges) = (batch.texts, batch.edges)
    for piece in pieces {
      starts.append(run.count)
      run.append(contentsOf: piece)
    }
    starts.append(run.count)
    try run.withUnsafeBufferPointer { run in
      try Buffer.withReusable { buffer in
        try shape("", options: runOptions, in: buffer, into: &shaped) { $0.add(utf8: run) }
      }
    }
    // The glyphs of each piece, in the order they come (clusters are UTF-8 offsets in the run),
    // written into the piece made at its size: which piece each glyph is in, then the glyphs
    // grouped by piece. (Grown by appending, a piece's array was allocated again three or four
    // times, and a tenth of a pass's time went to `malloc`, `free` and the counts of references
    // around them: perf.)
    let units =
      options.clusterUnit == .utf8
      ? [] : run.withUnsafeBufferPointer { Self.unitOffsets($0, options.clusterUnit) }
    shaped.runs[0].glyphs.withUnsafeBufferPointer { glyphs in
      withUnsafeTemporaryAllocation(of: Int32.self, capacity: glyphs.count * 2 + pieces.count + 1) {
        temporary in
        let pieceOf = UnsafeMutableBufferPointer(rebasing: temporary[0..<glyphs.count])
        let order = UnsafeMutableBufferPointer(rebasing: temporary[glyphs.count..<(glyphs.count * 2)])
        let firsts = UnsafeMutableBufferPointer(rebasing: temporary[(glyphs.count * 2)...])
        firsts.initialize(repeating: 0)
        var piece = 0
        for (index, glyph) in glyphs.enumerated() {
          let byte = glyph.cluster
          while piece > 0, byte < starts[piece] { piece -= 1 }
          while piece + 1 < pieces.count, byte >= starts[piece + 1] { piece += 1 }
          pieceOf[index] = Int32(piece)
          firsts[piece + 1] += 1
        }
        for piece in 0..<pieces.count { firsts[piece + 1] += firsts[piece] }
        // (`firsts[piece]` moves on as its glyphs are placed, and ends where the next piece's start.)
        for index in glyphs.indices {
          let piece = Int(pieceOf[index])
          order[Int(firsts[piece])] = Int32(index)
          firsts[piece] += 1
        }
        var first = 0
        for piece in pieces.indices {
          let end = Int(firsts[piece])
          let start = starts[piece]
          made.append(
            Piece.make(text: pieces[piece], edges: edges[piece], glyphCount: end - first) { out in
              for (at, index) in order[first..<end].enumerated() {
                let glyph = glyphs[Int(index)]
                let byte = glyph.cluster
                (out + at).initialize(
                  to: PieceGlyph(
                    glyph, cluster: units.isEmpty ? byte - start : Int(units[byte] - units[start])))
              }
            })
          first = end
        }
      }
    }
  }

  /// For each UTF-8 offset of `bytes` (and its end), the offset in `unit` of the character there.
  static func unitOffsets(_ bytes: UnsafeBufferPointer<UInt8>, _ unit: ClusterUnit) -> [Int32] {
    var offsets = [Int32](filledWith: 0, count: bytes.count + 1)
    var count: Int32 = 0
    for (index, byte) in bytes.enumerated() {
      offsets[index] = count
      guard byte & 0xC0 != 0x80 else { continue }
      count += unit == .utf16 && byte >= 0xF0 ? 2 : 1
    }
    offsets[bytes.count] = count
    return offsets
  }

  /// Makes `result` the one run of the pieces' glyphs joined: in their order left to right, in
  /// reverse order right to left, each piece's clusters moved by where it starts.
  func fillCachedResult(
    _ result: inout ShapeResult, text: String?, bytes: UnsafeBufferPointer<UInt8>, cuts: [Int],
    pieces: UnsafeBufferPointer<Unmanaged<ThreadCache.Piece>?>, options: ShapeOptions,
    properties: (Direction, Script, Language?)
  ) {
    prepareOneRun(&result, text: text ?? "", options: options)
    var total = 0
    for case let piece? in pieces { total += piece._withUnsafeGuaranteedRef { $0.glyphCount } }
    let backward = properties.0 == .rightToLeft
    // Where each piece starts in the cluster unit: its UTF-8 offset, or the characters (UTF-16
    // units) before it, counted piece by piece as they are joined. (An array of the unit's offset
    // of every byte, made for each line, was a `malloc` and a `free` a run of a paragraph.)
    let clusterUnit = options.clusterUnit
    func units(_ range: Range<Int>) -> Int {
      var count = 0
      for index in range where bytes[index] & 0xC0 != 0x80 {
        count += clusterUnit == .utf16 && bytes[index] >= 0xF0 ? 2 : 1
      }
      return count
    }
    // (Each piece's glyphs copied whole, their clusters moved as they go, into the result's
    // storage where it has room, else a new array: appended a glyph at a time, 45 instructions a
    // glyph; appended a piece at a time, 500 instructions a piece.)
    // (`at` is not captured by the closure that copies: see `shapeCached`'s `cuts`.)
    func join(into buffer: UnsafeMutableBufferPointer<ShapedGlyph>) {
      var at = 0
      // (Right to left, the pieces come last first: counted back from the end of the last.)
      var unitsBefore = clusterUnit == .utf8 ? 0 : units(0..<cuts[backward ? pieces.count : 0])
      for index in 0..<pieces.count {
        let piece = backward ? pieces.count - 1 - index : index
        let offset: Int
        if clusterUnit == .utf8 {
          offset = cuts[piece]
        } else if backward {
          unitsBefore -= units(cuts[piece]..<cuts[piece + 1])
          offset = unitsBefore
        } else {
          offset = unitsBefore
          unitsBefore += units(cuts[piece]..<cuts[piece + 1])
        }
        let start = at
        at += pieces[piece]!._withUnsafeGuaranteedRef {
          $0.withGlyphs { source in
            PieceGlyph.write(source, to: buffer.baseAddress! + start, clusterOffset: offset)
            return source.count
          }
        }
      }
      finishGlyphs(buffer, options: options)
    }
    result.runs[0].fill(identity: identity, unit: unit, scale: scale, properties: properties) { glyphs in
      guard glyphs.capacity >= total else {
        glyphs = [ShapedGlyph](capacity: total) { buffer in
          join(into: buffer)
          return total
        }
        return
      }
      if glyphs.count > total {
        glyphs.removeLast(glyphs.count - total)
      } else if glyphs.count < total {
        glyphs.append(contentsOf: repeatElement(Self.blankGlyph, count: total - glyphs.count))
      }
      glyphs.withUnsafeMutableBufferPointer { join(into: $0) }
    }
  }
}
