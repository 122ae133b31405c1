import HarfBuzz
import SwiftShape
import SwiftShapeDefaultFont

/// How an SVG looks.
public struct SVGOptions: Sendable {
  /// Pixels per em for the `width` and `height` (the drawing itself scales freely).
  public var pixelsPerEm: Double = 256
  /// Space around the ink and the advance boxes, in pixels.
  public var margin: Double = 16
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

/// Draws shaping results as SVG with the font's outlines (read through FreeType).
///
/// The output is deterministic: coordinates with at most two decimals, glyph definitions named by
/// glyph ID in the order they first appear, so SVGs can be golden files.
public final class SVGRenderer {
  let font: ShapingFont
  /// The fonts drawn with: `font` first, then the fallback fonts of paragraph runs as they are met.
  private(set) var faces: [RenderFace]

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

  /// The most pixels a picture from `image(_:expected:options:)` may have: 2²⁸ (a gigabyte in
  /// color). The English benchmark paragraph of 20 lines at 256 pixels an em has 53 million.
  public static let maximumPixels = 1 << 28

  /// How many `CPAL` palettes the renderer's font has (0 without a `CPAL` table).
  public var paletteCount: Int { faces[0].outlines.paletteCount }

  /// What drawing had to leave out, one line each: a color glyph FreeType cannot read (drawn as a
  /// box), a `COLR` paint graph too costly to paint (left out).
  public var notes: [String] {
    faces.flatMap { face in
      face.unreadable.sorted().map {
        "\(face.font.identity.file): glyph \($0) has color data FreeType cannot read; drawn as a box"
      }
        + face.tooCostly.sorted().map {
          "\(face.font.identity.file): glyph \($0) has a color paint graph too costly to paint at this size; left out"
        }
    }
  }

  /// A renderer for results shaped with `font`.
  ///
  /// - Throws: `ShapingError` when FreeType cannot open the font.
  public init(font: ShapingFont) throws {
    self.font = font
    faces = [RenderFace(font: font, outlines: try SVGRenderer.outlines(of: font), prefix: "g")]
  }

  /// The font opened with FreeType.
  private static func outlines(of font: ShapingFont) throws -> FreeTypeFace {
    if font.identity.file == ShapingFont.defaultFontName {
      return try FreeTypeFace(
        staticBytes: UnsafeRawBufferPointer(
          start: swiftshape_default_font_data(), count: swiftshape_default_font_size()),
        variations: font.options.variations)
    }
    return try FreeTypeFace(
      file: font.identity.file, faceIndex: font.identity.faceIndex, variations: font.options.variations)
  }

  /// The face a run is drawn with: the renderer's font, or for a run of a fallback font, that font
  /// (opened on first use); the renderer's font when it cannot be opened.
  private func face(of run: ShapedRun) -> Int {
    guard run.isFallback else { return 0 }
    if let known = faces.firstIndex(where: {
      $0.font.identity.file == run.font.file && $0.font.identity.faceIndex == run.font.faceIndex
    }) {
      return known
    }
    guard let fallback = font.fallback?.font(file: run.font.file, faceIndex: run.font.faceIndex, for: font),
      let outlines = try? SVGRenderer.outlines(of: fallback)
    else { return 0 }
    let face = RenderFace(font: fallback, outlines: outlines, prefix: "f\(faces.count)g")
    face.colorSettings = faces[0].colorSettings
    faces.append(face)
    return faces.count - 1
  }

  /// A renderer for results shaped with `font`, drawing the outlines of `outlines` (the same font
  /// opened with FreeType, from bytes in memory for instance).
  public init(font: ShapingFont, outlines: FreeTypeFace) {
    self.font = font
    faces = [RenderFace(font: font, outlines: outlines, prefix: "g")]
  }

  private func outline(_ placed: Placed) -> GlyphOutline? {
    faces[placed.face].entry(placed.glyph.id).outline
  }

  /// A placed glyph: where its origin is, in the drawing's coordinates (y down).
  /// A glyph's color form, in font units, y down.
  enum ColorGlyph {
    /// `COLR` layers: outlines, each in a palette color or the foreground color (nil).
    case layers(
      [(glyph: UInt32, color: RasterImage.RGBA?, outline: GlyphOutline)], bounds: GlyphOutline.Bounds?)
    /// A bitmap (`CBDT`, `sbix`) and the box it covers.
    case bitmap(ColorBitmap, bounds: GlyphOutline.Bounds)
    /// A `COLR` version 1 paint graph and the box its glyphs cover.
    case paint(ColorPaint, bounds: GlyphOutline.Bounds)
    /// None (kept so that a glyph is looked up once).
    case none

    var isNone: Bool {
      if case .none = self { return true }
      return false
    }

    var bounds: GlyphOutline.Bounds? {
      switch self {
      case .layers(_, let bounds): return bounds
      case .bitmap(_, let bounds): return bounds
      case .paint(_, let bounds): return bounds
      case .none: return nil
      }
    }
  }

  struct Placed {
    var glyph: ShapedGlyph
    /// The index of its font in `faces`.
    var face: Int
    var x: Double
    var y: Double
    /// The pen position before it, and after.
    var pen: (x: Double, y: Double)
    var next: (x: Double, y: Double)
  }

  /// A laid-out line: its glyphs and its logical box.
  struct Line {
    var placed: [Placed]
    var box: Box
    var baseline: (from: (x: Double, y: Double), to: (x: Double, y: Double))
    var vertical: Bool
    var label: String?
  }

  struct Box {
    var minX: Double
    var minY: Double
    var maxX: Double
    var maxY: Double

    mutating func formUnion(_ other: Box) {
      minX = min(minX, other.minX)
      minY = min(minY, other.minY)
      maxX = max(maxX, other.maxX)
      maxY = max(maxY, other.maxY)
    }
  }

  /// The SVG for results (one per input line), stacked by the font's line height; `expected`, when
  /// given, is drawn under the results for comparison.
  public func svg(
    _ results: [ShapeResult], expected: [ShapedGlyph]? = nil, options: SVGOptions = SVGOptions()
  ) -> String {
    String(decoding: svgBytes(results, expected: expected, options: options), as: UTF8.self)
  }

  /// The laid-out lines and the view around them, in the result's units (y down).
  struct Scene {
    var lines: [Line]
    var view: Box
    var unitsPerPixel: Double
    var minX: Double
    var minY: Double
    var width: Double
    var height: Double

    /// The scene of laid-out lines whose glyphs' ink and logical boxes make `view`: the view with
    /// the margin around it, and below it the legend's room when annotated.
    init(lines: [Line], view: Box, unitsPerPixel: Double, options: SVGOptions) {
      self.lines = lines
      self.view = view
      self.unitsPerPixel = unitsPerPixel
      let margin = options.margin * unitsPerPixel
      let legendHeight = options.annotate ? 6 * 14 * unitsPerPixel : 0
      minX = view.minX - margin
      minY = view.minY - margin
      width = view.maxX - view.minX + 2 * margin
      height = view.maxY - view.minY + 2 * margin + legendHeight
    }
  }

  private func scene(_ results: [ShapeResult], expected: [ShapedGlyph]?, options: SVGOptions) -> Scene {
    var results = results
    return scene(releasing: &results, expected: expected, options: options)
  }

  /// The scene of `results`, each result emptied once its lines are laid out (so that a long
  /// text's glyphs are not held twice).
  private func scene(releasing results: inout [ShapeResult], expected: [ShapedGlyph]?, options: SVGOptions)
    -> Scene
  {
    for face in faces where face.colorSettings != (options.color, options.palette) {
      face.colorSettings = (options.color, options.palette)
    }
    let vertical = font.font.extents(for: .topToBottom)
    let columnWidth = Double(vertical.ascender) - Double(vertical.descender) + Double(vertical.lineGap)
    let isVertical = results.first?.runs.first?.direction.isVertical ?? false

    var lines: [Line] = []
    // The lines: each result's (a paragraph broken to a width gives a line each of its lines, at
    // the line's x), then the expected run. Each line's glyphs, with the index of their font in
    // `faces`, are gathered and laid out one line at a time, so that only the placed glyphs stay.
    let lineCount = results.reduce(0) { $0 + ($1.lines?.count ?? 1) } + (expected == nil ? 0 : 1)
    var top = 0.0
    func add(_ glyphs: [(ShapedGlyph, Int)], label: String?, x: Double) {
      if isVertical {
        let originX = Double(lineCount - 1 - lines.count) * columnWidth + columnWidth / 2
        lines.append(
          layOut(
            glyphs, originX: originX, originY: 0, vertical: true, ascender: Double(vertical.ascender),
            descender: Double(vertical.descender), label: label))
        return
      }
      // Lines are stacked by the line height of the tallest font each has.
      var ascender = -Double.infinity
      var descender = Double.infinity
      var lineGap = 0.0
      for face in Set(glyphs.map(\.1)).union([0]) {
        let extents = faces[face].font.font.extents(for: .leftToRight)
        ascender = max(ascender, Double(extents.ascender))
        descender = min(descender, Double(extents.descender))
        lineGap = max(lineGap, Double(extents.lineGap))
      }
      lines.append(
        layOut(
          glyphs, originX: x, originY: top + ascender, vertical: false, ascender: ascender,
          descender: descender, label: label))
      top += ascender - descender + lineGap
    }
    lines.reserveCapacity(lineCount)
    for index in results.indices {
      let result = results[index]
      results[index] = ShapeResult()
      let resultLines = result.lines.map { $0.map { ($0.runs, Double($0.x)) } } ?? [(result.runs, 0)]
      for (runs, x) in resultLines {
        let glyphs = runs.flatMap { run in
          let face = face(of: run)
          return run.glyphs.map { ($0, face) }
        }
        add(glyphs, label: expected == nil ? nil : "actual", x: x)
      }
    }
    if let expected { add(expected.map { ($0, 0) }, label: "expected", x: 0) }

    // The view: every logical box and every glyph's ink, plus the margin.
    var view = lines.first?.box ?? Box(minX: 0, minY: 0, maxX: 0, maxY: 0)
    for line in lines {
      view.formUnion(line.box)
      for placed in line.placed {
        if let ink = inkBox(placed) { view.formUnion(ink) }
      }
    }
    let unitsPerPixel = Double(font.identity.unitsPerEm) * faces[0].scaleX / options.pixelsPerEm
    return Scene(lines: lines, view: view, unitsPerPixel: unitsPerPixel, options: options)
  }

  /// The picture `svgBytes` describes, as pixels: the same size (rounded up), layout, colors and
  /// margin, each glyph's outline rendered by FreeType's antialiasing rasterizer, unhinted, across
  /// at its position to a sixty-fourth of a pixel, down on the whole pixel nearest it.
  /// Annotations and overlays are SVG's only.
  ///
  /// - Throws: `ShapingError` (`.invalidArgument`) when the picture would have more than
  ///   `maximumPixels` pixels (a font whose glyphs reach far, or too many pixels an em).
  public func image(
    _ results: [ShapeResult], expected: [ShapedGlyph]? = nil, options: SVGOptions = SVGOptions()
  ) throws -> RasterImage {
    let scene = scene(results, expected: expected, options: options)
    let unitsPerPixel = scene.unitsPerPixel
    let (wide, high) = (
      (scene.width / unitsPerPixel).rounded(.up), (scene.height / unitsPerPixel).rounded(.up)
    )
    guard wide.isFinite, high.isFinite, wide * high <= Double(SVGRenderer.maximumPixels) else {
      throw ShapingError(
        .invalidArgument, input: "the picture",
        reason:
          "\(wide.isFinite ? String(Int(min(wide, 1e15))) : "endless") × \(high.isFinite ? String(Int(min(high, 1e15))) : "endless") pixels is more than \(SVGRenderer.maximumPixels); draw it at fewer pixels an em (--em-pixels)"
      )
    }
    let width = max(1, Int(wide))
    let height = max(1, Int(high))
    let background = options.background.flatMap(RasterImage.RGBA.init(hex:))
    let foreground = RasterImage.RGBA(hex: options.foreground) ?? RasterImage.RGBA(red: 0, green: 0, blue: 0)
    // Gray text on an opaque gray, with no color glyph, no expected run and no highlight: one byte
    // a pixel (a 20-line paragraph at 256 pixels an em is 52 million pixels: 210 MB as RGBA).
    let gray =
      background.map { $0.alpha == 255 && RasterImage.isGray($0) } == true && RasterImage.isGray(foreground)
      && expected == nil && options.highlightedGlyphs.isEmpty
      && !scene.lines.contains { line in line.placed.contains { faces[$0.face].color($0.glyph.id) != nil } }
    var image =
      gray
      ? RasterImage(width: width, height: height, gray: background!.red)
      : RasterImage(width: width, height: height, color: background)
    let expectedColor = RasterImage.RGBA(red: 0x30, green: 0x60, blue: 0xC0)
    let highlight = RasterImage.RGBA(red: 0xD0, green: 0, blue: 0)
    for (lineIndex, line) in scene.lines.enumerated() {
      for (glyphIndex, placed) in line.placed.enumerated() {
        let face = faces[placed.face]
        // The glyph's origin in pixels, split into a whole pixel and a fraction; baselines (y) on
        // whole pixels, for crisp horizontal stems, as hb-view's cairo places glyphs.
        let x = (placed.x - scene.minX) / unitsPerPixel
        let y = ((placed.y - scene.minY) / unitsPerPixel).rounded()
        let wholeX = x.rounded(.down)
        let wholeY = y.rounded(.down)
        switch face.color(placed.glyph.id) {
        case .bitmap(let bitmap, let bounds)?:
          image.paint(
            bitmap, x: x + bounds.minX * face.scaleX / unitsPerPixel,
            y: y + bounds.minY * face.scaleY / unitsPerPixel,
            width: (bounds.maxX - bounds.minX) * face.scaleX / unitsPerPixel,
            height: (bounds.maxY - bounds.minY) * face.scaleY / unitsPerPixel)
          continue
        case .paint(let paint, let bounds)?:
          let lineColor = line.label == "expected" ? expectedColor : foreground
          let scale = (face.scaleX / unitsPerPixel, face.scaleY / unitsPerPixel)
          if !SVGRenderer.paint(
            paint, bounds: bounds, face: face.outlines, origin: (x, y), scale: scale, foreground: lineColor,
            limit: options.paintLimit, onto: &image)
          {
            face.tooCostly.insert(placed.glyph.id)
          }
          continue
        case .layers(let layers, _)?:
          let lineColor = line.label == "expected" ? expectedColor : foreground
          for layer in layers {
            guard
              let mask = face.outlines.coverage(
                of: layer.glyph, scaleX: face.scaleX / unitsPerPixel, scaleY: face.scaleY / unitsPerPixel,
                dx: x - wholeX, dy: y - wholeY)
            else { continue }
            image.paint(mask, x: Int(wholeX), y: Int(wholeY), color: layer.color ?? lineColor)
          }
          continue
        default: break
        }
        guard
          let mask = face.outlines.coverage(
            of: placed.glyph.id, scaleX: face.scaleX / unitsPerPixel, scaleY: face.scaleY / unitsPerPixel,
            dx: x - wholeX, dy: y - wholeY)
        else { continue }
        let color: RasterImage.RGBA
        if line.label == "expected" {
          color = expectedColor
        } else if lineIndex == 0 && options.highlightedGlyphs.contains(glyphIndex) {
          color = highlight
        } else {
          color = foreground
        }
        image.paint(mask, x: Int(wholeX), y: Int(wholeY), color: color)
      }
    }
    return image
  }

  /// The SVG of `svg(_:expected:options:)` as UTF-8 bytes, ready to write.
  public func svgBytes(
    _ results: [ShapeResult], expected: [ShapedGlyph]? = nil, options: SVGOptions = SVGOptions()
  ) -> [UInt8] {
    var out: [UInt8] = []
    writeSVG(results, expected: expected, options: options) { out.append(contentsOf: $0) }
    return out
  }

  /// The SVG of `svg(_:expected:options:)`, handed to `sink` a piece at a time (about 64 KiB
  /// each), so that a long text's document is never whole in memory.
  public func writeSVG(
    _ results: consuming [ShapeResult], expected: [ShapedGlyph]? = nil, options: SVGOptions = SVGOptions(),
    to sink: (UnsafeBufferPointer<UInt8>) -> Void
  ) {
    // The placed glyphs are all the drawing needs: each result goes once laid out (when the caller
    // gave them up).
    let scene = scene(releasing: &results, expected: expected, options: options)
    let (lines, view, unitsPerPixel) = (scene.lines, scene.view, scene.unitsPerPixel)
    let (minX, minY) = (scene.minX, scene.minY)

    // One definition per distinct glyph with an outline, in order of first appearance.
    // Speed: which glyphs are seen is a flag a glyph ID for each font (a set of (font, glyph)
    // pairs, hashed for every placed glyph, cost 15 million instructions for the English text).
    var defined: [Placed] = []
    var definedColor: [Placed] = []
    var seen = faces.map { [Bool](repeating: false, count: $0.font.identity.glyphCount) }
    var seenPastTheFont = Set<UInt64>()  // glyph IDs past a font's (from an expected run)
    func firstSight(_ placed: Placed) -> Bool {
      if placed.face >= seen.count {
        seen += faces[seen.count...].map { [Bool](repeating: false, count: $0.font.identity.glyphCount) }
      }
      let id = Int(placed.glyph.id)
      guard id < seen[placed.face].count else {
        return seenPastTheFont.insert(UInt64(placed.face) << 32 | UInt64(id)).inserted
      }
      if seen[placed.face][id] { return false }
      seen[placed.face][id] = true
      return true
    }
    for line in lines {
      for placed in line.placed where firstSight(placed) {
        if faces[placed.face].color(placed.glyph.id) != nil {
          definedColor.append(placed)
        } else if let outline = outline(placed), !outline.commands.isEmpty {
          defined.append(placed)
        }
      }
    }
    var svg = SVGText()
    svg.reserveCapacity(1 << 17)
    appendStart(scene, options: options, to: &svg)
    appendDefinitions(color: definedColor, outlines: defined.map { ($0.face, $0.glyph.id) }, to: &svg)
    for (lineIndex, line) in lines.enumerated() {
      let color = line.label == "expected" ? "#3060C0" : options.foreground
      svg += "<g\(fill(color))"
      if let label = line.label { svg += " data-run=\"\(label)\"" }
      svg += ">\n"
      // Each placed glyph is written piece by piece into the document: this loop makes nearly all
      // of a long text's SVG.
      for (glyphIndex, placed) in line.placed.enumerated() {
        if svg.count >= 1 << 16 { svg.flush(to: sink) }
        let glyph = placed.glyph
        let outline = outline(placed)
        // (An empty set's `contains` still hashes: 8 million instructions for the English text.)
        let highlighted =
          lineIndex == 0 && !options.highlightedGlyphs.isEmpty
          && options.highlightedGlyphs.contains(glyphIndex)
        let prefix = faces[placed.face].prefix
        let colorForm = faces[placed.face].color(glyph.id)
        if case .paint(let paint, let bounds)? = colorForm {
          // A paint graph: a picture of it on the drawing's pixel grid at its size (so that it is
          // not resampled: the pixels are the PNG output's), here rather than in the definitions.
          let face = faces[placed.face]
          let x = (placed.x - minX) / unitsPerPixel
          let y = ((placed.y - minY) / unitsPerPixel).rounded()
          let scale = (face.scaleX / unitsPerPixel, face.scaleY / unitsPerPixel)
          let left = (x + bounds.minX * scale.0).rounded(.down)
          let top = (y + bounds.minY * scale.1).rounded(.down)
          let width = Int((x + bounds.maxX * scale.0).rounded(.up) - left) + 1
          let height = Int((y + bounds.maxY * scale.1).rounded(.up) - top) + 1
          svg.append("<image")
          if width > 0, height > 0, width * height <= 1 << 24 {
            var image = RasterImage(width: width, height: height)
            let foreground =
              RasterImage.RGBA(hex: line.label == "expected" ? "#3060C0" : options.foreground)
              ?? RasterImage.RGBA(red: 0, green: 0, blue: 0)
            if !SVGRenderer.paint(
              paint, bounds: bounds, face: face.outlines, origin: (x - left, y - top), scale: scale,
              foreground: foreground, limit: options.paintLimit, onto: &image)
            {
              face.tooCostly.insert(glyph.id)
            }
            svg +=
              " x=\"\(minX + left * unitsPerPixel)\" y=\"\(minY + top * unitsPerPixel)\" width=\"\(Double(width) * unitsPerPixel)\" height=\"\(Double(height) * unitsPerPixel)\" preserveAspectRatio=\"none\" xlink:href=\"data:image/png;base64,"
            Base64.encode((try? image.pngBytes()) ?? []).withUnsafeBufferPointer { svg.append($0) }
            svg.append(UInt8(ascii: "\""))
          }
        } else if colorForm != nil {
          // A color glyph: its definition (layers or an image) holds its colors.
          appendUse(placed, prefix: prefix, to: &svg)
        } else if let outline, outline.commands.isEmpty {
          // No ink (a space): nothing to draw, but the glyph is still in the document.
          svg.append("<g")
        } else if outline != nil, !highlighted, Int(glyph.id) < faces[placed.face].font.identity.glyphCount {
          // The common case, from the glyph's two fixed pieces: see `RenderFace.appendUse`.
          faces[placed.face].appendUse(glyph, x: placed.x, y: placed.y, to: &svg)
          continue
        } else if outline != nil {
          appendUse(placed, prefix: prefix, to: &svg)
          svg.append(" fill=\"#D00000\"")
        } else {
          // A glyph FreeType has no outline for (bitmap or color only): a visible box.
          let box = inkBox(placed) ?? advanceBox(placed, line: line)
          svg +=
            "<rect x=\"\(box.minX)\" y=\"\(box.minY)\" width=\"\(box.maxX - box.minX)\" height=\"\(box.maxY - box.minY)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"\(unitsPerPixel)\""
        }
        svg.append(literal: " data-gid=\"")
        svg.append(glyph.id)
        svg.append(literal: "\" data-name=\"")
        svg.appendEscaped(glyph.name ?? faces[placed.face].font.font.glyphLabel(glyph.id))
        svg.append(literal: "\" data-cluster=\"")
        svg.append(glyph.cluster)
        svg.append(UInt8(ascii: "\""))
        if let outline, outline.commands.isEmpty {
          svg.append(" transform=\"translate(")
          svg.append(placed.x)
          svg.append(UInt8(ascii: ","))
          svg.append(placed.y)
          svg.append(")\"")
        }
        svg.append(literal: "/>\n")
      }
      svg += "</g>\n"
      if let label = line.label {
        let size = 11 * unitsPerPixel
        svg +=
          "<text x=\"\(line.box.minX)\" y=\"\(line.box.minY - size / 3)\" font-family=\"sans-serif\" font-size=\"\(size)\" fill=\"\(color)\">\(label)</text>\n"
      }
    }
    if let origin = lines.first?.placed.first?.pen, !options.overlays.isEmpty {
      svg += "<path fill=\"#FF1010\" fill-opacity=\"0.85\" data-overlay=\"collision\" d=\""
      for polygon in options.overlays {
        for (index, point) in polygon.enumerated() {
          svg.append(UInt8(ascii: index == 0 ? "M" : "L"))
          svg.append(origin.x + point.x)
          svg.append(UInt8(ascii: " "))
          svg.append(origin.y - point.y)
        }
        svg.append(UInt8(ascii: "Z"))
      }
      svg += "\"/>\n"
    }
    if options.annotate {
      svg += annotations(
        lines, unitsPerPixel: unitsPerPixel, legendTop: view.maxY + options.margin * unitsPerPixel,
        left: view.minX)
    }
    svg += "</svg>\n"
    svg.flush(to: sink)
  }

  /// The document's start: the XML declaration, the `<svg>` element with the scene's size and
  /// view, and the background.
  func appendStart(_ scene: Scene, options: SVGOptions, to svg: inout SVGText) {
    let (minX, minY, width, height) = (scene.minX, scene.minY, scene.width, scene.height)
    svg += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\""
    svg += " width=\"\(width / scene.unitsPerPixel)\" height=\"\(height / scene.unitsPerPixel)\""
    svg += " viewBox=\"\(minX) \(minY) \(width) \(height)\">\n"
    if let background = options.background {
      svg +=
        "<rect x=\"\(minX)\" y=\"\(minY)\" width=\"\(width)\" height=\"\(height)\"\(fill(background))/>\n"
    }
  }

  /// The `<defs>` element: the color glyphs' definitions, then a path for each outline glyph
  /// (the index of its font in `faces`, and its ID), in the order given.
  func appendDefinitions(
    color: [Placed], outlines: [(face: Int, glyph: UInt32)], to svg: inout SVGText
  ) {
    svg += "<defs>\n"
    for placed in color {
      appendColorDefinition(placed, to: &svg)
    }
    for (face, glyph) in outlines {
      svg.append("<path id=\"")
      svg.append(faces[face].prefix)
      svg.append(glyph)
      svg.append("\" d=\"")
      appendPathData(faces[face].entry(glyph).outline!, face: faces[face], to: &svg)
      svg.append("\"/>\n")
    }
    svg += "</defs>\n"
  }

  private func layOut(
    _ glyphs: [(ShapedGlyph, Int)], originX: Double, originY: Double, vertical: Bool, ascender: Double,
    descender: Double,
    label: String?
  ) -> Line {
    var penX = 0.0
    var penY = 0.0
    var placed: [Placed] = []
    for (glyph, face) in glyphs {
      let before = (originX + penX, originY - penY)
      penX += Double(glyph.xAdvance)
      penY += Double(glyph.yAdvance)
      placed.append(
        Placed(
          glyph: glyph, face: face, x: originX + (before.0 - originX) + Double(glyph.xOffset),
          y: before.1 - Double(glyph.yOffset), pen: before, next: (originX + penX, originY - penY)))
    }
    let box: Box
    let baseline: ((Double, Double), (Double, Double))
    if vertical {
      box = Box(minX: originX - ascender, minY: originY, maxX: originX - descender, maxY: originY - penY)
      baseline = ((originX, originY), (originX, originY - penY))
    } else {
      box = Box(
        minX: min(originX, originX + penX), minY: originY - ascender, maxX: max(originX, originX + penX),
        maxY: originY - descender)
      baseline = ((originX, originY), (originX + penX, originY))
    }
    return Line(
      placed: placed, box: box, baseline: (baseline.0, baseline.1), vertical: vertical, label: label)
  }

  /// A glyph's ink box in the drawing, from its outline.
  private func inkBox(_ placed: Placed) -> Box? {
    let face = faces[placed.face]
    guard let bounds = face.color(placed.glyph.id)?.bounds ?? face.entry(placed.glyph.id).bounds else {
      return nil
    }
    return Box(
      minX: placed.x + bounds.minX * face.scaleX, minY: placed.y + bounds.minY * face.scaleY,
      maxX: placed.x + bounds.maxX * face.scaleX, maxY: placed.y + bounds.maxY * face.scaleY)
  }

  private func advanceBox(_ placed: Placed, line: Line) -> Box {
    if line.vertical {
      return Box(
        minX: line.box.minX, minY: min(placed.pen.y, placed.next.y), maxX: line.box.maxX,
        maxY: max(placed.pen.y, placed.next.y))
    }
    return Box(
      minX: min(placed.pen.x, placed.next.x), minY: line.box.minY, maxX: max(placed.pen.x, placed.next.x),
      maxY: line.box.maxY)
  }

  private func annotations(_ lines: [Line], unitsPerPixel: Double, legendTop: Double, left: Double) -> SVGText
  {
    let stroke = unitsPerPixel
    let colors = (
      baseline: "#2E8B57", origin: "#D2691E", advance: "#1E90FF", ink: "#DC143C", cluster: "#8A2BE2"
    )
    var svg: SVGText = "<g fill=\"none\" stroke-width=\"\(stroke)\" data-annotations=\"\">\n"
    for line in lines {
      svg +=
        "<line x1=\"\(line.baseline.from.x)\" y1=\"\(line.baseline.from.y)\" x2=\"\(line.baseline.to.x)\" y2=\"\(line.baseline.to.y)\" stroke=\"\(colors.baseline)\"/>\n"
      var previousCluster: Int?
      for placed in line.placed {
        let advance = advanceBox(placed, line: line)
        svg +=
          "<rect x=\"\(advance.minX)\" y=\"\(advance.minY)\" width=\"\(advance.maxX - advance.minX)\" height=\"\(advance.maxY - advance.minY)\" stroke=\"\(colors.advance)\"/>\n"
        if let ink = inkBox(placed) {
          svg +=
            "<rect x=\"\(ink.minX)\" y=\"\(ink.minY)\" width=\"\(ink.maxX - ink.minX)\" height=\"\(ink.maxY - ink.minY)\" stroke=\"\(colors.ink)\" stroke-dasharray=\"\(4 * unitsPerPixel)\"/>\n"
        }
        if placed.glyph.cluster != previousCluster {
          if line.vertical {
            svg +=
              "<line x1=\"\(line.box.minX)\" y1=\"\(placed.pen.y)\" x2=\"\(line.box.maxX)\" y2=\"\(placed.pen.y)\" stroke=\"\(colors.cluster)\" stroke-width=\"\(2 * unitsPerPixel)\"/>\n"
          } else {
            svg +=
              "<line x1=\"\(placed.pen.x)\" y1=\"\(line.box.minY)\" x2=\"\(placed.pen.x)\" y2=\"\(line.box.maxY)\" stroke=\"\(colors.cluster)\" stroke-width=\"\(2 * unitsPerPixel)\"/>\n"
          }
          previousCluster = placed.glyph.cluster
        }
        svg +=
          "<circle cx=\"\(placed.x)\" cy=\"\(placed.y)\" r=\"\(3 * unitsPerPixel)\" fill=\"\(colors.origin)\" stroke=\"none\"/>\n"
      }
    }
    svg += "</g>\n"
    // The legend.
    let size = 11 * unitsPerPixel
    var y = legendTop + size
    svg += "<g font-family=\"sans-serif\" font-size=\"\(size)\" data-legend=\"\">\n"
    for (color, text) in [
      (colors.baseline, "baseline"), (colors.origin, "glyph origin"), (colors.advance, "advance box"),
      (colors.ink, "ink box"), (colors.cluster, "cluster boundary"),
    ] {
      svg +=
        "<rect x=\"\(left)\" y=\"\(y - size * 0.8)\" width=\"\(size)\" height=\"\(size * 0.8)\" fill=\"\(color)\"/>"
      svg += "<text x=\"\(left + size * 1.5)\" y=\"\(y)\" fill=\"#333333\">\(text)</text>\n"
      y += size * 1.3
    }
    svg += "</g>\n"
    return svg
  }

  /// The outline as path data (`M0 0L…Z`), in the drawing's units.
  /// `<use xlink:href="#g12" href="#g12" x="…" y="…"` for a placed glyph (the element is left open
  /// for its data attributes). Written piece by piece: this makes most of a long text's SVG.
  private func appendUse(_ placed: Placed, prefix: String, to svg: inout SVGText) {
    svg.append(literal: "<use xlink:href=\"#")
    svg.append(prefix)
    svg.append(placed.glyph.id)
    svg.append(literal: "\" href=\"#")
    svg.append(prefix)
    svg.append(placed.glyph.id)
    svg.append(literal: "\" x=\"")
    svg.append(placed.x)
    svg.append(literal: "\" y=\"")
    svg.append(placed.y)
    svg.append(UInt8(ascii: "\""))
  }

  /// The definition of a color glyph: a group of its layers, each path in its color (foreground
  /// layers take the line's), or its bitmap as an embedded PNG image.
  private func appendColorDefinition(_ placed: Placed, to svg: inout SVGText) {
    let face = faces[placed.face]
    guard let color = face.color(placed.glyph.id) else { return }
    switch color {
    case .layers(let layers, _):
      svg += "<g id=\"\(face.prefix)\(placed.glyph.id)\">"
      for layer in layers {
        svg.append("<path")
        if let fill = layer.color {
          svg +=
            " fill=\"#\(SVGRenderer.hex(fill.red))\(SVGRenderer.hex(fill.green))\(SVGRenderer.hex(fill.blue))\""
          if fill.alpha != 255 { svg += " fill-opacity=\"\(Double(fill.alpha) / 255)\"" }
        }
        svg.append(" d=\"")
        appendPathData(layer.outline, face: face, to: &svg)
        svg.append("\"/>")
      }
      svg += "</g>\n"
    case .bitmap(let bitmap, let bounds):
      var image = RasterImage(width: bitmap.width, height: bitmap.rows)
      image.pixels = bitmap.pixels
      let png = (try? image.pngBytes()) ?? []
      svg +=
        "<image id=\"\(face.prefix)\(placed.glyph.id)\" x=\"\(bounds.minX * face.scaleX)\" y=\"\(bounds.minY * face.scaleY)\" width=\"\((bounds.maxX - bounds.minX) * face.scaleX)\" height=\"\((bounds.maxY - bounds.minY) * face.scaleY)\" preserveAspectRatio=\"none\" xlink:href=\"data:image/png;base64,"
      Base64.encode(png).withUnsafeBufferPointer { svg.append($0) }
      svg.append("\"/>\n")
    case .paint:
      break  // drawn in place, on the pixel grid (see the glyphs' loop)
    case .none: break
    }
  }

  /// Paints a `COLR` version 1 glyph onto an image: `origin` is the glyph's origin in the image's
  /// pixels, `scale` pixels per font unit; `bounds` (font units, y down) limit the region painted.
  /// Returns false, painting nothing, when the graph is too costly to paint (see
  /// `SVGOptions.paintLimit`).
  @discardableResult
  private static func paint(
    _ paint: ColorPaint, bounds: GlyphOutline.Bounds, face: FreeTypeFace, origin: (Double, Double),
    scale: (Double, Double), foreground: RasterImage.RGBA, limit: Int, onto image: inout RasterImage
  ) -> Bool {
    let left = max(0, Int((origin.0 + bounds.minX * scale.0).rounded(.down)))
    let top = max(0, Int((origin.1 + bounds.minY * scale.1).rounded(.down)))
    let right = min(image.width, Int((origin.0 + bounds.maxX * scale.0).rounded(.up)) + 1)
    let bottom = min(image.height, Int((origin.1 + bounds.maxY * scale.1).rounded(.up)) + 1)
    guard left < right, top < bottom else { return true }
    // Each paint makes a layer the size of the region: a graph whose paints times its pixels
    // pass the limit is left out (a damaged or hostile table can nest 10,000 paints over a
    // region thousands of pixels wide).
    guard
      paint.paintCount.multipliedReportingOverflow(by: (right - left) * (bottom - top)).partialValue
        <= limit, paint.paintCount <= limit
    else { return false }
    let painter = ColorPainter(
      face: face,
      foreground: (
        Double(foreground.red) / 255, Double(foreground.green) / 255, Double(foreground.blue) / 255,
        Double(foreground.alpha) / 255
      ), left: left, top: top, width: right - left, height: bottom - top)
    // Font units, y up, to the image's pixels, y down.
    let ctm = ColorPaint.Affine(xx: scale.0, yx: 0, xy: 0, yy: -scale.1, dx: origin.0, dy: origin.1)
    let layer = painter.draw(paint, ctm)
    ColorPainter.put(layer, onto: &image, left: left, top: top, width: right - left, height: bottom - top)
    return true
  }

  private static func hex(_ value: UInt8) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return digits.count == 1 ? "0" + digits : digits
  }

  private func appendPathData(_ outline: GlyphOutline, face: RenderFace, to data: inout SVGText) {
    func point(_ point: GlyphOutline.Point) {
      data.append(point.x * face.scaleX)
      data.append(UInt8(ascii: " "))
      data.append(point.y * face.scaleY)
    }
    for command in outline.commands {
      switch command {
      case .move(let to):
        data.append(UInt8(ascii: "M"))
        point(to)
      case .line(let to):
        data.append(UInt8(ascii: "L"))
        point(to)
      case .quadratic(let control, let to):
        data.append(UInt8(ascii: "Q"))
        point(control)
        data.append(UInt8(ascii: " "))
        point(to)
      case .cubic(let c1, let c2, let to):
        data.append(UInt8(ascii: "C"))
        point(c1)
        data.append(UInt8(ascii: " "))
        point(c2)
        data.append(UInt8(ascii: " "))
        point(to)
      case .close: data.append(UInt8(ascii: "Z"))
      }
    }
  }

  /// ` fill="#rrggbb"`, with `fill-opacity` for `#rrggbbaa`.
  func fill(_ color: String) -> String {
    let hex = color.hasPrefix("#") ? String(color.dropFirst()) : color
    if hex.count == 8, let alpha = Int(hex.suffix(2), radix: 16) {
      let opacity: SVGText = "\(Double(alpha) / 255)"
      return " fill=\"#\(hex.prefix(6))\" fill-opacity=\"\(String(decoding: opacity.bytes, as: UTF8.self))\""
    }
    return " fill=\"#\(hex)\""
  }

}

@available(*, unavailable, message: "an SVGRenderer holds a FreeType face, which is not thread-safe")
extension SVGRenderer: Sendable {}

/// SVG text as UTF-8 bytes, written with string literals or appended piece by piece: `Double`s
/// are coordinates, with at most two decimals and no trailing zeros (deterministic text),
/// formatted straight into the bytes.
struct SVGText: ExpressibleByStringInterpolation {
  /// The UTF-8, written into one buffer piece by piece.
  private var buffer = ByteBuffer()

  init() {}

  init(stringLiteral value: String) { append(value) }

  init(stringInterpolation: Interpolation) { self = stringInterpolation.text }

  /// A copy of the text's bytes.
  var bytes: [UInt8] { buffer.bytes }

  /// The text's bytes, without a copy.
  consuming func finish() -> [UInt8] { buffer.finish() }

  /// How many bytes are written.
  var count: Int { buffer.count }

  /// Hands the bytes written to `sink` and empties the text.
  mutating func flush(to sink: (UnsafeBufferPointer<UInt8>) -> Void) {
    buffer.withBytes { sink($0) }
    buffer.removeAll()
  }

  /// Makes room for `capacity` bytes in all.
  mutating func reserveCapacity(_ capacity: Int) { buffer.reserveCapacity(capacity) }

  static func += (text: inout SVGText, more: SVGText) { text.buffer.append(more.buffer) }

  mutating func append(_ byte: UInt8) { buffer.append(byte) }

  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) { buffer.append(bytes) }

  mutating func append(_ text: String) { buffer.append(text) }

  mutating func append(literal: StaticString) { buffer.append(literal: literal) }

  /// Text for an attribute value or an element's content, with `&`, `<`, `>` and `"` escaped.
  mutating func appendEscaped(_ text: String) {
    var text = text
    text.withUTF8 { utf8 in
      let special: (UInt8) -> Bool = { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 }
      guard utf8.contains(where: special) else { return append(utf8) }
      for byte in utf8 {
        switch byte {
        case UInt8(ascii: "&"): append("&amp;")
        case UInt8(ascii: "<"): append("&lt;")
        case UInt8(ascii: ">"): append("&gt;")
        case UInt8(ascii: "\""): append("&quot;")
        default: append(byte)
        }
      }
    }
  }

  mutating func append(_ value: Int) { buffer.append(value) }

  mutating func append(_ value: UInt32) { buffer.appendDigits(UInt(value)) }

  /// A coordinate, rounded to hundredths.
  mutating func append(_ value: Double) {
    buffer.write(upTo: ByteBuffer.Cursor.longestCoordinate) { $0.coordinate(value) }
  }

  /// Writes at most `length` bytes through a cursor, with one capacity check (see
  /// `ByteBuffer.write(upTo:through:)`).
  @inline(__always)
  mutating func write(upTo length: Int, through body: (inout ByteBuffer.Cursor) -> Void) {
    buffer.write(upTo: length, through: body)
  }

  struct Interpolation: StringInterpolationProtocol {
    var text = SVGText()

    init(literalCapacity: Int, interpolationCount: Int) {
      text.reserveCapacity(literalCapacity + 8 * interpolationCount)
    }

    mutating func appendLiteral(_ literal: String) { text.append(literal) }
    mutating func appendInterpolation(_ value: String) { text.append(value) }
    mutating func appendInterpolation(_ value: SVGText) { text += value }
    mutating func appendInterpolation(_ value: Int) { text.append(value) }
    mutating func appendInterpolation(_ value: UInt32) { text.append(value) }
    mutating func appendInterpolation(_ value: Double) { text.append(value) }
  }
}

/// Checks a color option: `#rrggbb`, `rrggbb`, `#rrggbbaa` or `rrggbbaa`; returns it with `#`.
public func parseColor(_ text: String) -> String? {
  let hex = text.hasPrefix("#") ? String(text.dropFirst()) : text
  guard [6, 8].contains(hex.count), hex.allSatisfy(\.isHexDigit) else { return nil }
  return "#" + hex.uppercased()
}

extension ByteBuffer.Cursor {
  /// The most bytes `coordinate(_:)` writes: a sign, 16 digits, a point and two decimals.
  static let longestCoordinate = 20

  /// A coordinate, rounded to hundredths, with no trailing zeros (`12`, `-3.5`, `0.25`).
  @inline(__always)
  mutating func coordinate(_ value: Double) {
    // Speed: a whole number (most coordinates in font units) skips the rounding, a call into the
    // C library: 7 million instructions of the English text's 455 million. It is written as the
    // rounding below would write it.
    if let whole = Int64(exactly: value), whole > -1_000_000_000_000, whole < 1_000_000_000_000 {
      if whole < 0 { byte(UInt8(ascii: "-")) }
      digits(UInt(whole.magnitude))
      return
    }
    // Beyond ±10^15 (no font draws there) the hundredths would not fit an integer.
    let hundredths = (min(max(value, -1e15), 1e15) * 100).rounded()
    guard hundredths != 0, !hundredths.isNaN else {
      byte(UInt8(ascii: "0"))
      return
    }
    if hundredths < 0 { byte(UInt8(ascii: "-")) }
    let magnitude = UInt(hundredths.magnitude)
    digits(magnitude / 100)
    let fraction = magnitude % 100
    if fraction != 0 {
      byte(UInt8(ascii: "."))
      byte(UInt8(ascii: "0") + UInt8(fraction / 10))
      if fraction % 10 != 0 { byte(UInt8(ascii: "0") + UInt8(fraction % 10)) }
    }
  }
}
