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

  /// The finder, asked one opportunity at a time from anywhere in the text, gives what
  /// `opportunities` gives: on every case of Unicode's test file and on text with hard breaks,
  /// soft hyphens, characters outside the BMP, Thai (found with ICU's dictionary) and CJK.
  @Test func finderAgreesWithOpportunities() throws {
    var texts: [[Unicode.Scalar]] = [
      "ab cd\u{2028}ef\ngh", "a\r\nb\u{85}c\u{0B}d\u{0C}e\u{2029}", "Ein Silben\u{AD}trenn\u{AD}zeichen",
      "😀 a 😀😀 \u{10400}\u{10401} b", "ภาษาไทยเป็นภาษาที่ไม่มีช่องว่างระหว่างคำ และ", "日本語の文章、改行。テキスト (Japanese)",
      "«Le petit prince» — dit-il ; 1,234.56 % (x)", "",
    ].map { Array($0.unicodeScalars) }
    if FileManager.default.fileExists(atPath: Self.testFile) {
      texts += try breakTestCases(Self.testFile).map(\.scalars)
    }
    for scalars in texts {
      let expected = try LineBreaks.opportunities(scalars)
      let finder = try LineBreakFinder(scalars)
      var found: [LineBreak] = []
      var at = 0
      while let next = try finder.following(at) {
        found.append(next)
        at = next.index
      }
      #expect(found == expected, "\(scalars)")
      for index in 0...scalars.count {
        #expect(
          try finder.preceding(index) == expected.last { $0.index < index }?.index, "\(scalars) \(index)")
        #expect(
          try finder.isOpportunity(index) == expected.contains { $0.index == index }, "\(scalars) \(index)")
      }
    }
  }

  /// A finder made on the thread since gives ICU's iterator another text; the first finder's
  /// answers stay its own.
  @Test func findersTakeTurns() throws {
    let first = try LineBreakFinder(Array("one two three".unicodeScalars))
    let second = try LineBreakFinder(Array("a b".unicodeScalars))
    #expect(try first.following(0) == LineBreak(index: 4, isMandatory: false))
    #expect(try second.following(0) == LineBreak(index: 2, isMandatory: false))
    #expect(try first.preceding(13) == 8)
    #expect(try second.following(2) == LineBreak(index: 3, isMandatory: true))
    #expect(try first.following(8) == LineBreak(index: 13, isMandatory: true))
    #expect(try first.following(13) == nil)
  }

  /// The facts read from UTF-8 are those of the decoded scalars: lengths, the whitespace rule L1
  /// resets at the end (`trailingWhitespace`), a hard break before the last scalar.
  @Test func oneLineFactsAreTheScalars() throws {
    let texts = [
      "", " ", "a", "ab cd  ", "a\u{2067} \t", "a\n", "a\r\n", "a\nb", "\u{2028}", "x\u{2029}y", "a\u{85}b",
      "\u{85}", "سلام دنیا\u{200F} ", "😀 \u{10400} ", "\u{1F600}", "abc\u{3000}", "a\u{0B}",
      "a\u{0C}b \u{200B}",
      "é\u{301} \u{A0}", "日本語\u{3000}\u{3000}",
    ]
    // Longer texts, read a block of bytes at a time: hard breaks and near misses (U+2027, U+202A,
    // U+0086 share their first bytes) at each distance from the end, among ZWNJs (E2 80 8C).
    let persian = String(repeating: "نمی\u{200C}خواهم ", count: 8)
    let long = String(repeating: "ab", count: 30)
    var blocks = [persian, persian + "\u{2028}x", persian + "\u{2029}", long + "\u{2027}\u{202A}\u{86}x"]
    for hard in ["\n", "\r", "\u{0B}", "\u{85}", "\u{2028}", "\u{2029}"] {
      blocks += [long + hard, long + hard + "b", long + hard + "bc", long + hard + "\u{200C}", hard + long]
    }
    for text in texts + blocks {
      let facts = try OneLineFacts(text)
      let scalars = Array(text.unicodeScalars)
      let whitespace = try BidiParagraph.trailingWhitespace(scalars)
      var trailing = scalars.count
      while trailing > 0, whitespace[trailing - 1] { trailing -= 1 }
      let tail = scalars[trailing...]
      #expect(facts.scalars == scalars.count, "\(text)")
      #expect(facts.utf16 == text.utf16.count, "\(text)")
      #expect(facts.trailingScalars == tail.count, "\(text)")
      #expect(facts.trailingUTF8 == tail.reduce(0) { $0 + UTF8.width($1) }, "\(text)")
      #expect(facts.trailingUTF16 == tail.reduce(0) { $0 + UTF16.width($1) }, "\(text)")
      let hard: Set<UInt32> = [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029]
      #expect(facts.hasHardBreak == scalars.dropLast().contains { hard.contains($0.value) }, "\(text)")
    }
  }

  /// Rule L1: whitespace, isolates and separators go back to the paragraph level at a line's end.
  @Test func trailingWhitespace() throws {
    #expect(
      try BidiParagraph.trailingWhitespace(Array("a \u{2067}\tb,".unicodeScalars)) == [
        false, true, true, true, false, false,
      ])
  }
}
