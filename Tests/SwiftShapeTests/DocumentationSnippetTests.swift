import Foundation
import TestFixtures
import Testing

@testable import SwiftShape

/// The code of the documentation's articles (`Sources/SwiftShape/SwiftShape.docc`), compiled and
/// run with the test fonts, so that what the articles show works.
@Suite("Documentation snippets")
struct DocumentationSnippetTests {
  let font: ShapingFont

  init() throws { font = try ShapingFont(file: Paths.latin) }

  @Test func gettingStarted() throws {
    var options = ShapeOptions()
    options.features = [Feature("liga", value: 0)]
    let result = try font.shape("office", options: options)
    #expect(result.glyphs.count == 6)  // no ligature
  }

  @Test func unitsAndClusters() throws {
    var fontOptions = ShapingFont.Options()
    fontOptions.size = .points(12)
    let sized = try ShapingFont(file: Paths.latin, options: fontOptions)
    let a = try sized.shape("a")
    #expect(a.glyphs[0].xAdvance == 431)
    #expect(a.runs[0].unit == .fixed26_6(points: 12))
    let text = "office"
    let result = try font.shape(text)
    let range = try #require(result.textRange(ofGlyphAt: 1))
    #expect(text[range] == "ffi")
  }

  @Test func paragraphsAndLines() throws {
    var options = ShapeOptions()
    options.paragraph = .auto
    let hebrew = try ShapingFont(file: Paths.hebrew)
    let paragraphFont = font.withFallback(FontFallback(fonts: [hebrew]))
    let mixed = try paragraphFont.shape("Hello שלום", options: options)
    #expect(mixed.runs.map(\.isFallback).contains(true))
    #expect(mixed.runs.map(\.direction).contains(.rightToLeft))
    options.lineWidth = 3000
    let broken = try font.shape("A paragraph long enough to need two lines.", options: options)
    #expect((broken.lines?.count ?? 1) >= 2)
    guard FileManager.default.fileExists(atPath: "/usr/share/hyphen/hyph_en_US.dic") else { return }
    options.alignment = .justify
    options.language = Language(harfBuzzString: "en-US")
    options.hyphenates = true
    let hyphenated = try font.shape("Hyphenation makes justified typography comfortable.", options: options)
    #expect((hyphenated.lines?.filter(\.hyphen).count ?? 0) > 0)
  }

  @Test func performance() throws {
    var result = ShapeResult()
    var counts: [Int] = []
    for line in ["one", "two", "three"] {
      try font.shape(line, options: ShapeOptions(), into: &result)
      counts.append(result.glyphs.count)
    }
    #expect(counts == [3, 3, 5])
  }
}
