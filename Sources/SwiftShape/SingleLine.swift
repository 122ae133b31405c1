import HarfBuzz

// Speed: a paragraph that fits its width whole is one line of the runs as they are (see
// `singleLine`), apart from `breakLines`' arrays and ICU's break iterator.

extension ShapingFont {
  /// Speed: a paragraph that fits the width whole, with no hard break inside and no trailing
  /// whitespace whose level rule L1 changes, is one line of the runs as they are, found without
  /// the arrays and the break iterator `breakLines` uses (60% of the English text's paragraphs at
  /// 40 ems: breaking the text cost 1.29× paragraph shaping alone before, 1.22× after). Nil for
  /// any other paragraph.
  func singleLine(
    _ result: ShapeResult, scalars: [Unicode.Scalar], whitespace: [Bool], options: ShapeOptions, width: Int32
  ) -> ShapedLine? {
    guard let baseLevel = result.baseLevel, !(result.runs.first?.direction.isVertical ?? true) else {
      return nil
    }
    // Where the trailing whitespace starts, in the cluster unit: the text's length less the
    // trailing whitespace's. (The width is checked before the text is looked through for hard
    // breaks: 40% of the Persian text's paragraphs do not fit at 40 ems.)
    var trailing = scalars.count
    while trailing > 0, whitespace[trailing - 1] { trailing -= 1 }
    let length =
      switch options.clusterUnit {
      case .unicodeScalars: scalars.count
      case .utf8: result.text.utf8.count
      case .utf16: scalars.reduce(0) { $0 + UTF16.width($1) }
      }
    var hanging = length
    for scalar in scalars[trailing...] { hanging -= options.clusterUnit.width(of: scalar) }
    var total: Int32 = 0
    var visible: Int32 = 0
    // The extents of the line's fonts, as `breakLines` takes them.
    var ascent = font.extents(for: .leftToRight)
    if result.runs.allSatisfy(\.isFallback) { (ascent.ascender, ascent.descender) = (0, 0) }
    for run in result.runs {
      if let range = run.range, range.upperBound > hanging, run.level != baseLevel { return nil }
      for glyph in run.glyphs {
        total &+= glyph.xAdvance
        if glyph.cluster < hanging { visible &+= glyph.xAdvance }
      }
      if run.isFallback {
        guard let runFont = fallback?.font(file: run.font.file, faceIndex: run.font.faceIndex, for: self)
        else {
          return nil
        }
        let extents = runFont.font.extents(for: .leftToRight)
        ascent.ascender = max(ascent.ascender, extents.ascender)
        ascent.descender = min(ascent.descender, extents.descender)
      }
    }
    guard visible <= width else { return nil }
    for scalar in scalars.dropLast() {
      switch scalar.value {
      case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return nil
      default: continue
      }
    }
    let x = lineStart(visible: visible, width: width, baseLevel: baseLevel, alignment: options.alignment)
    return ShapedLine(
      range: 0..<length, advance: total, visibleAdvance: visible, ascent: ascent.ascender,
      descent: -ascent.descender, baseline: ascent.ascender, x: x, runs: result.runs)
  }
}
