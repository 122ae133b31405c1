import Foundation
import SwiftShape
import TestFixtures
import Testing

/// Paragraphs broken to a width: what fits, greedy filling, each line's glyphs what shaping its
/// text alone (with the paragraph as context) gives, reshaping only at unsafe edges, rules L1 and
/// L2 per line, alignment.
@Suite("Line breaking")
struct LineBreakingTests {
  static func options(width: Int32, anywhere: Bool = false) -> ShapeOptions {
    var options = ShapeOptions()
    options.paragraph = .auto
    options.lineWidth = width
    options.breaksAnywhere = anywhere
    options.includeGlyphNames = false
    options.language = try? Language(parsing: "en")
    return options
  }

  static let samples: [(font: String, text: String)] = [
    (
      Paths.latin,
      "office affine difficult efficient waffle coffee. To Wave, AVAST “quoted” text—and fluffy efforts of 1,234.56 to fit."
    ),
    (Paths.arabic, "بِسْمِ اللَّهِ الرَّحْمَٰنِ الرَّحِيمِ الْحَمْدُ لِلَّهِ رَبِّ الْعَالَمِينَ مرحبا بالعالم"),
    (Paths.devanagari, "नमस्ते दुनिया क्षत्रिय श्रीमान् हिन्दी भाषा में लिखा गया पाठ"),
    (Paths.thai, "สวัสดีครับ ภาษาไทยไม่มีช่องว่างระหว่างคำ แต่ตัดบรรทัดได้"),
  ]

  /// The glyphs of each run of each line are those of shaping the run's text alone, with the
  /// rest of the paragraph as context (what `--verify` checks of a cut).
  static func checkLinesAreShapedAlone(_ font: ShapingFont, _ result: ShapeResult, options: ShapeOptions)
    throws
  {
    let scalars = Array(result.text.unicodeScalars)
    func string(_ range: Range<Int>) -> String {
      var view = String.UnicodeScalarView()
      view.append(contentsOf: scalars[range])
      return String(view)
    }
    for line in result.lines ?? [] {
      for run in line.runs {
        let range = try #require(run.range)
        var alone = ShapeOptions(direction: run.direction, script: run.script, language: options.language)
        alone.includeGlyphNames = false
        alone.textBefore = string(0..<range.lowerBound)
        alone.textAfter = string(range.upperBound..<scalars.count)
        let runFont =
          run.isFallback
          ? try #require(font.fallback?.font(file: run.font.file, faceIndex: run.font.faceIndex, for: font))
          : font
        // A line cut inside a word ends with a hyphen after its last character (and nothing after
        // it as context), at that character's cluster.
        var text = string(range)
        let hyphenated =
          line.hyphen && range.upperBound == line.range.upperBound
          && scalars[range.upperBound - 1] != "\u{AD}"
        if hyphenated {
          text.unicodeScalars.append(runFont.font.nominalGlyph(for: "\u{2010}") != nil ? "\u{2010}" : "-")
          alone.textAfter = ""
        }
        var expected = try runFont.shape(text, options: alone).glyphs.map {
          [
            Int($0.id), min($0.cluster + range.lowerBound, hyphenated ? range.upperBound - 1 : .max),
            Int($0.xAdvance), Int($0.xOffset), Int($0.yOffset),
          ]
        }
        let got = run.glyphs.map {
          [Int($0.id), $0.cluster, Int($0.xAdvance), Int($0.xOffset), Int($0.yOffset)]
        }
        // A run whose trailing whitespace rule L1 turned around comes in the other order.
        if run.direction != alone.direction { expected.reverse() }
        #expect(got == expected, "\(result.text) \(range)")
      }
    }
  }

  @Test(arguments: [1500, 3000, 6000, 12000])
  func linesFitAndAreFull(width: Int32) throws {
    for sample in Self.samples {
      let font = try ShapingFont(file: sample.font)
      let options = Self.options(width: width)
      let result = try font.shape(sample.text, options: options)
      let plain = try font.shapeParagraph(
        sample.text,
        options: {
          var o = options; o.lineWidth = nil; return o
        }())
      let lines = try #require(result.lines)
      #expect(lines.count > 1 || width >= 12000)
      // The lines cover the paragraph, in order, and hold its glyphs.
      #expect(
        lines.first?.range.lowerBound == 0 && lines.last?.range.upperBound == sample.text.unicodeScalars.count
      )
      for (line, next) in zip(lines, lines.dropFirst()) {
        #expect(line.range.upperBound == next.range.lowerBound)
      }
      // Widths as the paragraph measures them: cluster by cluster.
      var advanceAt: [Int: Int] = [:]
      for glyph in plain.glyphs { advanceAt[glyph.cluster, default: 0] += Int(glyph.xAdvance) }
      let scalars = Array(sample.text.unicodeScalars)
      func visibleWidth(_ range: Range<Int>) -> Int {
        var end = range.upperBound
        while end > range.lowerBound, scalars[end - 1] == " " { end -= 1 }
        return (range.lowerBound..<end).reduce(0) { $0 + (advanceAt[$1] ?? 0) }
      }
      let breaks = try LineBreaks.opportunities(scalars).map(\.index)
      for (index, line) in lines.enumerated() {
        let inside = breaks.filter { $0 > line.range.lowerBound && $0 < line.range.upperBound }
        // No line is wider than the width unless it is one unbreakable piece.
        #expect(Int(line.visibleAdvance) <= Int(width) || inside.isEmpty, "\(sample.text): line \(index)")
        #expect(visibleWidth(line.range) <= Int(width) || inside.isEmpty)
        // No line could have taken the next piece.
        if index + 1 < lines.count, let next = breaks.first(where: { $0 > line.range.upperBound }) {
          #expect(visibleWidth(line.range.lowerBound..<next) > Int(width), "\(sample.text): line \(index)")
        }
        // Lines stack: each baseline below the last by the line's height.
        if index > 0 {
          let above = lines[index - 1]
          #expect(line.baseline >= above.baseline + above.descent + line.ascent)
        }
      }
      try Self.checkLinesAreShapedAlone(font, result, options: options)
    }
  }

  /// Greedy filling over every opportunity, written plainly here from `LineBreaks.opportunities`
  /// and the widths of the unbroken paragraph, gives the line starts `breakLines` gives (which
  /// asks ICU for the opportunities near each line's end only): on the samples, on text with hard
  /// breaks, and on the English and Persian benchmark texts when `../shared` is there, at several
  /// widths.
  @Test func lineStartsAreGreedyOverEveryOpportunity() throws {
    var cases: [(font: String, texts: [String])] = Self.samples.map { ($0.font, [$0.text]) }
    cases.append(
      (
        Paths.latin,
        ["A line\u{2028}then a hard break and more words\nafter a newline, then\u{0B}the end of it all."]
      ))
    if let shared = Paths.shared {
      let perf = "\(shared)/corpus/harfbuzz-6.0.0-perf"
      for (font, text) in [
        ("Roboto-Regular.ttf", "en-thelittleprince.txt"), ("Amiri-Regular.ttf", "fa-thelittleprince.txt"),
      ] {
        let lines = try String(contentsOfFile: "\(perf)/texts/\(text)", encoding: .utf8).split(
          separator: "\n")
        cases.append(("\(perf)/fonts/\(font)", lines.prefix(300).map(String.init)))
      }
    } else {
      print("skipped the benchmark texts: ../shared is absent")
    }
    var compared = 0
    for (path, texts) in cases {
      let font = try ShapingFont(file: path)
      for text in texts {
        let scalars = Array(text.unicodeScalars)
        guard !scalars.isEmpty else { continue }
        var unbroken = Self.options(width: 0)
        unbroken.lineWidth = nil
        let paragraph = try font.shapeParagraph(text, options: unbroken)
        var advance = [Int64](repeating: 0, count: scalars.count)
        for glyph in paragraph.glyphs { advance[glyph.cluster] += Int64(glyph.xAdvance) }
        let whitespace = try BidiParagraph.trailingWhitespace(scalars)
        let breaks = try LineBreaks.opportunities(scalars)
        func visibleWidth(_ a: Int, _ b: Int) -> Int64 {
          var end = b
          while end > a, whitespace[end - 1] { end -= 1 }
          return advance[a..<end].reduce(0, +)
        }
        for width: Int32 in [800, 2500, 6000, 12000, 25000] {
          let result = try font.shape(text, options: Self.options(width: width))
          guard result.reshapedEdges == 0 else { continue }
          var starts = [0]
          var start = 0
          while start < scalars.count {
            var end = -1
            for candidate in breaks where candidate.index > start {
              if end >= 0, visibleWidth(start, candidate.index) > Int64(width) { break }
              end = candidate.index
              if candidate.isMandatory { break }
            }
            start = end
            if start < scalars.count { starts.append(start) }
          }
          #expect(try #require(result.lines).map(\.range.lowerBound) == starts, "\(text) at \(width)")
          compared += 1
        }
      }
    }
    #expect(compared > 20)
  }

  /// Cutting inside a word (`breaksAnywhere`) lands inside ligatures and joined letters: those
  /// edges are reshaped, and the lines are still what shaping their text alone (and the hyphen
  /// Pango would put there) gives.
  @Test func edgesInsideWordsAreReshaped() throws {
    // A Latin ligature is cut where its part shaped alone still fits (`ff` of `ffi`, as Pango cuts
    // it), the line ending with a hyphen; joined Arabic letters are cut, and reshaped (the Arabic
    // fixture font has no hyphen: none is put there).
    for (file, text, edges) in [
      (Paths.latin, "difficult affluent", 4), (Paths.arabic, "مرحبابالعالمالكبير", 12),
    ] {
      let font = try ShapingFont(file: file)
      let options = Self.options(width: 1200, anywhere: true)
      let result = try font.shape(text, options: options)
      #expect(result.reshapedEdges == edges, "\(text)")
      #expect(try #require(result.lines).count > 2)
      for line in result.lines ?? [] where line.range.count > 1 { #expect(line.visibleAdvance <= 1200) }
      try Self.checkLinesAreShapedAlone(font, result, options: options)
    }
    // Between words, no edge is unsafe.
    let latin = try ShapingFont(file: Paths.latin).shape(
      Self.samples[0].text, options: Self.options(width: 3000))
    #expect(latin.reshapedEdges == 0)
  }

  /// Rule L1 puts a line's trailing whitespace at the paragraph level; rule L2 orders each line's
  /// runs; alignment places the line in the width.
  @Test func bidiPerLineAndAlignment() throws {
    let font = try ShapingFont.defaultFont()
    var options = Self.options(width: 16000)
    let result = try font.shape("abc שלום עולם def ghi", options: options)
    let lines = try #require(result.lines)
    #expect(lines.count == 2)
    // The space after עולם ends the first line: level 0, not the Hebrew's 1.
    let first = lines[0]
    #expect(first.runs.map { $0.level ?? 9 } == [0, 1, 0])
    #expect(first.runs.last?.glyphs.map(\.cluster) == [13])
    #expect(first.x == 0)
    options.alignment = .end
    let end = try font.shape("abc שלום עולם def ghi", options: options)
    #expect(end.lines?[0].x == 16000 - (end.lines?[0].visibleAdvance ?? 0))
    options.alignment = .center
    options.paragraph = .rightToLeft
    let center = try font.shape("abc שלום עולם def ghi", options: options)
    #expect(center.lines?[1].x == (16000 - (center.lines?[1].visibleAdvance ?? 0)) / 2)
    options.alignment = .start
    let rtlStart = try font.shape("abc שלום עולם def ghi", options: options)
    #expect(rtlStart.lines?[0].x == 16000 - (rtlStart.lines?[0].visibleAdvance ?? 0))
  }

  /// A mandatory break ends a line whatever the width; a plain shape into the result clears the
  /// lines.
  @Test func mandatoryBreaksAndReuse() throws {
    let font = try ShapingFont(file: Paths.latin)
    var result = try font.shape("ab\u{2028}cd", options: Self.options(width: 100_000))
    #expect(result.lines?.map(\.range) == [0..<3, 3..<5])
    try font.shape("ab", into: &result)
    #expect(result.lines == nil && result.reshapedEdges == 0)
  }

  /// The lines code and decode in the documented format.
  @Test func linesDecodeFromTheDocument() throws {
    let font = try ShapingFont(file: Paths.latin)
    let options = Self.options(width: 3000)
    let result = try font.shape(Self.samples[0].text, options: options)
    let document = ShapeDocument(font: font, options: options, entries: [.init(line: 1, result: result)])
    for layout in [ShapeDocument.Layout.compact, .pretty] {
      let decoded = try JSONDecoder().decode(
        DecodedShapeDocument.self, from: Data(document.json(layout).utf8))
      let back = try #require(decoded.results.first?.result)
      #expect(back.lines == result.lines)
      #expect(back.runs == result.runs && back.reshapedEdges == result.reshapedEdges)
    }
    let coded = try JSONDecoder().decode(DecodedShapeDocument.self, from: JSONEncoder().encode(document))
    #expect(coded.results.first?.result.lines == result.lines)
  }
}
