import HarfBuzz

/// hb-shape's serializations of glyphs, byte for byte what HarfBuzz 6.0.0's
/// `hb_buffer_serialize_glyphs` writes: the text syntax `[name=cluster@dx,dy+ax,ay|…]` and the JSON
/// syntax `[{"g":name,"cl":cluster,"dx":…,"dy":…,"ax":…,"ay":…},…]`.
public struct HBFormat: Sendable, Hashable {
  /// Which of HarfBuzz's serializations.
  public enum Syntax: Sendable, Hashable {
    /// `HB_BUFFER_SERIALIZE_FORMAT_TEXT`.
    case text
    /// `HB_BUFFER_SERIALIZE_FORMAT_JSON`.
    case json
  }

  /// Which serialization.
  public var syntax: Syntax
  /// Write glyph names (`gidN` when the font has none); otherwise glyph IDs.
  public var glyphNames = true
  /// Write clusters.
  public var clusters = true
  /// Write offsets and advances.
  public var positions = true
  /// Write advances; without them offsets become absolute positions, as hb-shape's
  /// `--no-advances` and `--ned` do.
  public var advances = true
  /// Write glyph flags (only those that are set).
  public var glyphFlags = false
  /// Write ink extents.
  public var extents = false

  /// A writer of hb-shape's text or JSON syntax.
  public init(_ syntax: Syntax = .text) { self.syntax = syntax }

  /// One line for a result's glyphs, or an empty string when it has none. A paragraph's runs
  /// (`ShapeOptions.paragraph`) are written one group a run, in visual order, each after its
  /// level and script: `<0 Latn>[H=0+1540|…] <1 Arab>[…]`, and the family of a fallback
  /// font: `<0 Hani "Noto Sans CJK JP">[…]`.
  ///
  /// A paragraph broken to a width (`ShapeOptions.lineWidth`) is written a line of output for
  /// each of its lines, each with its runs so.
  public func line(for result: ShapeResult) -> String {
    guard result.runs.first?.level != nil else { return line(for: result.glyphs) }
    if let lines = result.lines { return lines.map { groups($0.runs) }.joined(separator: "\n") }
    return groups(result.runs)
  }

  /// Runs of a paragraph, one group a run after its level and script.
  private func groups(_ runs: [ShapedRun]) -> String {
    runs.map { run in
      // A run of a fallback font names it: `<0 Hani "Noto Sans CJK JP">`.
      let font =
        run.isFallback
        ? " \"\(run.font.family ?? String(run.font.file.split(separator: "/").last ?? ""))\"" : ""
      return "<\(run.level ?? 0) \(run.script)\(font)>" + line(for: run.glyphs.array)
    }.joined(separator: " ")
  }

  /// One line for glyphs; without positions (a trace step during substitution) none are written.
  public func line(for glyphs: [ShapedGlyph], hasPositions: Bool = true) -> String {
    guard !glyphs.isEmpty else { return "" }
    var out = ""
    var x: Int32 = 0
    var y: Int32 = 0
    let positions = self.positions && hasPositions
    for (index, glyph) in glyphs.enumerated() {
      switch syntax {
      case .text:
        out += index == 0 ? "[" : "|"
        appendText(glyph, positions: positions, x: x, y: y, to: &out)
      case .json:
        out += index == 0 ? "[{" : ",{"
        appendJSON(glyph, positions: positions, x: x, y: y, to: &out)
        out += "}"
      }
      if !advances {
        x &+= glyph.xAdvance
        y &+= glyph.yAdvance
      }
    }
    out += "]"
    return out
  }

  private func appendText(_ glyph: ShapedGlyph, positions: Bool, x: Int32, y: Int32, to out: inout String) {
    if glyphNames, let name = glyph.name {
      out += name
    } else {
      out += String(glyph.id)
    }
    if clusters { out += "=\(glyph.cluster)" }
    if positions {
      let dx = x &+ glyph.xOffset
      let dy = y &+ glyph.yOffset
      if dx != 0 || dy != 0 { out += "@\(dx),\(dy)" }
      if advances {
        out += "+\(glyph.xAdvance)"
        if glyph.yAdvance != 0 { out += ",\(glyph.yAdvance)" }
      }
    }
    if glyphFlags, glyph.flags.rawValue != 0 {
      out += "#" + String(glyph.flags.rawValue, radix: 16, uppercase: true)
    }
    if extents {
      let box = glyph.extents ?? GlyphExtents(xBearing: 0, yBearing: 0, width: 0, height: 0)
      out += "<\(box.xBearing),\(box.yBearing),\(box.width),\(box.height)>"
    }
  }

  private func appendJSON(_ glyph: ShapedGlyph, positions: Bool, x: Int32, y: Int32, to out: inout String) {
    out += "\"g\":"
    if glyphNames, let name = glyph.name {
      // HarfBuzz escapes only the quote and the backslash in names.
      out += "\""
      for character in name.unicodeScalars {
        if character == "\"" || character == "\\" { out += "\\" }
        out.unicodeScalars.append(character)
      }
      out += "\""
    } else {
      out += String(glyph.id)
    }
    if clusters { out += ",\"cl\":\(glyph.cluster)" }
    if positions {
      out += ",\"dx\":\(x &+ glyph.xOffset),\"dy\":\(y &+ glyph.yOffset)"
      if advances { out += ",\"ax\":\(glyph.xAdvance),\"ay\":\(glyph.yAdvance)" }
    }
    if glyphFlags, glyph.flags.rawValue != 0 { out += ",\"fl\":\(glyph.flags.rawValue)" }
    if extents {
      let box = glyph.extents ?? GlyphExtents(xBearing: 0, yBearing: 0, width: 0, height: 0)
      out += ",\"xb\":\(box.xBearing),\"yb\":\(box.yBearing),\"w\":\(box.width),\"h\":\(box.height)"
    }
  }

  /// hb-shape's `--show-unicode` line: `<U+0054=0|U+0061=1>` (always the text syntax, always with
  /// clusters), or an empty string for no text.
  public static func unicodeLine(for result: ShapeResult) -> String {
    HBFormat(.text).line(codePoints: result.scalarsWithClusters.map { ($0.scalar.value, $0.cluster) })
  }

  /// Code points with their clusters, as HarfBuzz's `hb_buffer_serialize_unicode` writes them:
  /// `<U+0054=0|U+0061=1>` or `[{"u":84,"cl":0},{"u":97,"cl":1}]`; only `clusters` applies.
  public func line(codePoints: [(value: UInt32, cluster: Int)]) -> String {
    guard !codePoints.isEmpty else { return "" }
    var out = ""
    for (index, item) in codePoints.enumerated() {
      switch syntax {
      case .text:
        out += index == 0 ? "<" : "|"
        let hex = String(item.value, radix: 16, uppercase: true)
        out += "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        if clusters { out += "=\(item.cluster)" }
      case .json:
        out += index == 0 ? "[{" : ",{"
        out += "\"u\":\(item.value)"
        if clusters { out += ",\"cl\":\(item.cluster)" }
        out += "}"
      }
    }
    out += syntax == .text ? ">" : "]"
    return out
  }

  /// A trace step's buffer, as HarfBuzz's `hb_buffer_serialize` writes it: code points or glyphs.
  public func line(for event: TraceEvent) -> String {
    event.holdsCodePoints
      ? line(codePoints: event.glyphs.map { ($0.id, $0.cluster) })
      : line(for: event.glyphs, hasPositions: event.hasPositions)
  }
}
