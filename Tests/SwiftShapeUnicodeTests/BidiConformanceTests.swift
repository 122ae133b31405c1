import Foundation
import SwiftShapeUnicode
import TestFixtures
import Testing

/// Where Debian's `unicode-data` puts Unicode's data and test files.
let unicodeDataFolder = "/usr/share/unicode"

/// Unicode's own bidi conformance files (Debian's `unicode-data`, installed by the README's test
/// command), through SwiftShape's bidi layer: levels and visual order. Every line passes, or is in
/// `Fixtures/unicode/bidi-known-failures.txt` with its reason.
@Suite(
  "Bidi conformance (Unicode's test files)",
  .enabled(
    if: FileManager.default.fileExists(atPath: unicodeDataFolder + "/BidiTest.txt"),
    "Unicode's test files are absent (apt-get install unicode-data)"))
struct BidiConformanceTests {
  static let folder = unicodeDataFolder

  /// Lines known to fail, by file and line number, with the reason beside them.
  static let knownFailures: Set<String> = {
    let path = Paths.fixtures + "/unicode/bidi-known-failures.txt"
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
    return Set(
      text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
        $0.split(separator: " ").first.map(String.init)
      })
  }()

  /// ICU's `UCharDirection` value of each bidi class name.
  static let classes: [String: UInt32] = [
    "L": 0, "R": 1, "EN": 2, "ES": 3, "ET": 4, "AN": 5, "CS": 6, "B": 7, "S": 8, "WS": 9, "ON": 10,
    "LRE": 11, "LRO": 12, "AL": 13, "RLE": 14, "RLO": 15, "PDF": 16, "NSM": 17, "BN": 18, "FSI": 19,
    "LRI": 20, "RLI": 21, "PDI": 22,
  ]

  /// The levels a line expects (nil for `x`, a character removed by rule X9) and the visual order
  /// of the others; the resolved levels and visual order, compared.
  ///
  /// One difference is allowed, the one ICU's own conformance test allows: a paragraph ICU finds
  /// unidirectional (no right-to-left character, or no left-to-right one) it reports at the
  /// paragraph level throughout, where the algorithm raises numbers by two (`L AN` is 0 2, ICU
  /// says 0 0). Levels of the same parity are in the same direction and the visual order is the
  /// same, which is still compared; so it is allowed when the expected levels are all of the
  /// parity ICU reports.
  static func matches(_ levels: [UInt8], _ order: [Int], expectedLevels: [UInt8?], expectedOrder: [Int])
    -> Bool
  {
    guard levels.count == expectedLevels.count else { return false }
    let mismatch = zip(levels, expectedLevels).contains { $1 != nil && $0 != $1 }
    if mismatch {
      let parities = Set(levels.map { $0 & 1 })
      let expectedParities = Set(expectedLevels.compactMap { $0 }.map { $0 & 1 })
      guard parities.count == 1, parities == expectedParities else { return false }
    }
    return order.filter { expectedLevels[$0] != nil } == expectedOrder
  }

  @Test func bidiTest() throws {
    let text = try String(contentsOfFile: Self.folder + "/BidiTest.txt", encoding: .utf8)
    var levels: [UInt8?] = []
    var order: [Int] = []
    var failures: [String] = []
    var cases = 0
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if line.hasPrefix("#") || line.isEmpty { continue }
      if line.hasPrefix("@Levels:") {
        levels = line.dropFirst(8).split(whereSeparator: \.isWhitespace).map { UInt8($0) }
        continue
      }
      if line.hasPrefix("@Reorder:") {
        order = line.dropFirst(9).split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        continue
      }
      let fields = line.split(separator: ";")
      let classes = try fields[0].split(separator: " ").map { try #require(Self.classes[String($0)]) }
      let bits = try #require(Int(fields[1].trimmingCharacters(in: .whitespaces)))
      let utf16 = classes.indices.map { UInt16(0xE000 + $0) }
      for (bit, base) in [(1, BaseDirection.auto), (2, .leftToRight), (4, .rightToLeft)] where bits & bit != 0
      {
        cases += 1
        let paragraph = try BidiParagraph(utf16: utf16, base: base, classes: classes)
        if !Self.matches(
          paragraph.levels, paragraph.visualOrder, expectedLevels: levels, expectedOrder: order)
        {
          failures.append("BidiTest.txt:\(number + 1)")
        }
      }
    }
    #expect(cases > 490_000)
    let unexpected = Set(failures).subtracting(Self.knownFailures)
    #expect(unexpected.count == 0, "failing: \(unexpected.sorted().prefix(10).joined(separator: ", "))")
  }

  @Test func bidiCharacterTest() throws {
    let text = try String(contentsOfFile: Self.folder + "/BidiCharacterTest.txt", encoding: .utf8)
    var failures: [String] = []
    var cases = 0
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if line.hasPrefix("#") || line.isEmpty { continue }
      let fields = line.split(separator: ";", omittingEmptySubsequences: false)
      let scalars = fields[0].split(separator: " ").compactMap {
        UInt32($0, radix: 16).flatMap(Unicode.Scalar.init)
      }
      let base: BaseDirection = [.leftToRight, .rightToLeft, .auto][try #require(Int(fields[1]))]
      let paragraphLevel = try #require(UInt8(fields[2]))
      let levels = fields[3].split(separator: " ").map { UInt8($0) }
      let order = fields[4].split(separator: " ").compactMap { Int($0) }
      cases += 1
      // The levels and order are of code points; ICU's are of UTF-16 units.
      var utf16: [UInt16] = []
      var unitOfScalar: [Int] = []
      for scalar in scalars {
        unitOfScalar.append(utf16.count)
        utf16.append(contentsOf: UTF16.encode(scalar)!)
      }
      let paragraph = try BidiParagraph(utf16: utf16, base: base)
      let scalarOfUnit = Dictionary(uniqueKeysWithValues: unitOfScalar.enumerated().map { ($1, $0) })
      let resolved = unitOfScalar.map { paragraph.levels[$0] }
      let visual = paragraph.visualOrder.compactMap { scalarOfUnit[$0] }
      if paragraph.baseLevel != paragraphLevel
        || !Self.matches(resolved, visual, expectedLevels: levels, expectedOrder: order)
      {
        failures.append("BidiCharacterTest.txt:\(number + 1)")
      }
    }
    #expect(cases > 90_000)
    // The list stays true: a line listed as failing that passes is taken off it.
    let stale = Self.knownFailures.filter { $0.hasPrefix("BidiCharacterTest") }.subtracting(failures)
    #expect(stale.isEmpty, "passing now: \(stale.sorted().joined(separator: ", "))")
    let unexpected = Set(failures).subtracting(Self.knownFailures)
    #expect(unexpected.count == 0, "failing: \(unexpected.sorted().prefix(10).joined(separator: ", "))")
  }

  @Test func paragraphsOfText() throws {
    let mixed = try BidiParagraph("Hello שלום 123", base: .auto)
    #expect(mixed.baseLevel == 0 && !mixed.isRightToLeft)
    // A number after right-to-left text goes with it (rules W7, N1, I2): "123" at level 2, the
    // space before it at 1, and the two drawn together right to left of the rest.
    #expect(mixed.levels == [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2])
    #expect(mixed.visualOrder == [0, 1, 2, 3, 4, 5, 11, 12, 13, 10, 9, 8, 7, 6])
    let arabic = try BidiParagraph("مرحبا 12!", base: .auto)
    #expect(arabic.isRightToLeft)
    #expect(arabic.levels == [1, 1, 1, 1, 1, 1, 2, 2, 1])
    #expect(try BidiParagraph("abc", base: .rightToLeft).levels == [2, 2, 2])
    #expect(try BidiParagraph("", base: .rightToLeft).baseLevel == 1)
    #expect(BidiParagraph.unicodeVersion.hasPrefix("15"))
  }
}
