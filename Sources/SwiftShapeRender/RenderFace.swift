// The renderer's faces: each font it draws with, its outlines read once, and the color form of
// each glyph (bitmaps, COLR layers, paint graphs) for the palette in use.

import HarfBuzz
import SwiftShape

extension SVGRenderer {
  /// A font the renderer draws with: its outlines, read once each, and its scale.
  final class RenderFace {
    let font: ShapingFont
    let outlines: FreeTypeFace
    /// Each glyph's outline (nil when FreeType has none) and its bounds, read once; by glyph ID, up
    /// to the highest seen.
    var cache: [(outline: GlyphOutline?, bounds: GlyphOutline.Bounds?)?] = []
    /// Result units per font unit.
    let scaleX: Double
    let scaleY: Double
    /// How its glyphs' definitions are named: `g12` for the first font, `f1g12` for the next.
    let prefix: String

    init(font: ShapingFont, outlines: FreeTypeFace, prefix: String) {
      self.font = font
      self.outlines = outlines
      self.prefix = prefix
      scaleX = Double(font.scale.x) / Double(font.identity.unitsPerEm)
      scaleY = Double(font.scale.y) / Double(font.identity.unitsPerEm)
    }

    /// Whether the font has color glyphs, read once (this is asked for every placed glyph).
    private(set) lazy var hasColor = outlines.hasColor

    /// Whether color glyphs are drawn in color, and from which palette; each glyph's color form,
    /// read once for these settings.
    var colorSettings = (enabled: true, palette: 0) {
      didSet {
        colors = [:]
        paintReader = nil
      }
    }
    /// The `COLR` version 1 reader for the current palette, made on first use (nil inside when the
    /// font has no version 1 table).
    private var paintReader: ColorTableReader??

    /// The font at its units per em, for HarfBuzz's paint API (coordinates in font units, as the
    /// table reader's).
    private lazy var unscaledFont = Font(face: font.font.face)

    private func colorPaint(_ glyph: UInt32) -> ColorPaint? {
      // Where the engine has a paint API (HarfBuzz 7.0.0 and later), the engine paints the graph;
      // before, the table is read here (`ColorTableReader`).
      if Font.hasPaintAPI {
        return unscaledFont.paintEvents(of: glyph, palette: colorSettings.palette).flatMap {
          ColorPaint(events: $0)
        }
      }
      if paintReader == nil {
        paintReader = .some(
          font.font.face.table("COLR").flatMap {
            ColorTableReader(table: $0, colors: outlines.paletteColors(colorSettings.palette))
          })
      }
      return paintReader??.paint(of: glyph)
    }
    private var colors: [UInt32: ColorGlyph] = [:]
    /// Glyphs of a color font with neither an outline nor color data FreeType can read.
    var unreadable = Set<UInt32>()
    /// Glyphs whose `COLR` paint graph was too costly to paint (left out).
    var tooCostly = Set<UInt32>()

    /// The glyph's color form, nil for none (or when color is off).
    func color(_ glyph: UInt32) -> ColorGlyph? {
      guard colorSettings.enabled, hasColor else { return nil }
      if let known = colors[glyph] { return known.isNone ? nil : known }
      var found = ColorGlyph.none
      if let paint = colorPaint(glyph) {
        // Bounds in font units, y down, as the other forms'.
        if let box = paint.bounds(outline: { self.entry($0).bounds }) {
          found = .paint(paint, bounds: (box.minX, -box.maxY, box.maxX, -box.minY))
        }
      } else if let layers = outlines.colorLayers(of: glyph, palette: colorSettings.palette) {
        let drawn = layers.compactMap { layer in
          outlines.outline(of: layer.glyph).map { (glyph: layer.glyph, color: layer.color, outline: $0) }
        }
        let bounds = drawn.compactMap(\.outline.bounds).reduce(nil) { (sum: GlyphOutline.Bounds?, next) in
          guard let sum else { return next }
          return (
            min(sum.minX, next.minX), min(sum.minY, next.minY), max(sum.maxX, next.maxX),
            max(sum.maxY, next.maxY)
          )
        }
        found = .layers(drawn, bounds: bounds)
      } else {
        do {
          if let bitmap = try outlines.colorBitmap(of: glyph) {
            // Font units per bitmap pixel (HarfBuzz knows the units per em of a bitmap-only font).
            let unit = Double(font.identity.unitsPerEm) / bitmap.pixelsPerEm
            found = .bitmap(
              bitmap,
              bounds: (
                Double(bitmap.left) * unit, -Double(bitmap.top) * unit,
                Double(bitmap.left + bitmap.width) * unit,
                Double(bitmap.rows - bitmap.top) * unit
              ))
          }
        } catch {
          // FreeType failed on the glyph's bitmap: damaged data, drawn as a box, with a note.
          if glyph < font.identity.glyphCount, outlines.outline(of: glyph) == nil { unreadable.insert(glyph) }
        }
      }
      colors[glyph] = found
      return found.isNone ? nil : found
    }

    /// Speed: each glyph's `<use>` element is two fixed pieces around its position and cluster —
    /// `<use xlink:href="#g12" href="#g12" x="` and `" data-gid="12" data-name="a" data-cluster="`
    /// (closing the y) — made once per glyph and kept one after another in one array, with where
    /// each glyph's start, end and split by glyph ID. Writing the pieces whole instead of a dozen
    /// appends each (with the name escaped every time) cut the instructions of drawing the
    /// English text from 684 to 617 million (callgrind; the writing after the layout from 234 to
    /// 167 million); one array rather than a pair of arrays a glyph saved the retains of each.
    private var fragmentBytes: [UInt8] = []
    /// Three a glyph ID: start, split and end in `fragmentBytes`; the start is -1 until made.
    private var fragmentBounds: [Int] = []

    /// Writes a placed glyph's `<use>` element from its pieces.
    func appendUse(_ glyph: ShapedGlyph, x: Double, y: Double, to svg: inout SVGText) {
      let index = Int(glyph.id)
      if index >= fragmentBounds.count / 3 || fragmentBounds[3 * index] < 0 { makeFragments(glyph) }
      guard index < fragmentBounds.count / 3 else { return }
      let (start, split, end) = (
        fragmentBounds[3 * index], fragmentBounds[3 * index + 1], fragmentBounds[3 * index + 2]
      )
      fragmentBytes.withUnsafeBufferPointer { bytes in
        svg.append(UnsafeBufferPointer(rebasing: bytes[start..<split]))
        svg.append(x)
        svg.append(literal: "\" y=\"")
        svg.append(y)
        svg.append(UnsafeBufferPointer(rebasing: bytes[split..<end]))
      }
      svg.append(glyph.cluster)
      svg.append(literal: "\"/>\n")
    }

    private func makeFragments(_ glyph: ShapedGlyph) {
      let index = Int(glyph.id)
      guard index < font.identity.glyphCount else { return }
      if index >= fragmentBounds.count / 3 {
        fragmentBounds.append(contentsOf: repeatElement(-1, count: 3 * (index + 1) - fragmentBounds.count))
      }
      var pieces = SVGText()
      pieces.append(literal: "<use xlink:href=\"#")
      pieces.append(prefix)
      pieces.append(glyph.id)
      pieces.append(literal: "\" href=\"#")
      pieces.append(prefix)
      pieces.append(glyph.id)
      pieces.append(literal: "\" x=\"")
      let split = pieces.count
      pieces.append(literal: "\" data-gid=\"")
      pieces.append(glyph.id)
      pieces.append(literal: "\" data-name=\"")
      pieces.appendEscaped(glyph.name ?? font.font.glyphLabel(glyph.id))
      pieces.append(literal: "\" data-cluster=\"")
      let start = fragmentBytes.count
      fragmentBytes += pieces.finish()
      fragmentBounds[3 * index] = start
      fragmentBounds[3 * index + 1] = start + split
      fragmentBounds[3 * index + 2] = fragmentBytes.count
    }

    func entry(_ glyph: UInt32) -> (outline: GlyphOutline?, bounds: GlyphOutline.Bounds?) {
      let index = Int(glyph)
      if index < cache.count, let known = cache[index] { return known }
      let outline = outlines.outline(of: glyph)
      let entry = (outline, outline?.bounds)
      // Glyph IDs past the font's (from an expectation) are not kept: the array stays the font's size.
      if index >= cache.count, index < font.identity.glyphCount {
        cache.append(contentsOf: repeatElement(nil, count: index + 1 - cache.count))
      }
      if index < cache.count { cache[index] = entry }
      return entry
    }
  }
}
