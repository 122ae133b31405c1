import SwiftShape

/// How an SVG looks.
public struct SVGOptions: Sendable {
  /// Pixels per em for the `width` and `height` (the drawing itself scales freely).
  public var pixelsPerEm: Double = 256
  /// Space around the ink and the advance boxes, in pixels.
  public var margin: Double = 16
  /// Write each cluster's characters as transparent text over its glyphs, and the text as the
  /// document's `<title>`, so that the SVG's text can be found, selected and copied, and read
  /// aloud, in each run's direction and language (`--no-text-layer` leaves them out).
  public var textLayer = true
  /// The glyphs' color, `#rrggbb` or `#rrggbbaa`.
  public var foreground = "#000000"
  /// The background's color, or nil for none.
  public var background: String? = "#FFFFFF"
  /// Overlay the baseline, glyph origins, advance boxes, ink boxes and cluster boundaries, with a
  /// legend.
  public var annotate = false
  /// Glyphs of the first line (indices into the first result's `glyphs`) drawn in red: a
  /// forbidden glyph in a failure's picture.
  public var highlightedGlyphs: Set<Int> = []
  /// Draw color glyphs (bitmaps, `COLR` layers) in color; false draws their outlines (or a box)
  /// in the foreground color.
  public var color = true
  /// The `CPAL` palette for `COLR` glyphs.
  public var palette = 0
  /// The most a `COLR` version 1 glyph may cost to paint, in paints times the pixels they cover;
  /// a costlier graph (a damaged or hostile table can nest 10,000 paints) is left out with a note.
  /// The default, 2²⁸, lets a glyph 300 pixels square at the default size have 2,900 paints.
  public var paintLimit = 1 << 28
  /// Polygons drawn in translucent red over the first line, in its coordinates (the result's
  /// units, y up, from the line's origin): the area colliding glyphs share in a failure's picture.
  public var overlays: [[(x: Double, y: Double)]] = []

  /// The defaults: 256 pixels an em, black on white.
  public init() {}
}
