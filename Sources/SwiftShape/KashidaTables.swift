import HarfBuzz

// Speed: what a thread keeps from one kashida line to the next (`ThreadCache.kashidaTables`,
// `ThreadCache.kashidaScratch`): the table the pieces are looked up in, the pieces shaped again
// with their context, and the small arrays a line lends.

/// The table the last kashida run's pieces were looked up in (`spliceTatweels`), kept by the
/// thread's cache (`ThreadCache.kashidaTables`) for the runs after with the same font, run
/// properties and paragraph options. (Found for each run, the options made and the table looked
/// up were 1.5 M instructions a pass over the Persian lines, callgrind; most paragraphs have one
/// or two runs with kashidas.)
final class KashidaPieceTables {
  // The last key's parts and what was found for it, compared in place (a key copied out as a
  // tuple went through the runtime's generic copy, and cost more than it saved, callgrind).
  private var font = UInt64.max
  private var direction = Direction.leftToRight
  private var script = Script.common
  private var language: Language?
  private var options = ShapeOptions()
  private var found = false
  /// The last font's joints.
  private(set) var joints = SpaceJoints.unusable
  /// Where the last run's pieces can be looked up in the cache directly, its table.
  private(set) var cached: CachedPieces?

  /// Finds the font's joints (`joints`), and where the pieces of `run` shaped alone with
  /// `options` (the paragraph's) can be looked up in the cache directly (features over the whole
  /// text, which `reshape` passes as they are), its table (`cached`).
  func lookUp(_ run: ShapedRun, font: ShapingFont, options: ShapeOptions) {
    let language = run.span != nil ? run.language : options.language
    let same =
      self.font == font.cacheState.id && direction == run.direction && script == run.script
      && self.language == language && self.options == options
    if found, same { return }
    if !same {
      shapedAgain.removeAll()
      remembers =
        options.cacheable && options.features.allSatisfy { $0.start == 0 && $0.end == Feature.globalEnd }
    }
    joints = font.cacheState.spaceJoints(font.font)
    var aloneOptions = ShapingFont.reshapeOptions(run, options: options)
    (aloneOptions.textBefore, aloneOptions.textAfter) = ("", "")
    aloneOptions.bufferFlags.subtract([.beginningOfText, .endOfText])
    let looksUp =
      joints.isUsable && aloneOptions.features.allSatisfy { $0.start == 0 && $0.end == Feature.globalEnd }
    cached = looksUp ? CachedPieces(font: font, options: aloneOptions) : nil
    // A table not used yet (no `CachedPieces`) is asked for again with the next run.
    found = cached != nil || !looksUp
    (self.font, direction, script, self.language, self.options) = (
      font.cacheState.id, run.direction, run.script, language, options
    )
  }

  // Pieces shaped again with their context (at a run's edge where a cut would not be exact, or
  // where the cache has not kept the piece), remembered by their text, their context and their
  // place at the paragraph's edges, for the lines that hold them again: the same paragraph laid
  // out again (another width, the same lines justified again). Exact: `reshape` gives the same
  // glyphs for the same text, context and edges with the same font, run and options (those this
  // table is for), and the features are global (a ranged feature's range depends on where the
  // piece is). (Over the Persian lines justified with kashida, 136 pieces a pass, 1.66 M
  // instructions shaped again, callgrind.)

  /// Glyphs of pieces shaped again, clusters from the piece's start, by `key(of:…)`.
  private(set) var shapedAgain: [[UInt8]: [ShapedGlyph]] = [:]
  /// Whether pieces shaped again are remembered: the options take the shaping cache
  /// (`ShapeOptions.cacheable`: not with `usesCache` off), and the features are all global.
  private(set) var remembers = false
  /// The most remembered; then they are forgotten, all at once.
  static let rememberedLimit = 4_096

  /// A piece's key for `shapedAgain`: whether it is shaped alone and whether it starts and ends the
  /// paragraph, the scalars before it (five, as `reshape` takes them), its own with the tatweels
  /// before them (`tatweels`, in the text's order, from the piece's first on), and the five
  /// after, in UTF-8, parted by a byte UTF-8 never has.
  func key(
    of piece: TatweelPiece, tatweels: ArraySlice<TatweelPlace>, alone: Bool, scalars: [Unicode.Scalar]
  ) -> [UInt8] {
    let before = max(0, piece.lowerBound - 5)
    let after = min(scalars.count, piece.upperBound + 5)
    let tatweelCount = tatweels.reduce(0) { $0 + ($1.scalar < piece.upperBound ? $1.count : 0) }
    // (Written in place, four bytes of room a scalar: appended a byte at a time, a key took 3,400
    // instructions, callgrind.)
    return [UInt8](unsafeUninitializedCapacity: (after - before) * 4 + tatweelCount * 2 + 3) { key, count in
      var length = 0
      key[length] =
        (alone ? 1 : 0) | (piece.lowerBound == 0 ? 2 : 0) | (piece.upperBound == scalars.count ? 4 : 0)
      length += 1
      for index in before..<piece.lowerBound {
        length = UTF8Scalar.encode(scalars[index], into: key, at: length)
      }
      key[length] = 0xFF
      length += 1
      var place = tatweels.startIndex
      for index in piece.indices {
        if place < tatweels.endIndex, tatweels[place].scalar == index {
          for _ in 0..<tatweels[place].count {
            (key[length], key[length + 1]) = (0xD9, 0x80)
            length += 2
          }
          place += 1
        }
        length = UTF8Scalar.encode(scalars[index], into: key, at: length)
      }
      key[length] = 0xFF
      length += 1
      for index in piece.upperBound..<after {
        length = UTF8Scalar.encode(scalars[index], into: key, at: length)
      }
      count = length
    }
  }

  /// Remembers a piece shaped again (`glyphs`, clusters the paragraph's, `base` its start).
  func remember(_ glyphs: [ShapedGlyph], clustersLess base: Int, under key: [UInt8]) {
    if shapedAgain.count >= Self.rememberedLimit { shapedAgain.removeAll() }
    var relative = glyphs
    for index in relative.indices { relative[index].cluster -= base }
    shapedAgain[key] = relative
  }
}

/// Storage a thread's kashida lines reuse (`insertKashidas`, `spliceTatweels`): lent to a line and
/// given back emptied, with its capacity. (Made anew, these small arrays were ten allocations a
/// kashida line, each a `malloc` and a `free`, callgrind.)
final class KashidaScratch {
  @exclusivity(unchecked) var places: [KashidaPlace] = []
  @exclusivity(unchecked) var order: [Int] = []
  @exclusivity(unchecked) var counts: [Int] = []
  @exclusivity(unchecked) var advances: [Int32?] = []
  @exclusivity(unchecked) var tatweels: [TatweelPlace] = []
  @exclusivity(unchecked) var pieces: [TatweelPiece] = []
  @exclusivity(unchecked) var pieceGlyphs: [TatweelPieceGlyphs] = []
  @exclusivity(unchecked) var tatweelStarts: [Int] = []
  @exclusivity(unchecked) var runs: [ShapedRun] = []
  @exclusivity(unchecked) var runIndices: [Int] = []
  @exclusivity(unchecked) private var room = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)

  deinit { room.deallocate() }

  /// At least `count` bytes, for one piece at a time.
  func bytes(_ count: Int) -> UnsafeMutableBufferPointer<UInt8> {
    if room.count < count {
      room.deallocate()
      room = .allocate(capacity: max(count, 256))
    }
    return room
  }
}
