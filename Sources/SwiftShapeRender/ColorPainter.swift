#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Paints `COLR` version 1 graphs into pixels, over a region of an image.
///
/// Each paint makes a layer of premultiplied RGBA (floats, 0…1) the size of the region: a glyph
/// is its outline's coverage (FreeType's rasterizer, through the current transform) times its
/// paint; solid colors and gradients fill the region (a gradient's color at each pixel's center,
/// taken back through the transform into the paint's space); transforms compose; composites
/// combine two layers by their mode. Porter–Duff modes and the separable blend modes are exact;
/// the four HSL modes (hue, saturation, color, luminosity) are drawn as source-over.
struct ColorPainter {
  typealias Affine = ColorPaint.Affine

  let face: FreeTypeFace
  /// The foreground color, for palette index 0xFFFF, straight, 0…1.
  let foreground: (Double, Double, Double, Double)
  let left: Int
  let top: Int
  let width: Int
  let height: Int

  /// The layer of a paint, `ctm` taking its space (font units, y up) to the image's pixels.
  func draw(_ paint: ColorPaint, _ ctm: Affine) -> [Float] {
    switch paint {
    case .layers(let layers):
      var out = [Float](repeating: 0, count: width * height * 4)
      for layer in layers { ColorPainter.composite(draw(layer, ctm), onto: &out, mode: 3) }
      return out
    case .glyph(let glyph, let child):
      var out = draw(child, ctm)
      let mask = face.coverage(
        of: glyph,
        transform: (ctm.xx, ctm.yx, ctm.xy, ctm.yy, ctm.dx, ctm.dy))
      for row in 0..<height {
        for column in 0..<width {
          var coverage: Float = 0
          if let mask {
            let x = left + column - mask.left
            let y = top + row - mask.top
            if x >= 0, y >= 0, x < mask.width, y < mask.rows {
              coverage = Float(mask.pixels[y * mask.width + x]) / 255
            }
          }
          let index = (row * width + column) * 4
          for channel in 0..<4 { out[index + channel] *= coverage }
        }
      }
      return out
    case .solid(let color, let alpha):
      let rgba = premultiplied(color, alpha: alpha)
      var out = [Float](repeating: 0, count: width * height * 4)
      for index in stride(from: 0, to: out.count, by: 4) {
        (out[index], out[index + 1], out[index + 2], out[index + 3]) = rgba
      }
      return out
    case .linear(let p0, let p1, let p2, let line):
      // p0→p3, where p3 is p1 projected onto the line through p0 at right angles to p0→p2.
      let (nx, ny) = (-(p2.y - p0.y), p2.x - p0.x)
      let normal = nx * nx + ny * ny
      let (dx, dy) = (p1.x - p0.x, p1.y - p0.y)
      let (vx, vy) =
        normal == 0 ? (dx, dy) : (nx * (dx * nx + dy * ny) / normal, ny * (dx * nx + dy * ny) / normal)
      let length = vx * vx + vy * vy
      return shade(ctm, line) { x, y in
        length == 0 ? nil : ((x - p0.x) * vx + (y - p0.y) * vy) / length
      }
    case .radial(let c0, let r0, let c1, let r1, let line):
      let (cdx, cdy, dr) = (c1.x - c0.x, c1.y - c0.y, r1 - r0)
      let a = cdx * cdx + cdy * cdy - dr * dr
      return shade(ctm, line) { x, y in
        // The largest t with |p − c(t)| = r(t) ≥ 0, c(t) = c0 + t·(c1 − c0), r(t) = r0 + t·(r1 − r0).
        let (px, py) = (x - c0.x, y - c0.y)
        let b = px * cdx + py * cdy + r0 * dr
        let c = px * px + py * py - r0 * r0
        if abs(a) < 1e-9 {
          guard b != 0 else { return nil }
          let t = c / (2 * b)
          return r0 + t * dr >= 0 ? t : nil
        }
        let discriminant = b * b - a * c
        guard discriminant >= 0 else { return nil }
        let root = discriminant.squareRoot()
        for t in [(b + root) / a, (b - root) / a].sorted(by: >) where r0 + t * dr >= 0 { return t }
        return nil
      }
    case .sweep(let center, let start, let end, let line):
      return shade(ctm, line) { x, y in
        var angle = atan2(y - center.y, x - center.x) * 180 / Double.pi
        if angle < 0 { angle += 360 }
        return end == start ? nil : (angle - start) / (end - start)
      }
    case .transform(let affine, let child):
      return draw(child, ctm.concatenating(affine))
    case .composite(let mode, let source, let backdrop):
      var out = draw(backdrop, ctm)
      ColorPainter.composite(draw(source, ctm), onto: &out, mode: mode)
      return out
    }
  }

  private func premultiplied(_ color: RasterImage.RGBA?, alpha: Double) -> (Float, Float, Float, Float) {
    let (r, g, b, a) =
      color.map {
        (Double($0.red) / 255, Double($0.green) / 255, Double($0.blue) / 255, Double($0.alpha) / 255)
      }
      ?? foreground
    let total = a * alpha
    return (Float(r * total), Float(g * total), Float(b * total), Float(total))
  }

  /// A gradient layer: `parameter` gives the color line's t at a point of the paint's space (nil
  /// where the gradient is not drawn).
  private func shade(_ ctm: Affine, _ line: ColorPaint.ColorLine, _ parameter: (Double, Double) -> Double?)
    -> [Float]
  {
    var out = [Float](repeating: 0, count: width * height * 4)
    guard let inverse = ctm.inverse, let first = line.stops.first, let last = line.stops.last else {
      return out
    }
    let stops = line.stops.map { (offset: $0.offset, color: premultiplied($0.color, alpha: $0.alpha)) }
    let span = last.offset - first.offset
    for row in 0..<height {
      for column in 0..<width {
        let (x, y) = inverse.apply(Double(left + column) + 0.5, Double(top + row) + 0.5)
        guard var t = parameter(x, y), t.isFinite else { continue }
        // Extend past the stops: pad, repeat or reflect over [first, last].
        if span > 0 {
          var u = (t - first.offset) / span
          switch line.extend {
          case 1: u -= u.rounded(.down)
          case 2:
            u = u.truncatingRemainder(dividingBy: 2)
            if u < 0 { u += 2 }
            if u > 1 { u = 2 - u }
          default: u = min(1, max(0, u))
          }
          t = first.offset + u * span
        }
        let color: (Float, Float, Float, Float)
        if t <= first.offset {
          color = stops[0].color
        } else if t >= last.offset {
          color = stops[stops.count - 1].color
        } else {
          // The first stop at or past t, by halves (the stops are in offset order; a line has up
          // to 1,024).
          var low = 0
          var high = stops.count - 1
          while low < high {
            let middle = (low + high) / 2
            if stops[middle].offset >= t { high = middle } else { low = middle + 1 }
          }
          let next = max(1, low)
          let (a, b) = (stops[next - 1], stops[next])
          let f = Float(b.offset == a.offset ? 0 : (t - a.offset) / (b.offset - a.offset))
          color = (
            a.color.0 + (b.color.0 - a.color.0) * f, a.color.1 + (b.color.1 - a.color.1) * f,
            a.color.2 + (b.color.2 - a.color.2) * f, a.color.3 + (b.color.3 - a.color.3) * f
          )
        }
        let index = (row * width + column) * 4
        (out[index], out[index + 1], out[index + 2], out[index + 3]) = color
      }
    }
    return out
  }

  /// Composites `source` onto `destination` (both premultiplied) by a `COLR` composite mode.
  static func composite(_ source: [Float], onto destination: inout [Float], mode: Int) {
    for index in stride(from: 0, to: destination.count, by: 4) {
      let sa = source[index + 3]
      let da = destination[index + 3]
      // Porter–Duff: result = source·fa + destination·fb.
      var porterDuff: (Float, Float)?
      switch mode {
      case 0: porterDuff = (0, 0)  // clear
      case 1: porterDuff = (1, 0)  // source
      case 2: porterDuff = (0, 1)  // destination
      case 3: porterDuff = (1, 1 - sa)  // source over
      case 4: porterDuff = (1 - da, 1)  // destination over
      case 5: porterDuff = (da, 0)  // source in
      case 6: porterDuff = (0, sa)  // destination in
      case 7: porterDuff = (1 - da, 0)  // source out
      case 8: porterDuff = (0, 1 - sa)  // destination out
      case 9: porterDuff = (da, 1 - sa)  // source atop
      case 10: porterDuff = (1 - da, sa)  // destination atop
      case 11: porterDuff = (1 - da, 1 - sa)  // xor
      case 12: porterDuff = (1, 1)  // plus
      case 13...23: porterDuff = nil
      default: porterDuff = (1, 1 - sa)  // the HSL modes: source over
      }
      if let (fa, fb) = porterDuff {
        for channel in 0..<4 {
          destination[index + channel] = min(
            1, source[index + channel] * fa + destination[index + channel] * fb)
        }
        continue
      }
      // Separable blend modes, on straight colors: B(cb, cs), then
      // result = (1 − da)·s + (1 − sa)·d + sa·da·B.
      for channel in 0..<3 {
        let s = source[index + channel]
        let d = destination[index + channel]
        let cs = sa > 0 ? s / sa : 0
        let cb = da > 0 ? d / da : 0
        let blended: Float
        switch mode {
        case 13: blended = cb + cs - cb * cs  // screen
        case 14: blended = hardLight(cs, cb)  // overlay: hard light with the layers swapped
        case 15: blended = min(cb, cs)  // darken
        case 16: blended = max(cb, cs)  // lighten
        case 17: blended = cb == 0 ? 0 : (cs >= 1 ? 1 : min(1, cb / (1 - cs)))  // color dodge
        case 18: blended = cb >= 1 ? 1 : (cs <= 0 ? 0 : 1 - min(1, (1 - cb) / cs))  // color burn
        case 19: blended = hardLight(cb, cs)  // hard light
        case 20: blended = softLight(cb, cs)  // soft light
        case 21: blended = abs(cb - cs)  // difference
        case 22: blended = cb + cs - 2 * cb * cs  // exclusion
        default: blended = cb * cs  // multiply
        }
        destination[index + channel] = (1 - da) * s + (1 - sa) * d + sa * da * blended
      }
      destination[index + 3] = sa + da - sa * da
    }
  }

  private static func hardLight(_ cb: Float, _ cs: Float) -> Float {
    cs <= 0.5 ? cb * 2 * cs : 1 - (1 - cb) * (1 - (2 * cs - 1))
  }

  private static func softLight(_ cb: Float, _ cs: Float) -> Float {
    if cs <= 0.5 { return cb - (1 - 2 * cs) * cb * (1 - cb) }
    let d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : cb.squareRoot()
    return cb + (2 * cs - 1) * (d - cb)
  }

  /// The layer over the image (straight alpha, 8 bits), source over.
  static func put(
    _ layer: [Float], onto image: inout RasterImage, left: Int, top: Int, width: Int, height: Int
  ) {
    let imageWidth = image.width
    image.pixels.withUnsafeMutableBufferPointer { out in
      for row in 0..<height {
        for column in 0..<width {
          let index = (row * width + column) * 4
          let alpha = layer[index + 3]
          guard alpha > 0 else { continue }
          func straight(_ value: Float) -> Int { Int(min(255, max(0, value / alpha * 255 + 0.5))) }
          RasterImage.blend(
            into: out, at: ((top + row) * imageWidth + left + column) * 4, red: straight(layer[index]),
            green: straight(layer[index + 1]), blue: straight(layer[index + 2]),
            alpha: Int(min(255, alpha * 255 + 0.5)))
        }
      }
    }
  }
}

extension ColorPaint {
  /// The box the paint's glyphs cover, in font units, y up, through `transform`; nil when it
  /// draws no glyph.
  func bounds(
    _ transform: Affine = .identity, outline: (UInt32) -> GlyphOutline.Bounds?
  ) -> GlyphOutline.Bounds? {
    func union(_ a: GlyphOutline.Bounds?, _ b: GlyphOutline.Bounds?) -> GlyphOutline.Bounds? {
      guard let a else { return b }
      guard let b else { return a }
      return (min(a.minX, b.minX), min(a.minY, b.minY), max(a.maxX, b.maxX), max(a.maxY, b.maxY))
    }
    switch self {
    case .layers(let layers): return layers.reduce(nil) { union($0, $1.bounds(transform, outline: outline)) }
    case .glyph(let glyph, _):
      // Outline bounds are y down; the paint's space is y up.
      guard let box = outline(glyph) else { return nil }
      var result: GlyphOutline.Bounds?
      for (x, y) in [
        (box.minX, -box.minY), (box.maxX, -box.minY), (box.minX, -box.maxY), (box.maxX, -box.maxY),
      ] {
        let (tx, ty) = transform.apply(x, y)
        result = union(result, (tx, ty, tx, ty))
      }
      return result
    case .transform(let affine, let child):
      return child.bounds(transform.concatenating(affine), outline: outline)
    case .composite(_, let source, let backdrop):
      return union(source.bounds(transform, outline: outline), backdrop.bounds(transform, outline: outline))
    case .solid, .linear, .radial, .sweep: return nil
    }
  }
}
