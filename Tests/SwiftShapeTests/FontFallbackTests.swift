import Foundation
import SwiftShape
import TestFixtures
import Testing

/// Font fallback in paragraphs: each grapheme cluster in the first font that has it, emoji in the
/// color font, spaces and punctuation with the text around them, what no font has listed.
@Suite("Font fallback")
struct FontFallbackTests {
  /// Noto Sans (Latin), then Hebrew, Arabic, CJK and the color emoji, as given files.
  static func fonts() throws -> ShapingFont {
    let fallback = try [Paths.hebrew, Paths.arabic, Paths.cjkCollection, Paths.emoji].map {
      try ShapingFont(file: $0, options: .init(size: .scale(x: 1000, y: 1000)))
    }
    return try ShapingFont(file: Paths.latin).withFallback(FontFallback(fonts: fallback))
  }

  /// The runs as `family:text` in logical order (by range).
  static func pieces(_ result: ShapeResult) -> [String] {
    let scalars = Array(result.text.unicodeScalars)
    return result.runs.sorted { $0.range!.lowerBound < $1.range!.lowerBound }.map { run in
      var view = String.UnicodeScalarView()
      view.append(contentsOf: scalars[run.range!])
      return "\(run.font.family ?? "?"):\(String(view))"
    }
  }

  @Test func eachScriptInAFontThatHasIt() throws {
    let result = try Self.fonts().shapeParagraph("Hello שלום 123 مرحبا! 日本 😀")
    #expect(
      Self.pieces(result) == [
        "Noto Sans:Hello ", "Noto Sans Hebrew:שלום ", "Noto Sans:123", "Noto Sans: ",
        "Noto Sans Arabic:مرحبا",
        "Noto Sans:! ", "Noto Sans CJK JP:日本 ", "Noto Color Emoji:😀",
      ])
    #expect(result.missingCharacters.isEmpty)
    #expect(!result.glyphs.contains { $0.id == 0 })
    #expect(result.runs.map(\.isFallback) == result.runs.map { $0.font.family != "Noto Sans" })
    // Fallback runs are in the paragraph font's unit: a CJK ideograph is one em of Noto Sans.
    let cjk = try #require(result.runs.first { $0.font.family == "Noto Sans CJK JP" })
    #expect(cjk.unit == result.runs[0].unit && cjk.scale == result.runs[0].scale)
    #expect(cjk.glyphs[0].xAdvance == 1000)
  }

  /// A space or punctuation mark stays in the font of the text before it when that font has it
  /// and they are at the same bidi level; else it takes the first font that has it.
  @Test func spacesAndPunctuationStayWithTheirRun() throws {
    let font = try Self.fonts()
    #expect(Self.pieces(try font.shapeParagraph("日本、 abc")) == ["Noto Sans CJK JP:日本、 ", "Noto Sans:abc"])
    #expect(Self.pieces(try font.shapeParagraph("  日本")) == ["Noto Sans:  ", "Noto Sans CJK JP:日本"])
    #expect(Self.pieces(try font.shapeParagraph("office فيها ffi")).contains("Noto Sans: "))
    // Noto Sans Hebrew has no digits: they go back to the first font, and the space after them
    // (a run of its own: its bidi level is the Hebrew's, the digits' is higher).
    #expect(
      Self.pieces(try font.shapeParagraph("שלום 12 שלום"))
        == ["Noto Sans Hebrew:שלום ", "Noto Sans:12", "Noto Sans: ", "Noto Sans Hebrew:שלום"])
  }

  /// A base and its marks are one cluster, in one font: the first that has them all.
  @Test func marksStayWithTheirBase() throws {
    let result = try Self.fonts().shapeParagraph("ab שָׁלוֹם")
    #expect(Self.pieces(result) == ["Noto Sans:ab ", "Noto Sans Hebrew:שָׁלוֹם"])
    #expect(!result.glyphs.contains { $0.id == 0 })
  }

  /// Keycaps, flags and skin-tone sequences are emoji: the color font is tried first, though
  /// Noto Sans has the digit; a digit alone stays in Noto Sans.
  @Test func emojiClustersTryTheColorFontFirst() throws {
    let result = try Self.fonts().shapeParagraph("1 1\u{FE0F}\u{20E3} 🇯🇵 👍🏽")
    #expect(
      Self.pieces(result) == [
        "Noto Sans:1 ", "Noto Color Emoji:1\u{FE0F}\u{20E3}", "Noto Sans: ", "Noto Color Emoji:🇯🇵",
        "Noto Sans: ", "Noto Color Emoji:👍🏽",
      ])
    // Each sequence is one glyph of the color font.
    #expect(result.runs.filter(\.isFallback).map(\.glyphs.count) == [1, 1, 1])
  }

  /// Characters no font has are drawn with the first font's .notdef and listed, with their
  /// offsets in the cluster unit; without fallback, every character the font lacks is.
  @Test func missingCharactersAreListed() throws {
    var options = ShapeOptions()
    options.clusterUnit = .utf8
    let result = try Self.fonts().shapeParagraph("a ก 日", options: options)
    #expect(result.missingCharacters == [MissingCharacter(scalar: "ก", offset: 2)])
    let alone = try ShapingFont(file: Paths.latin).shapeParagraph("a 日本", options: options)
    #expect(
      alone.missingCharacters == [
        MissingCharacter(scalar: "日", offset: 2), MissingCharacter(scalar: "本", offset: 5),
      ])
    #expect(try ShapingFont(file: Paths.latin).shapeParagraph("abc").missingCharacters.isEmpty)
    // Plain shaping into a result that held them leaves none.
    var reused = alone
    try ShapingFont(file: Paths.latin).shape("abc", into: &reused)
    #expect(reused.missingCharacters.isEmpty)
  }

  /// Fonts of a candidate list are loaded when first needed, once, and shared by every paragraph
  /// that uses the list.
  @Test func candidatesAreLoadedOnceAndShared() throws {
    let fallback = FontFallback(candidates: [
      .init(file: Paths.hebrew, family: "Noto Sans Hebrew"),
      .init(file: Paths.cjkCollection, faceIndex: 0, family: "Noto Sans CJK JP"),
    ])
    let font = try ShapingFont(file: Paths.latin).withFallback(fallback)
    let first = try font.shapeParagraph("a 日本")
    let second = try font.shapeParagraph("b 本日")
    #expect(first.runs.last?.font.family == "Noto Sans CJK JP")
    let loaded = fallback.font(file: Paths.cjkCollection, faceIndex: 0, for: font)
    #expect(loaded != nil && loaded === fallback.font(file: Paths.cjkCollection, faceIndex: 0, for: font))
    #expect(second.runs.last?.font == first.runs.last?.font)
    // A font without the fallback shapes as before: one font, its .notdef.
    #expect(try ShapingFont(file: Paths.latin).shapeParagraph("a 日本").runs.allSatisfy { !$0.isFallback })
  }

  /// The result codes and decodes with its fallback runs and missing characters.
  @Test func codableKeepsFallbackAndMissing() throws {
    let result = try Self.fonts().shapeParagraph("a 日 ก")
    var options = ShapeOptions()
    options.paragraph = .auto
    let document = ShapeDocument(
      font: try ShapingFont(file: Paths.latin), options: options, entries: [.init(line: 1, result: result)])
    let decoded = try JSONDecoder().decode(
      DecodedShapeDocument.self, from: Data(document.json(.compact).utf8))
    let back = try #require(decoded.results.first?.result)
    #expect(back.missingCharacters == result.missingCharacters)
    #expect(back.runs.map(\.isFallback) == result.runs.map(\.isFallback))
    #expect(back.runs.map(\.font.family) == result.runs.map(\.font.family))
  }
}
