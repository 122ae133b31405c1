import CHarfBuzz

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Text to shape and, after shaping, the glyphs it became.
///
/// A buffer is mutable scratch space: create one per shaping call (or reuse one on one thread).
/// It is deliberately not `Sendable`.
///
/// The corresponding C type is `hb_buffer_t`.
public final class Buffer {
  // A buffer is changed by every call that uses it (adding text, shaping), so it is never
  // thread-safe; it is not Sendable (see the unavailable conformance below).
  @usableFromInline let pointer: OpaquePointer

  /// An empty buffer.
  ///
  /// - Throws: `HarfBuzzError` with kind `.allocationFailed` when HarfBuzz cannot allocate it.
  ///
  /// The corresponding C function is `hb_buffer_create`.
  public init() throws {
    let buffer = hb_buffer_create()!  // never NULL: the inert empty buffer at worst
    guard hb_buffer_allocation_successful(buffer) != 0 else {
      hb_buffer_destroy(buffer)
      throw HarfBuzzError(.allocationFailed, input: "buffer", reason: "cannot allocate a shaping buffer")
    }
    pointer = buffer
  }

  deinit { hb_buffer_destroy(pointer) }

  /// Empties the buffer and resets every property and flag, keeping its memory for reuse.
  ///
  /// The corresponding C function is `hb_buffer_reset`.
  public func reset() {
    hb_buffer_reset(pointer)
    hasSettings = false
  }

  /// Empties the buffer, its segment properties included, and keeps its other settings (flags,
  /// cluster level, replacement, invisible and not-found glyphs) and its memory.
  ///
  /// The corresponding C function is `hb_buffer_clear_contents`.
  public func clearContents() { hb_buffer_clear_contents(pointer) }

  /// The number of items: code points before shaping, glyphs after.
  public var count: Int { Int(hb_buffer_get_length(pointer)) }

  // MARK: Adding text

  /// Adds the code points of `item` from UTF-8 `text`; the rest of `text` is context that
  /// influences shaping but is not shaped. Clusters are byte offsets into `text`. Malformed
  /// sequences become the replacement code point.
  ///
  /// The corresponding C function is `hb_buffer_add_utf8`.
  public func add(utf8 text: UnsafeBufferPointer<UInt8>, item: Range<Int>? = nil) {
    let item = item ?? 0..<text.count
    text.withMemoryRebound(to: CChar.self) {
      hb_buffer_add_utf8(
        pointer, $0.baseAddress, Int32(clamping: $0.count), UInt32(item.lowerBound), Int32(item.count))
    }
  }

  /// Adds the code points of `item` from UTF-16 `text`; clusters are code-unit offsets.
  ///
  /// The corresponding C function is `hb_buffer_add_utf16`.
  public func add(utf16 text: UnsafeBufferPointer<UInt16>, item: Range<Int>? = nil) {
    let item = item ?? 0..<text.count
    hb_buffer_add_utf16(
      pointer, text.baseAddress, Int32(clamping: text.count), UInt32(item.lowerBound), Int32(item.count))
  }

  /// Adds the code points of `item` from UTF-32 `text`; clusters are code-point offsets. Values
  /// that are not Unicode scalars become the replacement code point.
  ///
  /// The corresponding C function is `hb_buffer_add_utf32`.
  public func add(utf32 text: UnsafeBufferPointer<UInt32>, item: Range<Int>? = nil) {
    let item = item ?? 0..<text.count
    hb_buffer_add_utf32(
      pointer, text.baseAddress, Int32(clamping: text.count), UInt32(item.lowerBound), Int32(item.count))
  }

  /// Adds code points as they are, without checking them; clusters are offsets into `text`.
  ///
  /// The corresponding C function is `hb_buffer_add_codepoints`.
  public func add(codePoints text: UnsafeBufferPointer<UInt32>, item: Range<Int>? = nil) {
    let item = item ?? 0..<text.count
    hb_buffer_add_codepoints(
      pointer, text.baseAddress, Int32(clamping: text.count), UInt32(item.lowerBound), Int32(item.count))
  }

  /// Numbers the items `start`, `start` + 1, … in their cluster values: what hb-shape does after
  /// adding UTF-8 text (from 0), so that clusters count characters rather than bytes.
  public func numberClustersByItem(from start: Int = 0) {
    var length: UInt32 = 0
    guard let infos = hb_buffer_get_glyph_infos(pointer, &length) else { return }
    for index in 0..<Int(length) { infos[index].cluster = UInt32(truncatingIfNeeded: start + index) }
  }

  // MARK: Segment properties

  /// The direction; nil until set or guessed.
  ///
  /// The corresponding C functions are `hb_buffer_set_direction` and `hb_buffer_get_direction`.
  public var direction: Direction? {
    get { Direction(hb_buffer_get_direction(pointer)) }
    set { hb_buffer_set_direction(pointer, newValue?.raw ?? HB_DIRECTION_INVALID) }
  }

  /// The script; nil until set or guessed.
  ///
  /// The corresponding C functions are `hb_buffer_set_script` and `hb_buffer_get_script`.
  public var script: Script? {
    get {
      let raw = hb_buffer_get_script(pointer)
      return raw == HB_SCRIPT_INVALID ? nil : Script(raw)
    }
    set { hb_buffer_set_script(pointer, newValue?.raw ?? HB_SCRIPT_INVALID) }
  }

  /// The language; nil until set or guessed.
  ///
  /// The corresponding C functions are `hb_buffer_set_language` and `hb_buffer_get_language`.
  public var language: Language? {
    get { hb_buffer_get_language(pointer).map(Language.init) }
    set { hb_buffer_set_language(pointer, newValue?.raw) }
  }

  /// Fills in the direction, script and language that are not set: the script from the text, the
  /// direction from the script, the language from the process's locale.
  ///
  /// The corresponding C function is `hb_buffer_guess_segment_properties`.
  public func guessSegmentProperties() { hb_buffer_guess_segment_properties(pointer) }

  // MARK: Flags and special glyphs

  /// Flags that change how the buffer is shaped. The corresponding C type is `hb_buffer_flags_t`.
  public struct Flags: OptionSet, Sendable, Hashable, Codable {
    /// The raw value.
    public let rawValue: UInt32
    /// The value with this raw value.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The text starts a paragraph (`HB_BUFFER_FLAG_BOT`).
    public static let beginningOfText = Flags(rawValue: HB_BUFFER_FLAG_BOT.rawValue)
    /// The text ends a paragraph (`HB_BUFFER_FLAG_EOT`).
    public static let endOfText = Flags(rawValue: HB_BUFFER_FLAG_EOT.rawValue)
    /// Keep default-ignorable characters visible (`HB_BUFFER_FLAG_PRESERVE_DEFAULT_IGNORABLES`).
    public static let preserveDefaultIgnorables = Flags(
      rawValue: HB_BUFFER_FLAG_PRESERVE_DEFAULT_IGNORABLES.rawValue)
    /// Remove default-ignorable characters (`HB_BUFFER_FLAG_REMOVE_DEFAULT_IGNORABLES`).
    public static let removeDefaultIgnorables = Flags(
      rawValue: HB_BUFFER_FLAG_REMOVE_DEFAULT_IGNORABLES.rawValue)
    /// Do not insert a dotted circle before a broken cluster
    /// (`HB_BUFFER_FLAG_DO_NOT_INSERT_DOTTED_CIRCLE`).
    public static let doNotInsertDottedCircle = Flags(
      rawValue: HB_BUFFER_FLAG_DO_NOT_INSERT_DOTTED_CIRCLE.rawValue)
    /// Check the result while shaping (`HB_BUFFER_FLAG_VERIFY`).
    public static let verify = Flags(rawValue: HB_BUFFER_FLAG_VERIFY.rawValue)
    /// Compute the unsafe-to-concat glyph flag (`HB_BUFFER_FLAG_PRODUCE_UNSAFE_TO_CONCAT`).
    public static let produceUnsafeToConcat = Flags(
      rawValue: HB_BUFFER_FLAG_PRODUCE_UNSAFE_TO_CONCAT.rawValue)
    /// Compute the safe-to-insert-tatweel glyph flag
    /// (`HB_BUFFER_FLAG_PRODUCE_SAFE_TO_INSERT_TATWEEL`).
    public static let produceSafeToInsertTatweel = Flags(
      rawValue: HB_BUFFER_FLAG_PRODUCE_SAFE_TO_INSERT_TATWEEL.rawValue)
  }

  /// The flags. The corresponding C function is `hb_buffer_set_flags`.
  public var flags: Flags {
    get { Flags(rawValue: hb_buffer_get_flags(pointer).rawValue) }
    set {
      hb_buffer_set_flags(pointer, hb_buffer_flags_t(rawValue: newValue.rawValue))
      hasSettings = true
    }
  }

  /// How characters are grouped into clusters. The corresponding C type is
  /// `hb_buffer_cluster_level_t`.
  ///
  /// HarfBuzz defines three levels, four from 11.0.0 (`allCases`); it takes any other value too, as hb-shape's
  /// `--cluster-level` passes it on, and treats it as unlike each of the three wherever it
  /// compares.
  public struct ClusterLevel: RawRepresentable, Sendable, Hashable, CaseIterable, Codable {
    /// The level's number: 0 to 2 (3 from HarfBuzz 11.0.0) for HarfBuzz's own.
    public var rawValue: Int32

    /// The level of this number, defined or not.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Marks and base merged, clusters monotone (HarfBuzz's default).
    public static let monotoneGraphemes = ClusterLevel(rawValue: 0)
    /// Clusters monotone, marks kept apart.
    public static let monotoneCharacters = ClusterLevel(rawValue: 1)
    /// Every character its own cluster, clusters in glyph order.
    public static let characters = ClusterLevel(rawValue: 2)

    /// Graphemes merged as at level 0, without monotone order (HarfBuzz 11.0.0 and later:
    /// `EngineFeature.clusterLevelGraphemes`).
    public static let graphemes = ClusterLevel(rawValue: 3)

    /// The levels HarfBuzz defines: 0 to 2, and 3 where SwiftShape was built with HarfBuzz 11.0.0
    /// or later.
    public static let allCases: [ClusterLevel] =
      [.monotoneGraphemes, .monotoneCharacters, .characters]
      + (swiftshape_hb_has_cluster_level_graphemes() ? [.graphemes] : [])

    /// The defined level of this number, nil for any other.
    public init?(defined rawValue: Int) {
      guard let level = ClusterLevel.allCases.first(where: { Int($0.rawValue) == rawValue }) else {
        return nil
      }
      self = level
    }

    /// Whether HarfBuzz defines this level.
    public var isDefined: Bool { ClusterLevel.allCases.contains(self) }
  }

  /// The cluster level. The corresponding C function is `hb_buffer_set_cluster_level`.
  public var clusterLevel: ClusterLevel {
    get { ClusterLevel(rawValue: Int32(bitPattern: hb_buffer_get_cluster_level(pointer).rawValue)) }
    set {
      hb_buffer_set_cluster_level(
        pointer, hb_buffer_cluster_level_t(rawValue: UInt32(bitPattern: newValue.rawValue)))
      hasSettings = true
    }
  }

  /// The glyph that replaces default-ignorable characters; 0 hides them (the default).
  ///
  /// The corresponding C function is `hb_buffer_set_invisible_glyph`.
  public var invisibleGlyph: UInt32 {
    get { hb_buffer_get_invisible_glyph(pointer) }
    set {
      hb_buffer_set_invisible_glyph(pointer, newValue)
      hasSettings = true
    }
  }

  /// Sets the glyph a variation selector becomes when the font does not map it with its base
  /// (by default it is removed); returns false, and sets nothing, when SwiftShape was built with a
  /// HarfBuzz before 10.0.0 (`EngineFeature.notFoundVariationSelectorGlyph`).
  ///
  /// The corresponding C function is `hb_buffer_set_not_found_variation_selector_glyph`.
  @discardableResult
  public func setNotFoundVariationSelectorGlyph(_ glyph: UInt32) -> Bool {
    hasSettings = true
    return swiftshape_hb_buffer_set_not_found_variation_selector_glyph(pointer, glyph)
  }

  /// The glyph for characters the font does not cover; 0, `.notdef`, by default.
  ///
  /// The corresponding C function is `hb_buffer_set_not_found_glyph`.
  public var notFoundGlyph: UInt32 {
    get { hb_buffer_get_not_found_glyph(pointer) }
    set {
      hb_buffer_set_not_found_glyph(pointer, newValue)
      hasSettings = true
    }
  }

  /// The code point that replaces malformed input text (U+FFFD by default).
  ///
  /// The corresponding C function is `hb_buffer_set_replacement_codepoint`.
  public var replacementCodePoint: UInt32 {
    get { hb_buffer_get_replacement_codepoint(pointer) }
    set {
      hb_buffer_set_replacement_codepoint(pointer, newValue)
      hasSettings = true
    }
  }

  // MARK: Results

  /// What the buffer holds: code points (before shaping, and at the start of it), or glyphs.
  public enum ContentType: Sendable, Hashable {
    /// Nothing has been added yet (`HB_BUFFER_CONTENT_TYPE_INVALID`).
    case empty
    /// Unicode code points (`HB_BUFFER_CONTENT_TYPE_UNICODE`).
    case unicode
    /// Glyph IDs (`HB_BUFFER_CONTENT_TYPE_GLYPHS`).
    case glyphs
  }

  /// What the buffer holds. The corresponding C function is `hb_buffer_get_content_type`.
  public var contentType: ContentType {
    switch hb_buffer_get_content_type(pointer) {
    case HB_BUFFER_CONTENT_TYPE_UNICODE: .unicode
    case HB_BUFFER_CONTENT_TYPE_GLYPHS: .glyphs
    default: .empty
    }
  }

  /// Whether the buffer holds positions: true after shaping, false while substitution runs.
  ///
  /// The corresponding C function is `hb_buffer_has_positions`.
  @inlinable
  public var hasPositions: Bool { hb_buffer_has_positions(pointer) != 0 }

  /// Copies the glyphs out of the buffer: after shaping, or while it is being shaped (from a
  /// message handler), when positions may not exist yet and are then reported as zero.
  ///
  /// The corresponding C functions are `hb_buffer_get_glyph_infos` and
  /// `hb_buffer_get_glyph_positions`; the arrays they return are valid only until the buffer
  /// changes, so they are copied here at once. Positions are read only when the buffer has them:
  /// asking for them otherwise would clear storage HarfBuzz is using mid-shaping.
  public func glyphs() -> [GlyphRecord] { glyphs { $0 } }

  /// The glyphs, each made into a value by `transform` as it is read out of the buffer (one array,
  /// no intermediate copy).
  @inlinable
  public func glyphs<Value>(_ transform: (GlyphRecord) -> Value) -> [Value] {
    // (An empty buffer gives `[]`: `init(unsafeUninitializedCapacity: 0)` writes the count of the
    // standard library's shared empty array, which ThreadSanitizer reports as a race.)
    guard count > 0 else { return [] }
    return [Value](unsafeUninitializedCapacity: count) { storage, initialized in
      initialized = forEachGlyph { index, record in
        (storage.baseAddress! + index).initialize(to: transform(record))
      }
    }
  }

  /// Calls `body` with each glyph's index and record, in order, reading the buffer in place (for a
  /// caller that fills storage of its own; `glyphs(_:)` makes an array). Returns how many there are.
  @inlinable @discardableResult
  public func forEachGlyph(_ body: (Int, GlyphRecord) -> Void) -> Int {
    var length: UInt32 = 0
    guard let infos = hb_buffer_get_glyph_infos(pointer, &length), length > 0 else { return 0 }
    let positions = hasPositions ? hb_buffer_get_glyph_positions(pointer, nil) : nil
    for index in 0..<Int(length) {
      let info = infos[index]
      let position = positions?[index] ?? hb_glyph_position_t()
      body(
        index,
        GlyphRecord(
          glyph: info.codepoint, cluster: info.cluster, xAdvance: position.x_advance,
          yAdvance: position.y_advance, xOffset: position.x_offset, yOffset: position.y_offset,
          flags: GlyphFlags(rawValue: info.mask & HB_GLYPH_FLAG_DEFINED.rawValue)))
    }
    return Int(length)
  }

  /// Reorders the glyphs of each cluster into a canonical order, so that equivalent results
  /// compare equal (hb-shape's `--normalize-glyphs`).
  ///
  /// The corresponding C function is `hb_buffer_normalize_glyphs`.
  public func normalizeGlyphs() { hb_buffer_normalize_glyphs(pointer) }

  /// A handler for HarfBuzz's messages while shaping: trace messages (`start lookup 3 feature
  /// 'liga'`) and, with the `verify` flag, verification errors (`buffer verify error: …`). The
  /// handler may read the buffer (`glyphs()`, `hasPositions`), must not change it, and returns
  /// whether shaping should go on (HarfBuzz then skips the step the message announced).
  ///
  /// The corresponding C function is `hb_buffer_set_message_func`.
  public var messageHandler: ((String) -> Bool)? {
    get { messageBox?.handler }
    set {
      guard let newValue else {
        // With no box, HarfBuzz holds no function either (only this setter sets one).
        guard messageBox != nil else { return }
        hb_buffer_set_message_func(pointer, nil, nil, nil)
        messageBox = nil
        return
      }
      let box = MessageBox(newValue)
      messageBox = box
      // HarfBuzz holds an unretained pointer; `messageBox` keeps the box alive as long as the
      // buffer, and the next set (or deinit) replaces the function before the box goes.
      hb_buffer_set_message_func(
        pointer,
        { _, _, message, userData in
          guard let userData, let message else { return 1 }
          let box = Unmanaged<MessageBox>.fromOpaque(userData).takeUnretainedValue()
          return box.handler(String(cString: message)) ? 1 : 0
        }, Unmanaged.passUnretained(box).toOpaque(), nil)
    }
  }
  private var messageBox: MessageBox?
  /// Whether `withReusable` has lent this buffer (its thread's) to a caller that has not returned.
  var isLent = false
  /// Whether a setting that `reset` undoes and `clearContents` keeps may have been changed since
  /// the last reset.
  var hasSettings = false
}

/// Holds a buffer's message handler for HarfBuzz's C callback.
private final class MessageBox {
  let handler: (String) -> Bool
  init(_ handler: @escaping (String) -> Bool) { self.handler = handler }
}

@available(*, unavailable, message: "hb_buffer_t is not thread-safe; use one buffer per thread")
extension Buffer: Sendable {}

/// One shaped glyph as HarfBuzz returns it: positions in the font's scale.
public struct GlyphRecord: Hashable, Sendable, Codable {
  /// The glyph ID.
  public var glyph: UInt32
  /// The cluster: the offset of the first input unit this glyph came from.
  public var cluster: UInt32
  /// How far the pen moves after the glyph, in the font's scale.
  public var xAdvance: Int32
  /// The vertical advance (vertical text).
  public var yAdvance: Int32
  /// How far the glyph is moved from the pen position without moving the pen.
  public var xOffset: Int32
  /// The vertical offset from the pen position.
  public var yOffset: Int32
  /// What may be done at this glyph without reshaping.
  public var flags: GlyphFlags

  /// A position with each field given.
  @inlinable
  public init(
    glyph: UInt32, cluster: UInt32, xAdvance: Int32, yAdvance: Int32, xOffset: Int32, yOffset: Int32,
    flags: GlyphFlags
  ) {
    (self.glyph, self.cluster, self.flags) = (glyph, cluster, flags)
    (self.xAdvance, self.yAdvance, self.xOffset, self.yOffset) = (xAdvance, yAdvance, xOffset, yOffset)
  }
}

/// Per-glyph flags. The corresponding C type is `hb_glyph_flags_t`.
public struct GlyphFlags: OptionSet, Hashable, Sendable, Codable, BitwiseCopyable {
  /// The raw value.
  public let rawValue: UInt32
  /// The value with this raw value.
  @inlinable public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// Breaking the line before this glyph's cluster needs reshaping
  /// (`HB_GLYPH_FLAG_UNSAFE_TO_BREAK`).
  public static let unsafeToBreak = GlyphFlags(rawValue: HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue)
  /// Joining separately shaped text here needs reshaping (`HB_GLYPH_FLAG_UNSAFE_TO_CONCAT`).
  public static let unsafeToConcat = GlyphFlags(rawValue: HB_GLYPH_FLAG_UNSAFE_TO_CONCAT.rawValue)
  /// A tatweel may be inserted before this glyph (`HB_GLYPH_FLAG_SAFE_TO_INSERT_TATWEEL`).
  public static let safeToInsertTatweel = GlyphFlags(
    rawValue: HB_GLYPH_FLAG_SAFE_TO_INSERT_TATWEEL.rawValue)
}
