import Foundation
import HarfBuzz
import TestFixtures
import Testing

@testable import SwiftShape

@Suite("Shape results")
struct ShapeResultTests {
  let latin: ShapingFont
  let arabic: ShapingFont

  init() throws {
    latin = try ShapingFont(file: Paths.latin)
    arabic = try ShapingFont(file: Paths.arabic)
  }

  @Test func resultCarriesWhatWasUsed() throws {
    let result = try arabic.shape("سلام", options: ShapeOptions(language: try Language(parsing: "ar")))
    let run = try #require(result.runs.first)
    #expect(result.runs.count == 1)
    #expect(run.direction == .rightToLeft)
    #expect(run.script == .arabic)
    #expect(run.language?.identifier == "ar")
    #expect(run.font.file == Paths.arabic)
    #expect(run.scale == Scale(x: 1000, y: 1000))
    #expect(run.unit == .fontUnits(unitsPerEm: 1000))
    #expect(run.advance.x == run.glyphs.map(\.xAdvance).reduce(0, +))
  }

  @Test func ligatureClusterMapsBackToItsCharacters() throws {
    let result = try latin.shape("office")
    #expect(result.glyphs.map(\.name) == ["o", "f_f_i", "c", "e"])
    let range = try #require(result.textRange(ofGlyphAt: 1))
    #expect(result.text[range] == "ffi")
    #expect(result.text[try #require(result.textRange(ofGlyphAt: 3))] == "e")
    #expect(result.textRange(ofCluster: 2) == nil)
  }

  @Test(arguments: ClusterUnit.allCases)
  func clusterRangesAreRightInEveryUnit(_ unit: ClusterUnit) throws {
    var options = ShapeOptions()
    options.clusterUnit = unit
    let text = "é😀office"
    let result = try latin.shape(text, options: options)
    let pieces = result.glyphs.indices.map { result.text[result.textRange(ofGlyphAt: $0)!] }
    #expect(pieces == ["é", "😀", "o", "ffi", "c", "e"])
    let expected: [Int] =
      switch unit {
      case .unicodeScalars: [0, 1, 2, 3, 6, 7]
      case .utf8: [0, 2, 6, 7, 10, 11]
      case .utf16: [0, 1, 3, 4, 7, 8]
      }
    #expect(result.glyphs.map(\.cluster) == expected)
  }

  @Test func rightToLeftClustersMapToTheRightCharacters() throws {
    let result = try arabic.shape("سلامٌ")
    // Visual order: the first glyph is the last character's.
    let first = try #require(result.textRange(ofGlyphAt: 0))
    #expect(result.text[first].unicodeScalars.first == "م")
    let last = try #require(result.textRange(ofGlyphAt: result.glyphs.count - 1))
    #expect(result.text[last] == "س")
  }

  @Test func optionsChangeTheResult() throws {
    var options = ShapeOptions(features: [try Feature(parsing: "-liga")])
    #expect(try latin.shape("office", options: options).glyphs.count == 6)
    options = ShapeOptions(direction: .rightToLeft)
    #expect(try latin.shape("ab", options: options).glyphs.map(\.name) == ["b", "a"])
    options = ShapeOptions()
    options.includeGlyphNames = false
    options.includeExtents = true
    let glyph = try #require(try latin.shape("a", options: options).glyphs.first)
    #expect(glyph.name == nil)
    #expect((glyph.extents?.width ?? 0) > 0)
  }

  @Test func contextIsUsedButNotShaped() throws {
    var options = ShapeOptions()
    let alone = try arabic.shape("ل", options: options)
    options.textBefore = "س"
    options.textAfter = "ا"
    let joined = try arabic.shape("ل", options: options)
    #expect(joined.glyphs.count == 1 && joined.glyphs[0].cluster == 0)
    #expect(joined.glyphs[0].id != alone.glyphs[0].id)
  }

  @Test func scalarsShapeLikeTheirString() throws {
    let scalars: [Unicode.Scalar] = ["\u{0915}", "\u{094D}", "\u{0937}"]
    let font = try ShapingFont(file: Paths.devanagari)
    #expect(try font.shape(scalars: scalars) == font.shape("क्ष"))
  }

  @Test func resultsRoundTripThroughCodable() throws {
    var options = ShapeOptions()
    options.includeExtents = true
    let result = try arabic.shape("بِسْمِ", options: options)
    let data = try JSONEncoder().encode(result)
    #expect(try JSONDecoder().decode(ShapeResult.self, from: data) == result)
    let optionsData = try JSONEncoder().encode(ShapeOptions(features: [try Feature(parsing: "kern[1:3]=0")]))
    let decoded = try JSONDecoder().decode(ShapeOptions.self, from: optionsData)
    #expect(decoded.features.map(\.description) == ["-kern[1:3]"])
  }

  @Test func unknownShaperIsAnInternalFailure() {
    var options = ShapeOptions()
    options.shapers = ["nonexistent"]
    #expect {
      try latin.shape("a", options: options)
    } throws: { ($0 as? ShapingError)?.kind == .internalFailure }
  }
}
