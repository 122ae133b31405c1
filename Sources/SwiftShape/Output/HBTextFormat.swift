import HarfBuzz

/// hb-shape's text serialization of glyphs: `[name=cluster@dx,dy+ax,ay|…]`, byte for byte what
/// HarfBuzz's `hb_buffer_serialize_glyphs` writes with `HB_BUFFER_SERIALIZE_FORMAT_TEXT`.
public struct HBTextFormat: Sendable, Hashable {
  /// Write glyph names (`gidN` when the font has none); otherwise glyph IDs.
  public var glyphNames = true
  /// Write `=cluster`.
  public var clusters = true
  /// Write offsets (`@dx,dy`, only when not zero) and advances.
  public var positions = true
  /// Write advances (`+ax`, and `,ay` when not zero); without them offsets become absolute
  /// positions, as hb-shape's `--no-advances` and `--ned` do.
  public var advances = true
  /// Write glyph flags (`#X`, upper-case hex, only when not zero).
  public var glyphFlags = false
  /// Write ink extents (`<xb,yb,w,h>`).
  public var extents = false

  public init() {}

  /// One line for a result: its glyphs in brackets, or an empty string when it has none.
  public func line(for result: ShapeResult) -> String {
    let glyphs = result.glyphs
    guard !glyphs.isEmpty else { return "" }
    var out = "["
    var x: Int32 = 0
    var y: Int32 = 0
    for (index, glyph) in glyphs.enumerated() {
      if index > 0 { out += "|" }
      if glyphNames, let name = glyph.name {
        out += name
      } else {
        out += String(glyph.id)
      }
      if clusters {
        out += "="
        out += String(glyph.cluster)
      }
      if positions {
        let dx = x &+ glyph.xOffset
        let dy = y &+ glyph.yOffset
        if dx != 0 || dy != 0 {
          out += "@\(dx),\(dy)"
        }
        if advances {
          out += "+"
          out += String(glyph.xAdvance)
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
      if !advances {
        x &+= glyph.xAdvance
        y &+= glyph.yAdvance
      }
    }
    out += "]"
    return out
  }
}
