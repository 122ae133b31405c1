// The picture as pixels (`image`): the scene drawn by FreeType's rasterizer into a RasterImage,
// for PNG and the terminal.

import HarfBuzz
import SwiftShape

extension SVGRenderer {
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
}
