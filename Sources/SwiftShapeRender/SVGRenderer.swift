import HarfBuzz
import SwiftShape
import SwiftShapeDefaultFont

/// Draws shaping results as SVG with the font's outlines (read through FreeType).
///
/// The output is deterministic: coordinates with at most two decimals, glyph definitions named by
/// glyph ID in the order they first appear, so SVGs can be golden files.
public final class SVGRenderer {
  let font: ShapingFont
  /// The options the results were shaped with, as far as they tell the fonts of spans (the
  /// cluster unit): set them to draw spans (`ShapeResult.spans`) in their own fonts and sizes.
  public var spanOptions = ShapeOptions()
  /// The fonts drawn with: `font` first, then the fallback fonts of paragraph runs as they are met.
  private(set) var faces: [RenderFace]

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
  static func outlines(of font: ShapingFont) throws -> FreeTypeFace {
    if font.identity.file == ShapingFont.defaultFontName {
      return try FreeTypeFace(
        staticBytes: UnsafeRawBufferPointer(
          start: swiftshape_default_font_data(), count: swiftshape_default_font_size()),
        variations: font.options.variations)
    }
    return try FreeTypeFace(
      file: font.identity.file, faceIndex: font.identity.faceIndex, variations: font.options.variations)
  }

  /// The face a run is drawn with: the renderer's font, or for a run of a fallback font or of a
  /// span's font (as `spanFont` finds it), that font (opened on first use); the renderer's font
  /// when it cannot be opened.
  func face(of run: ShapedRun, spanFont: (ShapedRun) -> ShapingFont?) -> Int {
    if run.span != nil, let spanFont = spanFont(run) {
      if spanFont === font { return 0 }
      if let known = faces.firstIndex(where: { $0.font === spanFont }) { return known }
      guard let outlines = try? SVGRenderer.outlines(of: spanFont) else { return 0 }
      let face = RenderFace(font: spanFont, outlines: outlines, prefix: "f\(faces.count)g")
      face.colorSettings = faces[0].colorSettings
      faces.append(face)
      return faces.count - 1
    }
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

  func outline(_ placed: Placed) -> GlyphOutline? {
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
    /// Its clusters for the text layer (`SVGOptions.textLayer`), in its text.
    var text: [TextLayer.Cluster] = []
    var units: TextUnits?
    /// The styles its clusters refer to, and the line's own.
    var styles: [TextLayer.Style] = []
    var base = TextLayer.Style(rightToLeft: false, language: nil)
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
    /// The text drawn, lines of input separated by newlines (the document's title).
    var title = ""
    var view: Box
    var unitsPerPixel: Double
    var minX, minY, width, height: Double

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

  func scene(_ results: [ShapeResult], expected: [ShapedGlyph]?, options: SVGOptions) -> Scene {
    var results = results
    return scene(releasing: &results, expected: expected, options: options)
  }

  /// The scene of `results`, each result emptied once its lines are laid out (so that a long
  /// text's glyphs are not held twice).
  func scene(releasing results: inout [ShapeResult], expected: [ShapedGlyph]?, options: SVGOptions)
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
    var titles: [String] = []
    for index in results.indices {
      let result = results[index]
      results[index] = ShapeResult()
      let units = options.textLayer ? TextUnits(result.text, unit: result.clusterUnit) : nil
      if options.textLayer { titles.append(result.text) }
      let resultLines =
        result.lines.map { $0.map { ($0.runs, Double($0.x), $0.range) } }
        ?? [(result.runs, 0, 0..<(units?.count ?? 0))]
      let spanFont = font.spanFonts(of: result, options: spanOptions)
      for (runs, x, range) in resultLines {
        let glyphs = runs.flatMap { run in
          let face = face(of: run, spanFont: spanFont)
          return run.glyphs.map { ($0, face) }
        }
        add(glyphs, label: expected == nil ? nil : "actual", x: x)
        if let units {
          let (styles, glyphStyles) = TextLayer.styles(of: runs)
          let placed = lines[lines.count - 1].placed
          let vertical = lines[lines.count - 1].vertical
          lines[lines.count - 1].text = TextLayer.clusters(
            placed.indices.map {
              let (pen, next) =
                vertical ? (placed[$0].pen.y, placed[$0].next.y) : (placed[$0].pen.x, placed[$0].next.x)
              return (placed[$0].glyph.cluster, pen, next, glyphStyles[$0])
            },
            start: range.lowerBound, end: range.upperBound, units: units)
          lines[lines.count - 1].units = units
          lines[lines.count - 1].styles = styles
          lines[lines.count - 1].base = TextLayer.base(of: result, runs: runs, styles: styles)
        }
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
    var scene = Scene(lines: lines, view: view, unitsPerPixel: unitsPerPixel, options: options)
    scene.title = titles.joined(separator: "\n")
    return scene
  }

  func layOut(
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
}

@available(*, unavailable, message: "an SVGRenderer holds a FreeType face, which is not thread-safe")
extension SVGRenderer: Sendable {}
