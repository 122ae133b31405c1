import SwiftShape
import TestFixtures
import Testing

/// Paragraphs of mixed directions and scripts: runs of one level and one script, each shaped with
/// the paragraph as context, in visual order.
@Suite("Paragraph shaping")
struct ParagraphTests {
  static func text(_ result: ShapeResult, _ run: ShapedRun) -> String {
    let scalars = Array(result.text.unicodeScalars)
    var view = String.UnicodeScalarView()
    view.append(contentsOf: scalars[run.range!])
    return String(view)
  }

  @Test func mixedTextComesInVisualOrder() throws {
    let font = try ShapingFont.defaultFont()
    let result = try font.shapeParagraph("Hello שלום 123 مرحبا!")
    let runs = result.runs.map { "\($0.level!) \($0.script) \(Self.text(result, $0))" }
    #expect(runs == ["0 Latn Hello ", "1 Arab مرحبا", "1 Hebr  ", "2 Hebr 123", "1 Hebr שלום ", "0 Arab !"])
    #expect(
      result.runs.map(\.direction) == [
        .leftToRight, .rightToLeft, .rightToLeft, .leftToRight, .rightToLeft, .leftToRight,
      ])
    // Right-to-left runs come with their last character first; clusters count in the paragraph.
    let hebrew = result.runs[4]
    #expect(hebrew.glyphs.map(\.cluster) == [10, 9, 8, 7, 6])
    // Each run is what HarfBuzz makes of it with the paragraph around it: the Arabic letters
    // joined (their final, medial and initial forms), as shaping the run alone in context gives.
    var options = ShapeOptions(direction: .rightToLeft)
    options.script = try Script(parsing: "Arab")
    options.textBefore = "Hello שלום 123 "
    options.textAfter = "!"
    let alone = try font.shape("مرحبا", options: options)
    #expect(result.runs[1].glyphs.map(\.id) == alone.glyphs.map(\.id))
    #expect(result.runs[1].glyphs.map(\.cluster) == alone.glyphs.map { $0.cluster + 15 })
    #expect(
      Set(alone.glyphs.compactMap(\.name)).isDisjoint(with: ["uni0645", "uni0631", "uni062D", "uni0628"]))
  }

  /// A paragraph of one script and one direction is one run, the glyphs of `shape`.
  /// Hebrew points on Arabic letters stay in the Arabic run, attached to their base as shaping
  /// the word whole places them (DejaVu Sans has both), with their base's cluster.
  @Test func marksOfAnotherScriptStayWithTheirBase() throws {
    let font = try ShapingFont.defaultFont()
    let word = "ع\u{5B7}ل\u{5B4}ي"
    for text in [word, "abc \(word) def"] {
      let result = try font.shapeParagraph(text)
      let arabic = try #require(result.runs.first { $0.script.description == "Arab" })
      #expect(result.runs.filter { $0.script.description == "Hebr" }.isEmpty)
      var options = ShapeOptions(direction: .rightToLeft)
      options.script = try Script(parsing: "Arab")
      let whole = try font.shape(word, options: options)
      let start = text.unicodeScalars.count == 5 ? 0 : 4
      #expect(arabic.glyphs.map(\.id) == whole.glyphs.map(\.id))
      #expect(arabic.glyphs.map(\.cluster) == whole.glyphs.map { $0.cluster + start })
      #expect(arabic.glyphs.map(\.xOffset) == whole.glyphs.map(\.xOffset))
      #expect(whole.glyphs.contains { $0.xOffset != 0 })
    }
  }

  /// The paragraph's first and last runs are shaped as the beginning and end of the text: a mark
  /// that starts a paragraph stands on a dotted circle, as `shape` with `--bot` puts it (the
  /// Devanagari font has the circle; the mark and the letters after it are a Latin run). (The end
  /// of text changes nothing HarfBuzz draws; it is set on the last run all the same.)
  @Test func aParagraphStartsAndEndsTheText() throws {
    let font = try ShapingFont(file: Paths.devanagari)
    var edges = ShapeOptions()
    edges.bufferFlags = [.beginningOfText, .endOfText]
    let circle = try #require(font.font.nominalGlyph(for: "\u{25CC}"))
    for text in ["\u{301}ab", "\u{301}ab कक", "\u{301}ab שלום"] {
      let result = try font.shapeParagraph(text)
      #expect(result.glyphs.contains { $0.id == circle }, "\(text)")
    }
    let alone = try font.shapeParagraph("\u{301}ab")
    #expect(alone.runs[0].glyphs == (try font.shape("\u{301}ab", options: edges)).runs[0].glyphs)
    // Plain shaping keeps hb-shape's default: no circle without --bot.
    #expect(!(try font.shape("\u{301}ab")).glyphs.contains { $0.id == circle })
  }

  @Test func oneRunIsWhatShapeGives() throws {
    let font = try ShapingFont(file: Paths.latin)
    let paragraph = try font.shapeParagraph("office Ta")
    let plain = try font.shape("office Ta")
    #expect(paragraph.runs.count == 1)
    #expect(paragraph.glyphs == plain.glyphs)
    #expect(paragraph.runs[0].level == 0 && paragraph.runs[0].range == 0..<9)
    #expect(plain.runs[0].level == nil && plain.runs[0].range == nil)
    let rtl = try font.shapeParagraph("office", base: .rightToLeft)
    #expect(rtl.runs[0].level == 2 && rtl.glyphs == plain.glyphs.prefix(4).map { $0 })
  }

  /// Clusters and ranges count in the chosen unit, from the start of the paragraph; feature
  /// ranges too.
  @Test func clustersAndFeatureRangesCountInTheParagraph() throws {
    let font = try ShapingFont.defaultFont()
    var options = ShapeOptions()
    options.clusterUnit = .utf16
    let result = try font.shapeParagraph("😀 ab שלום", options: options)
    #expect(result.runs.map(\.range) == [0..<6, 6..<10])
    #expect(result.runs[1].glyphs.first?.cluster == 9)
    // Ligatures off in the second "ffi" only: a range counted in the paragraph.
    let ligatures = try font.shapeParagraph(
      "ffi שלום ffi", options: ShapeOptions(features: [try Feature(parsing: "liga[9:12]=0")]))
    #expect(
      ligatures.runs.map { $0.glyphs.compactMap(\.name) }
        == [
          ["uniFB03", "space"], ["uni05DD", "uni05D5", "uni05DC", "uni05E9"], ["space"], ["f", "f", "i"],
        ])
    #expect(ligatures.runs.map(\.range) == [0..<4, 4..<8, 8..<9, 9..<12])
  }

  @Test func traceClustersCountInTheParagraph() throws {
    let font = try ShapingFont.defaultFont()
    for unit in [ClusterUnit.unicodeScalars, .utf8, .utf16] {
      var options = ShapeOptions()
      options.clusterUnit = unit
      options.trace = true
      options.textBefore = "context"
      let result = try font.shapeParagraph("ab שלום", options: options)
      let hebrew = result.runs.first { $0.script == Script(harfBuzzString: "Hebr") }
      let start = try #require(hebrew?.range?.lowerBound)
      // Every event's clusters lie within the paragraph; the last event is the Hebrew run's (the
      // last in logical order), whose clusters start where it starts.
      let trace = try #require(result.trace)
      let end = result.runs.compactMap(\.range?.upperBound).max() ?? 0
      #expect(trace.allSatisfy { $0.glyphs.allSatisfy { (0..<end).contains($0.cluster) } }, "\(unit)")
      #expect(trace.last?.glyphs.map(\.cluster).min() == start, "\(unit)")
    }
  }

  @Test func aReusedResultCarriesNothingOver() throws {
    let font = try ShapingFont.defaultFont()
    var paragraph = ShapeOptions()
    paragraph.paragraph = .auto
    var result = ShapeResult()
    try font.shape("שלום", options: paragraph, into: &result)
    #expect(result.baseLevel == 1 && result.runs.first?.level == 1)
    try font.shape("abc", options: ShapeOptions(), into: &result)
    #expect(result == (try font.shape("abc")))
    try font.shape("ab שלום", options: paragraph, into: &result)
    try font.shape("abc", options: paragraph, into: &result)
    #expect(result == (try font.shapeParagraph("abc")))
  }
}
