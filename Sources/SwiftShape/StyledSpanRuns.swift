import HarfBuzz
import SwiftShapeUnicode

// Speed: a paragraph of one run (one bidi level, one script, no fallback fonts) whose spans, given
// in order and apart, set fonts (a file, a face, a size, variations) and languages — a caller
// styling words in bold, in another size or in another language; a font named by pattern (`<b>`)
// where the pattern's font has every character of the paragraph, so that its fallback list serves
// none (markup with a `<b>` every other word of the English text: 40 → 32 ms, as a font file's). The general path resolves a
// style for each scalar (`SpanStyles`), splits the itemized run by styles, and shapes each run
// through the cache with a lookup of its own (a bold word in two over the English text: 14 runs a
// line, 3,400 instructions each for the lookup alone). Here the runs are found from the spans, and
// the runs of each style are looked up together, once a style: their text written one after the
// other, a cut required between each two, so that each run's glyphs are those of its own pieces —
// the glyphs the cache gives a run looked up alone. Where the paragraph is not that case, or the
// cache does not take a style's runs so, the general path shapes it, and gives the same result.

/// A run of a paragraph of styled spans: where it starts (in the cluster unit and in UTF-8), and
/// its style (an index into the paragraph's `SpanStyle`s, 0 for the paragraph's own).
struct StyledSpanRun {
  var start: Int
  var byte: Int
  var style: Int
}

/// The settings of a style of spans that set fonts and languages, and what they resolve to.
struct SpanStyleKey: Equatable {
  var fontFile: String?
  /// A fontconfig pattern (`TextSpan.fontPattern`: `<b>`, `<i>`, `font=`), resolved through
  /// `TextSpan.fontLocator`.
  var fontPattern: String? = nil
  var faceIndex: Int?
  var points: Double?
  var variations: [Variation]
  var language: Language?
}

/// A thread's styles of spans last resolved, with the paragraph font's state's id (the fonts
/// were made for it): a font's lookup through `FontCache`, by its path's hash under a lock, for
/// each style of each paragraph.
struct SpanStyleFonts {
  var paragraphFont: UInt64 = 0
  var known: [(key: SpanStyleKey, font: ShapingFont)] = []
}

extension ShapingFont {
  /// Shapes `text` with `options` (a paragraph, with spans) into `result` where it is the case
  /// above, as `shapeParagraph(_:options:base:into:)` would; false, and `result` as it was,
  /// where it is not. Where the text was itemized by bidi on the way (`itemized`), the general
  /// path takes that itemization.
  func shapeStyledSpans(
    _ text: String, options: ShapeOptions, base: BaseDirection,
    itemized: inout (scalars: [Unicode.Scalar], paragraph: ItemizedParagraph)?, into result: inout ShapeResult
  ) throws -> Bool {
    let inPoints: Bool
    if case .points = self.options.size { inPoints = true } else { inPoints = false }
    // Each span a font (a file or a pattern, not both) or a language, without features.
    return try withSpansOverOneRun(
      text, options: options, base: base, itemized: &itemized,
      accepts: { spans, index in
        (spans[index].fontPattern == nil || spans[index].fontFile == nil) && spans[index].features.isEmpty
          && spans[index].direction == nil
          && spans[index].cutsRuns && (spans[index].points == nil || inPoints)
      }
    ) { units, length, single in
      try shapeStyledSpans(
        text, units: units, length: length, single: single, options: options, into: &result)
    }
  }

  /// `shapeStyledSpans(_:options:base:itemized:into:)` for `text` of UTF-8 `units`, `length`
  /// long in the cluster unit, of one run (`single`).
  private func shapeStyledSpans(
    _ text: String, units: UnsafeBufferPointer<UInt8>, length: Int, single: OneRun, options: ShapeOptions,
    into result: inout ShapeResult
  ) throws -> Bool {
    let spans = options.spans
    let scratch = ThreadCache.current.spanScratch
    guard
      let (runs, styles) = styledRuns(text, units: units, length: length, options: options, scratch: scratch)
    else { return false }
    // Every run's context must leave its glyphs as they are (`shapeRunCached`): each style's
    // runs are shaped without it.
    let script = single.script
    // (The script asked once: asked for each run, its list was searched each time, 70
    // instructions a run of the English text.)
    if ShapeOptions.contextJoins(script) {
      for run in runs.indices {
        let (from, to) = (runs[run].byte, run + 1 < runs.count ? runs[run + 1].byte : units.count)
        let before = from > 0 ? UTF8Scalar.decode(units, at: UTF8Scalar.start(of: from - 1, in: units)) : nil
        let after = to < units.count ? UTF8Scalar.decode(units, at: to) : nil
        guard
          ShapeOptions.contextKeepsGlyphs(
            script: script, before: before, hasBefore: from > 0, after: after, hasAfter: to < units.count,
            first: UTF8Scalar.decode(units, at: from),
            last: UTF8Scalar.decode(units, at: UTF8Scalar.start(of: to - 1, in: units)))
        else { return false }
      }
    }
    // Each style's runs shaped together: their UTF-8 one after the other, a cut required where
    // each starts, the text's edges where its first run starts the paragraph or its last ends it;
    // the glyphs of each run found in its style's (`stretches`, by run).
    let backward = single.level & 1 == 1
    var runOptions = options
    runOptions.paragraph = nil
    runOptions.spans = []
    runOptions.direction = backward ? .rightToLeft : .leftToRight
    runOptions.script = script
    let paragraphFlags = options.bufferFlags
    var wholes: [ShapedRun] = []
    wholes.reserveCapacity(styles.count)
    var stretches = [Range<Int>](repeating: 0..<0, count: runs.count)
    var bytes: [UInt8] = []
    var cuts: [Int] = []
    var written: [Int] = []
    swap(&bytes, &scratch.bytes)
    swap(&cuts, &scratch.cuts)
    swap(&written, &scratch.written)
    defer {
      bytes.removeAllKeepingCapacity()
      cuts.removeAllKeepingCapacity()
      written.removeAllKeepingCapacity()
      swap(&bytes, &scratch.bytes)
      swap(&cuts, &scratch.cuts)
      swap(&written, &scratch.written)
      if !scratch.result.runs.isEmpty { scratch.result.runs[0].glyphs = ShapedGlyphs() }
    }
    for style in styles.indices {
      bytes.removeAllKeepingCapacity()
      cuts.removeAllKeepingCapacity()
      written.removeAllKeepingCapacity()
      // Where each of the style's runs starts in the text written, in the cluster unit (-1 for the
      // runs of other styles).
      var offset = 0
      var (first, last) = (-1, -1)
      for run in runs.indices {
        guard runs[run].style == style else {
          written.append(-1)
          continue
        }
        let (from, to) = (runs[run].byte, run + 1 < runs.count ? runs[run + 1].byte : units.count)
        if let end = bytes.last {
          // The cache cuts only where a run of spaces starts or ends: between two runs that meet
          // on two letters, a space is written, and between two that meet on two spaces, a
          // letter, each cut from both sides and its glyphs left out.
          let (endsInSpace, startsWithSpace) = (end == 0x20, units[from] == 0x20)
          if endsInSpace == startsWithSpace {
            cuts.append(bytes.count)
            bytes.append(endsInSpace ? 0x78 : 0x20)
            offset += 1
          }
          cuts.append(bytes.count)
        }
        written.append(offset)
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: units[from..<to]))
        offset += (run + 1 < runs.count ? runs[run + 1].start : length) - runs[run].start
        if first < 0 { first = run }
        last = run
      }
      // (A style without runs — the paragraph's own, where spans cover the text — is not looked
      // up: its place in `wholes` is held by a run no run reads.)
      guard first >= 0 else {
        wholes.append(
          ShapedRun(
            font: identity, unit: unit, scale: scale, direction: runOptions.direction ?? .leftToRight,
            script: script, language: nil, glyphs: ShapedGlyphs()))
        continue
      }
      runOptions.bufferFlags = paragraphFlags
      if first == 0 { runOptions.bufferFlags.insert(.beginningOfText) }
      if last == runs.count - 1 { runOptions.bufferFlags.insert(.endOfText) }
      runOptions.language = styles[style].language ?? options.language
      let font = styles[style].font
      guard
        try bytes.withUnsafeBufferPointer({ bytes in
          try font.shapeCached(utf8: bytes, options: runOptions, requiredCuts: cuts, into: &scratch.result)
        }),
        scratch.result.runs.count == 1
      else { return false }
      var whole = scratch.result.runs[0]
      scratch.result.runs[0].glyphs = ShapedGlyphs()
      // Each run's glyphs: the next stretch of the whole's (from the left for left to right, from
      // the right for right to left), its clusters moved from the text written to the paragraph.
      // (A run with a `.notdef` glyph: the general path lists the characters its font lacks.)
      var complete = true
      whole.glyphs.withUnsafeMutableBufferPointer { glyphs in
        var position = backward ? glyphs.count : 0
        for run in runs.indices where written[run] >= 0 {
          let start = written[run]
          let end = start + ((run + 1 < runs.count ? runs[run + 1].start : length) - runs[run].start)
          let shift = runs[run].start - start
          // (Past a separator's glyphs, then the run's.)
          if backward {
            while position > 0, glyphs[position - 1].cluster < start { position -= 1 }
          } else {
            while position < glyphs.count, glyphs[position].cluster < start { position += 1 }
          }
          let stretchStart = position
          if backward {
            while position > 0, glyphs[position - 1].cluster < end { position -= 1 }
          } else {
            while position < glyphs.count, glyphs[position].cluster < end { position += 1 }
          }
          let stretch = backward ? position..<stretchStart : stretchStart..<position
          for index in stretch {
            glyphs[index].cluster += shift
            if glyphs[index].id == 0 { complete = false }
          }
          stretches[run] = stretch
        }
      }
      guard complete else { return false }
      // A span's font without a size of its own is at this font's scale, as a fallback font is.
      if self.options.size == .unitsPerEm, font !== self { (whole.unit, whole.scale) = (unit, scale) }
      wholes.append(consume whole)
    }
    // The runs, in visual order: made from their fields, each holding its stretch of its style's
    // glyphs.
    var shaped = result.runs
    result.runs = []
    shaped.removeAll(keepingCapacity: true)
    shaped.reserveCapacity(runs.count)
    for step in runs.indices {
      let run = backward ? runs.count - 1 - step : step
      let style = runs[run].style
      let end = run + 1 < runs.count ? runs[run + 1].start : length
      var made = ShapedRun(
        font: wholes[style].font, unit: wholes[style].unit, scale: wholes[style].scale,
        direction: wholes[style].direction, script: wholes[style].script, language: wholes[style].language,
        glyphs: stretches[run].isEmpty
          ? ShapedGlyphs() : ShapedGlyphs(wholes[style].glyphs, sharing: stretches[run]))
      (made.level, made.range, made.span) = (single.level, runs[run].start..<end, styles[style].span)
      shaped.append(consume made)
    }
    result = ShapeResult(text: text, clusterUnit: options.clusterUnit, runs: shaped)
    result.baseLevel = single.baseLevel
    result.spans = spans
    scratch.styledParagraphs += 1
    return true
  }

  /// The runs of a paragraph of styled spans (`units`, `length` long in the cluster unit): a
  /// span's text in its style, the text between spans in the paragraph's; runs next to each
  /// other in one style are one. The styles: 0 the paragraph's own, then one for each combination
  /// of settings the spans give, with its font, its language and its first span, in the order
  /// met. Nil where a span cuts a character or its font cannot be made (the general path names
  /// the span in its error), or a style's font falls back on others.
  private func styledRuns(
    _ text: String, units: UnsafeBufferPointer<UInt8>, length: Int, options: ShapeOptions,
    scratch: SpanScratch
  ) -> (runs: [StyledSpanRun], styles: [SpanStyle])? {
    let spans = options.spans
    let byScalars = options.clusterUnit == .unicodeScalars
    if scratch.styleFonts.paragraphFont != cacheState.id {
      scratch.styleFonts = SpanStyleFonts(paragraphFont: cacheState.id)
    }
    var styles = [SpanStyle(key: SpanStyleKey(variations: []), font: self, language: nil, span: nil)]
    // The paragraph's scalars, read once where a pattern's fallback list is asked about them.
    var scalars: [Unicode.Scalar]?
    var runs: [StyledSpanRun] = []
    runs.reserveCapacity(spans.count * 2 + 1)
    // Where the walk through the UTF-8 is, in bytes and in scalars.
    var walk = (byte: 0, scalar: 0)
    var position = 0
    for index in spans.indices {
      let (start, end) = (spans[index].start, spans[index].end)
      if start > position, runs.last?.style != 0 {
        guard let at = Self.byte(of: position, units: units, byScalars: byScalars, walk: &walk) else {
          return nil
        }
        runs.append(StyledSpanRun(start: position, byte: at, style: 0))
      }
      guard let startByte = Self.byte(of: start, units: units, byScalars: byScalars, walk: &walk),
        Self.byte(of: end, units: units, byScalars: byScalars, walk: &walk) != nil
      else { return nil }
      // The span's style: the last span's where it sets the same (read in place), else one met
      // before, else a new one.
      let style: Int
      if index > 0, Self.sameSettings(spans[index - 1], spans[index]), let last = runs.last, last.style > 0 {
        style = last.style
      } else {
        let key = SpanStyleKey(
          fontFile: spans[index].fontFile, fontPattern: spans[index].fontPattern,
          faceIndex: spans[index].faceIndex,
          points: spans[index].points, variations: spans[index].variations, language: spans[index].language)
        if let known = styles.firstIndex(where: { $0.key == key }) {
          style = known
        } else {
          let font: ShapingFont
          if let made = scratch.styleFonts.known.first(where: { $0.key == key }) {
            font = made.font
          } else {
            // A pattern's font as `SpanStyles` finds it: the file and face fontconfig matches (a
            // face given keeps its index).
            var (file, faceIndex) = (key.fontFile, key.faceIndex)
            if let pattern = key.fontPattern {
              guard let found = try? TextSpan.fontLocator?(pattern) else { return nil }
              (file, faceIndex) = (found.file, faceIndex ?? found.faceIndex)
            }
            guard
              let made = try? SpanStyles.font(
                file: file, faceIndex: faceIndex, points: key.points, variations: key.variations,
                paragraphFont: self)
            else { return nil }
            if scratch.styleFonts.known.count == 8 { scratch.styleFonts.known.removeFirst() }
            scratch.styleFonts.known.append((key, made))
            font = made
          }
          // A style's font must not fall back either: the general path cuts its runs by the
          // fallback.
          guard font.fallback == nil else { return nil }
          // A pattern's own fallback list (`TextSpan.fallbackLocator`) is the general path's to
          // use, unless the pattern's font has every character of the paragraph, as
          // `FontFallback.fonts(for:runs:primary:styles:)` then gives every one to that font.
          if let pattern = key.fontPattern, let locate = TextSpan.fallbackLocator {
            let list: FontFallback?
            do {
              list = try locate(pattern, key.language ?? options.language, font)
            } catch {
              return nil
            }
            if let list {
              if scalars == nil { scalars = [Unicode.Scalar](scalarsOf: text) }
              guard (try? list.primaryHasAll(scalars!, primary: font)) == true else { return nil }
            }
          }
          styles.append(SpanStyle(key: key, font: font, language: key.language, span: index))
          style = styles.count - 1
        }
      }
      if runs.last?.style != style { runs.append(StyledSpanRun(start: start, byte: startByte, style: style)) }
      position = end
    }
    if position < length, runs.last?.style != 0 {
      guard let at = Self.byte(of: position, units: units, byScalars: byScalars, walk: &walk) else {
        return nil
      }
      runs.append(StyledSpanRun(start: position, byte: at, style: 0))
    }
    return (runs, styles)
  }

  /// Where `offset` (in scalars where `byScalars`, else in UTF-8) is in `units`, walked on from
  /// `walk` (a byte and its scalar, offsets asked in order); nil inside a character.
  private static func byte(
    of offset: Int, units: UnsafeBufferPointer<UInt8>, byScalars: Bool, walk: inout (byte: Int, scalar: Int)
  ) -> Int? {
    guard byScalars else {
      guard offset == units.count || units[offset] & 0xC0 != 0x80 else { return nil }
      return offset
    }
    while walk.scalar < offset {
      walk.byte += 1
      while walk.byte < units.count, units[walk.byte] & 0xC0 == 0x80 { walk.byte += 1 }
      walk.scalar += 1
    }
    return walk.byte
  }

  /// Whether two spans set the same font and language (read in place).
  private static func sameSettings(_ a: TextSpan, _ b: TextSpan) -> Bool {
    a.fontFile == b.fontFile && a.fontPattern == b.fontPattern && a.faceIndex == b.faceIndex
      && a.points == b.points && a.language == b.language
      && a.variations == b.variations
  }
}

/// A style of a paragraph of styled spans: its settings, font, language and first span.
struct SpanStyle {
  var key: SpanStyleKey
  var font: ShapingFont
  var language: Language?
  var span: Int?
}
