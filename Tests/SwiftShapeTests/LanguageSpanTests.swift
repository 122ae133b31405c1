import HarfBuzz
import TestFixtures
import Testing

@testable import SwiftShape

/// Paragraphs whose spans each set a language alone (`shapeLanguageSpans`) give what the general
/// path gives them, and what shaping each run on its own without the cache gives.
@Suite("Language spans")
struct LanguageSpanTests {
  /// The spans of `line` that `pattern` makes: a span over each word whose index it names, with
  /// the language it gives.
  static func spans(
    of line: String, unit: ClusterUnit, _ pattern: (Int) -> (language: String, joined: Bool)?
  ) -> [TextSpan] {
    var spans: [TextSpan] = []
    var offset = 0
    for (index, word) in line.split(separator: " ", omittingEmptySubsequences: false).enumerated() {
      let length = unit.length(of: String(word))
      if length > 0, let (language, joined) = pattern(index) {
        let span = TextSpan(offset..<(offset + length), language: Language(harfBuzzString: language))
        // A span joined to the one before it takes the space between them too.
        if joined, let last = spans.last, last.language == span.language {
          spans[spans.count - 1].end = span.end
        } else {
          spans.append(span)
        }
      }
      offset += length + unit.length(of: " ")
    }
    return spans
  }

  /// `line` shaped with `options` (this path, where it applies), by the general path (an empty
  /// span at the end, which sets nothing, takes it; its spans are then set to the first's), and
  /// without the cache.
  static func shapes(_ line: String, font: ShapingFont, options: ShapeOptions) throws -> (
    fast: ShapeResult, general: ShapeResult, withoutCache: ShapeResult
  ) {
    let fast = try font.shape(line, options: options)
    var general = options
    general.spans.append(TextSpan(0..<0))
    var expected = try font.shape(line, options: general)
    expected.spans = fast.spans
    var plain = options
    plain.usesCache = false
    return (fast, expected, try font.shape(line, options: plain))
  }

  /// `line` shaped with `options` (`shapes`): expects this path's result to be the general path's,
  /// run for run with the same spans, and the result without the cache (`name` naming the font
  /// in a failure); gives this path's result and the general path's.
  static func expectSameResults(_ line: String, font: ShapingFont, options: ShapeOptions, name: String) throws
    -> (fast: ShapeResult, general: ShapeResult)
  {
    let (fast, expected, withoutCache) = try shapes(line, font: font, options: options)
    // (Compared first: the results whole in a failure's message are long.)
    let (same, sameAsPlain) = (fast == expected, fast == withoutCache)
    #expect(same, "\(name) \(line): runs \(fast.runs.map(\.range)), general \(expected.runs.map(\.range))")
    #expect(fast.runs.map(\.span) == expected.runs.map(\.span))
    #expect(sameAsPlain, "\(name) \(line): not as without the cache")
    return (fast, expected)
  }

  @Test(arguments: [ClusterUnit.unicodeScalars, .utf8])
  func spansGiveTheGeneralPathsRuns(unit: ClusterUnit) throws {
    ShapingCache.choosesByTime = false
    let cases: [(path: String, lines: [String], languages: [String])] = [
      (
        Paths.latin, ["Şi ţara l·l Lluís ştie şi ţine", "the same words  the same words", "ffi fl ff"],
        ["en", "de"]
      ),
      (Paths.latin, ["Şi ţara l·l Lluís ştie şi ţine"], ["ro", "en"]),
      (Paths.spaceJoints, ["qa Ta x y qa", "qo z qa b", "ak qa ak Tk", "Tk  Ta k T"], ["en", "de"]),
      (Paths.devanagari, ["क्षत्रिय नमस्ते क्षत्रिय", "नमस्ते र्क नमस्ते"], ["hi", "mr"]),
      // Right to left: the runs in visual order, each a stretch of glyphs from the right.
      (Paths.arabic, ["سلام عليكم سلام", "بب بب يي", "كتاب، سلام!"], ["ar", "fa"]),
    ]
    // Every word, every other word, runs of words joined, one span over all.
    let patterns: [(Int) -> (language: String, joined: Bool)?] = [
      { _ in ("0", false) }, { $0 % 2 == 0 ? ("0", false) : nil }, { ($0 % 3 == 2 ? "1" : "0", true) },
      { $0 % 2 == 0 ? ("1", false) : ("0", false) }, { _ in ("0", true) },
    ]
    let scratch = ThreadCache.current.spanScratch
    for (path, lines, languages) in cases {
      let font = try ShapingFont(file: path)
      ShapingCache.removeAllOnThisThread()
      var options = ShapeOptions()
      options.paragraph = .auto
      options.clusterUnit = unit
      for _ in 0..<ShapingCache.warmUpLines { _ = try font.shape("warm up", options: options) }
      let taken = scratch.paragraphs
      for line in lines + lines {
        for pattern in patterns {
          options.spans = Self.spans(of: line, unit: unit) { index in
            pattern(index).map { (languages[$0.language == "0" ? 0 : 1], $0.joined) }
          }
          let (fast, expected) = try Self.expectSameResults(line, font: font, options: options, name: path)
          #expect(fast.runs.map(\.language) == expected.runs.map(\.language))
        }
      }
      // The lines of words apart took this path, each once the cache had seen its words.
      #expect(scratch.paragraphs - taken >= lines.count * 2, "\(path)")
    }
  }

  /// A span of language a word over the benchmark corpora's English and Persian lines: the same
  /// results as the general path's and as without the cache, and this path taken for most lines.
  @Test func corpusLinesWithASpanAWord() throws {
    let scratch = ThreadCache.current.spanScratch
    try Self.checkCorpusLines(taken: { scratch.paragraphs }) { corpus, line in
      let language = corpus.text.hasPrefix("en") ? "en-GB" : "fa"
      return Self.spans(of: line, unit: .utf8) { _ in (language, false) }
    }
  }

  /// The benchmark corpora's first 300 lines of English (Roboto) and Persian (Amiri), each shaped
  /// twice as paragraphs with the spans `spans` gives (its font's path and text's name, and the
  /// line), in UTF-8 clusters: the same results as the general path's and as without the cache,
  /// and a path of spans taken (`taken`, the thread's count of its paragraphs) for more than half.
  /// Skipped, saying so, where `../shared` is absent.
  static func checkCorpusLines(
    taken: () -> Int, spans: ((font: String, text: String), String) -> [TextSpan]
  ) throws {
    guard let shared = Paths.shared else {
      print("skipped: ../shared (the benchmark corpora) is absent")
      return
    }
    ShapingCache.choosesByTime = false
    let perf = "\(shared)/corpus/harfbuzz-6.0.0-perf"
    for (file, text) in [
      ("Roboto-Regular.ttf", "en-thelittleprince.txt"), ("Amiri-Regular.ttf", "fa-thelittleprince.txt"),
    ] {
      let path = "\(perf)/fonts/\(file)"
      let font = try ShapingFont(file: path)
      let lines = try String(contentsOfFile: "\(perf)/texts/\(text)", encoding: .utf8)
        .split(separator: "\n").prefix(300).map(String.init)
      ShapingCache.removeAllOnThisThread()
      var options = ShapeOptions()
      options.paragraph = .auto
      options.clusterUnit = .utf8
      let before = taken()
      var differ = 0
      for line in lines + lines {
        options.spans = spans((path, text), line)
        let (fast, expected, withoutCache) = try shapes(line, font: font, options: options)
        if fast != expected || fast != withoutCache { differ += 1 }
      }
      #expect(differ == 0, "\(text)")
      #expect(taken() - before > lines.count, "\(text): \(taken() - before) lines")
    }
  }

  /// Where the path does not apply (a span inside a word, spans out of order or over each
  /// other, a span with a feature), the general path shapes the paragraph, and its errors stay.
  @Test func otherSpansTakeTheGeneralPath() throws {
    ShapingCache.choosesByTime = false
    let font = try ShapingFont(file: Paths.latin)
    ShapingCache.removeAllOnThisThread()
    var options = ShapeOptions()
    options.paragraph = .auto
    for _ in 0..<ShapingCache.warmUpLines { _ = try font.shape("warm up", options: options) }
    let line = "one two three four"
    let german = Language(harfBuzzString: "de")
    let scratch = ThreadCache.current.spanScratch
    for spans in [
      [TextSpan(1..<3, language: german)],
      [TextSpan(8..<13, language: german), TextSpan(0..<3, language: german)],
      [TextSpan(0..<7, language: german), TextSpan(4..<13, language: german)],
      [TextSpan(0..<3, language: german, features: [try Feature(parsing: "-kern")])],
    ] {
      options.spans = spans
      let taken = scratch.paragraphs
      let result = try font.shape(line, options: options)
      var plain = options
      plain.usesCache = false
      let same = result == (try font.shape(line, options: plain))
      #expect(same, "\(spans.map { $0.start..<$0.end })")
      #expect(scratch.paragraphs == taken)
    }
    options.spans = [TextSpan(0..<3, language: german), TextSpan(4..<40, language: german)]
    #expect(throws: ShapingError.self) { try font.shape(line, options: options) }
  }
}
