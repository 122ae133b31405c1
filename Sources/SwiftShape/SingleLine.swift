import HarfBuzz
import SwiftShapeUnicode

// Speed: a paragraph that fits its width whole is one line of the runs as they are (see
// `singleLine`), apart from `breakLines`' arrays and ICU's break iterator.

extension ShapingFont {
  /// Speed: a paragraph that fits the width whole, with no hard break inside and no trailing
  /// whitespace whose level rule L1 changes, is one line of the runs as they are, found without
  /// the arrays and the break iterator `breakLines` uses (60% of the English text's paragraphs at
  /// 40 ems: breaking the text cost 1.29× paragraph shaping alone before, 1.22× after). Nil for
  /// any other paragraph.
  func singleLine(_ result: ShapeResult, options: ShapeOptions, width: Int32) -> ShapedLine? {
    guard let baseLevel = result.baseLevel, !(result.runs.first?.direction.isVertical ?? true) else {
      return nil
    }
    // The paragraph's length and where its trailing whitespace starts, in the cluster unit, and
    // whether it has a hard break, read from its UTF-8 (`OneLineFacts`): decoding its scalars
    // into an array, and their classes into another, took 4,000 instructions of the English
    // text's paragraph, callgrind.
    guard let facts = try? OneLineFacts(result.text), !facts.hasHardBreak else { return nil }
    let (length, hanging) =
      switch options.clusterUnit {
      case .unicodeScalars: (facts.scalars, facts.scalars - facts.trailingScalars)
      case .utf8: (result.text.utf8.count, result.text.utf8.count - facts.trailingUTF8)
      case .utf16: (facts.utf16, facts.utf16 - facts.trailingUTF16)
      }
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
    let x = lineStart(visible: visible, width: width, baseLevel: baseLevel, alignment: options.alignment)
    return ShapedLine(
      range: 0..<length, advance: total, visibleAdvance: visible, ascent: ascent.ascender,
      descent: -ascent.descender, baseline: ascent.ascender, x: x, runs: result.runs)
  }
}
