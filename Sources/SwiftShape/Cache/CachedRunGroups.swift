import HarfBuzz

// Speed: a paragraph's runs that differ only in language, shaped as one piece of text through the
// shaping cache, each run's glyphs then taken from it. A span of language a word cuts two runs a
// word (the word and the space after it), and each run shaped on its own cost a lookup of its own
// (`shapeRunCached`): 12 to 16 times the plain paragraph on the English and Persian texts.
//
// Exact because: the runs are of one font, level, script, direction and features, and their
// languages select the same language systems (`FontCacheState.shapesAlike`), so one shaping plan
// serves them all; and every edge between two runs is a cut between pieces of the cache's
// (`requiredCuts`), where pieces are joined only as HarfBuzz would shape them apart. A run's glyphs
// are then its pieces' glyphs, as they are when it is shaped on its own through the cache. Where
// any of this does not hold, the runs are shaped one by one.

extension ShapingFont {
  /// Shapes the runs of `items` (their UTF-8 in `units`, in logical order, next to each other),
  /// with `runOptions` (the first run's, with the end-of-text flag of the last), through the
  /// cache as one piece of text; each run's glyphs, clusters from `clusterStarts[i]` for run `i`
  /// (its first cluster), with `languages[i]`; nil when the cache does not take the runs so.
  func shapeRunGroupCached(
    units: UnsafeBufferPointer<UInt8>, items: [Range<Int>], runOptions: ShapeOptions, clusterStarts: [Int],
    languages: [Language?], scratch: inout ShapeResult
  ) throws -> [ShapedRun]? {
    guard let first = items.first, let last = items.last else { return nil }
    let item = first.lowerBound..<last.upperBound
    let cuts = items.dropFirst().map { $0.lowerBound - item.lowerBound }
    guard
      try shapeRunCached(
        units: units, item: item, runOptions: runOptions, clusterStart: clusterStarts[0], requiredCuts: cuts,
        into: &scratch),
      let whole = scratch.runs.first
    else { return nil }
    var runs = languages.map { language -> ShapedRun in
      var run = whole
      run.glyphs = []
      run.language = language ?? Language.processDefault
      return run
    }
    // Clusters rise (left to right) or fall (right to left) through the glyphs: each glyph goes
    // to the run whose clusters hold its own.
    var index = 0
    for glyph in whole.glyphs {
      while index + 1 < clusterStarts.count, glyph.cluster >= clusterStarts[index + 1] { index += 1 }
      while index > 0, glyph.cluster < clusterStarts[index] { index -= 1 }
      runs[index].glyphs.append(glyph)
    }
    return runs
  }
}
