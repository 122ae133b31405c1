import HarfBuzz
import SwiftShapeUnicode

// Speed: a paragraph of one run (one bidi level, one script, no fallback fonts) whose spans each
// set a language and nothing else, given in order and apart — a caller tagging words or phrases
// with their language — where every language shapes the script alike with the font
// (`FontCacheState.shapesAlike`). The general path shapes such a paragraph as one group of runs
// (`shapeRunGroupCached`: one lookup through the cache, a cut required at each edge between two
// runs), after resolving a style for each scalar (`SpanStyles`), splitting the itemized run by
// styles and making each run's options; here the runs are found from the spans alone, the same
// lookup is made, and the runs are made from the spans and the glyphs in one pass. Where the
// paragraph is not that case, or the cache does not take the text whole with those cuts, the
// general path shapes it, and gives the same result. (A span a word over the English text:
// 103.4 M → 34.9 M instructions a pass, 6.5× → 2.2× the paragraphs without spans; over the
// Persian text 1.34×, callgrind.)

/// One run of a paragraph of language spans: where it starts (in the cluster unit and in UTF-8),
/// its language, and the span that gives it (nil for text under no span).
struct LanguageSpanRun {
  var start: Int
  var byte: Int
  var language: Language?
  var span: Int?
}

extension ShapingFont {
  /// Shapes `text` with `options` (a paragraph, with spans) into `result` where it is the case
  /// above, as `shapeParagraph(_:options:base:into:)` would; false, and `result` as it was,
  /// where it is not. Where the text was itemized by bidi on the way (`itemized`: its scalars
  /// and runs, without isolates), the general path takes that itemization.
  func shapeLanguageSpans(
    _ text: String, options: ShapeOptions, base: BaseDirection,
    itemized: inout (scalars: [Unicode.Scalar], paragraph: ItemizedParagraph)?, into result: inout ShapeResult
  ) throws -> Bool {
    // Each span a language alone, not empty, after the one before.
    try withSpansOverOneRun(
      text, options: options, base: base, itemized: &itemized,
      accepts: { spans, index in
        spans[index].language != nil && spans[index].fontFile == nil && spans[index].fontPattern == nil
          && spans[index].faceIndex == nil && spans[index].points == nil && spans[index].variations.isEmpty
          && spans[index].features.isEmpty && spans[index].direction == nil
      }
    ) { units, length, single in
      try shapeLanguageSpans(
        text, units: units, length: length, single: single, options: options, into: &result)
    }
  }

  /// Calls `body` with the UTF-8 of paragraph `text` (shaped with `options`), its length in the
  /// cluster unit and its one run, where it is of one run (found as `oneRun` finds it) and its
  /// spans are in order, apart, not empty and each one `accepts` (the spans and the index, read in
  /// place: a span copied out retains its strings and arrays), and the paragraph and its options
  /// are those the paths of spans over one run take: no fallback fonts, through the cache, no
  /// features of the paragraph's own, clusters in UTF-8 or scalars at a monotone level, no
  /// context; false where they are not. (Inlined, with its test of each span: called for each
  /// span, the test cost a span a word 0.4 M instructions a pass over the English text, callgrind.)
  @inline(__always)
  func withSpansOverOneRun(
    _ text: String, options: ShapeOptions, base: BaseDirection,
    itemized: inout (scalars: [Unicode.Scalar], paragraph: ItemizedParagraph)?,
    accepts: ([TextSpan], Int) -> Bool,
    _ body: (UnsafeBufferPointer<UInt8>, Int, OneRun) throws -> Bool
  ) throws -> Bool {
    guard fallback == nil, options.cacheable, options.features.isEmpty, options.clusterUnit != .utf16,
      options.clusterLevel == .monotoneGraphemes || options.clusterLevel == .monotoneCharacters,
      options.textBefore.isEmpty, options.textAfter.isEmpty
    else { return false }
    let spans = options.spans
    var previousEnd = 0
    for index in spans.indices {
      guard spans[index].start >= previousEnd, spans[index].end > spans[index].start, accepts(spans, index)
      else { return false }
      previousEnd = spans[index].end
    }
    guard !spans.isEmpty else { return false }
    guard let single = Self.oneRun(text, base: base, itemized: &itemized) else { return false }
    let length = options.clusterUnit == .unicodeScalars ? single.scalars : text.utf8.count
    guard previousEnd <= length else { return false }
    // (The text's own UTF-8 where it is contiguous, as a native string's is.)
    if let done = try text.utf8.withContiguousStorageIfAvailable({ try body($0, length, single) }) {
      return done
    }
    return try Array(text.utf8).withUnsafeBufferPointer { try body($0, length, single) }
  }

  /// `shapeLanguageSpans(_:options:base:itemized:into:)` for `text` of UTF-8 `units`, `length`
  /// long in the cluster unit, of one run (`single`).
  private func shapeLanguageSpans(
    _ text: String, units: UnsafeBufferPointer<UInt8>, length: Int, single: OneRun, options: ShapeOptions,
    into result: inout ShapeResult
  ) throws -> Bool {
    let spans = options.spans
    let byScalars = options.clusterUnit == .unicodeScalars
    // The runs: a span's text has its language, the text between spans the paragraph's; runs
    // next to each other with the same language and from spans (or both from none) are one.
    // A run's span is the first span of its language, as the general path's styles have it.
    // (The thread's arrays, lent and given back emptied, with the result the whole text is shaped
    // into: made for each paragraph, the arrays were a `malloc` and a `free` each, and the result
    // swapped in and out a fresh one made and destroyed, callgrind.)
    let scratch = ThreadCache.current.spanScratch
    var runs: [LanguageSpanRun] = []
    var firstSpans: [LanguageSpanRun] = []
    var cuts: [Int] = []
    swap(&runs, &scratch.runs)
    swap(&firstSpans, &scratch.firstSpans)
    swap(&cuts, &scratch.cuts)
    defer {
      runs.removeAllKeepingCapacity()
      firstSpans.removeAllKeepingCapacity()
      cuts.removeAllKeepingCapacity()
      swap(&runs, &scratch.runs)
      swap(&firstSpans, &scratch.firstSpans)
      swap(&cuts, &scratch.cuts)
      // (Without the glyphs, which the runs made share.)
      if !scratch.result.runs.isEmpty { scratch.result.runs[0].glyphs = ShapedGlyphs() }
    }
    runs.reserveCapacity(spans.count * 2 + 1)
    // Where the walk through the UTF-8 is, in bytes and in scalars.
    var (byte, scalar) = (0, 0)
    func byteOffset(of offset: Int) -> Int? {
      if byScalars {
        while scalar < offset {
          byte += 1
          while byte < units.count, units[byte] & 0xC0 == 0x80 { byte += 1 }
          scalar += 1
        }
        return byte
      }
      guard offset == units.count || units[offset] & 0xC0 != 0x80 else { return nil }
      return offset
    }
    // (Whether text is under no span, in the paragraph's language.)
    var hasGap = false
    func add(start: Int, byte: Int, language: Language?, span: Int?) {
      if span == nil { hasGap = true }
      if let last = runs.last, last.span == span { return }
      runs.append(LanguageSpanRun(start: start, byte: byte, language: language, span: span))
    }
    var position = 0
    for index in spans.indices {
      let (start, end) = (spans[index].start, spans[index].end)
      let language = spans[index].language
      if start > position, let at = byteOffset(of: position) {
        add(start: position, byte: at, language: options.language, span: nil)
      }
      guard let startByte = byteOffset(of: start), byteOffset(of: end) != nil else { return false }
      let first: Int
      if let known = firstSpans.first(where: { $0.language == language }) {
        first = known.span ?? index
      } else {
        first = index
        firstSpans.append(LanguageSpanRun(start: 0, byte: 0, language: language, span: index))
      }
      add(start: start, byte: startByte, language: language, span: first)
      position = end
    }
    if position < length, let at = byteOffset(of: position) {
      add(start: position, byte: at, language: options.language, span: nil)
    }
    // Every run's language shapes the script as the first run's does: the spans' languages
    // (each met first by a span), and the paragraph's where text is under no span.
    let script = single.script
    let language = runs[0].language
    for other in firstSpans where other.language != language {
      guard shapesAlike(language, other.language, script: script, scratch: scratch) else { return false }
    }
    if hasGap, options.language != language {
      guard shapesAlike(language, options.language, script: script, scratch: scratch) else { return false }
    }
    var runOptions = options
    runOptions.paragraph = nil
    runOptions.spans = []
    runOptions.bufferFlags.formUnion([.beginningOfText, .endOfText])
    let backward = single.level & 1 == 1
    runOptions.direction = backward ? .rightToLeft : .leftToRight
    runOptions.script = script
    runOptions.language = language
    // (Shaped into the thread's result, in place: `result` keeps its runs' array for the runs
    // made below, and is left as it was where the cache does not take the text. Swapped out and
    // back, the thread's result was swapped with one made and destroyed for it; taken out of an
    // optional and put back, it cost more still, callgrind.)
    for run in runs.dropFirst() { cuts.append(run.byte) }
    guard
      try shapeRunCached(
        units: units, item: 0..<units.count, runOptions: runOptions, clusterStart: 0, requiredCuts: cuts,
        into: &scratch.result),
      scratch.result.runs.count == 1
    else { return false }
    // Each run's glyphs: the next stretch of the whole's, sharing its storage; the runs in the
    // array `result` had. Clusters rise through the glyphs left to right, and fall right to left,
    // where the runs come in visual order, last first (as the general path orders them).
    var shaped = result.runs
    result.runs = []
    shaped.removeAll(keepingCapacity: true)
    shaped.reserveCapacity(runs.count)
    let wholeRun = scratch.result.runs[0]
    // (A constant the closure reads: the variable, which the functions above capture, was checked
    // for exclusive access at run time.)
    let found = runs
    // (Once: for each run without a language, a call into HarfBuzz.)
    let processDefault = Language.processDefault
    wholeRun.glyphs.withUnsafeBufferPointer { glyphs in
      var position = 0
      for step in found.indices {
        let index = backward ? found.count - 1 - step : step
        let (start, end) = (found[index].start, index + 1 < found.count ? found[index + 1].start : length)
        let first = position
        if backward {
          while position < glyphs.count, glyphs[position].cluster >= start { position += 1 }
        } else {
          while position < glyphs.count, glyphs[position].cluster < end { position += 1 }
        }
        var made = ShapedRun(
          font: wholeRun.font, unit: wholeRun.unit, scale: wholeRun.scale, direction: wholeRun.direction,
          script: wholeRun.script, language: found[index].language ?? processDefault,
          glyphs: position > first ? ShapedGlyphs(wholeRun.glyphs, sharing: first..<position) : ShapedGlyphs()
        )
        (made.level, made.range, made.span) = (single.level, start..<end, found[index].span)
        shaped.append(consume made)
      }
    }
    let missing =
      wholeRun.glyphs.contains { $0.id == 0 }
      ? missingCharacters(
        [Unicode.Scalar](scalarsOf: text),
        runs: [TextRun(range: 0..<single.scalars, level: single.level, script: "")],
        shaped: shaped, options: options, text: text) : []
    result = ShapeResult(text: text, clusterUnit: options.clusterUnit, runs: shaped)
    result.baseLevel = single.baseLevel
    result.missingCharacters = missing
    result.spans = spans
    scratch.paragraphs += 1
    return true
  }
}

extension ShapingFont {
  /// Whether text of `script` shapes alike in languages `a` and `b` with this font
  /// (`FontCacheState.shapesAlike`), the thread's last answer kept. (Asked of the font's state
  /// for each paragraph, under its lock and through its dictionary, 590 instructions a paragraph
  /// of the Persian text with a span a word, callgrind.)
  fileprivate func shapesAlike(_ a: Language?, _ b: Language?, script: Script, scratch: SpanScratch)
    -> Bool
  {
    if let last = scratch.lastAlike, last.font == cacheState.id, last.script == script, last.a == a,
      last.b == b
    {
      return last.answer
    }
    let answer = cacheState.shapesAlike(a, b, script: script, font: font)
    scratch.lastAlike = (cacheState.id, script, a, b, answer)
    return answer
  }
}

extension ShapingFont {
  /// The one run of paragraph `text`, where it has one: found without bidi where the text is left
  /// to right, else by bidi (`itemized`, where it was itemized before; else itemized here, and
  /// kept for the general path).
  static func oneRun(
    _ text: String, base: BaseDirection,
    itemized: inout (scalars: [Unicode.Scalar], paragraph: ItemizedParagraph)?
  ) -> OneRun? {
    if itemized == nil, let found = try? ItemizedParagraph.singleRun(text, base: base) {
      return OneRun(
        baseLevel: 0, level: 0, script: Script(tag: OpenTypeTag(rawValue: found.scriptTag)),
        scalars: found.scalars)
    }
    if itemized == nil {
      let scalars = [Unicode.Scalar](scalarsOf: text)
      guard let paragraph = try? ItemizedParagraph(scalars, base: base, isolates: []) else { return nil }
      itemized = (scalars, paragraph)
    }
    guard let (scalars, paragraph) = itemized, paragraph.runs.count == 1 else { return nil }
    return OneRun(
      baseLevel: paragraph.baseLevel, level: paragraph.runs[0].level,
      script: Script(iso15924: paragraph.runs[0].script), scalars: scalars.count)
  }
}

/// A paragraph of one run: its base level, the run's level and script, its number of scalars.
struct OneRun {
  var baseLevel: UInt8
  var level: UInt8
  var script: Script
  var scalars: Int
}
