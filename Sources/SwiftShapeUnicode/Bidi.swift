import CUnicodeAlgorithms

/// The direction a paragraph starts from, for the Unicode bidirectional algorithm (UAX #9).
public enum BaseDirection: String, Sendable, Hashable, CaseIterable, Codable {
  /// From the paragraph's first strong character (rules P2 and P3), left to right when it has
  /// none.
  case auto
  /// Left to right: paragraph level 0.
  case leftToRight = "ltr"
  /// Right to left: paragraph level 1.
  case rightToLeft = "rtl"

  /// ICU's paragraph level for this direction.
  var icuLevel: UInt8 {
    switch self {
    case .auto: UInt8(SWIFTSHAPE_BIDI_AUTO)
    case .leftToRight: 0
    case .rightToLeft: 1
    }
  }
}

/// An error from ICU, with its code's name.
public struct UnicodeAlgorithmError: Error, Sendable, CustomStringConvertible {
  /// ICU's name for the error (`U_MEMORY_ALLOCATION_ERROR`).
  public var name: String
  /// What was being done.
  public var operation: String

  init(_ code: Int32, _ operation: String) {
    name = String(cString: swiftshape_icu_error_name(code))
    self.operation = operation
  }

  /// How it is written.
  public var description: String { "\(operation): \(name)" }
}

/// The embedding levels of one paragraph, resolved by the Unicode bidirectional algorithm (UAX #9,
/// paired brackets included) as ICU implements it, and its runs in visual order.
///
/// Indices are UTF-16 offsets into the paragraph, as ICU counts; `levels` has one level a UTF-16
/// unit (both units of a surrogate pair have the same). Levels are after rule L1 for the paragraph
/// as one line: trailing white space and segment separators are at the paragraph level.
///
/// ICU was chosen over FriBiDi (which Pango and libraqm use) for its data: ICU 72, in Debian 12,
/// carries Unicode 15.0, the version of Debian's `unicode-data` test files, where FriBiDi 1.0.8
/// carries Unicode 10.0; and the same library gives script properties and line breaking.
public struct BidiParagraph: Sendable {
  /// The paragraph's level: 0 left to right, 1 right to left.
  public let baseLevel: UInt8
  /// The resolved level of each UTF-16 unit.
  public let levels: [UInt8]
  /// The UTF-16 offsets in visual order (rule L2), the paragraph being one line. Worked out from
  /// `levels` when asked for: shaping reorders runs, not characters.
  public var visualOrder: [Int] { bidiVisualOrder(levels) }

  /// The Unicode version of the character data the levels were resolved with (ICU's).
  public static let unicodeVersion = String(cString: swiftshape_icu_unicode_version())

  /// Resolves the levels of `utf16`, one paragraph.
  ///
  /// - Parameters:
  ///   - utf16: the paragraph's text.
  ///   - base: its base direction, or `auto` for the first strong character's.
  ///   - classes: for testing the algorithm alone, the bidi classes (ICU's `UCharDirection`
  ///     values) of the code points U+E000, U+E001, … in `utf16`, instead of the Unicode data's.
  /// - Throws: `UnicodeAlgorithmError` when ICU cannot allocate.
  public init(utf16: [UInt16], base: BaseDirection, classes: [UInt32]? = nil) throws {
    var baseLevel: UInt8 = 0
    var status: Int32 = 0
    let levels = [UInt8](capacity: utf16.count) { levels in
      status = utf16.withUnsafeBufferPointer { text in
        (classes ?? []).withUnsafeBufferPointer { classTable in
          swiftshape_bidi_resolve(
            text.baseAddress, Int32(text.count), base.icuLevel, classes == nil ? nil : classTable.baseAddress,
            Int32(classTable.count), levels.baseAddress, &baseLevel)
        }
      }
      return status == 0 ? levels.count : 0
    }
    guard status == 0 else { throw UnicodeAlgorithmError(status, "resolving bidi levels") }
    self.baseLevel = baseLevel
    self.levels = levels
  }

  /// The levels of `text`, one paragraph.
  public init(_ text: String, base: BaseDirection) throws {
    try self.init(utf16: Array(text.utf16), base: base)
  }

  /// The paragraph's direction: the base direction resolved.
  public var isRightToLeft: Bool { baseLevel & 1 == 1 }
}

/// The visual order of `count` items all at `level`: their order, or the reverse at an odd level.
func oneLevelVisualOrder(_ level: UInt8, count: Int) -> [Int] {
  level & 1 == 0 ? Array(0..<count) : (0..<count).reversed()
}

/// The visual order (rule L2) of items of the given levels: `order[visual] = logical`.
func bidiVisualOrder(_ levels: [UInt8]) -> [Int] {
  guard let first = levels.first else { return [] }
  // Runs all at one level without ICU's call and its two arrays (a span a word cuts a line of
  // one level into thirty runs).
  if levels.allSatisfy({ $0 == first }) { return oneLevelVisualOrder(first, count: levels.count) }
  let order = [Int32](capacity: levels.count) { order in
    swiftshape_bidi_reorder_visual(levels, Int32(levels.count), order.baseAddress)
    return order.count
  }
  return order.map(Int.init)
}
