import HarfBuzz
import SwiftShapeUnicode

// Speed: a kashida line's run shaped again only where its tatweels are. The plain path
// (`insertKashidas`) shapes the whole run again with them; this shapes each space-delimited
// piece of the run that holds tatweels, and puts its glyphs in the place of the piece's.

extension ShapingFont {
  /// `run` with tatweels before scalars (`tatweels`, in the text's order): each
  /// piece between spaces that holds some shaped again (found in the cache where it is shaped
  /// alone with `options`' settings, else by `reshape`: the run's scalars `from..<to` with the
  /// tatweels among them, alone where the last argument says, else with the paragraph around as
  /// context) and its glyphs put in the place of the piece's; nil where that would not be exact,
  /// for the caller to shape the whole run.
  ///
  /// Exact as the shaping cache's joints are (`SpaceJoints`, `startsAlone`, `endsAlone`): a piece
  /// is cut where the cache would cut, after spaces before a character that may follow a space
  /// shaped apart from it, or before spaces after one that may precede a space; tatweels go
  /// inside words, so the characters at a piece's edges are those it had. The glyphs on each side
  /// of such a joint are those of the sides shaped apart, whatever the other side holds.
  ///
  /// Measured (callgrind, the command on the Persian text four times over at 40 em,
  /// `SWIFTSHAPE_CACHE_TIMING=off`): with the whole run shaped again, 2.82 G instructions; with
  /// the pieces, 2.60 G once their strings were written as UTF-8 directly (2.89 G before), and
  /// 1.94 G with the flags from the paragraph's own shaping and the pieces between exact cuts
  /// shaped alone; 1.61 G with the pieces shaped alone looked up in the cache directly
  /// (`CachedPieces`) and spliced through a table of the run's offsets.
  func spliceTatweels(
    _ run: ShapedRun, tatweels: [TatweelPlace], from: Int, to: Int, scalars: [Unicode.Scalar],
    offsets: [Int],
    options: ShapeOptions, clearsTatweelFlags: Bool, reshape: (Int, Int, [Int: Int], Bool) throws -> ShapedRun
  ) throws -> ShapedRun? {
    // (The thread's last table, and the arrays it lends, `KashidaPieceTables`, `KashidaScratch`.)
    let cache = ThreadCache.current
    let tables = cache.kashidaTables
    tables.lookUp(run, font: self, options: options)
    let (joints, cached) = (tables.joints, tables.cached)
    guard joints.isUsable else { return nil }
    // A cut at `index` is exact where the cache would cut there: after spaces, before a
    // character that may follow a space, or before spaces, after one that may precede a space.
    func allows(_ scalar: Unicode.Scalar) -> UInt8 {
      cached?.allows(scalar) ?? joints.cutRule(for: scalar, font: font)
    }
    func exactCut(_ index: Int) -> Bool {
      let (before, after) = (scalars[index - 1], scalars[index])
      if before == " ", after != " " { return allows(after) & 1 != 0 }
      if before != " ", after == " " { return allows(before) & 2 != 0 }
      return false
    }
    // The pieces: around each place, from the exact cut before it to the exact cut after it (the
    // run's edges where there is none), pieces that meet taken together.
    let scratch = cache.kashidaScratch
    var pieces = scratch.pieces
    var pieceGlyphs = scratch.pieceGlyphs
    var tatweelStarts = scratch.tatweelStarts
    (scratch.pieces, scratch.pieceGlyphs, scratch.tatweelStarts) = ([], [], [])
    defer {
      pieces.removeAllKeepingCapacity()
      pieceGlyphs.removeAllKeepingCapacity()
      tatweelStarts.removeAllKeepingCapacity()
      (scratch.pieces, scratch.pieceGlyphs, scratch.tatweelStarts) = (pieces, pieceGlyphs, tatweelStarts)
    }
    for place in tatweels.lazy.map(\.scalar) {
      guard place > from, place < to else { return nil }
      var start = place - 1
      while start > from, !exactCut(start) { start -= 1 }
      var end = place + 1
      while end < to, !exactCut(end) { end += 1 }
      if let last = pieces.last, last.upperBound > start {
        pieces[pieces.count - 1].upperBound = max(last.upperBound, end)
      } else {
        pieces.append(TatweelPiece(lowerBound: start, upperBound: end))
      }
    }
    let wasShapingPieces = cache.shapingPieces
    cache.shapingPieces = true
    defer { cache.shapingPieces = wasShapingPieces }
    let tatweelWidth = options.clusterUnit.width(of: "\u{640}")
    // Room for a piece's UTF-8 and its tatweels (U+0640, two bytes each), the thread's.
    let room = pieces.reduce(0) { max($0, $1.indices.count) } * (4 + 2 * Kashida.maximumPerPlace)
    let bytes = scratch.bytes(room)
    // Each piece's glyphs: the cache's (clusters from the piece's start, its tatweels among them)
    // or those `reshape` gave (clusters the paragraph's); where each tatweel starts, in the
    // cluster unit from its piece's start, the pieces' one after the other.
    var nextPlace = 0
    for pieceIndex in pieces.indices {
      let piece = pieces[pieceIndex]
      // A piece cut at exact cuts on both sides is shaped alone, as the cache shapes its pieces;
      // one at the run's edge, with the paragraph around it as context, unless the run's edge is
      // such a cut too.
      let alone =
        (piece.lowerBound > from || (from > 0 && exactCut(from)))
        && (piece.upperBound < to || (to < scalars.count && exactCut(to)))
      while nextPlace < tatweels.count, tatweels[nextPlace].scalar < piece.lowerBound { nextPlace += 1 }
      if alone, let cached {
        // The piece's UTF-8 with its tatweels, and where each tatweel starts.
        let base = offsets[piece.lowerBound]
        let startsBegin = tatweelStarts.count
        var length = 0
        var place = nextPlace
        for index in piece.indices {
          if place < tatweels.count, tatweels[place].scalar == index {
            for _ in 0..<tatweels[place].count {
              tatweelStarts.append(
                offsets[index] - base + (tatweelStarts.count - startsBegin) * tatweelWidth)
              (bytes[length], bytes[length + 1]) = (0xD9, 0x80)
              length += 2
            }
            place += 1
          }
          // (Arabic letters, two bytes each, written here: through the call for each scalar,
          // 0.4 M instructions a pass over the Persian lines, callgrind.)
          let value = scalars[index].value
          if value >= 0x80, value < 0x800 {
            (bytes[length], bytes[length + 1]) = (UInt8(0xC0 | value >> 6), UInt8(0x80 | value & 0x3F))
            length += 2
          } else {
            length = UTF8Scalar.encode(scalars[index], into: bytes, at: length)
          }
        }
        let found = cached.glyphs(of: UnsafeBufferPointer(rebasing: bytes[0..<length]))
        if let found {
          pieceGlyphs.append(TatweelPieceGlyphs(cached: found))
          pieces[pieceIndex].base = base
          pieces[pieceIndex].startsEnd = tatweelStarts.count
          continue
        }
        tatweelStarts.removeLast(tatweelStarts.count - startsBegin)
      }
      // Shaped again (`reshape`), or found where this thread shaped the same piece with the same
      // context before (`KashidaPieceTables.shapedAgain`), its clusters from the piece's start.
      let key =
        tables.remembers
        ? tables.key(of: piece, tatweels: tatweels[nextPlace...], alone: alone, scalars: scalars) : nil
      let base = offsets[piece.lowerBound]
      if let key, let glyphs = tables.shapedAgain[key] {
        pieceGlyphs.append(TatweelPieceGlyphs(shaped: glyphs))
        pieces[pieceIndex].base = base
        pieces[pieceIndex].startsEnd = tatweelStarts.count
        continue
      }
      var pieceTatweels: [Int: Int] = [:]
      var place = nextPlace
      while place < tatweels.count, tatweels[place].scalar < piece.upperBound {
        pieceTatweels[tatweels[place].scalar] = tatweels[place].count
        place += 1
      }
      let shaped = try reshape(piece.lowerBound, piece.upperBound, pieceTatweels, alone).glyphs.array
      pieceGlyphs.append(TatweelPieceGlyphs(shaped: shaped))
      pieces[pieceIndex].startsEnd = tatweelStarts.count
      if let key { tables.remember(shaped, clustersLess: base, under: key) }
    }
    // The run's glyphs with each piece's in the place of its own, which must be together in the
    // run (in either direction), or it is not spliced. Which piece each of the run's cluster
    // offsets is in (-1 for none), looked up for each glyph; the glyphs between pieces copied a
    // stretch at a time, and each piece's with its clusters moved back to the paragraph's (less
    // the tatweels before), into an array made once. (A binary search over the pieces for each
    // glyph was half the cost of splicing, and appending a piece's glyphs 500 instructions a
    // piece, callgrind.)
    // (The table and the flags are in temporary storage, on the stack where they are small: as
    // arrays of `Int32` and `Bool`, each was allocated through the standard library's unspecialized
    // path, which looks the storage's type up in the runtime's table of generic types, about 650
    // instructions an array, callgrind.)
    // HarfBuzz's monotone cluster levels (0, the default, and 1) give clusters that go one way
    // through the run, the line's pieces of it taken in order: each piece's glyphs are together,
    // found by a scan on from the last piece's. (Checked for each run instead, 1.1 M instructions a pass over the
    // Persian lines, callgrind.)
    if options.clusterLevel == .monotoneGraphemes || options.clusterLevel == .monotoneCharacters {
      return spliceMonotone(
        run, pieces: pieces, pieceGlyphs: pieceGlyphs, tatweelStarts: tatweelStarts,
        tatweelWidth: tatweelWidth, offsets: offsets, options: options, clearsTatweelFlags: clearsTatweelFlags
      )
    }
    let runStart = offsets[from]
    let runLength = offsets[to] - runStart
    return withUnsafeTemporaryAllocation(of: Int32.self, capacity: runLength + pieces.count) { table in
      let pieceAt = UnsafeMutableBufferPointer(rebasing: table[0..<runLength])
      let placed = UnsafeMutableBufferPointer(rebasing: table[runLength...])
      pieceAt.initialize(repeating: -1)
      placed.initialize(repeating: 0)
      for (index, piece) in pieces.enumerated() {
        for offset in offsets[piece.lowerBound]..<offsets[piece.upperBound] {
          pieceAt[offset - runStart] = Int32(index)
        }
      }
      return splice(
        run, pieces: pieces, pieceGlyphs: pieceGlyphs, tatweelStarts: tatweelStarts,
        tatweelWidth: tatweelWidth, runStart: runStart, pieceAt: pieceAt, placed: placed, options: options,
        clearsTatweelFlags: clearsTatweelFlags)
    }
  }

  /// `run`'s glyphs with the pieces' in the places of their own (`spliceTatweels`), where the
  /// run's clusters are monotone in its direction: each piece's found by a scan on from the last,
  /// the glyphs between copied a stretch at a time.
  /// (Over the Persian lines justified with kashida: the table of the run's offsets, written for
  /// each run and read for each glyph, took 3 M instructions a pass, callgrind.)
  private func spliceMonotone(
    _ run: ShapedRun, pieces: [TatweelPiece], pieceGlyphs: [TatweelPieceGlyphs], tatweelStarts: [Int],
    tatweelWidth: Int, offsets: [Int], options: ShapeOptions, clearsTatweelFlags: Bool
  ) -> ShapedRun? {
    let ascending = run.direction != .rightToLeft
    var spliced = true
    let glyphs = SpliceWriter.glyphs(
      run, pieces: pieces, pieceGlyphs: pieceGlyphs, tatweelStarts: tatweelStarts, tatweelWidth: tatweelWidth,
      font: self, options: options, clearsTatweelFlags: clearsTatweelFlags
    ) { writer in
      let source = writer.source
      // The pieces in the run's order: the text's, or its reverse.
      var kept = 0
      for step in pieces.indices {
        let piece = ascending ? step : pieces.count - 1 - step
        // (Found by a scan from the last piece's end, as the clusters go one way: by binary search
        // over the run, 210 instructions a piece, callgrind.)
        let (lower, upper) = (offsets[pieces[piece].lowerBound], offsets[pieces[piece].upperBound])
        var start = kept
        var end = kept
        if ascending {
          while start < source.count, source[start].cluster < lower { start += 1 }
          end = start
          while end < source.count, source[end].cluster < upper { end += 1 }
        } else {
          while start < source.count, source[start].cluster >= upper { start += 1 }
          end = start
          while end < source.count, source[end].cluster >= lower { end += 1 }
        }
        let own = start..<end
        guard !own.isEmpty else {
          spliced = false
          return
        }
        writer.keep(kept..<own.lowerBound)
        kept = own.upperBound
        writer.writePiece(piece)
      }
      writer.keep(kept..<source.count)
    }
    guard spliced else { return nil }
    var result = run
    result.glyphs = ShapedGlyphs(glyphs)
    return result
  }

  /// `run`'s glyphs with the pieces' in the places of their own (`spliceTatweels`).
  private func splice(
    _ run: ShapedRun, pieces: [TatweelPiece], pieceGlyphs: [TatweelPieceGlyphs], tatweelStarts: [Int],
    tatweelWidth: Int, runStart: Int, pieceAt: UnsafeMutableBufferPointer<Int32>,
    placed: UnsafeMutableBufferPointer<Int32>, options: ShapeOptions, clearsTatweelFlags: Bool
  ) -> ShapedRun? {
    var spliced = true
    let glyphs = SpliceWriter.glyphs(
      run, pieces: pieces, pieceGlyphs: pieceGlyphs, tatweelStarts: tatweelStarts, tatweelWidth: tatweelWidth,
      font: self, options: options, clearsTatweelFlags: clearsTatweelFlags
    ) { writer in
      let source = writer.source
      var current = -1
      var kept = 0
      for index in source.indices {
        let offset = source[index].cluster - runStart
        let piece = offset >= 0 && offset < pieceAt.count ? Int(pieceAt[offset]) : -1
        if piece == current { continue }
        if current < 0 { writer.keep(kept..<index) }
        current = piece
        if piece < 0 {
          kept = index
          continue
        }
        guard placed[piece] == 0 else {
          spliced = false
          break
        }
        placed[piece] = 1
        writer.writePiece(piece)
      }
      if spliced, current < 0 { writer.keep(kept..<source.count) }
    }
    guard spliced, !placed.contains(0) else { return nil }
    var result = run
    result.glyphs = ShapedGlyphs(glyphs)
    return result
  }
}

/// Writes a spliced run's glyphs (`spliceTatweels`): stretches of the run's own, and each piece's
/// with its clusters moved back to the paragraph's, less the tatweels before.
private struct SpliceWriter {
  // (The pieces, their glyphs and the tatweels' starts read through buffer pointers: read from
  // the arrays, each piece's glyphs were retained and released, 3 retains and 4 releases a piece,
  // callgrind.)
  let out: UnsafeMutableBufferPointer<ShapedGlyph>
  let source: UnsafeBufferPointer<ShapedGlyph>
  let pieces: UnsafeBufferPointer<TatweelPiece>
  let pieceGlyphs: UnsafeBufferPointer<TatweelPieceGlyphs>
  let tatweelStarts: UnsafeBufferPointer<Int>
  let tatweelWidth: Int
  /// The font, and whether the options ask for names and extents, for the glyphs of pieces from
  /// the cache (`ShapingFont.finishGlyphs`).
  unowned(unsafe) let font: ShapingFont
  let names: Bool
  let extents: Bool
  /// The flags a piece's glyphs keep: all, or all but HarfBuzz's tatweel flag, which the
  /// paragraph was shaped with for kashida's places (`Kashida.flagsPlaces`) and the pieces too.
  /// (Taken off as the pieces are written, which is what of the line's glyphs has it: looked for
  /// in each kashida line's glyphs after, 0.8 M instructions a pass over the Persian lines,
  /// callgrind.)
  let flagMask: UInt32
  var written = 0

  /// The glyphs `body` writes for `run`, with room for the run's and the pieces'.
  static func glyphs(
    _ run: ShapedRun, pieces: [TatweelPiece], pieceGlyphs: [TatweelPieceGlyphs], tatweelStarts: [Int],
    tatweelWidth: Int, font: ShapingFont, options: ShapeOptions, clearsTatweelFlags: Bool,
    _ body: (inout SpliceWriter) -> Void
  ) -> [ShapedGlyph] {
    let capacity = pieceGlyphs.reduce(run.glyphs.count) { $0 + $1.count }
    return [ShapedGlyph](capacity: capacity) { out in
      run.glyphs.withUnsafeBufferPointer { source in
        pieces.withUnsafeBufferPointer { pieces in
          pieceGlyphs.withUnsafeBufferPointer { pieceGlyphs in
            tatweelStarts.withUnsafeBufferPointer { tatweelStarts in
              var writer = SpliceWriter(
                out: out, source: source, pieces: pieces, pieceGlyphs: pieceGlyphs,
                tatweelStarts: tatweelStarts,
                tatweelWidth: tatweelWidth, font: font, names: options.includeGlyphNames,
                extents: options.includeExtents,
                flagMask: clearsTatweelFlags ? ~GlyphFlags.safeToInsertTatweel.rawValue : .max)
              body(&writer)
              return writer.written
            }
          }
        }
      }
    }
  }

  /// The run's own glyphs `range`.
  mutating func keep(_ range: Range<Int>) {
    guard !range.isEmpty else { return }
    (out.baseAddress! + written).initialize(from: source.baseAddress! + range.lowerBound, count: range.count)
    written += range.count
  }

  /// Piece `piece`'s glyphs.
  mutating func writePiece(_ piece: Int) {
    let base = pieces[piece].base
    let starts = (piece == 0 ? 0 : pieces[piece - 1].startsEnd)..<pieces[piece].startsEnd
    let target = out.baseAddress! + written
    // (Copied whole, then each cluster moved in place, where each glyph was read and written
    // whole: with the tatweels counted at once (`insertKashidas`), 151.3 M → 150.7 M instructions
    // a pass over the Persian lines justified with kashida, callgrind.)
    let count = pieceGlyphs[piece].write(to: target, font: font, names: names, extents: extents)
    for index in 0..<count {
      let cluster = target[index].cluster
      var before = starts.lowerBound
      while before < starts.upperBound, tatweelStarts[before] < cluster { before += 1 }
      target[index].cluster = cluster + base - (before - starts.lowerBound) * tatweelWidth
      target[index].flags = GlyphFlags(rawValue: target[index].flags.rawValue & flagMask)
    }
    written += count
  }
}

/// A kashida piece's glyphs: shaped again, or found in the shaping cache (read in place).
struct TatweelPieceGlyphs {
  var shaped: [ShapedGlyph] = []
  var cached: ThreadCache.Piece? {
    didSet { cachedReference = cached.map { Unmanaged.passUnretained($0) } }
  }
  /// `cached`, read without retaining it (it is kept alive by `cached`). (Bound and read from
  /// `cached`, a piece was retained twice and released twice as it was written, callgrind.)
  private var cachedReference: Unmanaged<ThreadCache.Piece>?

  init(shaped: [ShapedGlyph]) { self.shaped = shaped }

  init(cached: ThreadCache.Piece) {
    self.cached = cached
    cachedReference = Unmanaged.passUnretained(cached)
  }

  var count: Int { cachedReference?._withUnsafeGuaranteedRef { $0.glyphCount } ?? shaped.count }

  /// Writes its glyphs to `target` (those from the cache with their names and extents where
  /// asked for), and returns how many.
  func write(to target: UnsafeMutablePointer<ShapedGlyph>, font: ShapingFont, names: Bool, extents: Bool)
    -> Int
  {
    if let cachedReference {
      let count = cachedReference._withUnsafeGuaranteedRef { piece in
        piece.withGlyphs { glyphs in
          PieceGlyph.write(glyphs, to: target, clusterOffset: 0)
          return glyphs.count
        }
      }
      if names || extents {
        font.finishGlyphs(
          UnsafeMutableBufferPointer(start: target, count: count), names: names, extents: extents)
      }
      return count
    }
    return shaped.withUnsafeBufferPointer { glyphs in
      if let source = glyphs.baseAddress { target.initialize(from: source, count: glyphs.count) }
      return glyphs.count
    }
  }
}

/// A piece of a kashida line's run shaped again with its tatweels (`spliceTatweels`): scalars
/// `lowerBound..<upperBound`.
/// (Of a struct of its own: an array of `Range<Int>` looks its type's metadata up each time it is
/// made.)
struct TatweelPiece {
  var lowerBound: Int
  var upperBound: Int
  var indices: Range<Int> { lowerBound..<upperBound }
  /// What its glyphs' clusters are moved by, and where its tatweels' starts end in
  /// `tatweelStarts` (they begin where the piece before's end).
  var base = 0
  var startsEnd = 0
}
