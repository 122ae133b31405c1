import CHarfBuzz

/// An OpenType feature setting over a range of clusters: `kern`, `-liga`, `aalt=2`, `kern[3:5]`.
///
/// The corresponding C type is `hb_feature_t`.
public struct Feature: Hashable, Sendable, HarfBuzzSyntax {
  /// The feature's tag.
  public var tag: OpenTypeTag
  /// The value: 0 turns the feature off, 1 on, larger values pick an alternate.
  public var value: UInt32
  /// The first cluster the setting applies to.
  public var start: UInt32
  /// One past the last cluster the setting applies to; `Feature.globalEnd` for the end of the text.
  public var end: UInt32

  /// The `end` that means "to the end of the buffer" (`HB_FEATURE_GLOBAL_END`, `(unsigned int) -1`
  /// in every release; `SystemLibraryTests` checks it against the header's).
  /// (A constant, not read through the C function: as a global initialized at run time, each read
  /// from another module went through its `swift_once` check.)
  public static let globalEnd: UInt32 = .max

  /// A feature setting; by default on, for the whole text.
  public init(_ tag: OpenTypeTag, value: UInt32 = 1, start: UInt32 = 0, end: UInt32 = Feature.globalEnd) {
    self.tag = tag
    self.value = value
    self.start = start
    self.end = end
  }

  /// Parses HarfBuzz's feature syntax: `kern`, `+kern`, `-kern`, `kern=0`, `aalt=2`, `kern[3:5]`,
  /// `kern[3:]`, `kern[5]`, `aalt[3:5]=2`.
  ///
  /// - Throws: `HarfBuzzError` with kind `.invalidSyntax` when HarfBuzz does not accept the string.
  ///
  /// The corresponding C function is `hb_feature_from_string`.
  public init(parsing string: String) throws {
    var raw = hb_feature_t()
    guard !string.isEmpty, hb_feature_from_string(string, Int32(clamping: string.utf8.count), &raw) != 0
    else {
      throw HarfBuzzError(
        .invalidSyntax, input: string,
        reason: "not a feature (e.g. kern, -liga, aalt=2, kern[3:5])")
    }
    self.init(OpenTypeTag(rawValue: raw.tag), value: raw.value, start: raw.start, end: raw.end)
  }

  /// What HarfBuzz makes of the string, nil where it does not parse: `init(parsing:)` without the
  /// error, for lists that skip what does not parse, as hb-shape's `--features` does.
  ///
  /// The corresponding C function is `hb_feature_from_string`.
  public init?(harfBuzzString string: Substring) {
    var raw = hb_feature_t()
    let parsed = String(string).withCString {
      hb_feature_from_string($0, Int32(clamping: string.utf8.count), &raw)
    }
    guard !string.isEmpty, parsed != 0 else { return nil }
    self.init(OpenTypeTag(rawValue: raw.tag), value: raw.value, start: raw.start, end: raw.end)
  }

  var raw: hb_feature_t { hb_feature_t(tag: tag.rawValue, value: value, start: start, end: end) }

  /// The feature in HarfBuzz's syntax, as `hb_feature_to_string` writes it.
  public var description: String {
    var raw = self.raw
    var chars = [CChar](repeating: 0, count: 128)
    hb_feature_to_string(&raw, &chars, UInt32(chars.count))
    return String(cChars: chars)
  }
}

/// A variation-axis setting in design coordinates: `wght=700`, `wdth=75.5`.
///
/// The corresponding C type is `hb_variation_t`.
public struct Variation: Hashable, Sendable, HarfBuzzSyntax {
  /// The axis tag (`wght`, `wdth`, `opsz`, …).
  public var tag: OpenTypeTag
  /// The position on the axis, in the axis's design units.
  public var value: Float

  /// A setting of `tag` to `value`.
  public init(_ tag: OpenTypeTag, _ value: Float) {
    self.tag = tag
    self.value = value
  }

  /// Parses HarfBuzz's variation syntax, `tag=value`.
  ///
  /// - Throws: `HarfBuzzError` with kind `.invalidSyntax` when HarfBuzz does not accept the string
  ///   or the value is not finite.
  ///
  /// The corresponding C function is `hb_variation_from_string`.
  public init(parsing string: String) throws {
    var raw = hb_variation_t()
    guard !string.isEmpty,
      hb_variation_from_string(string, Int32(clamping: string.utf8.count), &raw) != 0,
      raw.value.isFinite
    else {
      throw HarfBuzzError(
        .invalidSyntax, input: string, reason: "not a variation (e.g. wght=700, wdth=75.5)")
    }
    self.init(OpenTypeTag(rawValue: raw.tag), raw.value)
  }

  /// What HarfBuzz makes of the string, nil where it does not parse; unlike `init(parsing:)`, a
  /// value that is not finite is kept, as hb-shape's `--variations` keeps it.
  ///
  /// The corresponding C function is `hb_variation_from_string`.
  public init?(harfBuzzString string: Substring) {
    var raw = hb_variation_t()
    let parsed = String(string).withCString {
      hb_variation_from_string($0, Int32(clamping: string.utf8.count), &raw)
    }
    guard !string.isEmpty, parsed != 0 else { return nil }
    self.init(OpenTypeTag(rawValue: raw.tag), raw.value)
  }

  var raw: hb_variation_t { hb_variation_t(tag: tag.rawValue, value: value) }

  /// The variation in HarfBuzz's syntax, as `hb_variation_to_string` writes it.
  public var description: String {
    var raw = self.raw
    var chars = [CChar](repeating: 0, count: 128)
    hb_variation_to_string(&raw, &chars, UInt32(chars.count))
    return String(cChars: chars)
  }
}
