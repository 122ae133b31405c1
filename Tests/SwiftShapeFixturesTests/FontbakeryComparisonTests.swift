import Foundation
import SwiftShapeRequests
import TestFixtures
import Testing

@testable import SwiftShapeFixtures

/// SwiftShape's fontbakery checks against fontbakery's own: the files and fonts of
/// `Fixtures/fontbakery/compare/cases.json` (Latin with marks, Arabic, Devanagari, and a font
/// whose glyphs collide on purpose), and what fontbakery's collision, forbidden-glyph and
/// regression checks found in each test, recorded in `expected.json` by `record.py` there.
@Suite("fontbakery's shaping checks")
struct FontbakeryComparisonTests {
  static let folder = "\(Paths.fixtures)/fontbakery/compare"

  struct Case: Decodable {
    var file: String
    var font: String
  }

  struct Recorded: Decodable {
    var file: String
    var font: String
    var tests: [Test]

    struct Test: Decodable {
      var index: Int
      var strings: Int?
      var forbidden: [String]?
      var collides: [String]?
      var regression: String?
      var error: String?
    }
  }

  /// Files where SwiftShape deliberately differs, with the reason.
  static let knownDifferences = [
    "collisions-font-cursive.json":
      "collidoscope 0.6.5 fails on the cursive rule (it reads its font as self.font, which it never sets), so fontbakery errs on every test of a file that turns the rule on; SwiftShape applies the rule as collidoscope documents it"
  ]

  static func recorded() throws -> [Recorded] {
    let data = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/expected.json"))
    return try JSONDecoder().decode([Recorded].self, from: data)
  }

  @Test func everyTestFailsOnTheSameStringsAsInFontbakery() throws {
    let recorded = try Self.recorded()
    #expect(recorded.count == 8)
    var strings = 0
    var failing = 0
    for entry in recorded where Self.knownDifferences[entry.file] == nil {
      let fixture = try Fixture.load("\(Self.folder)/\(entry.file)")
      let font = RequestPaths.normalized("\(Self.folder)/\(entry.font)")
      let results = fixture.check(fonts: [font])
      #expect(results.count == entry.tests.count, "\(entry.file)")
      for (result, test) in zip(results, entry.tests) {
        let where_ = "\(entry.file) test \(test.index)"
        #expect(result.testCase.index == test.index)
        if let error = test.error {
          Issue.record("\(where_): fontbakery raised \(error)")
          continue
        }
        if case .error(let error) = result.status {
          Issue.record("\(where_): \(error)")
          continue
        }
        if let count = test.strings {
          #expect(result.checkedStrings == count, "\(where_)")
          strings += count
        } else {
          strings += 1
        }
        let theirs = Set((test.forbidden ?? []) + (test.collides ?? []))
        #expect(Set(result.failedInputs) == theirs, "\(where_)")
        failing += theirs.count
        if theirs.isEmpty, let regression = test.regression {
          #expect(result.passed == (regression == "pass"), "\(where_)")
        } else if theirs.isEmpty {
          #expect(result.passed, "\(where_)")
        }
      }
    }
    // The comparison covers thousands of strings, hundreds of them failing.
    #expect(strings > 30000)
    #expect(failing > 1500)
  }

  @Test func theAreaRuleSeparatesSmallOverlapsFromLargeOnes() throws {
    // The test font's U+030A overlaps the base by 2.5 % of its area, U+0309 by half: with
    // "area": 0.05 the first is no collision, the second is.
    let fixture = try Fixture.load("\(Self.folder)/collisions-font-area.json")
    let results = fixture.check(fonts: ["\(Paths.fixtures)/fontbakery/fonts/Collisions-Test.ttf"])
    #expect(!results[1].passed)
    #expect(results[1].collisions.map(\.pair) == ["a/hookcomb"])
    #expect(results[2].passed)
    let area = try #require(results[1].collisions.first?.sharedArea.first?.area)
    #expect(abs(area - 200 * 100) < 1)
  }

  @Test func theCursiveRuleLetsCursivelyJoinedGlyphsOverlap() throws {
    // fontbakery cannot run this file (see knownDifferences); what it errs on is recorded.
    let recorded = try Self.recorded().first { $0.file == "collisions-font-cursive.json" }
    #expect(recorded?.tests.allSatisfy { $0.error?.contains("has no attribute 'font'") == true } == true)
    // `k` and `m` join cursively and overlap by 100 units: no collision with the rule, one without.
    let font = "\(Paths.fixtures)/fontbakery/fonts/Collisions-Test.ttf"
    let results = try Fixture.load("\(Self.folder)/collisions-font-cursive.json").check(fonts: [font])
    #expect(results.map(\.passed) == [true, true, false])
    let without = try Fixture(
      path: "inline.json",
      contents: Array(
        #"{"configuration": {"collidoscope": {"bases": true}}, "tests": [{"input": "km"}]}"#.utf8))
    #expect(without.check(fonts: [font]).first?.collisions.map(\.pair) == ["k/m", "m/k"])
  }
}
