import Foundation
import SwiftShape
import TestFixtures
import Testing

@testable import SwiftShapeFontbakery

/// Pattern inputs against stringbrewer, which fontbakery expands them with: the recipes of
/// `Fixtures/fontbakery/patterns/recipes.json`, and what stringbrewer made of each, recorded in
/// `expected.json` by `record.py` there.
@Suite("Pattern inputs")
struct PatternTests {
  static let folder = "\(Paths.fixtures)/fontbakery/patterns"

  /// Recipes where SwiftShape deliberately differs, with the reason.
  static let knownDifferences = [
    "(?=a)b":
      "a lookaround: stringbrewer gives no strings at all (sre_yield takes it to match nothing); SwiftShape says it is not supported"
  ]

  struct Recorded: Decodable {
    var recipe: String
    var strings: [String]?
    var error: String?
  }

  static func ingredients() throws -> [(name: String, expression: String)] {
    // In file order, which decides how names are replaced.
    let data = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/recipes.json"))
    let root = try SourceJSON.parse(Array(data))
    return root["ingredients"]!.members!.map { ($0.key, $0.value.string!) }
  }

  @Test func everyRecipeGivesStringbrewersStringsInItsOrder() throws {
    let ingredients = try Self.ingredients()
    let data = try Data(contentsOf: URL(fileURLWithPath: "\(Self.folder)/expected.json"))
    let recorded = try JSONDecoder().decode([Recorded].self, from: data)
    #expect(recorded.count > 40)
    var checked = 0
    for entry in recorded where Self.knownDifferences[entry.recipe] == nil {
      let result = Result {
        try StringPattern(recipe: entry.recipe, ingredients: ingredients).strings(limit: 100_000)
      }
      switch (result, entry.strings, entry.error) {
      case (.success(let strings), let expected?, nil):
        #expect(strings == expected, "\(entry.recipe)")
      case (.failure(let error), nil, let expected?):
        // Both refuse it; past the limit, both for that reason.
        if expected.hasPrefix("ValueError: Too many") {
          #expect("\(error)".contains("more than the limit"), "\(entry.recipe): \(error)")
        }
      case (.success(let strings), _, _):
        let expected = entry.error ?? "no record"

        Issue.record(
          "\(entry.recipe): stringbrewer says \(expected); SwiftShape gives \(strings.count) strings")
      case (.failure(let error), _, _):
        Issue.record(
          "\(entry.recipe): SwiftShape says \(error); stringbrewer gives \(entry.strings?.count ?? 0) strings"
        )
      }
      checked += 1
    }
    #expect(checked == recorded.count - Self.knownDifferences.count)
  }

  @Test func theLimitIsTheCallersAndTheCountIsKnownFirst() throws {
    let pattern = try StringPattern(recipe: "v{3}", ingredients: [("v", "[a-j]")])
    #expect(pattern.expression == "(?:[a-j]){3}")
    #expect(pattern.count == 1000)
    #expect(try pattern.strings(limit: 1000).count == 1000)
    #expect(throws: PatternError.self) { try pattern.strings(limit: 999) }
    let huge = try StringPattern(recipe: ".{40}", ingredients: [])
    #expect(huge.count == Int.max)
    #expect { try huge.strings(limit: 10) } throws: { "\($0)".contains("too many to count") }
  }

  @Test func tooManyIngredientsAndBadExpressionsAreErrors() throws {
    let many = (0...52).map { ("i\($0)", "a") }
    #expect(throws: PatternError.self) { try StringPattern(recipe: "i0", ingredients: many) }
    for bad in ["[a", "a)", "(a", "*", "a{3,2}", "\\k", "(?<=a)b", "(a)\\1", "a++"] {
      #expect(throws: PatternError.self, "\(bad)") { try StringPattern(recipe: bad, ingredients: []) }
    }
  }
}
