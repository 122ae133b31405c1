internal import CICU

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
  var icuLevel: UBiDiLevel {
    switch self {
    case .auto: swiftshape_ubidi_default_ltr()
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

  init(_ code: UErrorCode, _ operation: String) {
    name = String(cString: swiftshape_u_errorName(code))
    self.operation = operation
  }

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
  /// The UTF-16 offsets in visual order (rule L2), the paragraph being one line.
  public let visualOrder: [Int]

  /// The Unicode version of the character data the levels were resolved with (ICU's).
  public static let unicodeVersion = String(cString: swiftshape_unicode_version())

  /// Resolves the levels of `utf16`, one paragraph.
  ///
  /// - Parameter classes: for testing the algorithm alone, the bidi classes (ICU's
  ///   `UCharDirection` values) of the code points U+E000, U+E001, … in `utf16`, instead of the
  ///   Unicode data's.
  /// - Throws: `UnicodeAlgorithmError` when ICU cannot allocate.
  public init(utf16: [UInt16], base: BaseDirection, classes: [UInt32]? = nil) throws {
    var error = U_ZERO_ERROR
    guard let bidi = swiftshape_ubidi_openSized(Int32(utf16.count), 0, &error), error.rawValue <= 0 else {
      throw UnicodeAlgorithmError(error, "ubidi_openSized")
    }
    defer { swiftshape_ubidi_close(bidi) }
    var (levels, baseLevel, visualOrder): ([UInt8], UInt8, [Int]) = ([], 0, [])
    try withExtendedLifetime(classes.map(ClassTable.init)) { table in
      if let table {
        // The callback reads the class of each code point from the table: the code points are
        // the indices into it (see `ClassTable`).
        swiftshape_ubidi_setClassCallback(
          bidi,
          { context, codePoint in
            let table = Unmanaged<ClassTable>.fromOpaque(context!).takeUnretainedValue()
            let index = Int(codePoint) - ClassTable.firstCodePoint
            return UCharDirection(rawValue: table.classes.indices.contains(index) ? table.classes[index] : 0)
          }, Unmanaged.passUnretained(table).toOpaque(), &error)
        guard error.rawValue <= 0 else { throw UnicodeAlgorithmError(error, "ubidi_setClassCallback") }
      }
      utf16.withUnsafeBufferPointer { text in
        swiftshape_ubidi_setPara(bidi, text.baseAddress, Int32(text.count), base.icuLevel, &error)
      }
      guard error.rawValue <= 0 else { throw UnicodeAlgorithmError(error, "ubidi_setPara") }
      baseLevel = swiftshape_ubidi_getParaLevel(bidi)
      guard !utf16.isEmpty else { return }
      guard let resolved = swiftshape_ubidi_getLevels(bidi, &error), error.rawValue <= 0 else {
        throw UnicodeAlgorithmError(error, "ubidi_getLevels")
      }
      levels = Array(UnsafeBufferPointer(start: resolved, count: utf16.count))
      var map = [Int32](repeating: 0, count: utf16.count)
      swiftshape_ubidi_getVisualMap(bidi, &map, &error)
      guard error.rawValue <= 0 else { throw UnicodeAlgorithmError(error, "ubidi_getVisualMap") }
      visualOrder = map.map(Int.init)
    }
    self.baseLevel = baseLevel
    self.levels = levels
    self.visualOrder = visualOrder
  }

  /// The levels of `text`, one paragraph.
  public init(_ text: String, base: BaseDirection) throws {
    try self.init(utf16: Array(text.utf16), base: base)
  }

  /// The paragraph's direction: the base direction resolved.
  public var isRightToLeft: Bool { baseLevel & 1 == 1 }
}

/// Bidi classes for code points `firstCodePoint`, `firstCodePoint + 1`, …, read by ICU's class
/// callback: a test gives its classes to private-use code points, one UTF-16 unit each.
private final class ClassTable {
  static let firstCodePoint = 0xE000
  let classes: [UInt32]
  init(_ classes: [UInt32]) { self.classes = classes }
}
