import SwiftShape

extension ColorPaint {
  /// The paint graph HarfBuzz's paint API reports for a glyph (HarfBuzz 7.0.0 and later), as the
  /// values `ColorTableReader` makes from the table: the pushes and pops become nodes, a group
  /// popped with a composite mode becomes `.composite` of it onto the group under it, and clip
  /// rectangles (the table's clip boxes) are passed through, as the reader passes them. Nil for
  /// events that do not nest, or a graph past `limit` nodes.
  init?(events: [PaintEvent], limit: Int = 10_000) {
    enum Frame {
      case root, transform(Affine), clipGlyph(UInt32), clipRectangle, group
    }
    var stack: [(frame: Frame, children: [ColorPaint])] = [(.root, [])]
    var nodes = 0
    func wrapped(_ children: [ColorPaint]) -> ColorPaint {
      children.count == 1 ? children[0] : .layers(children)
    }
    func add(_ paint: ColorPaint) {
      nodes += 1
      stack[stack.count - 1].children.append(paint)
    }
    func color(_ color: PaintColor) -> (RasterImage.RGBA?, Double) {
      (
        color.isForeground ? nil : RasterImage.RGBA(red: color.red, green: color.green, blue: color.blue),
        Double(color.alpha) / 255
      )
    }
    func line(_ line: PaintColorLine) -> ColorLine {
      ColorLine(
        extend: (0...2).contains(line.extend) ? line.extend : 0,
        stops: line.stops.map { stop in
          let (rgba, alpha) = color(stop.color)
          return (Double(stop.offset), rgba, alpha)
        }.sorted { $0.offset < $1.offset })
    }
    for event in events {
      guard nodes <= limit else { return nil }
      switch event {
      case .pushTransform(let xx, let yx, let xy, let yy, let dx, let dy):
        stack.append((.transform(Affine(xx: xx, yx: yx, xy: xy, yy: yy, dx: dx, dy: dy)), []))
      case .pushClipGlyph(let glyph): stack.append((.clipGlyph(glyph), []))
      case .pushClipRectangle: stack.append((.clipRectangle, []))
      case .pushGroup: stack.append((.group, []))
      case .popTransform:
        guard stack.count > 1, case .transform(let affine) = stack.last!.frame else { return nil }
        let children = stack.removeLast().children
        if children.isEmpty { continue }
        if affine == .identity {
          for child in children { add(child) }
        } else {
          add(.transform(affine, wrapped(children)))
        }
      case .popClip:
        guard stack.count > 1 else { return nil }
        let (frame, children) = stack.removeLast()
        switch frame {
        case .clipGlyph(let glyph): if !children.isEmpty { add(.glyph(glyph, wrapped(children))) }
        case .clipRectangle: for child in children { add(child) }
        default: return nil
        }
      case .popGroup(let mode):
        guard stack.count > 1, case .group = stack.last!.frame else { return nil }
        let children = stack.removeLast().children
        if mode == 3 {
          // Source over: the group painted as it is.
          for child in children { add(child) }
        } else {
          // The group is the source; what is painted under it so far is the backdrop.
          let backdrop = stack[stack.count - 1].children
          stack[stack.count - 1].children = []
          add(.composite(mode: mode, source: wrapped(children), backdrop: wrapped(backdrop)))
        }
      case .color(let paint):
        let (rgba, alpha) = color(paint)
        add(.solid(rgba, alpha: alpha))
      case .linear(let x0, let y0, let x1, let y1, let x2, let y2, let colors):
        add(
          .linear(
            p0: .init(x: x0, y: y0), p1: .init(x: x1, y: y1), p2: .init(x: x2, y: y2), line: line(colors)))
      case .radial(let x0, let y0, let r0, let x1, let y1, let r1, let colors):
        add(.radial(c0: .init(x: x0, y: y0), r0: r0, c1: .init(x: x1, y: y1), r1: r1, line: line(colors)))
      case .sweep(let cx, let cy, let start, let end, let colors):
        add(
          .sweep(
            center: .init(x: cx, y: cy), start: start * 180 / Double.pi, end: end * 180 / Double.pi,
            line: line(colors)))
      }
    }
    guard stack.count == 1, !stack[0].children.isEmpty else { return nil }
    self = wrapped(stack[0].children)
  }
}
