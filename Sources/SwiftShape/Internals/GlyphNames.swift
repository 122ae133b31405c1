import HarfBuzz
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The glyph names of one font looked up so far, by glyph ID, shared by the threads that shape
/// with it without a lock: one atomic slot a glyph, empty until its name is first looked up, then
/// holding the interned name. Threads that look up the same new name at once store the same
/// interned name. (A lock here, even one readers share, made shaping threads pass the lock's
/// cache line back and forth at every line.)
final class GlyphNames: @unchecked Sendable {
  // @unchecked: the slots are only read and written atomically, and made once, under `mutex`.

  /// The address of the slots (one for each of the font's glyphs), 0 until names are first asked
  /// for: a font shaped without names takes no room for them.
  private let table = Atomic<UInt>(0)
  private let glyphCount: Int
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  init(glyphCount: Int) {
    self.glyphCount = glyphCount
    mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    if let slots = UnsafeMutablePointer<Atomic<UInt>>(bitPattern: table.load(ordering: .acquiring)) {
      slots.deinitialize(count: glyphCount)
      slots.deallocate()
    }
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// The slots, made the first time.
  private func slots() -> UnsafeMutablePointer<Atomic<UInt>> {
    if let slots = UnsafeMutablePointer<Atomic<UInt>>(bitPattern: table.load(ordering: .acquiring)) {
      return slots
    }
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    if let slots = UnsafeMutablePointer<Atomic<UInt>>(bitPattern: table.load(ordering: .acquiring)) {
      return slots
    }
    let slots = UnsafeMutablePointer<Atomic<UInt>>.allocate(capacity: max(glyphCount, 1))
    for index in 0..<glyphCount { (slots + index).initialize(to: Atomic(0)) }
    table.store(UInt(bitPattern: slots), ordering: .releasing)
    return slots
  }

  /// Replaces `glyphs` with the buffer's glyphs with their names (reusing the array's storage, as
  /// `ShapedGlyph.fill` does): `font` names a glyph not seen before.
  func fill(_ glyphs: inout [ShapedGlyph], from buffer: Buffer, font: Font) {
    // The closure captures plain values only: capturing this object or the font, it counted a
    // reference to each at every call, from every shaping thread (both live longer than the call).
    let slots = slots()
    let glyphCount = glyphCount
    let font = Unmanaged.passUnretained(font)
    ShapedGlyph.fill(&glyphs, from: buffer) { glyph in
      glyph.internedName = Self.name(of: glyph.id, slots: slots, glyphCount: glyphCount, font: font)
    }
  }

  /// Gives each of `glyphs` its name: `font` names a glyph not seen before.
  func fill(_ glyphs: UnsafeMutableBufferPointer<ShapedGlyph>, font: Font) {
    let slots = slots()
    let font = Unmanaged.passUnretained(font)
    for index in glyphs.indices {
      glyphs[index].internedName = Self.name(
        of: glyphs[index].id, slots: slots, glyphCount: glyphCount, font: font)
    }
  }

  /// The name of glyph `id`, from its slot, or from `font` (and then kept in its slot).
  @inline(__always)
  private static func name(
    of id: UInt32, slots: UnsafeMutablePointer<Atomic<UInt>>, glyphCount: Int, font: Unmanaged<Font>
  ) -> InternedName {
    let index = Int(id)
    // A glyph ID past the font's glyphs (a not-found glyph given by the options) is not kept.
    guard index < glyphCount else { return InternedName(font._withUnsafeGuaranteedRef { $0.glyphLabel(id) }) }
    if let name = InternedName(bits: slots[index].load(ordering: .acquiring)) { return name }
    let name = InternedName(font._withUnsafeGuaranteedRef { $0.glyphLabel(id) })
    slots[index].store(name.bits, ordering: .releasing)
    return name
  }
}
