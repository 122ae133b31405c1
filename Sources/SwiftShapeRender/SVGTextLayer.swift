@_spi(Writers) import SwiftShape

// The text layer of an SVG (`SVGOptions.textLayer`): each cluster's characters as transparent text
// over its glyphs, so that a browser can find, select and copy the text, and a screen reader read
// it; the document's `<title>` holds the whole text.
//
// Speed: the characters are written from the text's UTF-8 as they stand (no string a cluster),
// and a cluster is `<tspan x="…" textLength="…">` on a `<text>` that holds the line's baseline.
// Written with a string and a dictionary a cluster, the layer made drawing the English text of
// the benchmark corpus 2.7 times slower.

/// A text's UTF-8, and where each offset of its cluster unit starts in it.
struct TextUnits: Sendable {
  let utf8: [UInt8]
  /// The UTF-8 offset of each offset of the unit (and of the end); empty for UTF-8 itself.
  private let starts: [Int32]

  init(_ text: String, unit: ClusterUnit) {
    utf8 = Array(text.utf8)
    // ASCII text counts alike in every unit: its offsets are its bytes' (drawing the English
    // text's SVG, a start a scalar cost 4 M instructions of 314 M, callgrind).
    guard unit != .utf8, !utf8.allSatisfy({ $0 < 0x80 }) else {
      starts = []
      return
    }
    var starts: [Int32] = []
    starts.reserveCapacity(utf8.count + 1)
    var offset: Int32 = 0
    for scalar in text.unicodeScalars {
      let bytes = Int32(UTF8.width(scalar))
      // A scalar of two UTF-16 units has both start where it does.
      for _ in 0..<(unit == .utf16 ? UTF16.width(scalar) : 1) { starts.append(offset) }
      offset += bytes
    }
    starts.append(offset)
    self.starts = starts
  }

  /// The text's length in the unit.
  var count: Int { starts.isEmpty ? utf8.count : starts.count - 1 }

  /// Where offset `offset` of the unit starts in the UTF-8 (clamped to the text).
  func byte(_ offset: Int) -> Int {
    let offset = max(0, min(offset, count))
    return starts.isEmpty ? offset : Int(starts[offset])
  }
}

/// One line's clusters as the text layer writes them.
enum TextLayer {
  /// What a run tells a reader of its text: its direction (`rightToLeft`: backward, right to left
  /// or bottom to top), and its language where it has a BCP 47 tag (HarfBuzz's default from the
  /// `C` locale, `c`, is none).
  struct Style: Equatable, Sendable {
    var rightToLeft: Bool
    var language: String?

    init(rightToLeft: Bool, language: Language?) {
      self.rightToLeft = rightToLeft
      self.language = language.flatMap(Self.tag(of:))
    }

    /// The languages met, with their tags (`bcp47`): a language's tag made again for each line (its
    /// identifier made a string and split) was 5.3 M of the 216 M instructions drawing the English
    /// text's SVG took, callgrind.
    private static let tags = Protected<[Language: String?]>([:])

    /// `language`'s identifier when it reads as a BCP 47 tag.
    private static func tag(of language: Language) -> String? {
      if let known = tags.withLock({ $0[language] }) { return known }
      let tag = bcp47(language.identifier)
      tags.withLock { if $0.count < 256 { $0[language] = tag } }
      return tag
    }

    /// `tag` when it reads as a BCP 47 tag: a primary subtag of two to eight letters, then
    /// subtags of one to eight letters and digits.
    static func bcp47(_ tag: String) -> String? {
      let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
      guard let primary = subtags.first, (2...8).contains(primary.count),
        primary.allSatisfy({ $0.isASCII && $0.isLetter }),
        subtags.dropFirst().allSatisfy({
          (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        })
      else { return nil }
      return tag
    }
  }

  /// The distinct styles of `runs`, and each of their glyphs' style (an index into them), in the
  /// runs' order.
  static func styles(of runs: [ShapedRun]) -> (styles: [Style], glyphs: [Int]) {
    var styles: [Style] = []
    var glyphs: [Int] = []
    glyphs.reserveCapacity(runs.reduce(0) { $0 + $1.glyphs.count })
    for run in runs {
      let style = Style(rightToLeft: run.direction.isBackward, language: run.language)
      let index = styles.firstIndex(of: style) ?? styles.count
      if index == styles.count { styles.append(style) }
      glyphs.append(contentsOf: repeatElement(index, count: run.glyphs.count))
    }
    return (styles, glyphs)
  }

  /// A line's own style: the paragraph's direction (its base level; the first run's direction
  /// for text shaped whole), and the language of the run its text starts in.
  static func base(of result: ShapeResult, runs: [ShapedRun], styles: [Style]) -> Style {
    let first = runs.min { ($0.range?.lowerBound ?? 0) < ($1.range?.lowerBound ?? 0) }
    var base =
      first.map { Style(rightToLeft: $0.direction.isBackward, language: $0.language) }
      ?? Style(rightToLeft: false, language: nil)
    if let level = result.baseLevel { base.rightToLeft = level & 1 == 1 }
    return base
  }

  /// A cluster: its characters (a range of the text's UTF-8), the span of pen positions its
  /// glyphs take, and its run's style (an index into the line's styles).
  struct Cluster {
    var bytes: Range<Int>
    var minX: Double
    var maxX: Double
    var style: Int = 0
  }

  /// The clusters of a line, in the text's order: from its glyphs (in drawing order, each with its
  /// cluster, the pen's x before and after it, and its run's style) and the line's text between
  /// `start` and `end` (in the cluster unit). The first cluster takes the characters from the
  /// line's start, each the characters up to the next.
  static func clusters(
    _ glyphs: [(cluster: Int, pen: Double, next: Double, style: Int)], start: Int, end: Int, units: TextUnits
  ) -> [Cluster] {
    // Glyphs of one cluster come together; clusters rise through a left-to-right line's glyphs
    // (one pass), and otherwise are sorted and grouped again.
    typealias Span = (cluster: Int, minX: Double, maxX: Double, style: Int)
    var merged: [Span] = []
    merged.reserveCapacity(glyphs.count)
    var rising = true
    for glyph in glyphs where glyph.cluster >= start && glyph.cluster < end {
      let (low, high) = glyph.pen <= glyph.next ? (glyph.pen, glyph.next) : (glyph.next, glyph.pen)
      if let last = merged.last {
        if last.cluster == glyph.cluster {
          merged[merged.count - 1] = (last.cluster, min(last.minX, low), max(last.maxX, high), last.style)
          continue
        }
        if glyph.cluster < last.cluster { rising = false }
      }
      merged.append((glyph.cluster, low, high, glyph.style))
    }
    if !rising {
      merged.sort { $0.cluster < $1.cluster }
      var grouped: [Span] = []
      grouped.reserveCapacity(merged.count)
      for span in merged {
        if let last = grouped.last, last.cluster == span.cluster {
          grouped[grouped.count - 1] = (
            span.cluster, min(last.minX, span.minX), max(last.maxX, span.maxX), last.style
          )
        } else {
          grouped.append(span)
        }
      }
      merged = grouped
    }
    return merged.indices.map { index in
      let from = index == 0 ? start : merged[index].cluster
      let to = index + 1 < merged.count ? merged[index + 1].cluster : end
      return Cluster(
        bytes: units.byte(from)..<units.byte(to), minX: merged[index].minX, maxX: merged[index].maxX,
        style: merged[index].style)
    }
  }
}

extension SVGText {
  /// A line's text layer: a transparent `<text>` on the baseline at the font's em (a vertical
  /// line's: `writing-mode="vertical-rl"` on its baseline's x, the clusters' spans in y), in the
  /// direction and language of `base`, of one `<tspan>` a cluster in the text's order, each
  /// stretched over its glyphs (its pen span, `textLength` with `lengthAdjust="spacingAndGlyphs"`,
  /// so that a browser's selection and search marks the glyphs) from its start edge (the right
  /// edge of right-to-left text), with its own direction and language where they are not the
  /// line's.
  mutating func appendTextLayer(
    _ clusters: [TextLayer.Cluster], styles: [TextLayer.Style], base: TextLayer.Style, units: TextUnits,
    baseline: Double, fontSize: Double, vertical: Bool = false
  ) {
    guard !clusters.isEmpty else { return }
    append(literal: "<text xml:space=\"preserve\" fill-opacity=\"0\" font-size=\"")
    append(fontSize)
    append(literal: vertical ? "\" writing-mode=\"vertical-rl\" x=\"" : "\" y=\"")
    append(baseline)
    append(literal: "\" data-layer=\"text\"")
    appendStyle(base, within: nil)
    append(literal: ">")
    // Which styles are the line's own, found once: a cluster's style copied out to be compared
    // retained and released its language's string (88,529 times for the English text's SVG).
    let isBase = styles.map { $0 == base }
    units.utf8.withUnsafeBufferPointer { utf8 in
      for cluster in clusters {
        let characters = UnsafeBufferPointer(rebasing: utf8[cluster.bytes])
        let ownStyle = styles.isEmpty || isBase[cluster.style]
        // Characters XML takes as they stand (nearly all) go with the element, through one
        // cursor: appended piece by piece, the layer cost three times the glyphs' elements.
        let plain = !characters.contains {
          $0 < 0x20 || $0 == 0x22 || $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0xEF
        }
        if !ownStyle {
          append(literal: "<tspan")
          appendStyle(styles[cluster.style], within: base)
        }
        let rightToLeft = ownStyle ? base.rightToLeft : styles[cluster.style].rightToLeft
        write(upTo: characters.count + 2 * ByteBuffer.Cursor.longestCoordinate + 80) { cursor in
          switch (ownStyle, vertical) {
          case (true, false): cursor.literal("<tspan x=\"")
          case (true, true): cursor.literal("<tspan y=\"")
          case (false, false): cursor.literal(" x=\"")
          case (false, true): cursor.literal(" y=\"")
          }
          cursor.coordinate(rightToLeft ? cluster.maxX : cluster.minX)
          if cluster.maxX > cluster.minX {
            cursor.literal("\" textLength=\"")
            cursor.coordinate(cluster.maxX - cluster.minX)
            cursor.literal("\" lengthAdjust=\"spacingAndGlyphs")
          }
          cursor.literal("\">")
          if plain {
            cursor.bytes(characters)
            cursor.literal("</tspan>")
          }
        }
        if !plain {
          appendXMLText(characters)
          append(literal: "</tspan>")
        }
      }
    }
    append(literal: "</text>\n")
  }

  /// ` direction="…"` and ` xml:lang="…"` where `style` says otherwise than `outer` (or than
  /// left-to-right and no language, at the line).
  private mutating func appendStyle(_ style: TextLayer.Style, within outer: TextLayer.Style?) {
    if style.rightToLeft != (outer?.rightToLeft ?? false) {
      append(literal: style.rightToLeft ? " direction=\"rtl\"" : " direction=\"ltr\"")
    }
    if let language = style.language, language != outer?.language {
      append(literal: " xml:lang=\"")
      appendXMLText(language)
      append(UInt8(ascii: "\""))
    }
  }

  /// The document's `<title>`: its text (after `prefix`), lines separated by newlines.
  mutating func appendTitle(_ text: String, prefix: StaticString = "") {
    append(literal: "<title>")
    append(literal: prefix)
    appendXMLText(text)
    append(literal: "</title>\n")
  }

  /// A string as XML text (`appendXMLText(_:)` of its UTF-8).
  mutating func appendXMLText(_ text: String) {
    var text = text
    text.withUTF8 { appendXMLText($0) }
  }

  /// UTF-8 as XML text: `&`, `<`, `>` and `"` escaped; C0 controls but tab, newline and carriage
  /// return, and the noncharacters U+FFFE and U+FFFF, which XML may not hold, as U+FFFD.
  mutating func appendXMLText(_ utf8: UnsafeBufferPointer<UInt8>) {
    var plain = 0
    var index = 0
    func flush(upTo end: Int) {
      if end > plain { append(UnsafeBufferPointer(rebasing: utf8[plain..<end])) }
    }
    while index < utf8.count {
      let byte = utf8[index]
      var replacement: StaticString?
      var length = 1
      switch byte {
      case UInt8(ascii: "&"): replacement = "&amp;"
      case UInt8(ascii: "<"): replacement = "&lt;"
      case UInt8(ascii: ">"): replacement = "&gt;"
      case UInt8(ascii: "\""): replacement = "&quot;"
      case 0x09, 0x0A, 0x0D: break
      case 0..<0x20: replacement = "\u{FFFD}"
      case 0xEF where index + 2 < utf8.count && utf8[index + 1] == 0xBF && utf8[index + 2] >= 0xBE:
        replacement = "\u{FFFD}"
        length = 3
      default: break
      }
      if let replacement {
        flush(upTo: index)
        append(literal: replacement)
        plain = index + length
      }
      index += length
    }
    flush(upTo: utf8.count)
  }
}
