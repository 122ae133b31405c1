import Foundation
import SwiftShapeFonts
import TestFixtures
import Testing

@testable import SwiftShape
@testable import SwiftShapeRequests

/// Spans that name their font by pattern (`<b>`, `<i>`, `font=`) over a paragraph of one run take
/// the styled spans' path where the pattern's font has every character of the paragraph (its
/// fallback list then serves none), and give what the general path gives; otherwise the general
/// path shapes them.
@Suite("Pattern spans")
struct PatternSpanTests {
  /// Patterns of this suite's own, for fixture fonts, as fontconfig's answers kept for the process
  /// (`FontSpecification.resolvedPatterns`): the installed locators give them, nothing is swapped.
  static let files: [String: String] = {
    let files = [
      "swiftshape-test:bold": Paths.font("NotoSans-Bold-Latin.ttf"),
      "swiftshape-test:joints": Paths.spaceJoints,
    ]
    ShapingRequest.installSpanFontLocator()
    for (pattern, file) in files {
      let json =
        #"{"file": "\#(file)", "faceIndex": 0, "families": ["SwiftShape Test"], "isSubstitute": false}"#
      let match = try! JSONDecoder().decode(FontLocator.Match.self, from: Data(json.utf8))
      FontSpecification.resolvedPatterns.withLock { $0[pattern] = .match(match) }
    }
    return files
  }()

  @Test(arguments: [ClusterUnit.unicodeScalars, .utf8])
  func patternSpansGiveTheGeneralPathsRuns(unit: ClusterUnit) throws {
    let files = Self.files
    ShapingCache.choosesByTime = false
    let paragraphFont = try ShapingFont(file: Paths.latin)
    var options = ShapeOptions()
    options.paragraph = .auto
    options.clusterUnit = unit
    let scratch = ThreadCache.current.spanScratch
    // Each case: a line, the pattern over every other word, and whether the pattern's font has
    // every character of the line (where it has not, the general path shapes the line, the
    // characters the font lacks from the pattern's fallback list).
    let cases: [(line: String, pattern: String, covered: Bool)] = [
      ("the same words  the same words", "swiftshape-test:bold", true),
      // The bold subset lacks Ş, ţ and ş (in the words between the spans too).
      ("Şi ţara l·l Lluís ştie şi ţine", "swiftshape-test:bold", false),
      ("ffi fl ff AV To Ta", "swiftshape-test:bold", true),
      ("qa the qa words", "swiftshape-test:joints", false),
    ]
    // Six rounds: each font's cache table takes lines after its first few, and may send lines to
    // plain shaping while another suite has the cache choose by time; a line the pattern's font
    // covers takes this path in some round, one it does not cover in none.
    var styled = [Int](repeating: 0, count: cases.count)
    for _ in 0..<6 {
      for (number, (line, pattern, _)) in cases.enumerated() {
        var spans: [TextSpan] = []
        var offset = 0
        for (index, word) in line.split(separator: " ", omittingEmptySubsequences: false).enumerated() {
          let length = unit == .utf8 ? word.utf8.count : word.unicodeScalars.count
          if length > 0, index % 2 == 0 {
            var span = TextSpan(offset..<(offset + length))
            span.fontPattern = pattern
            spans.append(span)
          }
          offset += length + 1
        }
        options.spans = spans
        let taken = scratch.styledParagraphs
        let fast = try paragraphFont.shape(line, options: options)
        styled[number] += scratch.styledParagraphs - taken
        // The general path: an empty span sends the paragraph there.
        var general = options
        general.spans.append(TextSpan(0..<0))
        var expected = try paragraphFont.shape(line, options: general)
        expected.spans = fast.spans
        #expect(
          fast == expected, "\(line): runs \(fast.runs.map(\.range)), general \(expected.runs.map(\.range))")
        #expect(fast.runs.map(\.span) == expected.runs.map(\.span))
        #expect(fast.runs.contains { $0.font.file == files[pattern] })
        var plain = options
        plain.usesCache = false
        #expect(fast == (try paragraphFont.shape(line, options: plain)), "\(line): not as without the cache")
      }
    }
    for (number, (line, _, covered)) in cases.enumerated() {
      #expect(covered ? styled[number] > 0 : styled[number] == 0, "\(line): \(styled[number])")
    }
  }
}
