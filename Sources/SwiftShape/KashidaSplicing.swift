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
    _ run: ShapedRun, tatweels: [Int: Int], from: Int, to: Int, scalars: [Unicode.Scalar], offsets: [Int],
    reshape: (Int, Int, [Int: Int], Bool) throws -> ShapedRun
  ) throws -> ShapedRun? {
    let joints = cacheState.spaceJoints(font)
    guard joints.isUsable else { return nil }
    // A cut at `index` is exact where the cache would cut there: after spaces, before a
    // character that may follow a space, or before spaces, after one that may precede a space.
    func exactCut(_ index: Int) -> Bool {
      let (before, after) = (scalars[index - 1], scalars[index])
      if before == " ", after != " " {
        return Self.startsAlone(after) && joints.mayFollowSpace(font.nominalGlyph(for: after) ?? 0)
      }
      if before != " ", after == " " {
        return Self.endsAlone(before) && joints.mayPrecedeSpace(font.nominalGlyph(for: before) ?? 0)
      }
      return false
    }
    // The pieces: around each place, from the exact cut before it to the exact cut after it (the
    // run's edges where there is none), pieces that meet taken together.
    var pieces: [Range<Int>] = []
    for place in tatweels.keys.sorted() {
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
    var spliced = run
    for piece in pieces {
      let clusters = offsets[piece.lowerBound]..<offsets[piece.upperBound]
      // The piece's glyphs are together in the run (in either direction), or it is not spliced.
      guard let first = spliced.glyphs.firstIndex(where: { clusters.contains($0.cluster) }),
        let last = spliced.glyphs.lastIndex(where: { clusters.contains($0.cluster) }),
        spliced.glyphs[first...last].allSatisfy({ clusters.contains($0.cluster) })
      else { return nil }
      var pieceTatweels: [Int: Int] = [:]
      for (place, count) in tatweels where piece.contains(place) { pieceTatweels[place] = count }
      // A piece cut at exact cuts on both sides is shaped alone, as the cache shapes its pieces;
      // one at the run's edge, with the paragraph around it as context.
      let alone = piece.lowerBound > from && piece.upperBound < to
      let shaped = try reshape(piece.lowerBound, piece.upperBound, pieceTatweels, alone)
      spliced.glyphs.replaceSubrange(first...last, with: shaped.glyphs)
    }
    return spliced
  }
}
