import HarfBuzz
import SwiftShapeUnicode

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Speed: the shaping cache's path (see ShapingCache.swift); `shape(_:options:into:)` takes it for
// text shaped as one run when the options allow, and the plain path otherwise.

extension ShapingFont {
  /// Shapes `text` through the thread's cache into `result`; false (and `result` untouched) when
  /// the cache does not take it and the caller must shape it plainly.
  ///
  /// With `requiredCuts` (offsets into the text's UTF-8, ascending), the text is cut into pieces
  /// at each of them as well, or not taken: runs of a paragraph shaped together, each run's glyphs
  /// then those of its pieces (`shapeRunGroupCached`). Such text is never shaped plainly here.
  func shapeCached(
    _ text: String, options: ShapeOptions, requiredCuts: [Int] = [], into result: inout ShapeResult
  ) throws -> Bool {
    let cache = ThreadCache.current
    if passesRareSingle(requiredCuts: requiredCuts, cache: cache, hasSpace: Self.hasSpace(text)) {
      return false
    }
    if let shaped = try text.utf8.withContiguousStorageIfAvailable({
      try shapeCachedTimed(
        text, bytes: $0, options: options, requiredCuts: requiredCuts, cache: cache, into: &result)
    }) {
      return shaped
    }
    var copy = text
    return try copy.withUTF8 {
      try shapeCachedTimed(
        text, bytes: $0, options: options, requiredCuts: requiredCuts, cache: cache, into: &result)
    }
  }

  /// Shapes the text whose UTF-8 is `bytes` as `shapeCached(_:options:requiredCuts:into:)` does,
  /// but for the result's text, which is left empty (a paragraph's runs, whose results give
  /// their glyphs to the paragraph's). (A run's text made a `String`, validated and allocated,
  /// cost 3 M instructions a pass over the mixed text's paragraphs, callgrind.)
  func shapeCached(
    utf8 bytes: UnsafeBufferPointer<UInt8>, options: ShapeOptions, requiredCuts: [Int] = [],
    into result: inout ShapeResult
  ) throws -> Bool {
    let cache = ThreadCache.current
    if passesRareSingle(requiredCuts: requiredCuts, cache: cache, hasSpace: Self.hasSpace(bytes)) {
      return false
    }
    return try shapeCachedTimed(
      nil, bytes: bytes, options: options, requiredCuts: requiredCuts, cache: cache, into: &result)
  }

  /// Whether a line without a space goes by the cache, where such lines of this font have not come
  /// back (word lists): shaped plainly, but for one in sixteen, before any table is looked up.
  /// (Asked after the last table was found, retained and its timing window read: 86 instructions
  /// a line more on the Devanagari word list, callgrind.)
  private func passesRareSingle(
    requiredCuts: [Int], cache: ThreadCache, hasSpace: @autoclosure () -> Bool
  ) -> Bool {
    guard requiredCuts.isEmpty, cache.rareSinglesFont == cacheState.id, !hasSpace() else { return false }
    cache.singlesPassed &+= 1
    return cache.singlesPassed & 15 != 0
  }

  /// Shapes `bytes` (the UTF-8 of `text`, where given) through the cache or plainly, as the
  /// timing of the table it is expected to take chose.
  private func shapeCachedTimed(
    _ text: String?, bytes: UnsafeBufferPointer<UInt8>, options: ShapeOptions, requiredCuts: [Int],
    cache: ThreadCache, into result: inout ShapeResult
  ) throws -> Bool {
    // Whether the cache pays is timed, font by font: where HarfBuzz shapes a line faster than the
    // cache looks its pieces up (short words in a simple font on a recent HarfBuzz), lines are
    // shaped plainly (`ThreadCache.Table.shapesPlainly`). Either way the glyphs are the same.
    // The table the last line used, when it is this text's as far as can be told without reading
    // the text (a paragraph's runs go from one script's table to another's).
    var table: ThreadCache.Table?
    if cache.lastFont == cacheState.id, options.script.map({ $0 == cache.lastScript }) ?? true,
      options.direction.map({ $0 == cache.lastDirection }) ?? true
    {
      table = cache.lastTable
    }
    // The clock is read only where the table the line is expected to take is in a window of its
    // timing (160 lines of each 4,096); a line whose table turns out to be another is then counted
    // without its time. (Read for every line, the clock was 0.7% of the command's time on the
    // Devanagari word list, `perf stat`.) A paragraph's runs of two scripts take turns: the other
    // script's table is one of the recent ones. (Read for each such run, the clock was 1.6% of the
    // time of the mixed text's paragraphs on HarfBuzz 15.0.0, `perf`; looking the table up costs
    // 0.37 M instructions a pass of 82 M, callgrind. Only for the clock: taken as the table to
    // choose plain shaping by, it sent runs of paragraphs to plain shaping, slower.)
    let timed =
      table.map { $0.isInTimedWindow }
      ?? options.script.flatMap {
        cache.recentTableIsTimed(font: cacheState.id, script: $0, direction: options.direction)
      }
    let start = timed ?? true ? Clock.nanoseconds() : nil
    if requiredCuts.isEmpty, !cache.shapingPieces, let table, table.shapesPlainly() {
      try Buffer.withReusable { buffer in
        try shape(text ?? String(decoding: bytes, as: UTF8.self), options: options, in: buffer, into: &result)
      }
      table.note(plainly: true, nanoseconds: start.map { Clock.nanoseconds() - $0 }, bytes: bytes.count)
      table.noteLineBack(bytes)
      return true
    }
    let done = try shapeCached(
      text, bytes: bytes, options: options, requiredCuts: requiredCuts, cache: cache, into: &result)
    if done, requiredCuts.isEmpty, !cache.shapingPieces, cache.lastFont == cacheState.id,
      let table = cache.lastTable
    {
      table.note(plainly: false, nanoseconds: start.map { Clock.nanoseconds() - $0 }, bytes: bytes.count)
    }
    return done
  }

  private func shapeCached(
    _ text: String?, bytes: UnsafeBufferPointer<UInt8>, options givenOptions: ShapeOptions,
    requiredCuts: [Int],
    cache: ThreadCache, into result: inout ShapeResult
  ) throws -> Bool {
    let (guessedDirection, guessedScript, language) = Self.guessProperties(bytes, options: givenOptions)
    // (Pieces keep clusters in 32 bits, `PieceGlyph`.)
    guard let direction = guessedDirection, let script = guessedScript, direction.isHorizontal,
      bytes.count < Int(Int32.max)
    else {
      cache.counts.bypassed += 1
      return false
    }
    // Text with a context (a paragraph's edges reshaped, `--text-before`): shaped without it
    // where it cannot change the glyphs (`withoutContext`). (Text without one takes the options
    // as given, not copied: a copy, 160 instructions, and its release, 100, were a line's.)
    let properties = (direction, script, language)
    if givenOptions.textBefore.isEmpty, givenOptions.textAfter.isEmpty {
      return try shapeCached(
        text, bytes: bytes, options: givenOptions, properties: properties, requiredCuts: requiredCuts,
        cache: cache, into: &result)
    }
    guard
      let options = givenOptions.withoutContext(
        script: script, first: bytes.isEmpty ? nil : UTF8Scalar.decode(bytes, at: 0),
        last: bytes.isEmpty
          ? nil : UTF8Scalar.decode(bytes, at: UTF8Scalar.start(of: bytes.count - 1, in: bytes)))
    else {
      cache.counts.bypassed += 1
      return false
    }
    return try shapeCached(
      text, bytes: bytes, options: options, properties: properties, requiredCuts: requiredCuts, cache: cache,
      into: &result)
  }

  /// Shapes `text` (its UTF-8 `bytes`, without a context) through `cache` with `options` and the
  /// direction, script and language `properties` worked out from them and the text.
  private func shapeCached(
    _ text: String?, bytes: UnsafeBufferPointer<UInt8>, options: ShapeOptions,
    properties: (Direction, Script, Language?), requiredCuts: [Int], cache: ThreadCache,
    into result: inout ShapeResult
  ) throws -> Bool {
    let (direction, script, language) = properties
    let table = cache.table(
      font: cacheState, direction: direction, script: script, language: language, options: options)
    table.linesSeen += 1
    guard table.linesSeen > ShapingCache.warmUpLines else { return false }
    if table.joints == nil { table.joints = cacheState.spaceJoints(font) }
    guard let joints = table.joints, joints.isUsable else {
      cache.counts.bypassed += 1
      return false
    }

    // (Lent by swapping, which moves the arrays: copied out and back, with empty arrays put in
    // their place, their lending retained and released 20 times a line, callgrind.)
    var cutStorage: [Int] = []
    var beforeSpacesStorage: [Bool] = []
    swap(&cutStorage, &cache.cuts)
    swap(&beforeSpacesStorage, &cache.beforeSpaces)
    // (Empty but for runs with required cuts, and then a few: made where needed, not lent.)
    var forcedStorage: [Int] = []
    // (The required cuts made inside pieces: lent where there are required cuts, one for each
    // word of a span a word.)
    var insideStorage: [Int] = []
    if !requiredCuts.isEmpty { swap(&insideStorage, &cache.insideCuts) }
    defer {
      swap(&cutStorage, &cache.cuts)
      swap(&beforeSpacesStorage, &cache.beforeSpaces)
      if !requiredCuts.isEmpty {
        insideStorage.removeAllKeepingCapacity()
        swap(&insideStorage, &cache.insideCuts)
      }
    }
    cutPieces(
      bytes, joints: joints, table: table, cache: cache, required: requiredCuts, into: &cutStorage,
      beforeSpaces: &beforeSpacesStorage, forced: &forcedStorage, inside: &insideStorage)
    // (Constants from here: a variable the functions below capture is checked for exclusive
    // access at run time at each read, about 60 instructions.)
    let (cuts, beforeSpaces, forced) = (cutStorage, beforeSpacesStorage, forcedStorage)
    if !requiredCuts.isEmpty {
      // The required cuts not made, for the caller to shape the text apart at them.
      // (Walked through buffer pointers: through the arrays, each read checked, the walk was 0.9 M
      // instructions a pass over the Persian text with a span a word, callgrind.)
      cache.missingCuts.removeAllKeepingCapacity()
      let inside = insideStorage
      requiredCuts.withUnsafeBufferPointer { required in
        cuts.withUnsafeBufferPointer { cuts in
          inside.withUnsafeBufferPointer { inside in
            var (next, nextInside) = (0, 0)
            for cut in required {
              while next < cuts.count, cuts[next] < cut { next += 1 }
              if next < cuts.count, cuts[next] == cut { continue }
              while nextInside < inside.count, inside[nextInside] < cut { nextInside += 1 }
              if nextInside < inside.count, inside[nextInside] == cut { continue }
              cache.missingCuts.append(cut)
            }
          }
        }
      }
      guard cache.missingCuts.isEmpty else { return false }
    }
    let count = cuts.count - 1
    let bot = options.bufferFlags.contains(.beginningOfText)
    let eot = options.bufferFlags.contains(.endOfText)
    func edges(_ piece: Int) -> UInt8 {
      (piece == 0 && bot ? 1 : 0) | (piece == count - 1 && eot ? 2 : 0)
    }
    func slice(_ piece: Int) -> UnsafeBufferPointer<UInt8> {
      UnsafeBufferPointer(rebasing: bytes[cuts[piece]..<cuts[piece + 1]])
    }
    // Looked up in a copy of the table's storage (a reference to it): reads of the class's
    // property would each be checked for exclusive access at run time.
    let pieces = table.pieces
    func lookUp(_ piece: Int, key: UInt64) -> Unmanaged<Piece>? {
      let text = slice(piece)
      guard let stored = pieces.find(key),
        stored._withUnsafeGuaranteedRef({ $0.holds(text, edges: edges(piece)) })
      else { return nil }
      return stored
    }
    @discardableResult func keep(_ stored: Piece, key: UInt64) -> Bool {
      guard table.keeps() else { return false }
      table.pieces.insert(key, stored)
      cache.bytes += stored.byteCount
      return true
    }
    cache.counts.lines += 1
    cache.counts.pieces += count
    if cache.counts.lines & 255 == 0 { cache.publish() }
    defer { cache.keepToLimit() }

    // A line of one piece: shaped as the plain path shapes it, straight into the result.
    if count == 1 {
      let key = PieceHash.of(bytes, edges: edges(0))
      table.singles += 1
      cache.rareSinglesFont = table.singlesComeBackRarely ? cacheState.id : nil
      if let stored = lookUp(0, key: key) {
        cache.counts.hits += 1
        table.found += 1
        table.singlesFound += 1
        // (The one piece through a pointer to it: in an array, a `malloc` and a `free` a line.)
        var one: Unmanaged<Piece>? = stored
        withUnsafePointer(to: &one) { one in
          fillCachedResult(
            &result, text: text, bytes: bytes, cuts: cuts, pieces: UnsafeBufferPointer(start: one, count: 1),
            options: options, properties: properties)
        }
      } else {
        try Buffer.withReusable { buffer in
          try shape(
            text ?? String(decoding: bytes, as: UTF8.self), options: options, in: buffer, into: &result)
        }
        cache.counts.shapedRuns += 1
        let stored = result.runs[0].glyphs.withUnsafeBufferPointer { glyphs in
          joints.insertedDottedCircle(glyphs, text: bytes)
            ? nil : Piece.make(text: bytes, edges: edges(0), glyphs: glyphs)
        }
        if let stored { keep(stored, key: key) }
      }
      return true
    }

    // Each piece found, or the runs of pieces not found shaped together, one call a run. (The
    // pieces found are the table's, not retained; those shaped here are kept for the line in
    // `made`, whether the table keeps them or not.)
    // (Arrays of the thread's, lent to the line and given back emptied with their storage: made
    // anew, they grew a few times a line, a `malloc` and a `free` each.)
    var found: [Unmanaged<Piece>?] = []
    var keys: [UInt64] = []
    var made: [Piece] = []
    var batch = ThreadCache.Batch()
    swap(&found, &cache.found)
    swap(&keys, &cache.keys)
    swap(&made, &cache.made)
    swap(&batch, &cache.batch)
    defer {
      found.removeAllKeepingCapacity()
      keys.removeAllKeepingCapacity()
      made.removeAllKeepingCapacity()
      batch.removeAll()
      swap(&found, &cache.found)
      swap(&keys, &cache.keys)
      swap(&made, &cache.made)
      swap(&batch, &cache.batch)
    }
    // Speed: the pieces looked up in three steps, their keys (each slot asked for), their slots
    // (`PieceTable.find(_:into:)`), the pieces compared with the text, so that the memory of
    // several is read at once.
    var hits = 0
    // (The cuts read through a buffer pointer, the key kept in a local: 30 instructions a piece
    // fewer, callgrind.)
    cuts.withUnsafeBufferPointer { cuts in
      for piece in 0..<count {
        let key = PieceHash.of(
          UnsafeBufferPointer(rebasing: bytes[cuts[piece]..<cuts[piece + 1]]), edges: edges(piece))
        keys.append(key)
        pieces.prefetch(key)
      }
    }
    pieces.find(keys, into: &found)
    for piece in 0..<count {
      guard let stored = found[piece] else { continue }
      if stored._withUnsafeGuaranteedRef({ $0.holds(slice(piece), edges: edges(piece)) }) {
        hits += 1
      } else {
        found[piece] = nil
      }
    }
    // Pieces another thread shaped with this font and options (`SharedPieces`), looked for
    // before any is shaped, and kept as if shaped here.
    let shared = hits < count && cache.othersShare ? table.shared : nil
    if let shared {
      let offered = shared.find(keys, into: &found, retained: &made) { piece, stored in
        guard stored.holds(slice(piece), edges: edges(piece)) else { return false }
        keep(stored, key: keys[piece])
        return true
      }
      hits += offered
      cache.counts.sharedHits += offered
    }
    cache.counts.hits += hits
    table.found += hits
    // The pieces not found, shaped together: pieces of the line's order, a batch a call. Two that
    // are not next to each other in the line go together where the joint between them is of
    // the kind the cuts make exact: spaces then a piece cut after spaces, or a piece cut before
    // spaces then spaces. (Most lines take one call.) A forced cut (a required cut the font's
    // joints would not allow) is never inside a batch: the text on its two sides is shaped apart.
    // (The batch and the pieces found lent to `shapeBatch`, not captured: see `cuts`.)
    func shapeBatch(
      _ batch: inout ThreadCache.Batch, _ found: inout [Unmanaged<Piece>?], _ made: inout [Piece],
      keys: [UInt64]
    ) throws -> Bool {
      defer { batch.removeAll() }
      guard let first = batch.pieces.first, let last = batch.pieces.last else { return true }
      for piece in batch.pieces {
        batch.texts.append(slice(piece))
        batch.edges.append(edges(piece))
      }
      try shapePieces(
        &batch, options: options, properties: properties, atStart: first == 0 && bot,
        atEnd: last == count - 1 && eot, scratch: &cache.runResult)
      let shaped = batch.shaped
      cache.counts.shapedRuns += 1
      // A dotted circle HarfBuzz put in for a broken cluster: whether it does depends on the
      // syllables before it in the line (their serial numbers), so the line is shaped whole.
      if batch.texts.indices.contains(where: { index in
        shaped[index].withGlyphs { joints.insertedDottedCircle($0, text: batch.texts[index]) }
      }) {
        return false
      }
      for (index, piece) in batch.pieces.enumerated() {
        if keep(shaped[index], key: keys[piece]), shared != nil {
          cache.offeredKeys.append(keys[piece])
          cache.offered.append(shaped[index])
        }
        found[piece] = Unmanaged.passUnretained(shaped[index])
        made.append(shaped[index])
      }
      return true
    }
    // The pieces shaped here offered to the other threads, once the line's are all shaped.
    defer {
      if let shared, !cache.offered.isEmpty {
        cache.offeredKeys.withUnsafeBufferPointer { keys in
          cache.offered.withUnsafeBufferPointer { shared.insert(keys, $0) }
        }
        cache.offeredKeys.removeAll(keepingCapacity: true)
        cache.offered.removeAll(keepingCapacity: true)
      }
    }
    for piece in 0..<count where found[piece] == nil {
      if let previous = batch.pieces.last,
        (previous != piece - 1 && beforeSpaces[previous + 1] != beforeSpaces[piece])
          || (!forced.isEmpty && (forced.contains(previous + 1) || forced.contains(piece)))
      {
        guard try shapeBatch(&batch, &found, &made, keys: keys) else {
          cache.counts.bypassed += 1
          return false
        }
      }
      batch.pieces.append(piece)
    }
    guard try shapeBatch(&batch, &found, &made, keys: keys) else {
      cache.counts.bypassed += 1
      return false
    }
    withExtendedLifetime(made) {
      found.withUnsafeBufferPointer { found in
        fillCachedResult(
          &result, text: text, bytes: bytes, cuts: cuts, pieces: found, options: options,
          properties: properties)
      }
    }
    return true
  }

  /// The direction, script and language HarfBuzz's `hb_buffer_guess_segment_properties` gives
  /// the text, with those the options set: the script of the first character whose script is
  /// specific, the direction of that script (left to right when it has none), the process's
  /// language.
  static func guessProperties(_ bytes: UnsafeBufferPointer<UInt8>, options: ShapeOptions) -> (
    Direction?, Script?, Language?
  ) {
    var script = options.script
    if script == nil {
      var index = 0
      while index < bytes.count {
        let lead = bytes[index]
        let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        if let scalar = UTF8Scalar.decode(bytes, at: index) {
          let found = lead < 0x80 && !Self.isASCIILetter(lead) ? Script.common : Script(of: scalar)
          if found.isSpecific {
            script = found
            break
          }
        }
        index += length
      }
    }
    let direction = options.direction ?? script.map { $0.horizontalDirection ?? .leftToRight }
    return (direction, script, options.language ?? Language.processDefault)
  }

  /// Whether the text has a space (U+0020).
  static func hasSpace(_ text: String) -> Bool {
    text.utf8.withContiguousStorageIfAvailable { hasSpace($0) } ?? text.utf8.contains(0x20)
  }

  /// Whether the UTF-8 `bytes` have a space (U+0020).
  static func hasSpace(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    !bytes.isEmpty && memchr(bytes.baseAddress!, 0x20, bytes.count) != nil
  }

  private static func isASCIILetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

  private typealias Piece = ThreadCache.Piece
}
