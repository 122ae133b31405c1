import HarfBuzz
import TestFixtures
import Testing

@testable import SwiftShape

/// Paragraphs whose spans set fonts, sizes, variations and languages (`shapeStyledSpans`) give
/// what the general path gives them, and what shaping each run on its own without the cache gives.
@Suite("Styled spans")
struct StyledSpanTests {
  /// The spans of `line` that `style` makes: a span over each word whose index it styles, with
  /// the settings it gives (a span joined to the one before takes the space between them too).
  static func spans(of line: String, unit: ClusterUnit, _ style: (Int) -> (span: TextSpan, joined: Bool)?)
    -> [TextSpan]
  {
    var spans: [TextSpan] = []
    var offset = 0
    for (index, word) in line.split(separator: " ", omittingEmptySubsequences: false).enumerated() {
      let length = unit.length(of: String(word))
      if length > 0, let (settings, joined) = style(index) {
        var span = settings
        (span.start, span.end) = (offset, offset + length)
        if joined, let last = spans.last, last.end + unit.length(of: " ") == span.start,
          last.fontFile == span.fontFile, last.points == span.points, last.language == span.language,
          last.variations == span.variations, last.faceIndex == span.faceIndex
        {
          spans[spans.count - 1].end = span.end
        } else {
          spans.append(span)
        }
      }
      offset += length + unit.length(of: " ")
    }
    return spans
  }

  static let bold = Paths.font("NotoSans-Bold-Latin.ttf")
  static let italic = Paths.font("NotoSans-Italic-Latin.ttf")

  @Test(arguments: [ClusterUnit.unicodeScalars, .utf8])
  func spansGiveTheGeneralPathsRuns(unit: ClusterUnit) throws {
    ShapingCache.choosesByTime = false
    let german = Language(harfBuzzString: "de")
    let wght = try Variation(parsing: "wght=700")
    // Each case: the paragraph's font, its lines, two span styles.
    let cases: [(font: ShapingFont, lines: [String], styles: [TextSpan])] = [
      (
        try ShapingFont(file: Paths.latin),
        ["Şi ţara l·l Lluís ştie şi ţine", "the same words  the same words", "ffi fl ff AV To"],
        [TextSpan(0..<0, fontFile: Self.bold), TextSpan(0..<0, fontFile: Self.italic, language: german)]
      ),
      (
        try ShapingFont(file: Paths.latin, options: .init(size: .points(12))),
        ["the same words  the same words", "AV To Ta ffi"],
        [TextSpan(0..<0, points: 18), TextSpan(0..<0, fontFile: Self.bold, points: 9)]
      ),
      (
        try ShapingFont(file: Paths.variable), ["the same words  the same words", "AV To Ta ffi"],
        [TextSpan(0..<0, variations: [wght]), TextSpan(0..<0, language: german)]
      ),
      // The cache's own font: layout that reaches across spaces, each style its own font.
      (
        try ShapingFont(file: Paths.spaceJoints), ["qa Ta x y qa", "qo z qa b", "ak qa ak Tk", "Tk  Ta k T"],
        [TextSpan(0..<0, fontFile: Paths.spaceJoints), TextSpan(0..<0, language: german)]
      ),
      (
        try ShapingFont(file: Paths.devanagari), ["क्षत्रिय नमस्ते क्षत्रिय", "नमस्ते र्क नमस्ते"],
        [
          TextSpan(0..<0, fontFile: Paths.devanagari),
          TextSpan(0..<0, language: Language(harfBuzzString: "mr")),
        ]
      ),
      // Right to left: the runs in visual order, each a stretch of glyphs from the right.
      (
        try ShapingFont(file: Paths.arabic), ["سلام عليكم سلام", "بب بب يي", "كتاب، سلام!"],
        [TextSpan(0..<0, fontFile: Paths.arabic), TextSpan(0..<0, language: Language(harfBuzzString: "fa"))]
      ),
    ]
    // Every word, every other word, runs of words joined, the two styles in turn, one span over all.
    let patterns: [(Int) -> (style: Int, joined: Bool)?] = [
      { _ in (0, false) }, { $0 % 2 == 0 ? (0, false) : nil }, { ($0 % 3 == 2 ? 1 : 0, true) },
      { $0 % 2 == 0 ? (1, false) : (0, false) }, { _ in (0, true) },
    ]
    let scratch = ThreadCache.current.spanScratch
    for (font, lines, styles) in cases {
      ShapingCache.removeAllOnThisThread()
      var options = ShapeOptions()
      options.paragraph = .auto
      options.clusterUnit = unit
      for _ in 0..<ShapingCache.warmUpLines { _ = try font.shape("warm up", options: options) }
      let taken = scratch.styledParagraphs
      for line in lines + lines {
        for pattern in patterns {
          options.spans = Self.spans(of: line, unit: unit) { index in
            pattern(index).map { (styles[$0.style], $0.joined) }
          }
          let (fast, expected) = try LanguageSpanTests.expectSameResults(
            line, font: font, options: options, name: font.identity.file)
          #expect(fast.runs.map(\.font) == expected.runs.map(\.font))
        }
      }
      // The lines took this path, each at least once the cache had seen its words.
      #expect(scratch.styledParagraphs - taken >= lines.count * 2, "\(font.identity.file)")
    }
  }

  /// A bold word in two over the benchmark corpora's English and Persian lines (the span naming the
  /// paragraph's own file): the same results as the general path's and as without the cache, and
  /// this path taken for most lines.
  @Test func corpusLinesWithABoldWordInTwo() throws {
    let scratch = ThreadCache.current.spanScratch
    try LanguageSpanTests.checkCorpusLines(taken: { scratch.styledParagraphs }) { corpus, line in
      Self.spans(of: line, unit: .utf8) {
        $0 % 2 == 0 ? (TextSpan(0..<0, fontFile: corpus.font), false) : nil
      }
    }
  }

  /// Two fonts loaded from memory under one name (`<memory>`), each a paragraph with a span of
  /// another size, through this path and the general one: each span's run is its own font at that
  /// size. (By name, the second took the first's sized face.)
  @Test func fontsFromMemoryKeepTheirOwnFacesInSizedSpans() throws {
    ShapingCache.choosesByTime = false
    var options = ShapeOptions()
    options.paragraph = .auto
    options.clusterUnit = .utf8
    let line = "Wave To AV"
    for (general, paths) in [(false, [Paths.latin, Self.bold]), (true, [Self.bold, Paths.latin])] {
      for path in paths {
        let bytes = try Blob(contentsOfFile: path).bytes
        let font = try ShapingFont(bytes: bytes, options: .init(size: .points(12)))
        let sized = try ShapingFont(bytes: bytes, options: .init(size: .points(30)))
        options.spans = [TextSpan(5..<7, points: 30)] + (general ? [TextSpan(0..<0)] : [])
        let result = try font.shape(line, options: options)
        let spanRun = try #require(result.runs.first { $0.span == 0 })
        let alone = try sized.shape("To").runs[0].glyphs
        #expect(
          spanRun.glyphs.map(\.id) == alone.map(\.id)
            && spanRun.glyphs.map(\.xAdvance) == alone.map(\.xAdvance),
          "\(path): \(spanRun.glyphs.map(\.xAdvance)) against \(alone.map(\.xAdvance))")
      }
    }
  }

  /// Where the path does not apply (a span inside an Arabic word, spans out of order or over each
  /// other, a span with a feature, a size for a font not sized in points, a font that
  /// cannot be read), the general path shapes the paragraph, and its errors stay.
  @Test func otherSpansTakeTheGeneralPath() throws {
    ShapingCache.choosesByTime = false
    ShapingCache.removeAllOnThisThread()
    var options = ShapeOptions()
    options.paragraph = .auto
    let scratch = ThreadCache.current.spanScratch
    let latin = try ShapingFont(file: Paths.latin)
    let arabic = try ShapingFont(file: Paths.arabic)
    for font in [latin, arabic] {
      for _ in 0..<ShapingCache.warmUpLines { _ = try font.shape("warm up", options: options) }
    }
    let bold = Self.bold
    for (font, line, spans) in [
      (arabic, "سلام عليكم", [TextSpan(2..<6, fontFile: Paths.arabic)]),
      (latin, "one two three four", [TextSpan(8..<13, fontFile: bold), TextSpan(0..<3, fontFile: bold)]),
      (latin, "one two three four", [TextSpan(0..<7, fontFile: bold), TextSpan(4..<13, fontFile: bold)]),
      (
        latin, "one two three four",
        [TextSpan(0..<3, fontFile: bold, features: [try Feature(parsing: "-kern")])]
      ),
    ] {
      options.spans = spans
      let taken = scratch.styledParagraphs
      let result = try font.shape(line, options: options)
      var plain = options
      plain.usesCache = false
      let same = result == (try font.shape(line, options: plain))
      #expect(same, "\(spans.map { $0.start..<$0.end })")
      #expect(scratch.styledParagraphs == taken)
    }
    for spans in [
      [TextSpan(0..<3, points: 12)], [TextSpan(0..<3, fontFile: "/nonexistent.ttf")],
      [TextSpan(0..<3, fontFile: bold), TextSpan(4..<40, fontFile: bold)],
    ] {
      options.spans = spans
      #expect(throws: ShapingError.self) { try latin.shape("one two three four", options: options) }
    }
  }
}
