import Foundation
import SwiftShape
import TestFixtures
import Testing

/// Spans: ranges of a paragraph with their own font, size, variations, language and features.
@Suite("Text spans")
struct TextSpanTests {
  static func options(_ spans: [TextSpan]) -> ShapeOptions {
    var options = ShapeOptions()
    options.spans = spans
    return options
  }

  /// A span that sets only features stays in its run: the same glyphs as the feature given with
  /// the span's range, one run.
  @Test func featuresStayInTheRun() throws {
    let font = try ShapingFont(file: Paths.latin)
    let spanned = try font.shape(
      "office office", options: Self.options([TextSpan(7..<13, features: [try Feature(parsing: "-liga")])]))
    #expect(spanned.runs.count == 1)
    var ranged = ShapeOptions(features: [try Feature(parsing: "-liga[7:13]")])
    ranged.paragraph = .auto
    let expected = try font.shape("office office", options: ranged)
    #expect(spanned.glyphs == expected.glyphs)
    #expect(spanned.glyphs.map(\.name).filter { $0 == "f_f_i" }.count == 1)
  }

  /// A language span cuts a run of its own, in the span's language, named by its index.
  @Test func aLanguageCutsARun() throws {
    let font = try ShapingFont(file: Paths.latin)
    let result = try font.shape(
      "abc def ghi", options: Self.options([TextSpan(4..<7, language: Language(harfBuzzString: "tr"))]))
    #expect(result.runs.map(\.range) == [0..<4, 4..<7, 7..<11])
    #expect(result.runs.map(\.span) == [nil, 0, nil])
    #expect(result.runs[1].language?.identifier == "tr")
    #expect(result.glyphs.map(\.id) == (try font.shape("abc def ghi")).glyphs.map(\.id))
  }

  /// A span in another font: its run is shaped with that font (the paragraph's own has no
  /// Hebrew), named as the run's font, not as a fallback.
  @Test func aFontSpanShapesWithItsFont() throws {
    let font = try ShapingFont(file: Paths.latin)
    let text = "abc שלום def"
    let result = try font.shape(text, options: Self.options([TextSpan(4..<8, fontFile: Paths.hebrew)]))
    let hebrew = try #require(result.runs.first { $0.span == 0 })
    #expect(hebrew.font.file == Paths.hebrew && !hebrew.isFallback)
    #expect(!hebrew.glyphs.contains { $0.id == 0 })
    #expect(result.missingCharacters.isEmpty)
    var alone = ShapeOptions(direction: .rightToLeft)
    alone.script = try Script(parsing: "Hebr")
    let hebrewFont = try ShapingFont(
      file: Paths.hebrew, options: .init(size: .scale(x: font.scale.x, y: font.scale.y)))
    #expect(hebrew.glyphs.map(\.id) == (try hebrewFont.shape("שלום", options: alone)).glyphs.map(\.id))
    #expect(
      hebrew.glyphs.map(\.xAdvance) == (try hebrewFont.shape("שלום", options: alone)).glyphs.map(\.xAdvance))
  }

  /// Spans at another size: positions stay in 26.6 points, the span's glyphs twice as wide at
  /// twice the size.
  @Test func aSizeSpanIsLaidOutInTheSameUnit() throws {
    let font = try ShapingFont(file: Paths.latin, options: .init(size: .points(12)))
    let result = try font.shape("ab cd ef", options: Self.options([TextSpan(3..<5, points: 24)]))
    let big = try #require(result.runs.first { $0.span == 0 })
    let at24 = try ShapingFont(file: Paths.latin, options: .init(size: .points(24))).shape("cd")
    let at12 = try font.shape("cd")
    #expect(big.glyphs.map(\.xAdvance) == at24.glyphs.map(\.xAdvance))
    #expect(at24.glyphs[0].xAdvance > at12.glyphs[0].xAdvance * 19 / 10)
  }

  /// Lines: a paragraph with spans breaks to a width as one without, its runs keeping their
  /// fonts, and a line's ascent from its tallest run.
  @Test func spansGoOnAcrossLines() throws {
    let font = try ShapingFont(file: Paths.latin, options: .init(size: .points(12)))
    var options = Self.options([
      TextSpan(10..<20, points: 30), TextSpan(0..<5, features: [try Feature(parsing: "-kern")]),
    ])
    options.lineWidth = 64 * 160
    let result = try font.shape("Some words in a sentence that goes on and on", options: options)
    let lines = try #require(result.lines)
    #expect(lines.count > 1)
    for line in lines { #expect(line.visibleAdvance <= options.lineWidth!) }
    let tall = try #require(lines.first { $0.runs.contains { $0.span == 0 } })
    let short = try #require(lines.last)
    #expect(tall.ascent > short.ascent)
  }

  /// Bad spans are one-line errors naming the span.
  @Test(arguments: [
    ([TextSpan(0..<40)], "span 1"),
    (
      [
        TextSpan(0..<4, language: Language(harfBuzzString: "tr")),
        TextSpan(2..<6, language: Language(harfBuzzString: "de")),
      ], "span 2"
    ),
    ([TextSpan(0..<4, points: 20)], "span 1"),
    ([TextSpan(0..<4, features: [try! Feature(parsing: "kern[1:2]")])], "span 1"),
    ([TextSpan(0..<4), TextSpan(1..<3, fontFile: "/no/such/font.ttf")], "span 2"),
  ])
  func badSpansAreErrors(_ spans: [TextSpan], input: String) throws {
    let font = try ShapingFont(file: Paths.latin)
    #expect {
      try font.shape("abc def", options: Self.options(spans))
    } throws: { error in
      guard let error = error as? ShapingError else { return false }
      return error.input == input && !error.description.contains("\n")
    }
  }

  /// A span reads back as it was written, in SwiftShape's JSON keys.
  @Test func aSpanRoundTrips() throws {
    let span = TextSpan(
      2..<9, fontFile: "a.ttf", faceIndex: 1, points: 14, variations: [try Variation(parsing: "wght=700")],
      language: Language(harfBuzzString: "sr"), features: [try Feature(parsing: "smcp")])
    let data = try JSONEncoder().encode(span)
    #expect(try JSONDecoder().decode(TextSpan.self, from: data) == span)
    let json = String(decoding: data, as: UTF8.self)
    #expect(json.contains("\"font_file\"") && json.contains("\"face_index\""))
  }

  /// A span at another size sizes the fallback fonts of its text too: Hebrew the Latin font lacks,
  /// at 24 points, drawn from the Hebrew font at 24 points.
  @Test func aSizeSpanSizesItsFallbackFonts() throws {
    let hebrew = try ShapingFont(file: Paths.hebrew, options: .init(size: .points(12)))
    let font = try ShapingFont(file: Paths.latin, options: .init(size: .points(12)))
      .withFallback(FontFallback(fonts: [hebrew]))
    let result = try font.shape("ab שלום cd", options: Self.options([TextSpan(3..<7, points: 24)]))
    let run = try #require(result.runs.first { $0.script.description == "Hebr" && $0.span == 0 })
    var alone = ShapeOptions(direction: .rightToLeft)
    alone.script = try Script(parsing: "Hebr")
    let at24 = try ShapingFont(file: Paths.hebrew, options: .init(size: .points(24))).shape(
      "שלום", options: alone)
    #expect(run.glyphs.map(\.xAdvance) == at24.glyphs.map(\.xAdvance))
  }

  /// Markup: elements become spans over the text without them, entities are read, and bad markup
  /// is a one-line error.
  @Test func markupBecomesSpans() throws {
    let markup = try MarkupText(
      parsing:
        #"a <span lang="tr" size="12pt">b &amp; <span font_features="-kern">c</span></span> &#x5D0;&lt;"#,
      family: "Noto Sans")
    #expect(markup.text == "a b & c א<")
    #expect(markup.spans.map { $0.start..<$0.end } == [2..<7, 6..<7])
    #expect(markup.spans[0].points == 12 && markup.spans[0].language?.identifier == "tr")
    #expect(markup.spans[1].features.map(\.description) == ["-kern"])
    // Spans counted in each unit, over text of one to four bytes a character and entities.
    let wide = "é<b>中😀&#x10348;</b>x&lt;<i>ب</i>"
    for unit in [ClusterUnit.unicodeScalars, .utf8, .utf16] {
      let read = try MarkupText(parsing: wide, unit: unit, family: "Noto Sans")
      #expect(read.text == "é中😀𐍈x<ب")
      func at(_ prefix: String) -> Int {
        switch unit {
        case .unicodeScalars: prefix.unicodeScalars.count
        case .utf8: prefix.utf8.count
        case .utf16: prefix.utf16.count
        }
      }
      #expect(
        read.spans.map { $0.start..<$0.end } == [at("é")..<at("é中😀𐍈"), at("é中😀𐍈x<")..<at("é中😀𐍈x<ب")])
    }
    #expect {
      try MarkupText(parsing: "a <b>中 &amp b</b>", family: "Noto Sans")
    } throws: { error in
      "\(error)".contains("'amp b</b>' is not closed")
    }
    // Spaces inside tags are the tag's.
    let spaced = try MarkupText(parsing: "x < b >y</ b > <span\tlang='tr' >z</span>", family: "Noto Sans")
    #expect(spaced.text == "x y z" && spaced.spans.map { $0.start..<$0.end } == [2..<3, 4..<5])
    #expect(spaced.spans[0].fontPattern == "Noto Sans:bold" && spaced.spans[1].language?.identifier == "tr")
    // Any white space between attributes (an em space, a line feed), either quote; a key given
    // twice, or a value without quotes, is an error naming the tag.
    let attributes = try MarkupText(parsing: "<span\u{2003}lang = 'fa'\nsize=\"14pt\">z</span>")
    #expect(attributes.spans.first?.language?.identifier == "fa" && attributes.spans.first?.points == 14)
    for (bad, says) in [
      (#"<span lang="tr" lang="fa">x</span>"#, "'lang' is given twice"),
      ("<span lang=tr>x</span>", "not quoted"),
      (#"<span lang="tr>x</span>"#, "is not closed"),
    ] {
      #expect {
        try MarkupText(parsing: bad)
      } throws: { "\($0)".contains(says) }
    }
    let bold = try MarkupText(parsing: "x <b>y</b> <i>z</i>", family: "Noto Sans")
    #expect(bold.spans.map(\.fontPattern) == ["Noto Sans:bold", "Noto Sans:italic"])
    let described = try MarkupText(parsing: #"<span font="DejaVu Sans Bold 14">q</span>"#)
    #expect(described.spans.first?.fontPattern == "DejaVu Sans:bold" && described.spans.first?.points == 14)
    for bad in [
      "<u>x</u>", "<span>x", "<b>x</i>", "a &nope; b", #"<span colour="r">x</span>"#, "<span size=2>x</span>",
    ] {
      #expect {
        try MarkupText(parsing: bad, family: "Noto Sans")
      } throws: { error in
        (error as? ShapingError)?.input == "markup" && !"\(error)".contains("\n")
      }
    }
  }

  /// A span's features are ranged settings, as Pango gives them, also where the span covers the
  /// whole run: HarfBuzz's Indic shaper sets `half` after ranged settings, so `-half` over a range
  /// and `-half` for the whole text give different glyphs, and the span gives the first.
  @Test func spanFeaturesStayRangedOverAWholeRun() throws {
    let font = try ShapingFont(file: Paths.devanagari)
    let text = "क्षत्रिय नमस्ते"
    let length = text.unicodeScalars.count
    var ranged = try Feature(parsing: "-half")
    (ranged.start, ranged.end) = (0, UInt32(length))
    var plain = ShapeOptions(features: [ranged])
    plain.usesCache = false
    let expected = try font.shape(text, options: plain).glyphs.map(\.id)
    let global = try font.shape(text, options: ShapeOptions(features: [try Feature(parsing: "-half")])).glyphs
      .map(\.id)
    #expect(expected != global)
    for _ in 0..<(2 + ShapingCache.warmUpLines) {
      let spanned = try font.shape(
        text, options: Self.options([TextSpan(0..<length, features: [try Feature(parsing: "-half")])]))
      #expect(spanned.glyphs.map(\.id) == expected)
    }
  }

  /// Ranges count in the cluster unit: a span's edge inside a character's UTF-8 or UTF-16 is an
  /// error, for spans of features (the one-run way) as for the others.
  @Test func spanEdgesInsideACharacterAreErrors() throws {
    let font = try ShapingFont(file: Paths.latin)
    for (unit, range) in [(ClusterUnit.utf8, 1..<3), (.utf16, 3..<5)] {
      for span in [
        TextSpan(range, features: [try Feature(parsing: "-kern")]),
        TextSpan(range, language: Language(harfBuzzString: "tr")),
      ] {
        var options = Self.options([span])
        options.clusterUnit = unit
        #expect {
          try font.shape("é a 😀 b", options: options)
        } throws: { ($0 as? ShapingError)?.reason.contains("cuts a character") == true }
      }
    }
  }

  /// A span with a direction is a bidi isolate: "abc" isolated right to left in a left-to-right
  /// paragraph is at level 2 (left to right inside a right-to-left isolate), and with digits after
  /// Hebrew, its runs come in the isolate's order; isolates that overlap without nesting are an
  /// error naming the span.
  @Test func aDirectionMakesAnIsolate() throws {
    let font = try ShapingFont(file: Paths.latin)
    let isolated = try font.shape(
      "xy abc z", options: Self.options([TextSpan(3..<6, direction: .rightToLeft)]))
    #expect(isolated.runs.first { $0.range == 3..<6 }?.level == 2)
    #expect(isolated.runs.filter { $0.level == 0 }.count == 2)
    let plain = try font.shape(
      "xy abc z", options: Self.options([TextSpan(3..<6, language: Language(harfBuzzString: "en"))]))
    #expect(plain.runs.allSatisfy { $0.level == 0 })
    #expect {
      try font.shape(
        "abcdef",
        options: Self.options([TextSpan(0..<3, direction: .rightToLeft), TextSpan(2..<5, direction: .auto)]))
    } throws: { ($0 as? ShapingError)?.input == "span 2" }
  }
}
