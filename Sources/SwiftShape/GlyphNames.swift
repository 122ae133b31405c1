import HarfBuzz

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The glyph names of one font looked up so far, by glyph ID, shared by the threads that shape
/// with it. Looking names up takes a read lock, which threads hold together; a name is added under
/// the write lock, the first time its glyph is seen. (A plain mutex here made two shaping threads
/// wait for each other on nearly every line.)
final class GlyphNames: @unchecked Sendable {
  // @unchecked: `names` is read only under the read lock and changed only under the write lock.
  private var names: [InternedName?] = []
  private let lock: UnsafeMutablePointer<pthread_rwlock_t>

  init() {
    lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
    pthread_rwlock_init(lock, nil)
  }

  deinit {
    pthread_rwlock_destroy(lock)
    lock.deallocate()
  }

  /// Replaces `glyphs` with the buffer's glyphs with their names (reusing the array's storage, as
  /// `ShapedGlyph.fill` does): `label` gives the name of a glyph not seen before.
  func fill(_ glyphs: inout [ShapedGlyph], from buffer: Buffer, glyphCount: Int, label: (UInt32) -> String) {
    var missing = false
    pthread_rwlock_rdlock(lock)
    ShapedGlyph.fill(&glyphs, from: buffer) { glyph in
      let index = Int(glyph.id)
      if index < names.count, let name = names[index] {
        glyph.internedName = name
      } else {
        missing = true
      }
    }
    pthread_rwlock_unlock(lock)
    guard missing else { return }
    pthread_rwlock_wrlock(lock)
    defer { pthread_rwlock_unlock(lock) }
    for position in glyphs.indices where glyphs[position].internedName == nil {
      let index = Int(glyphs[position].id)
      if index < names.count, let name = names[index] {
        glyphs[position].internedName = name
        continue
      }
      let name = InternedName(label(glyphs[position].id))
      // The cache grows to the highest glyph ID seen (never past the font's glyphs), so shaping a
      // word does not fill an array as long as the font.
      if index >= names.count, index < glyphCount {
        names.append(contentsOf: repeatElement(nil, count: index + 1 - names.count))
      }
      if index < names.count { names[index] = name }
      glyphs[position].internedName = name
    }
  }
}
