import CHarfBuzz

/// One font face: a font file, or one font of a collection (`.ttc`, `.otc`).
///
/// A face is made immutable when created, so it may be shared between threads: HarfBuzz loads its
/// tables lazily with atomic operations.
///
/// The corresponding C type is `hb_face_t`.
public final class Face: @unchecked Sendable {
  // > Some objects are thread-safe after they have been constructed and set up. The general
  // > pattern is to create() the object, make a few set_*() calls to set up the object, and then
  // > use it without further modification.
  // https://harfbuzz.github.io/object-model-lifecycle.html
  // The face is made immutable (hb_face_make_immutable) in init, before it is published; the
  // tables it loads lazily are installed with atomic compare-and-swap.
  let pointer: OpaquePointer

  /// The blob the face reads from. HarfBuzz keeps its own reference; this one lets `table(_:)`
  /// and the validation read the bytes.
  public let blob: Blob

  /// The face's index in its file; 0 for a single font.
  public let index: Int

  /// Opens face `index` of the font in `blob` and checks that it is usable.
  ///
  /// - Parameters:
  ///   - blob: a font file's bytes.
  ///   - index: the face's index in a collection; 0 for a single font.
  ///   - name: how errors name the input, e.g. the file's path.
  ///   - allowingMissingFace: give HarfBuzz's empty face (no tables, no glyphs, 1000 units per em)
  ///     for an index past the last face instead of failing, as hb-shape does.
  /// - Throws: `HarfBuzzError` with kind `.notAFont` when the bytes are not a font or collection,
  ///   `.faceIndexOutOfRange` when `index` is past the last face, `.corruptFont` when a table
  ///   record points outside the file or the face has no glyphs.
  ///
  /// The corresponding C function is `hb_face_create`.
  public init(blob: Blob, index: Int = 0, name: String = "font", allowingMissingFace: Bool = false) throws {
    let count = Face.count(in: blob)
    guard count > 0 else {
      throw HarfBuzzError(
        .notAFont, input: name, reason: "not a font file (no OpenType, TrueType or collection header)")
    }
    if allowingMissingFace, index >= count, index <= Int(UInt32.max) {
      pointer = hb_face_create(blob.pointer, UInt32(index))!
      hb_face_make_immutable(pointer)
      self.blob = blob
      self.index = index
      return
    }
    guard index >= 0, index < count else {
      throw HarfBuzzError(
        .faceIndexOutOfRange(count: count), input: name,
        reason: "face index \(index) is out of range (the file has \(count) face\(count == 1 ? "" : "s"))")
    }
    try blob.withUnsafeBytes { try SFNTDirectory.validate($0, faceIndex: index, name: name) }
    let face = hb_face_create(blob.pointer, UInt32(index))!  // never NULL: the empty face at worst
    hb_face_make_immutable(face)
    self.pointer = face
    self.blob = blob
    self.index = index
    guard glyphCount > 0 else {
      throw HarfBuzzError(
        .corruptFont, input: name, reason: "the font has no glyphs (maxp is missing or empty)")
    }
  }

  deinit { hb_face_destroy(pointer) }

  /// The number of faces in a font file: 1 for a single font, the number of fonts in a collection,
  /// 0 when the bytes are not a font.
  ///
  /// The corresponding C function is `hb_face_count`.
  public static func count(in blob: Blob) -> Int { Int(hb_face_count(blob.pointer)) }

  /// Units per em, from the `head` table.
  ///
  /// The corresponding C function is `hb_face_get_upem`.
  public var unitsPerEm: Int { Int(hb_face_get_upem(pointer)) }

  /// The number of glyphs, from the `maxp` table.
  ///
  /// The corresponding C function is `hb_face_get_glyph_count`.
  public var glyphCount: Int { Int(hb_face_get_glyph_count(pointer)) }

  /// The tags of the face's tables, in the order of its table directory.
  ///
  /// The corresponding C function is `hb_face_get_table_tags`.
  public var tableTags: [OpenTypeTag] {
    var tags: [OpenTypeTag] = []
    var start: UInt32 = 0
    var chunk = [hb_tag_t](repeating: 0, count: 64)
    while true {
      var count = UInt32(chunk.count)
      let total = hb_face_get_table_tags(pointer, start, &count, &chunk)
      tags += chunk.prefix(Int(count)).map { OpenTypeTag(rawValue: $0) }
      start += count
      if count == 0 || start >= total { return tags }
    }
  }

  /// A copy of a table's bytes, or nil when the face has no such table.
  ///
  /// The corresponding C function is `hb_face_reference_table`.
  public func table(_ tag: OpenTypeTag) -> [UInt8]? {
    let table = Blob(takingOwnership: hb_face_reference_table(pointer, tag.rawValue))
    guard table.count > 0 || tableTags.contains(tag) else { return nil }
    return table.bytes
  }

  /// The Unicode code points the face's `cmap` maps to a glyph, in ascending order.
  ///
  /// The corresponding C function is `hb_face_collect_unicodes`.
  public var unicodes: [Unicode.Scalar] {
    let set = hb_set_create()
    defer { hb_set_destroy(set) }
    hb_face_collect_unicodes(pointer, set)
    var result: [Unicode.Scalar] = []
    result.reserveCapacity(Int(hb_set_get_population(set)))
    var codepoint = UInt32.max  // HB_SET_VALUE_INVALID: start before the first element
    while hb_set_next(set, &codepoint) != 0 {
      if let scalar = Unicode.Scalar(codepoint) { result.append(scalar) }
    }
    return result
  }
}

/// Checks the part of a font file HarfBuzz trusts without sanitizing: the table directory.
///
/// HarfBuzz clamps a table record that points outside the file to what is there and shapes on, so
/// a truncated font would shape as if some tables were empty. SwiftShape reports it instead.
enum SFNTDirectory {
  static func validate(_ bytes: UnsafeRawBufferPointer, faceIndex: Int, name: String) throws {
    func u32(_ offset: Int) -> UInt32? {
      guard offset >= 0, offset + 4 <= bytes.count else { return nil }
      return (0..<4).reduce(0) { $0 << 8 | UInt32(bytes[offset + $1]) }
    }
    func u16(_ offset: Int) -> Int? {
      guard offset >= 0, offset + 2 <= bytes.count else { return nil }
      return Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
    }
    func corrupt(_ reason: String) -> HarfBuzzError {
      HarfBuzzError(.corruptFont, input: name, reason: "corrupt font: \(reason)")
    }
    var fontOffset = 0
    switch u32(0) {
    case 0x7474_6366:  // 'ttcf'
      guard let offset = u32(12 + 4 * faceIndex) else { throw corrupt("the collection header is truncated") }
      fontOffset = Int(offset)
    case 0x0001_0000, 0x4F54_544F, 0x7472_7565, 0x7479_7031:  // TrueType, 'OTTO', 'true', 'typ1'
      break
    default:
      // A Mac resource-fork font (.dfont): HarfBuzz finds and sanitizes its sfnt resources itself.
      return
    }
    guard let tableCount = u16(fontOffset + 4) else { throw corrupt("the table directory is truncated") }
    guard tableCount > 0 else { throw corrupt("the font has no tables") }
    for record in 0..<tableCount {
      let base = fontOffset + 12 + 16 * record
      guard let tag = u32(base), let offset = u32(base + 8), let length = u32(base + 12) else {
        throw corrupt("the table directory is truncated (\(tableCount) tables declared)")
      }
      if UInt64(offset) + UInt64(length) > UInt64(bytes.count) {
        throw corrupt(
          "table '\(OpenTypeTag(rawValue: tag))' lies outside the file (offset \(offset), length \(length), file size \(bytes.count))"
        )
      }
    }
  }
}

extension Face {
  /// A name-table entry ID (OpenType `name` IDs). The corresponding C type is `hb_ot_name_id_t`.
  public struct NameID: RawRepresentable, Hashable, Sendable {
    /// The raw value.
    public var rawValue: UInt32
    /// The value with this raw value.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Name ID 0: the copyright notice.
    public static let copyright = NameID(rawValue: 0)
    /// Name ID 1: the family.
    public static let family = NameID(rawValue: 1)
    /// Name ID 2: the subfamily (style).
    public static let subfamily = NameID(rawValue: 2)
    /// Name ID 3: the unique identifier.
    public static let uniqueID = NameID(rawValue: 3)
    /// Name ID 4: the full name.
    public static let fullName = NameID(rawValue: 4)
    /// Name ID 5: the version string.
    public static let version = NameID(rawValue: 5)
    /// Name ID 6: the PostScript name.
    public static let postScriptName = NameID(rawValue: 6)
    /// Name ID 16: the typographic family.
    public static let typographicFamily = NameID(rawValue: 16)
    /// Name ID 17: the typographic subfamily.
    public static let typographicSubfamily = NameID(rawValue: 17)
  }

  /// A name from the `name` table in English (or the first language HarfBuzz falls back to), or
  /// nil when the face has no such name.
  ///
  /// The corresponding C function is `hb_ot_name_get_utf8`.
  public func name(_ id: NameID, language: Language? = nil) -> String? {
    let lang = language?.raw ?? hb_language_from_string("en", -1)
    var size: UInt32 = 0
    let length = hb_ot_name_get_utf8(pointer, id.rawValue, lang, &size, nil)
    guard length > 0 else { return nil }
    var chars = [CChar](repeating: 0, count: Int(length) + 1)
    size = UInt32(chars.count)
    hb_ot_name_get_utf8(pointer, id.rawValue, lang, &size, &chars)
    return String(cChars: chars)
  }
}

extension Face {
  /// The face loaders this HarfBuzz has, its default first (`ot`, `ft`, … from HarfBuzz 11.0.0;
  /// `ot` alone before). SwiftShape loads every face with `ot`, HarfBuzz's own.
  ///
  /// The corresponding C function is `hb_face_list_loaders`.
  public static let loaders: [String] = cStrings(swiftshape_hb_face_list_loaders())
}
