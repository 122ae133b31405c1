import CPrefetch
import HarfBuzz

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Speed: where the shaping cache (see ShapingCache.swift) keeps its pieces: each piece one
// allocation, in a table that holds them retained by hand.

extension ThreadCache {
  /// A piece's text's UTF-8, then its glyphs (`PieceGlyph`, clusters from the piece's start in the
  /// options' unit), in one allocation.
  ///
  /// Speed: a piece kept was three allocations (itself, its glyphs' array, its text's), and each
  /// piece found was retained and released for its glyphs' array. The English text's first pass,
  /// paired runs (`perf stat`) and callgrind: the text in the piece's allocation, with the glyphs
  /// split at their size, 5% less time; the glyphs there too, 3% less time (180 M → 177 M
  /// instructions a pass). The text first, beside the header, where a piece found is compared
  /// with the line's text: one line of the processor's cache read where two were (the mixed
  /// text in paragraphs, 5% less time, `perf stat`).
  final class Piece: ManagedBuffer<PieceHeader, PieceGlyph> {
    /// A piece of `text` shaped with `edges`, its `glyphCount` glyphs written (initialized) by
    /// `write`.
    static func make(
      text: UnsafeBufferPointer<UInt8>, edges: UInt8, glyphCount: Int,
      write: (UnsafeMutablePointer<PieceGlyph>) -> Void
    ) -> Piece {
      let stride = MemoryLayout<PieceGlyph>.stride
      let textSlots = (text.count + stride - 1) / stride
      let made = Piece.create(minimumCapacity: textSlots + glyphCount) { _ in
        PieceHeader(edges: edges, textCount: text.count, glyphCount: glyphCount, glyphStart: textSlots)
      }
      made.withUnsafeMutablePointerToElements { elements in
        if let bytes = text.baseAddress {
          UnsafeMutableRawPointer(elements).copyMemory(from: bytes, byteCount: text.count)
        }
        write(elements + textSlots)
      }
      // (Its elements need no deinitializing: glyphs are trivial values, the text bytes.)
      return unsafeDowncast(made, to: Piece.self)
    }

    /// A piece of `text` shaped with `edges` into `glyphs`.
    static func make(
      text: UnsafeBufferPointer<UInt8>, edges: UInt8, glyphs: UnsafeBufferPointer<ShapedGlyph>
    ) -> Piece {
      make(text: text, edges: edges, glyphCount: glyphs.count) { elements in
        for index in glyphs.indices {
          (elements + index).initialize(to: PieceGlyph(glyphs[index], cluster: glyphs[index].cluster))
        }
      }
    }

    /// Asks for the start of `piece` (its header, its text and its first glyphs: 256 bytes) to be
    /// brought into the processor's cache (see `shapeCached`).
    static func prefetch(_ piece: Unmanaged<Piece>) {
      let start = piece.toOpaque()
      for line in 0..<4 { swiftshape_prefetch(start + 64 * line) }
    }

    // (The header read through its pointer: `header`, a class's stored property, is checked for
    // exclusive access at run time at each read.)
    var glyphCount: Int { withUnsafeMutablePointerToHeader { $0.pointee.glyphCount } }

    /// The bytes of its text.
    var textCount: Int { withUnsafeMutablePointerToHeader { $0.pointee.textCount } }

    /// The bytes it takes.
    var byteCount: Int { 64 + textCount + glyphCount * MemoryLayout<PieceGlyph>.stride }

    /// Calls `body` with its glyphs, in place.
    func withGlyphs<Result>(_ body: (UnsafeBufferPointer<PieceGlyph>) throws -> Result) rethrows -> Result {
      try withUnsafeMutablePointers { header, elements in
        try body(
          UnsafeBufferPointer(start: elements + header.pointee.glyphStart, count: header.pointee.glyphCount))
      }
    }

    /// Whether it is the piece of `text` shaped with `edges`.
    func holds(_ text: UnsafeBufferPointer<UInt8>, edges: UInt8) -> Bool {
      withUnsafeMutablePointers { header, elements in
        guard header.pointee.edges == edges, header.pointee.textCount == text.count else { return false }
        guard let bytes = text.baseAddress else { return true }
        return memcmp(elements, bytes, text.count) == 0
      }
    }
  }

  struct PieceHeader {
    let edges: UInt8
    let textCount: Int
    let glyphCount: Int
    /// Where the glyphs start among the elements (after the text's, whose bytes fill as many).
    let glyphStart: Int
  }
}

/// A glyph as a piece of the shaping cache keeps it: what HarfBuzz gives, without the name and
/// the extents a `ShapedGlyph` may carry (filled in again as the piece's glyphs are copied out,
/// when the options ask for them: `ShapingFont.finishGlyphs`), its cluster in 32 bits (the cache
/// takes no text of 2 GiB or more).
///
/// Speed: 28 bytes where a `ShapedGlyph` takes 64. Copying the pieces' glyphs out into each line
/// was the largest part of a paragraph's time after HarfBuzz's (`memmove`, 9% of the mixed text
/// in paragraphs on HarfBuzz 15.0.0, most of it waiting for the pieces' memory, `perf`); a piece
/// now takes less than half the memory, and its first four lines of the processor's cache, asked
/// for as it is found (`prefetch`), hold the glyphs of most words.
struct PieceGlyph: BitwiseCopyable {
  var id: UInt32
  var cluster: Int32
  var xAdvance, yAdvance, xOffset, yOffset: Int32
  var flags: UInt32

  /// Writes `glyphs` to `target` as shaped glyphs without names or extents, each cluster moved by
  /// `clusterOffset`.
  static func write(
    _ glyphs: UnsafeBufferPointer<PieceGlyph>, to target: UnsafeMutablePointer<ShapedGlyph>,
    clusterOffset: Int
  ) {
    for index in glyphs.indices {
      let glyph = glyphs[index]
      (target + index).initialize(
        to: ShapedGlyph(
          id: glyph.id, cluster: Int(glyph.cluster) + clusterOffset, xAdvance: glyph.xAdvance,
          yAdvance: glyph.yAdvance, xOffset: glyph.xOffset, yOffset: glyph.yOffset,
          flags: GlyphFlags(rawValue: glyph.flags)))
    }
  }

  /// `glyph`, its cluster made `cluster` (an offset into a text the cache takes).
  init(_ glyph: ShapedGlyph, cluster: Int) {
    id = glyph.id
    self.cluster = Int32(truncatingIfNeeded: cluster)
    (xAdvance, yAdvance, xOffset, yOffset) = (glyph.xAdvance, glyph.yAdvance, glyph.xOffset, glyph.yOffset)
    flags = glyph.flags.rawValue
  }
}

/// The pieces of a table by their 64-bit hash (`PieceHash`): open addressing, linear probing,
/// half full at most. (A `Dictionary` hashed each key again with SipHash: a seventh of the time of a
/// line whose pieces were all found, counted with callgrind.)
///
/// Speed: its slots are memory of its own, each key beside its piece (one cache line read where
/// two arrays took two), and hold their pieces retained by hand: a piece is found, and kept for
/// the line, without its count of references touched (each retain and release is an atomic
/// operation). The English text's first pass retained 165,000 times with two arrays of keys and
/// pieces (`nil` copied into each empty slot, pieces moved one by one as the table grew, each
/// piece found retained and released again), 67,000 times with this table (callgrind).
final class PieceTable {
  private struct Slot {
    var key: UInt64
    var piece: Unmanaged<ThreadCache.Piece>?
  }

  @exclusivity(unchecked) private var slots: UnsafeMutablePointer<Slot>
  @exclusivity(unchecked) private var capacity: Int
  @exclusivity(unchecked) private var count = 0

  init(capacity: Int = 256) {
    self.capacity = capacity
    slots = Self.emptySlots(capacity)
  }

  deinit {
    for index in 0..<capacity { slots[index].piece?.release() }
    slots.deallocate()
  }

  private static func emptySlots(_ capacity: Int) -> UnsafeMutablePointer<Slot> {
    let slots = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
    slots.initialize(repeating: Slot(key: 0, piece: nil), count: capacity)
    return slots
  }

  /// The piece stored under `key` (0 is never a key: `PieceHash` sets the lowest bit), not
  /// retained: it lives while the table holds it (until the table is replaced, `keepToLimit`).
  func find(_ key: UInt64) -> Unmanaged<ThreadCache.Piece>? {
    let mask = capacity - 1
    var slot = Int(truncatingIfNeeded: key >> 7) & mask
    while slots[slot].key != 0 {
      if slots[slot].key == key { return slots[slot].piece }
      slot = (slot + 1) & mask
    }
    return nil
  }

  /// Asks for the slot of `key` to be brought into the processor's cache, for `find(_:into:)`.
  func prefetch(_ key: UInt64) {
    swiftshape_prefetch(slots + (Int(truncatingIfNeeded: key >> 7) & (capacity - 1)))
  }

  /// Appends to `found` the piece stored under each of `keys` (nil where none), each piece found
  /// asked for (`Piece.prefetch`), for the caller to compare with its text; each slot was asked
  /// for (`prefetch`) as its key was made.
  ///
  /// Speed: looked up and compared one at a time, most of the time of comparing a piece was spent
  /// waiting for its memory (`perf annotate`). The mixed text, each line a paragraph in DejaVu
  /// Sans, each piece's text before its glyphs: 13% less time with the pieces asked for, 4% more
  /// with the slots (`perf stat`, paired runs); the English text, four copies: within noise. (The
  /// slots asked for all at once after the keys were made, the lookups waited for them: 2% more
  /// time than as each key is made.)
  func find(_ keys: [UInt64], into found: inout [Unmanaged<ThreadCache.Piece>?]) {
    for key in keys {
      let stored = find(key)
      if let stored { ThreadCache.Piece.prefetch(stored) }
      found.append(stored)
    }
  }

  /// Stores `piece` under `key`, unless a piece is stored under it already (of another text
  /// whose hash is the same: the one stored may be in use by the line, not retained); whether it
  /// was stored.
  @discardableResult
  func insert(_ key: UInt64, _ piece: ThreadCache.Piece) -> Bool {
    if (count + 1) * 2 > capacity { grow() }
    let mask = capacity - 1
    var slot = Int(truncatingIfNeeded: key >> 7) & mask
    while slots[slot].key != 0 {
      if slots[slot].key == key { return false }
      slot = (slot + 1) & mask
    }
    count += 1
    slots[slot] = Slot(key: key, piece: Unmanaged.passRetained(piece))
    return true
  }

  /// Calls `body` with each piece stored and its key.
  func forEach(_ body: (UInt64, ThreadCache.Piece) -> Void) {
    for index in 0..<capacity {
      if let piece = slots[index].piece { body(slots[index].key, piece.takeUnretainedValue()) }
    }
  }

  private func grow() {
    let (old, oldCapacity) = (slots, capacity)
    capacity = oldCapacity * 2
    slots = Self.emptySlots(capacity)
    let mask = capacity - 1
    for index in 0..<oldCapacity where old[index].key != 0 {
      var slot = Int(truncatingIfNeeded: old[index].key >> 7) & mask
      while slots[slot].key != 0 { slot = (slot + 1) & mask }
      slots[slot] = old[index]
    }
    old.deallocate()
  }
}

/// A piece's key in a table: a 64-bit hash of its bytes and edges (a match is then compared
/// byte for byte).
enum PieceHash {
  /// A piece's key: its bytes read a word at a time (short pieces in at most two overlapping
  /// loads, as wyhash reads them), each word mixed in with a rotation and a multiply, the length
  /// and edges in the seed, and the whole mixed at the end (MurmurHash3's finalizer) so that the
  /// bits the table takes its slots from depend on every byte. A piece found under its key is
  /// compared with the text (`Piece.holds`), so a collision costs a lookup, never a wrong glyph.
  /// (FNV-1a, a byte at a time, took 75 instructions a word of English, 11 a byte; callgrind.)
  static func of(_ bytes: UnsafeBufferPointer<UInt8>, edges: UInt8) -> UInt64 {
    let count = bytes.count
    var hash = (0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: count) << 8 ^ UInt64(edges)) &* multiplier
    if let base = bytes.baseAddress, count > 0 {
      let raw = UnsafeRawPointer(base)
      if count < 4 {
        mix(&hash, UInt64(base[0]) << 16 | UInt64(base[count >> 1]) << 8 | UInt64(base[count - 1]))
      } else if count <= 8 {
        mix(
          &hash,
          UInt64(raw.loadUnaligned(as: UInt32.self)) << 32
            | UInt64(raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)))
      } else {
        var offset = 0
        while offset + 8 < count {
          mix(&hash, raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
          offset += 8
        }
        mix(&hash, raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
      }
    }
    hash ^= hash >> 33
    hash &*= 0xFF51_AFD7_ED55_8CCD
    hash ^= hash >> 33
    hash &*= 0xC4CE_B9FE_1A85_EC53
    hash ^= hash >> 33
    return hash | 1
  }

  private static let multiplier: UInt64 = 0x517C_C1B7_2722_0A95

  private static func mix(_ hash: inout UInt64, _ word: UInt64) {
    hash = (hash.rotatedLeft(5) ^ word) &* multiplier
  }
}

extension UInt64 {
  fileprivate func rotatedLeft(_ count: UInt64) -> UInt64 { self << count | self >> (64 - count) }
}

extension ShapingFont {
  /// Gives glyphs copied out of the cache's pieces (`PieceGlyph.write`) the names and extents
  /// `options` ask for, as shaping gives them.
  func finishGlyphs(_ glyphs: UnsafeMutableBufferPointer<ShapedGlyph>, options: ShapeOptions) {
    finishGlyphs(glyphs, names: options.includeGlyphNames, extents: options.includeExtents)
  }

  /// Gives glyphs copied out of the cache's pieces their names, their extents, or both.
  func finishGlyphs(_ glyphs: UnsafeMutableBufferPointer<ShapedGlyph>, names: Bool, extents: Bool) {
    if names { self.names.fill(glyphs, font: font) }
    if extents {
      for index in glyphs.indices { glyphs[index].extents = font.glyphExtents(glyphs[index].id) }
    }
  }
}
