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
    let document = ShapeDocument(font: arabic, options: options, entries: [.init(line: 1, result: result)])
    let data = try JSONEncoder().encode(document)
    #expect(try JSONDecoder().decode(DecodedShapeDocument.self, from: data).results.first?.result == result)
    let optionsData = try JSONEncoder().encode(ShapeOptions(features: [try Feature(parsing: "kern[1:3]=0")]))
    let decoded = try JSONDecoder().decode(ShapeOptions.self, from: optionsData)
    #expect(decoded.features.map(\.description) == ["-kern[1:3]"])
  }

  @Test func glyphNamesAreComparedByTheirBytes() throws {
    let shaped = try #require(latin.shape("fi").runs.first?.glyphs.first)
    let name = try #require(shaped.name)
    // The same name set by hand (a new string with the same bytes) makes an equal glyph.
    var copy = shaped
    copy.name = String(decoding: Array(name.utf8), as: UTF8.self)
    #expect(copy == shaped)
    #expect(copy.hashValue == shaped.hashValue)
    copy.name = name + ".alt"
    #expect(copy != shaped)
    copy.name = nil
    #expect(copy.name == nil)
    #expect(copy != shaped)
    // Names equal as Swift strings (Unicode equivalence) but not in bytes stay apart, each read
    // back as it was given.
    let composed = ShapedGlyph(id: 1, name: "caf\u{E9}", cluster: 0, xAdvance: 0)
    let decomposed = ShapedGlyph(id: 1, name: "cafe\u{301}", cluster: 0, xAdvance: 0)
    #expect(composed != decomposed)
    #expect(Array(try #require(composed.name).utf8) == Array("caf\u{E9}".utf8))
    #expect(Array(try #require(decomposed.name).utf8) == Array("cafe\u{301}".utf8))
  }

  @Test func glyphNamesRoundTripThroughCodableAndJSON() throws {
    let long = "uni0915_uni094D_uni0937.akhn.long"  // longer than a string stored inline
    let glyphs = [
      ShapedGlyph(id: 3, name: long, cluster: 0, xAdvance: 10),
      ShapedGlyph(id: 4, name: "quote\"back\\slash", cluster: 1, xAdvance: 0),
      ShapedGlyph(id: 5, cluster: 2, xAdvance: 0),
    ]
    let data = try JSONEncoder().encode(glyphs)
    #expect(try JSONDecoder().decode([ShapedGlyph].self, from: data) == glyphs)
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    #expect(object.map { $0["name"] as? String } == [long, "quote\"back\\slash", nil])
    #expect(object[2].keys.contains("name") == false)
    #expect(glyphs[1].internedName?.withJSON { Array($0) } == Array(#""quote\"back\\slash""#.utf8))
  }

  @Test func glyphNamesInternedOnManyThreadsAgree() async throws {
    let names = (0..<200).map { "glyph\($0).with.a.long.suffix" }
    let made = try await withThrowingTaskGroup(of: [ShapedGlyph].self) { group in
      for _ in 0..<4 {
        group.addTask { names.map { ShapedGlyph(id: 0, name: $0, cluster: 0, xAdvance: 0) } }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(made.count == 4)
    for glyphs in made {
      #expect(glyphs == made[0])
      #expect(glyphs.map(\.name) == names)
    }
  }

  @Test func unknownShaperIsAnInternalFailure() {
    var options = ShapeOptions()
    options.shapers = ["nonexistent"]
    #expect {
      try latin.shape("a", options: options)
    } throws: { ($0 as? ShapingError)?.kind == .internalFailure }
  }
}
