#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A `COLR` version 1 glyph: a graph of paints, read from FreeType into values. Coordinates are
/// font units, y up.
public indirect enum ColorPaint: Sendable, Hashable {
  /// Paints one over another, bottom first.
  case layers([ColorPaint])
  /// A glyph's outline filled with a paint.
  case glyph(UInt32, ColorPaint)
  /// A palette color (nil: the foreground color) times an alpha.
  case solid(RasterImage.RGBA?, alpha: Double)
  /// From `p0` toward `p1`, turned so that its lines of equal color run parallel to p0→p2.
  case linear(p0: Point, p1: Point, p2: Point, line: ColorLine)
  /// Between circle (`c0`, `r0`) and circle (`c1`, `r1`).
  case radial(c0: Point, r0: Double, c1: Point, r1: Double, line: ColorLine)
  /// Around `center`, counter-clockwise from `start` to `end` degrees (0 is the positive x axis).
  case sweep(center: Point, start: Double, end: Double, line: ColorLine)
  /// A paint through an affine transform.
  case transform(Affine, ColorPaint)
  /// `source` composited onto `backdrop` by a mode (FreeType's `FT_Composite_Mode`).
  case composite(mode: Int, source: ColorPaint, backdrop: ColorPaint)

  /// A point in font units, y up.
  public struct Point: Sendable, Hashable {
    /// Font units rightward.
    public var x: Double
    /// Font units upward.
    public var y: Double
  }

  /// x' = xx·x + xy·y + dx, y' = yx·x + yy·y + dy.
  public struct Affine: Sendable, Hashable {
    /// x's share of x'.
    public var xx: Double
    /// x's share of y'.
    public var yx: Double
    /// y's share of x'.
    public var xy: Double
    /// y's share of y'.
    public var yy: Double
    /// The horizontal translation.
    public var dx: Double
    /// The vertical translation.
    public var dy: Double

    static let identity = Affine(xx: 1, yx: 0, xy: 0, yy: 1, dx: 0, dy: 0)

    /// This transform after `other` (other is applied first).
    func concatenating(_ other: Affine) -> Affine {
      Affine(
        xx: xx * other.xx + xy * other.yx, yx: yx * other.xx + yy * other.yx,
        xy: xx * other.xy + xy * other.yy, yy: yx * other.xy + yy * other.yy,
        dx: xx * other.dx + xy * other.dy + dx, dy: yx * other.dx + yy * other.dy + dy)
    }

    func apply(_ x: Double, _ y: Double) -> (Double, Double) {
      (xx * x + xy * y + dx, yx * x + yy * y + dy)
    }

    var inverse: Affine? {
      let determinant = xx * yy - xy * yx
      guard determinant != 0, determinant.isFinite else { return nil }
      let a = yy / determinant
      let b = -yx / determinant
      let c = -xy / determinant
      let d = xx / determinant
      return Affine(xx: a, yx: b, xy: c, yy: d, dx: -(a * dx + c * dy), dy: -(b * dx + d * dy))
    }
  }

  /// Color stops and how the gradient extends past them (0 pad, 1 repeat, 2 reflect).
  public struct ColorLine: Sendable, Hashable {
    /// 0 pad, 1 repeat, 2 reflect.
    public var extend: Int
    /// The stops in offset order: a palette color (nil: the foreground) times an alpha.
    public var stops: [(offset: Double, color: RasterImage.RGBA?, alpha: Double)]

    /// Equal extends and equal stops.
    public static func == (a: ColorLine, b: ColorLine) -> Bool {
      a.extend == b.extend && a.stops.count == b.stops.count
        && zip(a.stops, b.stops).allSatisfy {
          $0.offset == $1.offset && $0.color == $1.color && $0.alpha == $1.alpha
        }
    }

    /// Hashes the extend and the stops.
    public func hash(into hasher: inout Hasher) {
      hasher.combine(extend)
      for stop in stops {
        hasher.combine(stop.offset)
        hasher.combine(stop.color)
        hasher.combine(stop.alpha)
      }
    }
  }
}

/// Reads `COLR` version 1 paint graphs from the table's bytes.
///
/// FreeType has an API for these (`FT_Get_Color_Glyph_Paint` and friends), but Debian 12's
/// FreeType 2.12.1 turns it off ("Disable the experimental and incomplete COLRv1 API", package
/// 2.12.1+dfsg-5+deb12u3: every call answers that no glyph has a paint graph), and HarfBuzz's
/// paint API came with version 7. So the table is read here, as the OpenType specification lays
/// it out: the `BaseGlyphList` (sorted by glyph ID), the `LayerList`, and paint formats 1 to 32
/// (the variable formats read as their default instance). Every offset is checked against the
/// table's end; graphs are read to a depth of 64 and 10,000 paints, so a table that loops ends.
struct ColorTableReader {
  let bytes: [UInt8]
  let colors: [RasterImage.RGBA]
  private let baseGlyphList: Int
  private let layerList: Int

  /// Nil when the table is not version 1 or has no paint graphs.
  init?(table: [UInt8], colors: [RasterImage.RGBA]) {
    bytes = table
    self.colors = colors
    func u16(_ at: Int) -> Int? { at + 2 <= table.count ? Int(table[at]) << 8 | Int(table[at + 1]) : nil }
    func u32(_ at: Int) -> Int? {
      guard let high = u16(at), let low = u16(at + 2) else { return nil }
      return high << 16 | low
    }
    guard u16(0) == 1, let base = u32(14), base > 0, base < table.count else { return nil }
    baseGlyphList = base
    layerList = u32(18) ?? 0
  }

  private func u8(_ at: Int) -> Int? { at >= 0 && at < bytes.count ? Int(bytes[at]) : nil }
  private func u16(_ at: Int) -> Int? {
    at >= 0 && at + 2 <= bytes.count ? Int(bytes[at]) << 8 | Int(bytes[at + 1]) : nil
  }
  private func i16(_ at: Int) -> Double? { u16(at).map { Double(Int16(bitPattern: UInt16($0))) } }
  private func u24(_ at: Int) -> Int? {
    guard let high = u8(at), let low = u16(at + 1) else { return nil }
    return high << 16 | low
  }
  private func u32(_ at: Int) -> Int? {
    guard let high = u16(at), let low = u16(at + 2) else { return nil }
    return high << 16 | low
  }
  private func f2dot14(_ at: Int) -> Double? { i16(at).map { $0 / 16384 } }
  private func fixed(_ at: Int) -> Double? { u32(at).map { Double(Int32(bitPattern: UInt32($0))) / 65536 } }

  /// The paint graph of a glyph, or nil.
  func paint(of glyph: UInt32) -> ColorPaint? {
    var budget = 10_000
    return paint(ofBase: glyph, depth: 0, budget: &budget)
  }

  private func paint(ofBase glyph: UInt32, depth: Int, budget: inout Int) -> ColorPaint? {
    guard let count = u32(baseGlyphList), count > 0 else { return nil }
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      let record = baseGlyphList + 4 + middle * 6
      guard let id = u16(record) else { return nil }
      if id < glyph {
        low = middle + 1
      } else if id > glyph {
        high = middle
      } else {
        guard let offset = u32(record + 2), offset > 0 else { return nil }
        return read(baseGlyphList + offset, depth: depth, budget: &budget)
      }
    }
    return nil
  }

  private func color(_ index: Int?, _ alpha: Double?) -> (RasterImage.RGBA?, Double) {
    guard let index, index != 0xFFFF, index < colors.count else { return (nil, alpha ?? 1) }
    return (colors[index], alpha ?? 1)
  }

  /// A color line at `at`; variable lines have four more bytes a stop.
  private func line(_ at: Int, variable: Bool) -> ColorPaint.ColorLine? {
    guard let extend = u8(at), let count = u16(at + 1) else { return nil }
    let size = variable ? 10 : 6
    var stops: [(offset: Double, color: RasterImage.RGBA?, alpha: Double)] = []
    for index in 0..<min(count, 1024) {
      let stop = at + 3 + index * size
      guard let offset = f2dot14(stop) else { return nil }
      let (rgba, alpha) = color(u16(stop + 2), f2dot14(stop + 4))
      stops.append((offset, rgba, alpha))
    }
    stops.sort { $0.offset < $1.offset }
    return .init(extend: extend <= 2 ? extend : 0, stops: stops)
  }

  private func read(_ at: Int, depth: Int, budget: inout Int) -> ColorPaint? {
    budget -= 1
    guard depth < 64, budget > 0, let format = u8(at) else { return nil }
    let variable = format >= 3 && format % 2 == 1 && format != 11
    func child(_ offsetAt: Int) -> ColorPaint? {
      guard let offset = u24(offsetAt), offset > 0 else { return nil }
      return read(at + offset, depth: depth + 1, budget: &budget)
    }
    func around(_ affine: ColorPaint.Affine, _ cx: Double, _ cy: Double) -> ColorPaint.Affine {
      // Translate to the center, transform, translate back.
      ColorPaint.Affine(xx: 1, yx: 0, xy: 0, yy: 1, dx: cx, dy: cy)
        .concatenating(affine)
        .concatenating(ColorPaint.Affine(xx: 1, yx: 0, xy: 0, yy: 1, dx: -cx, dy: -cy))
    }
    func transformed(_ affine: ColorPaint.Affine) -> ColorPaint? {
      child(at + 1).map { .transform(affine, $0) }
    }
    switch format {
    case 1:
      guard let count = u8(at + 1), let first = u32(at + 2), let total = u32(layerList), layerList > 0,
        first + count <= total
      else { return nil }
      var layers: [ColorPaint] = []
      for index in first..<(first + count) {
        guard let offset = u32(layerList + 4 + 4 * index),
          let layer = read(layerList + offset, depth: depth + 1, budget: &budget)
        else { continue }
        layers.append(layer)
      }
      return .layers(layers)
    case 2, 3:
      let (rgba, alpha) = color(u16(at + 1), f2dot14(at + 3))
      return .solid(rgba, alpha: alpha)
    case 4, 5:
      guard let offset = u24(at + 1), let colorLine = line(at + offset, variable: variable),
        let x0 = i16(at + 4), let y0 = i16(at + 6), let x1 = i16(at + 8), let y1 = i16(at + 10),
        let x2 = i16(at + 12), let y2 = i16(at + 14)
      else { return nil }
      return .linear(
        p0: .init(x: x0, y: y0), p1: .init(x: x1, y: y1), p2: .init(x: x2, y: y2), line: colorLine)
    case 6, 7:
      guard let offset = u24(at + 1), let colorLine = line(at + offset, variable: variable),
        let x0 = i16(at + 4), let y0 = i16(at + 6), let r0 = u16(at + 8), let x1 = i16(at + 10),
        let y1 = i16(at + 12), let r1 = u16(at + 14)
      else { return nil }
      return .radial(
        c0: .init(x: x0, y: y0), r0: Double(r0), c1: .init(x: x1, y: y1), r1: Double(r1), line: colorLine)
    case 8, 9:
      // Angles are stored as (degrees / 180) − 1, so that +360° can be written.
      guard let offset = u24(at + 1), let colorLine = line(at + offset, variable: variable),
        let cx = i16(at + 4), let cy = i16(at + 6), let start = f2dot14(at + 8), let end = f2dot14(at + 10)
      else { return nil }
      return .sweep(
        center: .init(x: cx, y: cy), start: (start + 1) * 180, end: (end + 1) * 180, line: colorLine)
    case 10:
      guard let glyph = u16(at + 4), let fill = child(at + 1) else { return nil }
      return .glyph(UInt32(glyph), fill)
    case 11:
      guard let glyph = u16(at + 1) else { return nil }
      return paint(ofBase: UInt32(glyph), depth: depth + 1, budget: &budget)
    case 12, 13:
      guard let offset = u24(at + 4), let xx = fixed(at + offset), let yx = fixed(at + offset + 4),
        let xy = fixed(at + offset + 8), let yy = fixed(at + offset + 12), let dx = fixed(at + offset + 16),
        let dy = fixed(at + offset + 20)
      else { return nil }
      return transformed(.init(xx: xx, yx: yx, xy: xy, yy: yy, dx: dx, dy: dy))
    case 14, 15:
      guard let dx = i16(at + 4), let dy = i16(at + 6) else { return nil }
      return transformed(.init(xx: 1, yx: 0, xy: 0, yy: 1, dx: dx, dy: dy))
    case 16...23:
      let uniform = format >= 20
      let centered = format == 18 || format == 19 || format == 22 || format == 23
      guard let sx = f2dot14(at + 4) else { return nil }
      let sy = uniform ? sx : f2dot14(at + 6)
      let centerAt = at + (uniform ? 6 : 8)
      guard let sy else { return nil }
      let scale = ColorPaint.Affine(xx: sx, yx: 0, xy: 0, yy: sy, dx: 0, dy: 0)
      guard centered else { return transformed(scale) }
      guard let cx = i16(centerAt), let cy = i16(centerAt + 2) else { return nil }
      return transformed(around(scale, cx, cy))
    case 24...27:
      guard let turns = f2dot14(at + 4) else { return nil }
      let angle = turns * Double.pi
      let rotation = ColorPaint.Affine(
        xx: cos(angle), yx: sin(angle), xy: -sin(angle), yy: cos(angle), dx: 0, dy: 0)
      guard format >= 26 else { return transformed(rotation) }
      guard let cx = i16(at + 6), let cy = i16(at + 8) else { return nil }
      return transformed(around(rotation, cx, cy))
    case 28...31:
      // The x angle is counted clockwise: x' = x + tan(−x angle)·y, y' = tan(y angle)·x + y.
      guard let x = f2dot14(at + 4), let y = f2dot14(at + 6) else { return nil }
      let skew = ColorPaint.Affine(
        xx: 1, yx: tan(y * Double.pi), xy: tan(-x * Double.pi), yy: 1, dx: 0, dy: 0)
      guard format >= 30 else { return transformed(skew) }
      guard let cx = i16(at + 8), let cy = i16(at + 10) else { return nil }
      return transformed(around(skew, cx, cy))
    case 32:
      guard let mode = u8(at + 4), let source = child(at + 1), let backdrop = child(at + 5) else {
        return nil
      }
      return .composite(mode: mode, source: source, backdrop: backdrop)
    default:
      return nil
    }
  }
}

extension ColorPaint {
  /// How many paints the graph has, itself included (each makes a layer when painted).
  public var paintCount: Int {
    switch self {
    case .layers(let layers): return layers.reduce(1) { $0 + $1.paintCount }
    case .glyph(_, let child), .transform(_, let child): return 1 + child.paintCount
    case .composite(_, let source, let backdrop): return 1 + source.paintCount + backdrop.paintCount
    case .solid, .linear, .radial, .sweep: return 1
    }
  }
}
