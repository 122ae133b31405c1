import Foundation
import SwiftShapeUnicode
import Testing

/// Grapheme clusters from ICU, through Unicode's own test file (Debian's `unicode-data`), and the
/// character traits font fallback reads.
@Suite("Grapheme clusters and fallback traits")
struct GraphemeTests {
  static let testFile = unicodeDataFolder + "/auxiliary/GraphemeBreakTest.txt"

  /// Every line of `GraphemeBreakTest.txt` (`÷ 0020 × 0308 ÷`: `÷` a boundary, `×` none) gives
  /// the boundaries it lists.
  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: testFile),
      "Unicode's test files are absent (apt-get install unicode-data)"))
  func graphemeBreakTest() throws {
    var checked = 0
    var failures: [String] = []
    for test in try breakTestCases(Self.testFile) {
      let found = try GraphemeClusters.boundaries(test.scalars)
      if found != test.boundaries { failures.append("line \(test.line): \(found) for \(test.boundaries)") }
      checked += 1
    }
    #expect(checked > 600)
    #expect(failures.isEmpty, "\(failures.count) of \(checked) lines fail: \(failures.prefix(5))")
  }

  /// Keycaps, ZWJ sequences, flags, skin tones and variation selectors are each one cluster.
  @Test func emojiSequencesAreOneCluster() throws {
    func clusters(_ text: String) throws -> Int {
      try GraphemeClusters.ranges(Array(text.unicodeScalars)).count
    }
    #expect(try clusters("1\u{FE0F}\u{20E3}") == 1)
    #expect(try clusters("👨\u{200D}👩\u{200D}👧") == 1)
    #expect(try clusters("🇯🇵🇫🇷") == 2)
    #expect(try clusters("👍🏽") == 1)
    #expect(try clusters("葛\u{E0100}") == 1)
    #expect(try clusters("e\u{301}\u{303}x") == 2)
    #expect(try GraphemeClusters.boundaries([]) == [0])
  }

  /// Which characters need no font, which make a cluster an emoji, which are spaces or
  /// punctuation.
  @Test func fallbackTraits() throws {
    let traits = try FallbackTraits.of(Array("a \u{200D}\u{FE0F}😀!\u{200F}©\u{FE0E}\u{20E3}".unicodeScalars))
    #expect(traits[0] == [])
    #expect(traits[1] == .spaceOrPunctuation)
    #expect(traits[2].contains(.ignorable))
    #expect(traits[3].isSuperset(of: [.ignorable, .selectsEmoji]))
    #expect(traits[4].isSuperset(of: [.emoji, .emojiPresentation]))
    #expect(traits[5] == .spaceOrPunctuation)
    #expect(traits[6].contains(.ignorable))
    #expect(traits[7].contains(.emoji) && !traits[7].contains(.emojiPresentation))
    #expect(traits[8].contains(.selectsText))
    #expect(traits[9].contains(.selectsEmoji))
  }

  /// A cluster is an emoji with an emoji-presentation base (unless VS15 follows), or with VS16, a
  /// keycap or tags.
  @Test func emojiClusters() throws {
    func isEmoji(_ text: String) throws -> Bool {
      FallbackTraits.isEmojiCluster(try FallbackTraits.of(Array(text.unicodeScalars)))
    }
    #expect(try isEmoji("😀"))
    #expect(try !isEmoji("😀\u{FE0E}"))
    #expect(try !isEmoji("©"))
    #expect(try isEmoji("©\u{FE0F}"))
    #expect(try isEmoji("1\u{FE0F}\u{20E3}"))
    #expect(try !isEmoji("1"))
    #expect(try isEmoji("🇯🇵"))
  }

  /// Runs are cut where the font changes, as where the level or the script does.
  @Test func itemizationWithFonts() throws {
    let scalars = Array("ab 日本 cd".unicodeScalars)
    let paragraph = try ItemizedParagraph(scalars, base: .auto).splittingRuns(byFonts: [
      0, 0, 0, 1, 1, 0, 0, 0,
    ])
    #expect(paragraph.runs.map(\.range) == [0..<3, 3..<5, 5..<6, 6..<8])
    #expect(paragraph.runs.map(\.font) == [0, 1, 0, 0])
    #expect(paragraph.runs.map(\.script) == ["Latn", "Hani", "Hani", "Latn"])
    #expect(paragraph.visualOrder == [0, 1, 2, 3])
  }
}
