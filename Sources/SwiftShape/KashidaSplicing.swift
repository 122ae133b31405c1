import HarfBuzz

// Speed: a kashida line's run shaped again only where its tatweels are. The plain path
// (`insertKashidas`) shapes the whole run again with them; this shapes each space-delimited
// piece of the run that holds tatweels, and puts its glyphs in the place of the piece's.

extension ShapingFont {
  /// `run` with tatweels before scalars (`tatweels`, scalar index to count), each piece between
  /// spaces that holds some shaped again (`reshape`: the run's scalars `from..<to` with the
  /// tatweels among them, alone where the last argument says, else with the paragraph around as
  /// context) and its glyphs put in the place of the piece's; nil where that would not be exact, for the caller to shape the whole run.
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
  /// shaped alone.
  func spliceTatweels(
    _ run: ShapedRun, tatweels: [(scalar: Int, count: Int)], from: Int, to: Int, scalars: [Unicode.Scalar],
    offsets: [Int],
    options: ShapeOptions, reshape: (Int, Int, [Int: Int], Bool) throws -> ShapedRun
  ) throws -> ShapedRun? {
    let joints = cacheState.spaceJoints(font)
    guard joints.isUsable else { return nil }
    // Pieces shaped alone are looked up in the cache directly where the options let them be
    // (features over the whole text, which `reshape` passes as they are).
    var aloneOptions = Self.reshapeOptions(run, options: options)
    (aloneOptions.textBefore, aloneOptions.textAfter) = ("", "")
    aloneOptions.bufferFlags.subtract([.beginningOfText, .endOfText])
    let cached =
      aloneOptions.features.allSatisfy { $0.start == 0 && $0.end == Feature.globalEnd }
      ? CachedPieces(font: self, options: aloneOptions) : nil
    // A cut at `index` is exact where the cache would cut there: after spaces, before a
    // character that may follow a space, or before spaces, after one that may precede a space.
    func allows(_ scalar: Unicode.Scalar) -> UInt8 {
      if let cached { return cached.allows(scalar) }
      let glyph = font.nominalGlyph(for: scalar) ?? 0
      return (Self.startsAlone(scalar) && joints.mayFollowSpace(glyph) ? 1 : 0)
        | (Self.endsAlone(scalar) && joints.mayPrecedeSpace(glyph) ? 2 : 0)
    }
    func exactCut(_ index: Int) -> Bool {
      let (before, after) = (scalars[index - 1], scalars[index])
      if before == " ", after != " " { return allows(after) & 1 != 0 }
      if before != " ", after == " " { return allows(before) & 2 != 0 }
      return false
    }
    // The pieces: around each place, from the exact cut before it to the exact cut after it (the
    // run's edges where there is none), pieces that meet taken together.
    var pieces: [Range<Int>] = []
    pieces.reserveCapacity(tatweels.count)
    for (place, _) in tatweels {
      guard place > from, place < to else { return nil }
      var start = place - 1
      while start > from, !exactCut(start) { start -= 1 }
      var end = place + 1
      while end < to, !exactCut(end) { end += 1 }
      if let last = pieces.last, last.upperBound > start {
        pieces[pieces.count - 1] = last.lowerBound..<max(last.upperBound, end)
      } else {
        pieces.append(start..<end)
      }
    }
    let cache = ThreadCache.current
    let wasShapingPieces = cache.shapingPieces
    cache.shapingPieces = true
    defer { cache.shapingPieces = wasShapingPieces }
    let tatweelWidth = options.clusterUnit.width(of: "\u{640}")
    var bytes: [UInt8] = []
    var tatweelStarts: [Int] = []
    var nextPlace = 0
    // The pieces' glyphs, one piece after the other, and where each piece's end.
    var replaced: [ShapedGlyph] = []
    var replacedEnds: [Int] = []
    replacedEnds.reserveCapacity(pieces.count)
    for piece in pieces {
      // A piece cut at exact cuts on both sides is shaped alone, as the cache shapes its pieces;
      // one at the run's edge, with the paragraph around it as context, unless the run's edge is
      // such a cut too.
      let alone =
        (piece.lowerBound > from || (from > 0 && exactCut(from)))
        && (piece.upperBound < to || (to < scalars.count && exactCut(to)))
      while nextPlace < tatweels.count, tatweels[nextPlace].scalar < piece.lowerBound { nextPlace += 1 }
      if alone, let cached {
        // The piece's UTF-8 with its tatweels, and where each tatweel starts in the cluster unit.
        bytes.removeAll(keepingCapacity: true)
        tatweelStarts.removeAll(keepingCapacity: true)
        var position = 0
        var place = nextPlace
        for index in piece {
          if place < tatweels.count, tatweels[place].scalar == index {
            for _ in 0..<tatweels[place].count {
              tatweelStarts.append(position)
              bytes.append(0xD9)
              bytes.append(0x80)
              position += tatweelWidth
            }
            place += 1
          }
          bytes.appendUTF8(scalars[index])
          position += options.clusterUnit.width(of: scalars[index])
        }
        if let found = bytes.withUnsafeBufferPointer({ cached.glyphs(of: $0) }) {
          // Clusters back to the paragraph's offsets: less the tatweels before, from the
          // piece's start.
          let base = offsets[piece.lowerBound]
          for var glyph in found {
            var before = 0
            while before < tatweelStarts.count, tatweelStarts[before] < glyph.cluster { before += 1 }
            glyph.cluster += base - before * tatweelWidth
            replaced.append(glyph)
          }
          replacedEnds.append(replaced.count)
          continue
        }
      }
      var pieceTatweels: [Int: Int] = [:]
      var place = nextPlace
      while place < tatweels.count, tatweels[place].scalar < piece.upperBound {
        pieceTatweels[tatweels[place].scalar] = tatweels[place].count
        place += 1
      }
      replaced += try reshape(piece.lowerBound, piece.upperBound, pieceTatweels, alone).glyphs
      replacedEnds.append(replaced.count)
    }
    // The run's glyphs with each piece's in the place of its own, which must be together in the
    // run (in either direction), or it is not spliced.
    func pieceHolding(_ cluster: Int) -> Int? {
      var (low, high) = (0, pieces.count)
      while low < high {
        let middle = (low + high) / 2
        if offsets[pieces[middle].lowerBound] <= cluster { low = middle + 1 } else { high = middle }
      }
      return low > 0 && cluster < offsets[pieces[low - 1].upperBound] ? low - 1 : nil
    }
    var spliced = run
    var glyphs: [ShapedGlyph] = []
    glyphs.reserveCapacity(run.glyphs.count + replaced.count)
    var placed = [Bool](repeating: false, count: pieces.count)
    var current: Int?
    for glyph in run.glyphs {
      guard let piece = pieceHolding(glyph.cluster) else {
        current = nil
        glyphs.append(glyph)
        continue
      }
      if piece == current { continue }
      guard !placed[piece] else { return nil }
      placed[piece] = true
      current = piece
      glyphs += replaced[(piece == 0 ? 0 : replacedEnds[piece - 1])..<replacedEnds[piece]]
    }
    guard !placed.contains(false) else { return nil }
    spliced.glyphs = glyphs
    return spliced
  }
}
