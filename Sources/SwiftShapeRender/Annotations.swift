// `--annotate`: ink and advance boxes, baselines and the legend drawn over the glyphs.

import HarfBuzz
import SwiftShape

extension SVGRenderer {
  /// A glyph's ink box in the drawing, from its outline.
  func inkBox(_ placed: Placed) -> Box? {
    let face = faces[placed.face]
    guard let bounds = face.color(placed.glyph.id)?.bounds ?? face.entry(placed.glyph.id).bounds else {
      return nil
    }
    return Box(
      minX: placed.x + bounds.minX * face.scaleX, minY: placed.y + bounds.minY * face.scaleY,
      maxX: placed.x + bounds.maxX * face.scaleX, maxY: placed.y + bounds.maxY * face.scaleY)
  }

  func advanceBox(_ placed: Placed, line: Line) -> Box {
    if line.vertical {
      return Box(
        minX: line.box.minX, minY: min(placed.pen.y, placed.next.y), maxX: line.box.maxX,
        maxY: max(placed.pen.y, placed.next.y))
    }
    return Box(
      minX: min(placed.pen.x, placed.next.x), minY: line.box.minY, maxX: max(placed.pen.x, placed.next.x),
      maxY: line.box.maxY)
  }

  func annotations(_ lines: [Line], unitsPerPixel: Double, legendTop: Double, left: Double) -> SVGText {
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
}
