import HarfBuzz
import TestFixtures
import Testing

@testable import SwiftShape

/// `shape(_:options:into:)` reuses a result's storage; each result must still equal a new one.
@Suite("Shaping into a reused result")
struct ReusedResultTests {
  // Lengths go up and down, so that the reused glyph array grows, shrinks and keeps its count.
  static let texts = [
    "office", "a", "", "Typography with ligatures", "fi", "xyz", "Ta", "Hello, world", "o",
  ]

  @Test(arguments: [(true, false), (false, false), (true, true), (false, true)])
  func reusedResultsEqualNewOnes(names: Bool, extents: Bool) throws {
    let font = try ShapingFont(file: Paths.latin)
    var options = ShapeOptions()
    options.includeGlyphNames = names
    options.includeExtents = extents
    var result = ShapeResult()
    for text in Self.texts {
      try font.shape(text, options: options, into: &result)
      #expect(result == (try font.shape(text, options: options)), "\(text)")
    }
  }

  @Test func optionsMayChangeFromOneCallToTheNext() throws {
    let font = try ShapingFont(file: Paths.latin)
    var named = ShapeOptions()
    named.includeExtents = true
    var unnamed = ShapeOptions(features: [try Feature(parsing: "-liga")])
    unnamed.includeGlyphNames = false
    unnamed.clusterUnit = .utf8
    var traced = ShapeOptions()
    traced.trace = true
    var result = ShapeResult()
    for (text, options) in [("office", named), ("office", unnamed), ("fi", traced), ("fit", named)] {
      try font.shape(text, options: options, into: &result)
      // Nothing of the last call's options is left: no names, extents or trace it did not ask for.
      #expect(result == (try font.shape(text, options: options)), "\(text)")
    }
    #expect(result.trace == nil)
    #expect(result.glyphs.allSatisfy { $0.name != nil && $0.extents != nil })
  }

  @Test func fontsMayChangeFromOneCallToTheNext() throws {
    let latin = try ShapingFont(file: Paths.latin)
    let arabic = try ShapingFont(file: Paths.arabic)
    var result = ShapeResult()
    try latin.shape("office", into: &result)
    try arabic.shape("سلام", into: &result)
    #expect(result == (try arabic.shape("سلام")))
    #expect(result.runs[0].font == arabic.identity)
    #expect(result.runs[0].direction == .rightToLeft)
    try latin.shape("office", into: &result)
    #expect(result == (try latin.shape("office")))
  }

  @Test func aCopyHeldElsewhereKeepsItsGlyphs() throws {
    let font = try ShapingFont(file: Paths.latin)
    var result = ShapeResult()
    try font.shape("office", into: &result)
    let copy = result
    try font.shape("Ta", into: &result)
    #expect(copy == (try font.shape("office")))
    #expect(result == (try font.shape("Ta")))
  }

  @Test func aFailedCallLeavesTheResultAsItWas() throws {
    let font = try ShapingFont(file: Paths.latin)
    var result = ShapeResult()
    try font.shape("office", into: &result)
    var options = ShapeOptions()
    options.shapers = ["nonexistent"]
    #expect {
      try font.shape("Ta", options: options, into: &result)
    } throws: { ($0 as? ShapingError)?.kind == .internalFailure }
    #expect(result == (try font.shape("office")))
  }

  @Test func aResultOfManyRunsIsReplacedByOne() throws {
    let font = try ShapingFont(file: Paths.latin)
    let run = try font.shape("a").runs[0]
    var result = ShapeResult(text: "aa", clusterUnit: .utf16, runs: [run, run])
    try font.shape("office", into: &result)
    #expect(result == (try font.shape("office")))
  }
}
