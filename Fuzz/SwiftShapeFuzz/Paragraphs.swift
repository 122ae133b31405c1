import SwiftShape
import SwiftShapeHyphenation

/// The fonts paragraphs are fuzzed with: Noto Sans, falling back on the Hebrew, Arabic, CJK and
/// color emoji subsets of the fixtures.
let paragraphFonts: (plain: ShapingFont, fallback: ShapingFont)? = {
  let folder = requestFolder + "/fonts/"
  guard let latin = try? ShapingFont(file: folder + "NotoSans-Latin.ttf") else { return nil }
  let others = [
    "NotoSansHebrew-Subset.ttf", "NotoSansArabic-Subset.ttf", "NotoSansCJK-Subset.ttc",
    "NotoColorEmoji-Subset.ttf",
  ]
  .compactMap { try? ShapingFont(file: folder + $0, options: .init(size: .scale(x: 1000, y: 1000))) }
  return (latin, latin.withFallback(FontFallback(fonts: others)))
}()

/// What paragraph text is made of: each input byte after the first picks a piece.
let paragraphPieces: [String] = [
  "a", "f", "i", "o", "T", "V", "office", "AV", "Hello", "0", "1", "2", "٣", "٤", "ש", "ל", "ו", "ם",
  "\u{5B8}", "\u{5C1}",
  "م", "ر", "ح", "ب", "ا", "\u{64E}", "\u{651}", "لا", "日", "本", "語", "テ", "、", "。", "😀", "👍🏽", "🇯🇵",
  "1\u{FE0F}\u{20E3}",
  "❤\u{FE0F}", "\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}", " ", " ", " ", ".", ",", "!", "(", ")", "[", "]", "«",
  "»", "\"", "-",
  "\u{200D}", "\u{200C}", "\u{200E}", "\u{200F}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{202E}", "\u{2066}",
  "\u{2067}",
  "\u{2068}", "\u{2069}", "\u{FE0E}", "\u{FE0F}", "\u{2028}", "\t", "\u{301}", "ก", "\u{E01}\u{E31}", "क्ष",
  "\u{FFFD}",
]

func fuzzParagraphs(_ bytes: UnsafeBufferPointer<UInt8>) {
  guard let fonts = paragraphFonts, let flags = bytes.first else { return }
  var text = ""
  for byte in bytes.dropFirst().prefix(200) {
    if Int(byte) < paragraphPieces.count {
      text += paragraphPieces[Int(byte)]
    } else if let scalar = Unicode.Scalar(UInt32(byte) * 97 + 0x100) {
      text.unicodeScalars.append(scalar)
    }
  }
  var options = ShapeOptions()
  options.paragraph = [.auto, .leftToRight, .rightToLeft, .auto][Int(flags & 3)]
  options.clusterUnit = [.unicodeScalars, .utf8, .utf16, .utf8][Int(flags >> 2) & 3]
  options.lineWidth = [nil, 600, 2500, 8000][Int(flags >> 4) & 3]
  options.breaksAnywhere = flags & 0x40 != 0
  options.includeGlyphNames = false
  options.language = try? Language(parsing: "en")
  // With a width, one input in four (by bits of its last byte) is justified (with kashida for
  // Arabic), and one in four hyphenated (where the English dictionary is installed).
  if options.lineWidth != nil, let last = bytes.last, bytes.count > 2 {
    if last & 0x0C == 0x04 { options.alignment = .justify }
    if last & 0x30 == 0x10, Hyphenator.dictionaryPath(for: "en") != nil { options.hyphenates = true }
  }
  let font = flags & 0x80 != 0 ? fonts.fallback : fonts.plain
  let scalars = Array(text.unicodeScalars)
  var offsets = [0]
  for scalar in scalars { offsets.append(offsets.last! + options.clusterUnit.width(of: scalar)) }
  // One input in four (by its last byte) has two spans over ranges its last bytes pick: a
  // language, which cuts runs, and features, which do not.
  var languageSpan: Range<Int>?
  if bytes.count > 8, bytes[bytes.count - 1] & 3 == 0 {
    func offset(_ byte: UInt8) -> Int { offsets[Int(byte) % offsets.count] }
    let a = offset(bytes[bytes.count - 2])
    let b = offset(bytes[bytes.count - 3])
    let c = offset(bytes[bytes.count - 4])
    let d = offset(bytes[bytes.count - 5])
    languageSpan = min(a, b)..<max(a, b)
    options.spans = [
      TextSpan(min(a, b)..<max(a, b), language: Language(harfBuzzString: "tr")),
      TextSpan(min(c, d)..<max(c, d), features: [(try? Feature(parsing: "-liga"))!]),
    ]
  }
  guard let result = try? font.shape(text, options: options) else {
    preconditionFailure("a paragraph failed to shape")
  }
  /// Every run inside the language span is a run of it, in its language; every run of it is
  /// inside it.
  func checkSpans(_ runs: [ShapedRun]) {
    guard let span = languageSpan, !span.isEmpty else { return }
    for run in runs {
      guard let range = run.range else { continue }
      if span.lowerBound <= range.lowerBound, range.upperBound <= span.upperBound {
        precondition(
          run.span == 0 && run.language?.identifier == "tr", "a run of the span without its language")
      }
      if run.span == 0 {
        precondition(
          span.lowerBound <= range.lowerBound && range.upperBound <= span.upperBound,
          "a span's run outside it")
      }
    }
  }
  checkSpans(result.lines?.flatMap(\.runs) ?? result.runs)
  let length =
    switch options.clusterUnit {
    case .unicodeScalars: text.unicodeScalars.count
    case .utf8: text.utf8.count
    case .utf16: text.utf16.count
    }
  /// Runs hold the span they say, each glyph's cluster in it, and together cover `span` once.
  func checkRuns(_ runs: [ShapedRun], cover span: Range<Int>) {
    let ranges = runs.compactMap(\.range).sorted { $0.lowerBound < $1.lowerBound }
    precondition(ranges.count == runs.count, "a run without a range")
    var next = span.lowerBound
    for range in ranges {
      precondition(
        range.lowerBound == next && !range.isEmpty, "runs that do not cover the text once: \(ranges)")
      next = range.upperBound
    }
    precondition(next == span.upperBound, "runs that stop short of the text's end")
    for run in runs {
      for glyph in run.glyphs {
        precondition(run.range!.contains(glyph.cluster), "a glyph outside its run")
      }
    }
  }
  guard let lines = result.lines else {
    precondition(options.lineWidth == nil, "a width and no lines")
    if length > 0 { checkRuns(result.runs, cover: 0..<length) }
    return
  }
  // Lines cover the paragraph in order; no line is wider than asked unless nothing inside it may
  // break.
  var next = 0
  let breaks = (try? LineBreaks.opportunities(scalars).map { offsets[$0.index] }) ?? []
  let graphemes = (try? GraphemeClusters.boundaries(scalars).map { offsets[$0] }) ?? []
  for line in lines {
    precondition(line.range.lowerBound == next, "lines that do not follow each other")
    next = line.range.upperBound
    checkRuns(line.runs, cover: line.range)
    let width = options.lineWidth!
    if options.alignment == .justify, let fill = line.fill, fill.kind != .none {
      precondition(line.visibleAdvance == width, "a justified line that does not fill the width")
    }
    if line.visibleAdvance > width {
      let inside = (options.breaksAnywhere ? graphemes : breaks).filter {
        $0 > line.range.lowerBound && $0 < line.range.upperBound
      }
      precondition(inside.isEmpty, "a line wider than asked that could have broken at \(inside)")
    }
  }
  precondition(next == length, "lines that stop short of the paragraph's end")
}
