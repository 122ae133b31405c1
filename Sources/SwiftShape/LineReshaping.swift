import HarfBuzz

// A line's pieces shaped again: at an edge where breaking is unsafe, with a hyphen, or with
// kashida's tatweels written in (`breakLines`).

extension ShapingFont {
  /// A run's scalars `start..<end` shaped again, alone, with the rest of the paragraph (and the
  /// given context) as context; clusters counted from the start of the paragraph.
  ///
  /// With `tatweels` (how many U+0640 go before each scalar, by index), the text is shaped with
  /// them written there (`options` may then ask for more of HarfBuzz's flags); a tatweel's
  /// cluster is that of the character it goes before.
  ///
  /// With `alone`, the scalars are shaped with no context and as neither the start nor the end of
  /// the text: for a piece between cuts where shaping apart is exact (`spliceTatweels`).
  func reshape(
    _ run: ShapedRun, font runFont: ShapingFont, scalars: [Unicode.Scalar], from start: Int, to end: Int,
    offsets: [Int], options: ShapeOptions, hyphen: HyphenPlacement? = nil, tatweels: [Int: Int] = [:],
    alone: Bool = false
  ) throws -> ShapedRun {
    func string(_ range: Range<Int>) -> String { String(utf8Of: scalars[range]) }
    // With `hyphen`, a hyphen (U+2010 where the font has it, else the hyphen-minus) is shaped in
    // the last character's place (a soft hyphen's: its cluster is the soft hyphen's) or after the
    // last character (its cluster is then the last character's).
    var text = tatweels.isEmpty ? string(start..<end) : ""
    // Where each tatweel starts in the text shaped, in the cluster unit, from its start.
    var tatweelStarts: [Int] = []
    if !tatweels.isEmpty {
      var written: [Unicode.Scalar] = []
      written.reserveCapacity(end - start + tatweels.values.reduce(0, +))
      var position = 0
      for index in start..<end {
        for _ in 0..<(tatweels[index] ?? 0) {
          tatweelStarts.append(position)
          written.append("\u{640}")
          position += options.clusterUnit.width(of: "\u{640}")
        }
        written.append(scalars[index])
        position += options.clusterUnit.width(of: scalars[index])
      }
      text = String(utf8Of: written[...])
    }
    if hyphen == .replacing { text.unicodeScalars.removeLast() }
    if hyphen != nil {
      text.unicodeScalars.append(runFont.font.nominalGlyph(for: "\u{2010}") != nil ? "\u{2010}" : "-")
    }
    var runOptions = Self.reshapeOptions(run, options: options)
    // The context: HarfBuzz keeps five characters of it on each side (`HB_BUFFER_CONTEXT_LENGTH`,
    // 6.0 through 15.0), so no more is made. (The whole paragraph on each side made each reshaped
    // edge cost as much as the paragraph is long.)
    let contextLength = 5
    if alone {
      (runOptions.textBefore, runOptions.textAfter) = ("", "")
      runOptions.bufferFlags.subtract([.beginningOfText, .endOfText])
    } else {
      runOptions.textBefore =
        start >= contextLength
        ? string((start - contextLength)..<start) : options.textBefore + string(0..<start)
      // A hyphen appended ends the text: nothing after it is context (as Pango shapes it).
      runOptions.textAfter =
        hyphen == .appended
        ? ""
        : scalars.count - end >= contextLength
          ? string(end..<(end + contextLength)) : string(end..<scalars.count) + options.textAfter
      // As the paragraph's runs are shaped: its start and end are the text's.
      if start == 0 { runOptions.bufferFlags.insert(.beginningOfText) }
      if end == scalars.count { runOptions.bufferFlags.insert(.endOfText) }
    }
    let base = offsets[start]
    runOptions.features = options.features.compactMap { feature in
      guard !(feature.start == 0 && feature.end == Feature.globalEnd) else { return feature }
      var moved = feature
      moved.start = UInt32(clamping: max(Int(feature.start) - base, 0))
      if feature.end != Feature.globalEnd {
        guard Int(feature.end) > base else { return nil }
        moved.end = UInt32(clamping: Int(feature.end) - base)
      }
      return moved
    }
    let shaped = try runFont.shape(text, options: runOptions)
    var piece = run
    let last = offsets[end - 1]
    piece.glyphs = ShapedGlyphs(
      shaped.glyphs.map { glyph in
        var glyph = glyph
        if !tatweelStarts.isEmpty {
          // Back to the paragraph's offsets: less the tatweels before.
          let before = tatweelStarts.prefix { $0 < glyph.cluster }.count
          glyph.cluster -= before * options.clusterUnit.width(of: "\u{640}")
        }
        glyph.cluster = min(glyph.cluster + base, hyphen == .appended ? last : Int.max)
        return glyph
      })
    return piece
  }
}

extension ShapingFont {
  /// The options a run's scalars are shaped again with (`reshape`), but their context, edges and
  /// features' ranges.
  static func reshapeOptions(_ run: ShapedRun, options: ShapeOptions) -> ShapeOptions {
    var runOptions = options
    runOptions.paragraph = nil
    runOptions.lineWidth = nil
    runOptions.direction = run.direction
    runOptions.script = run.script
    runOptions.spans = []
    if run.span != nil { runOptions.language = run.language }
    return runOptions
  }
}

/// Where a line's hyphen goes when its last piece is shaped again.
enum HyphenPlacement {
  /// In the place of the last character, a soft hyphen.
  case replacing
  /// After the last character (a word hyphenated by dictionary).
  case appended
}
