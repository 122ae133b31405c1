import SwiftShape

// The text layer of an SVG (`SVGOptions.textLayer`): each cluster's characters as transparent text
// over its glyphs, so that a browser can find, select and copy the text, and a screen reader read
// it; the document's `<title>` holds the whole text.

/// One line's clusters as the text layer writes them.
struct TextLayer {
  /// A cluster: its characters, and the span of pen positions its glyphs take.
  struct Cluster {
    var characters: String
    var minX: Double
    var maxX: Double
  }

  /// The clusters of a line, in the text's order: from its glyphs (in drawing order, each with its
  /// cluster and the pen's x before and after it), the line's text between `start` and `end` (in
  /// the cluster unit), and the text's characters between two offsets. The first cluster takes
  /// the characters from the line's start, each the characters up to the next.
  static func clusters(
    _ glyphs: [(cluster: Int, pen: Double, next: Double)], start: Int, end: Int,
    characters: (Int, Int) -> String
  ) -> [Cluster] {
    var spans: [Int: (minX: Double, maxX: Double)] = [:]
    for glyph in glyphs where glyph.cluster >= start && glyph.cluster < end {
      let low = min(glyph.pen, glyph.next)
      let high = max(glyph.pen, glyph.next)
      if let known = spans[glyph.cluster] {
        spans[glyph.cluster] = (min(known.minX, low), max(known.maxX, high))
      } else {
        spans[glyph.cluster] = (low, high)
      }
    }
    let starts = spans.keys.sorted()
    return starts.enumerated().map { index, cluster in
      let from = index == 0 ? start : cluster
      let to = index + 1 < starts.count ? starts[index + 1] : end
      let span = spans[cluster]!
      return Cluster(characters: characters(from, to), minX: span.minX, maxX: span.maxX)
    }
  }
}

/// A text's characters between offsets in a cluster unit.
struct TextUnits {
  private let text: String
  private let unit: ClusterUnit
  private let utf8: [UInt8]
  private let utf16: [UInt16]
  private let scalars: [Unicode.Scalar]

  init(_ text: String, unit: ClusterUnit) {
    (self.text, self.unit) = (text, unit)
    utf8 = unit == .utf8 ? Array(text.utf8) : []
    utf16 = unit == .utf16 ? Array(text.utf16) : []
    scalars = unit == .unicodeScalars ? Array(text.unicodeScalars) : []
  }

  /// The text's length in the unit.
  var count: Int {
    switch unit {
    case .utf8: utf8.count
    case .utf16: utf16.count
    case .unicodeScalars: scalars.count
    }
  }

  /// The characters between `a` and `b` (clamped to the text).
  func characters(_ a: Int, _ b: Int) -> String {
    let low = max(0, min(a, count))
    let high = max(low, min(b, count))
    switch unit {
    case .utf8: return String(decoding: utf8[low..<high], as: UTF8.self)
    case .utf16: return String(decoding: utf16[low..<high], as: UTF16.self)
    case .unicodeScalars: return String(String.UnicodeScalarView(scalars[low..<high]))
    }
  }
}

extension TextLayer {
  /// Characters as XML may hold them: C0 controls but tab, newline and carriage return, and the
  /// noncharacters U+FFFE and U+FFFF, become U+FFFD.
  static func xmlSafe(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
    var view = String.UnicodeScalarView()
    for scalar in text.unicodeScalars { view.append(isUnsafe(scalar) ? "\u{FFFD}" : scalar) }
    return String(view)
  }

  private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
    (scalar.value < 0x20 && ![0x09, 0x0A, 0x0D].contains(scalar.value)) || scalar.value == 0xFFFE
      || scalar.value == 0xFFFF
  }
}

extension SVGText {
  /// A line's text layer: a `<text>` of transparent `<tspan>`s, one a cluster in the text's order,
  /// each over its glyphs (its pen span, `textLength`) on the baseline, at the font's em.
  mutating func appendTextLayer(_ clusters: [TextLayer.Cluster], baseline: Double, fontSize: Double) {
    guard !clusters.isEmpty else { return }
    append(literal: "<text xml:space=\"preserve\" fill-opacity=\"0\" font-size=\"")
    append(fontSize)
    append(literal: "\" data-layer=\"text\">")
    for cluster in clusters {
      append(literal: "<tspan x=\"")
      append(cluster.minX)
      append(literal: "\" y=\"")
      append(baseline)
      if cluster.maxX > cluster.minX {
        append(literal: "\" textLength=\"")
        append(cluster.maxX - cluster.minX)
        append(literal: "\" lengthAdjust=\"spacingAndGlyphs")
      }
      append(literal: "\">")
      appendEscaped(TextLayer.xmlSafe(cluster.characters))
      append(literal: "</tspan>")
    }
    append(literal: "</text>\n")
  }

  /// The document's `<title>`: its text, lines separated by newlines.
  mutating func appendTitle(_ text: String) {
    append(literal: "<title>")
    appendEscaped(TextLayer.xmlSafe(text))
    append(literal: "</title>\n")
  }
}
