import HarfBuzz
import SwiftShapeUnicode

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
// any of this does not hold, the runs are shaped one by one. (An edge at either end of a run of
// spaces is cut whatever the font does across a space, the text on its two sides shaped apart:
// Roboto's space kerns with T, and each T after a space of a span a word cut its line's group
// apart, four lookups a line of the English text; 206 M → 159 M instructions a pass, callgrind.)

extension ShapingFont {
  /// Shapes the runs of `items` (their UTF-8 in `units`, in logical order, next to each other),
  /// with `runOptions` (the first run's, with the end-of-text flag of the last), through the
  /// cache as few pieces of text as it takes: each run's glyphs, clusters from `clusterStarts[i]`
  /// for run `i` (its first cluster), with `languages[i]`; nil for a run the caller shapes alone
  /// (where the cache could not cut the text at the run's edges, or does not take it).
  func shapeRunGroupCached(
    units: UnsafeBufferPointer<UInt8>, items: [Range<Int>], runOptions: ShapeOptions, clusterStarts: [Int],
    languages: [Language?], scratch: inout ShapeResult
  ) throws -> [ShapedRun?] {
    // (Nil appended, not repeated: `Array(repeating:count:)` copies its value into each slot
    // through the type's copy function, a large optional's, about 500 instructions a run.)
    var shaped: [ShapedRun?] = []
    shaped.reserveCapacity(items.count)
    for _ in items.indices { shaped.append(nil) }
    let cache = ThreadCache.current
    // The runs of `group` taken apart at the cuts `missing` (offsets into the units, ascending)
    // and the groups between them tried again (each of those then cut as it was).
    func shapeApart(_ group: Range<Int>, at missing: [Int]) throws {
      // (The missing cuts come in the text's order, as the runs do: walked together, not hashed
      // into a set, which was a thirtieth of a span a word.)
      var next = 0
      var start = group.lowerBound
      for run in group.dropFirst() {
        while next < missing.count, missing[next] < items[run].lowerBound { next += 1 }
        guard next < missing.count, missing[next] == items[run].lowerBound else { continue }
        try shape(start..<run, retrying: false)
        start = run
      }
      try shape(start..<group.upperBound, retrying: false)
    }
    // The runs of `group`, shaped together; at the edges the cache could not cut at, the runs are
    // taken apart.
    func shape(_ group: Range<Int>, retrying: Bool) throws {
      guard group.count > 1 else { return }
      let item = items[group.lowerBound].lowerBound..<items[group.upperBound - 1].upperBound
      let cuts = items[group].dropFirst().map { $0.lowerBound - item.lowerBound }
      // The cuts the cache will not make (`requiredCutsNotMade`, none at the edges of runs of
      // spaces), foreseen: the runs are taken apart there before the group is tried whole.
      if retrying {
        let notMade = Self.requiredCutsNotMade(cuts, in: UnsafeBufferPointer(rebasing: units[item]))
        guard notMade.isEmpty else {
          try shapeApart(group, at: notMade.map { $0 + item.lowerBound })
          return
        }
      }
      cache.missingCuts.removeAllKeepingCapacity()
      guard
        try shapeRunCached(
          units: units, item: item, runOptions: runOptions, clusterStart: clusterStarts[group.lowerBound],
          requiredCuts: cuts, into: &scratch),
        let whole = scratch.runs.first
      else {
        guard retrying, !cache.missingCuts.isEmpty else { return }
        try shapeApart(group, at: cache.missingCuts.map { $0 + item.lowerBound })
        return
      }
      // Clusters rise (left to right) or fall (right to left) through the glyphs: each glyph goes
      // to the run whose clusters hold its own. Where each run's glyphs are one stretch of the
      // whole's (clusters that go one way), each run holds its stretch of the whole's storage;
      // else each run's glyphs are copied out one by one.
      var stretches = [Range<Int>?](filledWith: nil, count: group.count)
      var oneStretchEach = true
      var index = group.lowerBound
      // Speed: HarfBuzz's monotone cluster levels (0, the default, and 1) give clusters that go
      // one way through the glyphs (backward in right-to-left and bottom-to-top text), so each
      // run's glyphs are the next stretch, walked through buffer pointers: with a span a word over
      // the English text, 125.8 M → 122.4 M instructions a pass (callgrind) against the walk
      // below, which keeps a stretch through the arrays for each glyph; a binary search for each
      // run cost more (128.6 M), a run being a word.
      let monotone =
        runOptions.clusterLevel == .monotoneGraphemes || runOptions.clusterLevel == .monotoneCharacters
      if monotone {
        whole.glyphs.withUnsafeBufferPointer { glyphs in
          clusterStarts.withUnsafeBufferPointer { starts in
            stretches.withUnsafeMutableBufferPointer { stretches in
              var position = 0
              let backward = whole.direction.isBackward
              // Forward, each run's glyphs end where the next run's first cluster is reached;
              // backward, the runs come last first, each from its own first cluster up.
              for step in 0..<group.count {
                let run = backward ? group.upperBound - 1 - step : group.lowerBound + step
                let first = position
                if backward {
                  while position < glyphs.count, glyphs[position].cluster >= starts[run] { position += 1 }
                } else {
                  let end = run + 1 < group.upperBound ? starts[run + 1] : Int.max
                  while position < glyphs.count, glyphs[position].cluster < end { position += 1 }
                }
                if position > first { stretches[run - group.lowerBound] = first..<position }
              }
            }
          }
        }
      }
      if !monotone {
        for (position, glyph) in whole.glyphs.enumerated() {
          while index + 1 < group.upperBound, glyph.cluster >= clusterStarts[index + 1] { index += 1 }
          while index > group.lowerBound, glyph.cluster < clusterStarts[index] { index -= 1 }
          let slot = index - group.lowerBound
          if let stretch = stretches[slot] {
            guard stretch.upperBound == position else {
              oneStretchEach = false
              break
            }
            stretches[slot] = stretch.lowerBound..<(position + 1)
          } else {
            stretches[slot] = position..<(position + 1)
          }
        }
      }
      // (Each run made from the whole's fields into its slot, which holds nil (a run is shaped in
      // one group only): the whole copied into the slot, its glyphs then set, copied the run
      // through its outlined copy and destroyed the slot's nil through the optional's, about 200
      // instructions a run, 5 M a pass over the English text with a span a word, callgrind.)
      shaped.withUnsafeMutableBufferPointer { slots in
        for run in group {
          assert(slots[run] == nil, "a run shaped in two groups")
          var made = ShapedRun(
            font: whole.font, unit: whole.unit, scale: whole.scale, direction: whole.direction,
            script: whole.script, language: languages[run] ?? Language.processDefault,
            glyphs: oneStretchEach
              ? stretches[run - group.lowerBound].map { ShapedGlyphs(whole.glyphs, sharing: $0) }
                ?? ShapedGlyphs()
              : ShapedGlyphs())
          (made.level, made.range, made.isFallback, made.span) = (
            whole.level, whole.range, whole.isFallback, whole.span
          )
          (slots.baseAddress! + run).initialize(to: consume made)
        }
      }
      guard !oneStretchEach else { return }
      index = group.lowerBound
      for glyph in whole.glyphs {
        while index + 1 < group.upperBound, glyph.cluster >= clusterStarts[index + 1] { index += 1 }
        while index > group.lowerBound, glyph.cluster < clusterStarts[index] { index -= 1 }
        shaped[index]!.glyphs.append(glyph)
      }
    }
    try shape(0..<items.count, retrying: true)
    return shaped
  }
}
