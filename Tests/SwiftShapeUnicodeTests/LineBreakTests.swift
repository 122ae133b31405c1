import Foundation
import SwiftShapeUnicode
import TestFixtures
import Testing

/// Line break opportunities from ICU, through Unicode's own test file (Debian's `unicode-data`):
/// every line passes, or is in `Fixtures/unicode/linebreak-known-failures.txt` with its reason.
@Suite("Line breaks (UAX #14)")
struct LineBreakTests {
  static let testFile = unicodeDataFolder + "/auxiliary/LineBreakTest.txt"

  /// Lines known to fail, by line number, with the reason beside them.
  static let knownFailures: Set<Int> = {
    let path = Paths.fixtures + "/unicode/linebreak-known-failures.txt"
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
    return Set(
      text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
        Int($0.split(separator: " ")[0])
      })
  }()

  /// `÷` is an opportunity, `×` none; the test lists the one at the end of the text too.
  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: testFile),
      "Unicode's test files are absent (apt-get install unicode-data)"))
  func lineBreakTest() throws {
    var checked = 0
    var failures: [Int] = []
    var passingKnown: [Int] = []
    for test in try breakTestCases(Self.testFile) {
      // The opportunities do not include the start of the text.
      let scalars = test.scalars
      let expected = test.boundaries.filter { $0 > 0 }
      let lineNumber = test.line
      let found = try LineBreaks.opportunities(scalars).map(\.index)
      if found != expected {
        if !Self.knownFailures.contains(lineNumber) { failures.append(lineNumber) }
      } else if Self.knownFailures.contains(lineNumber) {
        passingKnown.append(lineNumber)
      }
      checked += 1
    }
    #expect(checked > 7000)
    #expect(failures.isEmpty, "\(failures.count) of \(checked) lines fail: \(failures.prefix(20))")
    #expect(passingKnown.isEmpty, "listed as failing but passing: \(passingKnown.prefix(20))")
  }

  /// Hard breaks are mandatory; spaces give opportunities after them; the end is one.
  @Test func opportunities() throws {
    let breaks = try LineBreaks.opportunities(Array("ab cd\u{2028}ef\ngh".unicodeScalars))
    #expect(breaks.map(\.index) == [3, 6, 9, 11])
    #expect(breaks.map(\.isMandatory) == [false, true, true, true])
    #expect(try LineBreaks.opportunities([]) == [])
  }

  /// Rule L1: whitespace, isolates and separators go back to the paragraph level at a line's end.
  @Test func trailingWhitespace() throws {
    #expect(
      try BidiParagraph.trailingWhitespace(Array("a \u{2067}\tb,".unicodeScalars)) == [
        false, true, true, true, false, false,
      ])
  }
}
