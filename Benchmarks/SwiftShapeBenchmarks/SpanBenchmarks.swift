import HarfBuzz
import SwiftShape

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Spans (`ShapeOptions.spans`): what styling a paragraph costs over the plain paragraph.
extension Benchmarks {
  /// Library, on the lines of `name`: paragraphs with one span over the whole line (features
  /// only, which change nothing: `kern`) and with a span per word (a language, which cuts a run
  /// per word), each against the same paragraphs without spans; CPU time, passes in alternation,
  /// medians of the paired ratios, the shaping cache kept from pass to pass.
  func spanLibrary(name: String, font path: String, lines: [String]) throws -> [Figure] {
    let font = try ShapingFont(file: path)
    var plain = ShapeOptions()
    plain.includeGlyphNames = false
    plain.clusterUnit = .utf8
    plain.paragraph = .auto
    let kern = try Feature(parsing: "kern")
    let language = Language(harfBuzzString: "en-GB")
    // Each line's spans, made once (as a caller holding styled text has them).
    let whole = lines.map { [TextSpan(0..<$0.utf8.count, features: [kern])] }
    let perWord = lines.map { line -> [TextSpan] in
      var spans: [TextSpan] = []
      var start = 0
      var offset = 0
      for byte in line.utf8 {
        offset += 1
        if byte == 0x20 {
          if offset - 1 > start { spans.append(TextSpan(start..<(offset - 1), language: language)) }
          start = offset
        }
      }
      if offset > start { spans.append(TextSpan(start..<offset, language: language)) }
      return spans
    }
    // A span every other word that names a font file (a bold word in two): runs of two fonts,
    // each shaped by its own (the paragraph's file by default, loaded as the span's own font).
    func fontWords(_ file: String) -> [[TextSpan]] {
      perWord.map { spans in
        spans.enumerated().compactMap { $0 % 2 == 0 ? TextSpan($1.start..<$1.end, fontFile: file) : nil }
      }
    }
    func pass(_ spans: [[TextSpan]]?) throws -> Double {
      var result = ShapeResult()
      var options = plain
      let start = Measure.cpuTime()
      for (index, line) in lines.enumerated() {
        options.spans = spans?[index] ?? []
        try font.shape(line, options: options, into: &result)
      }
      return Measure.cpuTime() - start
    }
    for spans in [nil, whole, perWord] { _ = try pass(spans) }
    // For profiling: SWIFTSHAPE_PROFILE_SPANS=none|line|word runs that kind alone, a few passes
    // after the warm-up (SWIFTSHAPE_PROFILE_PASSES, 3 by default), and exits: under callgrind,
    // the instructions a kind costs over `none`; on the corpus whose name contains
    // SWIFTSHAPE_PROFILE_CORPUS (the English text by default).
    // `floor`: only what the result of a span a word holds, made from the paragraph's glyphs
    // shaped beforehand — a run a word and a run a space, each holding its stretch of the
    // paragraph's glyphs, the last line's result released — the least a span a word costs in
    // this result model.
    if let kind = getenv("SWIFTSHAPE_PROFILE_SPANS").map({ String(cString: $0) }),
      name.contains(getenv("SWIFTSHAPE_PROFILE_CORPUS").map { String(cString: $0) } ?? "en-")
    {
      let passes = getenv("SWIFTSHAPE_PROFILE_PASSES").flatMap { Int(String(cString: $0)) } ?? 3
      if kind == "floor" {
        let shaped = try lines.map { try font.shape($0, options: plain) }
        // Each line's span edges, made once (as its spans are): made in the passes, an array a
        // span, they were 7.3 M of the 25.2 M first counted (callgrind).
        let lineEdges = perWord.map { spans in spans.flatMap { [$0.start, $0.end] } }
        // Each run's glyphs, found once: the passes make the runs alone.
        let glyphEdges = lines.indices.map { index in
          shaped[index].runs[0].glyphs.withUnsafeBufferPointer { glyphs in
            var glyph = 0
            return lineEdges[index].dropFirst().map { end in
              while glyph < glyphs.count, glyphs[glyph].cluster < end { glyph += 1 }
              return glyph
            }
          }
        }
        var result = ShapeResult()
        for _ in 0..<passes {
          for (index, line) in lines.enumerated() {
            let whole = shaped[index].runs[0]
            // (The last result's array of runs reused, as the library reuses it.)
            var runs = result.runs
            result.runs = []
            runs.removeAll(keepingCapacity: true)
            runs.reserveCapacity(perWord[index].count * 2)
            var glyph = 0
            let edges = lineEdges[index]
            let ends = glyphEdges[index]
            for (number, end) in edges.dropFirst().enumerated() {
              let first = glyph
              glyph = ends[number]
              // (Made from its fields, not copied from the whole run: each run retains only its
              // font and its glyphs' storage.)
              var run = ShapedRun(
                font: whole.font, unit: whole.unit, scale: whole.scale, direction: whole.direction,
                script: whole.script, language: number % 2 == 0 ? language : nil,
                glyphs: ShapedGlyphs(whole.glyphs, sharing: first..<glyph))
              (run.level, run.range, run.span) = (0, edges[number]..<end, number % 2 == 0 ? number / 2 : nil)
              runs.append(consume run)
            }
            result = ShapeResult(text: line, clusterUnit: .utf8, runs: runs)
          }
        }
        exit(result.runs.isEmpty ? 1 : 0)
      }
      // `font`: `fontWords`, with the font file SWIFTSHAPE_PROFILE_SPAN_FONT where it is set.
      if kind == "font" {
        let file = getenv("SWIFTSHAPE_PROFILE_SPAN_FONT").map { String(cString: $0) } ?? path
        let spans = fontWords(file)
        for _ in 0..<passes { _ = try pass(spans) }
        exit(0)
      }
      for _ in 0..<passes { _ = try pass(kind == "line" ? whole : kind == "word" ? perWord : nil) }
      exit(0)
    }
    func ratio(_ spans: [[TextSpan]]) throws -> Double {
      var ratios: [Double] = []
      for pair in 0..<(trials * 8) {
        let a = try pass(pair % 2 == 0 ? nil : spans)
        let b = try pass(pair % 2 == 0 ? spans : nil)
        ratios.append(pair % 2 == 0 ? b / a : a / b)
      }
      return Measure.median(ratios)
    }
    var figures: [Figure] = []
    for (label, spans, target) in [("one span a line", whole, 1.02), ("a span a word", perWord, 1.5)] {
      let ratio = try ratio(spans)
      figures.append(
        Figure(
          name: "spans library \(name), \(label)", value: ratio, target: "≤ \(fixed(target))× no span",
          met: ratio <= target, detail: "\(lines.count) paragraphs"))
    }
    // Reported with the span a word, not a target of its own: a bold word in two.
    let bold = fontWords(path)
    _ = try pass(bold)
    figures[1].detail += "; a font span every other word \(fixed(try ratio(bold)))×"
    let markup = markupRatio(font: path, lines: lines)
    figures[1].detail += "; the command with markup, a `<b>` every other word: \(fixed(markup))× --paragraph"
    return figures
  }

  /// Reported beside the spans, not a target: the command reading markup with a `<b>` every other
  /// word (through fontconfig's bold face of the font's family) against the same text without
  /// markup as paragraphs, whole processes in alternation, the median of the paired CPU times'
  /// ratios.
  func markupRatio(font: String, lines: [String]) -> Double {
    func escaped(_ word: Substring) -> String {
      var text = ""
      for character in word {
        switch character {
        case "&": text += "&amp;"
        case "<": text += "&lt;"
        case ">": text += "&gt;"
        default: text.append(character)
        }
      }
      return text
    }
    let marked = lines.map { line in
      line.split(separator: " ", omittingEmptySubsequences: false).enumerated().map { index, word in
        index % 2 == 0 && !word.isEmpty ? "<b>\(escaped(word))</b>" : escaped(word)
      }.joined(separator: " ")
    }
    let (plainFile, markupFile) = (scratchFile("spans-plain"), scratchFile("spans-markup"))
    defer {
      unlink(plainFile)
      unlink(markupFile)
    }
    for (file, text) in [(plainFile, lines), (markupFile, marked)] {
      guard let handle = fopen(file, "wb") else { return 0 }
      let joined = text.joined(separator: "\n") + "\n"
      _ = joined.utf8CString.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count - 1, handle) }
      fclose(handle)
    }
    let base = [swiftshape, "shape", "--font-file", font, "-O", "jsonl", "-o", "/dev/null", "--text-file"]
    var ratios: [Double] = []
    for _ in 0..<(trials * 2) {
      let plain = checked(base + [plainFile, "--paragraph"]).cpu
      let markup = checked(base + [markupFile, "--markup"]).cpu
      ratios.append(markup / plain)
    }
    return Measure.median(ratios)
  }
}
