import HarfBuzz

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Speed: many short texts shaped alone with the same options looked up in the shaping cache (see
// ShapingCache.swift) without a `ShapeResult` each: the table is found once, each text costs its
// hash and a comparison. A kashida line's pieces (`spliceTatweels`) cost about 26,000
// instructions each through `shape(_:options:)` when the cache had them (callgrind).

/// Texts shaped alone with one set of options, looked up in the calling thread's shaping cache.
final class CachedPieces {
  private let cache: ThreadCache
  private let table: ThreadCache.Table
  private let edges: UInt8
  private let font: Font
  private let joints: SpaceJoints

  /// Nil where `shape(_:options:)` would not look text shaped with `options` up (options the
  /// cache does not take, a context, vertical text, or a table the cache has not used yet).
  /// `options` must set the direction and the script, as the cache would otherwise guess them
  /// from each text.
  init?(font: ShapingFont, options: ShapeOptions) {
    guard options.cacheable, options.paragraph == nil, options.spans.isEmpty, !options.readsMarkup,
      options.textBefore.isEmpty, options.textAfter.isEmpty, let direction = options.direction,
      direction.isHorizontal, let script = options.script
    else { return nil }
    let cache = ThreadCache.current
    let table = cache.table(
      font: font.cacheState, direction: direction, script: script,
      language: options.language ?? Language.processDefault, options: options)
    guard table.linesSeen > ShapingCache.warmUpLines, let joints = table.joints, joints.isUsable else {
      return nil
    }
    self.cache = cache
    self.table = table
    self.font = font.font
    self.joints = joints
    edges =
      (options.bufferFlags.contains(.beginningOfText) ? 1 : 0)
      | (options.bufferFlags.contains(.endOfText) ? 2 : 0)
  }

  /// What `scalar` allows at a run of spaces: bit 0 a cut after the run when it follows, bit 1 a
  /// cut before the run when it precedes (`ThreadCache.Table.allows`).
  func allows(_ scalar: Unicode.Scalar) -> UInt8 { table.allows(scalar, font: font, joints: joints) }

  /// The glyphs of `text` shaped alone with the options, clusters from its start in their unit,
  /// where the cache has them: those `shape(_:options:)` gives (`ThreadCache.Piece.withGlyphs`).
  func glyphs(of text: UnsafeBufferPointer<UInt8>) -> ThreadCache.Piece? {
    guard !text.isEmpty, let found = table.pieces.find(PieceHash.of(text, edges: edges)) else { return nil }
    let stored = found.takeUnretainedValue()
    guard stored.holds(text, edges: edges) else { return nil }
    // Counted as the cache counts a line of one piece found, which its choices follow (whether
    // to keep pieces, whether lines of one piece come back).
    cache.counts.pieces += 1
    cache.counts.hits += 1
    table.found += 1
    table.singles += 1
    table.singlesFound += 1
    return stored
  }
}
