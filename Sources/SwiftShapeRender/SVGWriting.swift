// The scene written as SVG: the document's start, glyph definitions, each placed glyph's `<use>`
// or color picture, streamed in pieces.

import HarfBuzz
import SwiftShape

extension SVGRenderer {
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
    if options.textLayer, !scene.title.isEmpty { svg.appendTitle(scene.title) }
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
      if options.textLayer, let units = line.units {
        svg.appendTextLayer(
          line.text, styles: line.styles, base: line.base, units: units,
          baseline: line.vertical ? line.baseline.from.x : line.baseline.from.y,
          fontSize: options.pixelsPerEm * unitsPerPixel, vertical: line.vertical)
      }
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

  /// `<use xlink:href="#g12" href="#g12" x="…" y="…"` for a placed glyph (the element is left open
  /// for its data attributes). Written piece by piece: this makes most of a long text's SVG.
  func appendUse(_ placed: Placed, prefix: String, to svg: inout SVGText) {
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
  func appendColorDefinition(_ placed: Placed, to svg: inout SVGText) {
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
  static func paint(
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

  static func hex(_ value: UInt8) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return digits.count == 1 ? "0" + digits : digits
  }

  func appendPathData(_ outline: GlyphOutline, face: RenderFace, to data: inout SVGText) {
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
