import CHarfBuzz

/// The direction text is laid out in. The corresponding C type is `hb_direction_t`.
public enum Direction: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
  /// Left to right (`HB_DIRECTION_LTR`).
  case leftToRight = "ltr"
  /// Right to left (`HB_DIRECTION_RTL`).
  case rightToLeft = "rtl"
  /// Top to bottom (`HB_DIRECTION_TTB`).
  case topToBottom = "ttb"
  /// Bottom to top (`HB_DIRECTION_BTT`).
  case bottomToTop = "btt"

  /// Parses a direction the way HarfBuzz does: by its first letter, case-insensitively, so `ltr`,
  /// `l`, `LTR` and `left-to-right` are all left to right.
  ///
  /// - Throws: `HarfBuzzError` with kind `.invalidSyntax` when the string names no direction.
  ///
  /// The corresponding C function is `hb_direction_from_string`.
  public init(parsing string: String) throws {
    let raw = hb_direction_from_string(string, Int32(clamping: string.utf8.count))
    guard let direction = Direction(raw) else {
      throw HarfBuzzError(
        .invalidSyntax, input: string, reason: "not a direction (ltr, rtl, ttb or btt)")
    }
    self = direction
  }

  /// What HarfBuzz makes of the string, with no check of its own: a direction by the first letter,
  /// nil where HarfBuzz gives `HB_DIRECTION_INVALID` (hb-shape then guesses the direction).
  ///
  /// The corresponding C function is `hb_direction_from_string`.
  public init?(harfBuzzString string: String) {
    self.init(hb_direction_from_string(string, Int32(clamping: string.utf8.count)))
  }

  init?(_ raw: hb_direction_t) {
    switch raw {
    case HB_DIRECTION_LTR: self = .leftToRight
    case HB_DIRECTION_RTL: self = .rightToLeft
    case HB_DIRECTION_TTB: self = .topToBottom
    case HB_DIRECTION_BTT: self = .bottomToTop
    default: return nil
    }
  }

  var raw: hb_direction_t {
    switch self {
    case .leftToRight: HB_DIRECTION_LTR
    case .rightToLeft: HB_DIRECTION_RTL
    case .topToBottom: HB_DIRECTION_TTB
    case .bottomToTop: HB_DIRECTION_BTT
    }
  }

  /// Whether glyphs advance along x (`ltr`, `rtl`).
  public var isHorizontal: Bool { self == .leftToRight || self == .rightToLeft }

  /// Whether glyphs advance along y (`ttb`, `btt`).
  public var isVertical: Bool { !isHorizontal }

  /// Whether the text runs backward: `rtl` and `btt`.
  public var isBackward: Bool { self == .rightToLeft || self == .bottomToTop }

  /// The short name HarfBuzz prints: `ltr`, `rtl`, `ttb` or `btt`.
  public var description: String { rawValue }
}
