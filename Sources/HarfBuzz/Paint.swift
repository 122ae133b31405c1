import CHarfBuzz

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One step of painting a color glyph, as HarfBuzz's paint API reports it (`hb_paint_funcs_t`,
/// HarfBuzz 7.0.0 and later): a stream of pushes, pops and fills, in the font's scale, y up.
public enum PaintEvent: Sendable, Hashable {
  /// An affine transform over what follows, until its pop: x' = xx·x + xy·y + dx, y' = yx·x + yy·y + dy.
  case pushTransform(xx: Double, yx: Double, xy: Double, yy: Double, dx: Double, dy: Double)
  case popTransform
  /// What follows, until its pop, is clipped to the glyph's outline.
  case pushClipGlyph(UInt32)
  /// What follows, until its pop, is clipped to a rectangle.
  case pushClipRectangle(x0: Double, y0: Double, x1: Double, y1: Double)
  case popClip
  /// Fills the clip with a color.
  case color(PaintColor)
  /// Fills the clip with a linear gradient from p0 toward p1, its lines of equal color parallel to
  /// p0→p2.
  case linear(x0: Double, y0: Double, x1: Double, y1: Double, x2: Double, y2: Double, line: PaintColorLine)
  /// Fills the clip with a radial gradient between two circles.
  case radial(x0: Double, y0: Double, r0: Double, x1: Double, y1: Double, r1: Double, line: PaintColorLine)
  /// Fills the clip with a sweep gradient around a center, from `start` to `end` radians.
  case sweep(cx: Double, cy: Double, start: Double, end: Double, line: PaintColorLine)
  /// What follows, until its pop, is painted into a group of its own.
  case pushGroup
  /// The group is composited onto what is under it by a mode (`hb_paint_composite_mode_t`, the
  /// order of `COLR`'s composite modes: 3 is source over).
  case popGroup(mode: Int)
}

/// A color a paint step fills with.
public struct PaintColor: Sendable, Hashable {
  /// Whether it is the foreground color (then only `alpha` counts).
  public var isForeground: Bool
  /// Red, green, blue and alpha, 0 to 255.
  public var red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8
}

/// A gradient's stops and how it extends past them.
public struct PaintColorLine: Sendable, Hashable {
  /// 0 pad, 1 repeat, 2 reflect (`hb_paint_extend_t`).
  public var extend: Int
  /// The stops, as HarfBuzz gives them.
  public var stops: [Stop]

  /// A stop: where on the line, and its color.
  public struct Stop: Sendable, Hashable {
    /// Where on the line.
    public var offset: Double
    /// The color there.
    public var color: PaintColor
  }
}

extension Font {
  /// Whether HarfBuzz's paint API is there: SwiftShape was built with HarfBuzz 7.0.0 or later.
  public static var hasPaintAPI: Bool { swiftshape_hb_has_paint() != 0 }

  /// The paint graph of a `COLR` version 1 glyph, as HarfBuzz paints it with `palette`: nil where
  /// the engine has no paint API, the glyph has no paint graph, or it paints an image, or takes
  /// more than `limit` numbers to record.
  ///
  /// The corresponding C functions are `hb_ot_color_glyph_has_paint` and `hb_font_paint_glyph`.
  public func paintEvents(of glyph: UInt32, palette: Int = 0, limit: Int = 1 << 20) -> [PaintEvent]? {
    var record = swiftshape_paint_record(values: nil, count: 0, capacity: 0, limit: limit, failed: 0)
    defer { free(record.values) }
    guard swiftshape_hb_font_paint_glyph(pointer, glyph, UInt32(max(0, palette)), &record),
      let values = record.values
    else { return nil }
    return PaintEvent.decode(UnsafeBufferPointer(start: values, count: record.count))
  }
}

extension PaintEvent {
  /// The events of a recording (see `swiftshape_paint_record` in `CHarfBuzz/shim.h`); nil for one
  /// that does not read as such.
  static func decode(_ values: UnsafeBufferPointer<Double>) -> [PaintEvent]? {
    var index = 0
    func next() -> Double? {
      guard index < values.count else { return nil }
      defer { index += 1 }
      return values[index]
    }
    func numbers(_ count: Int) -> [Double]? {
      guard index + count <= values.count else { return nil }
      defer { index += count }
      return Array(values[index..<index + count])
    }
    func color() -> PaintColor? {
      guard let c = numbers(5) else { return nil }
      func byte(_ value: Double) -> UInt8 { UInt8(clamping: Int(value)) }
      return PaintColor(
        isForeground: c[0] != 0, red: byte(c[1]), green: byte(c[2]), blue: byte(c[3]), alpha: byte(c[4]))
    }
    func line() -> PaintColorLine? {
      guard let extend = next(), let count = next(), count >= 0 else { return nil }
      var stops: [PaintColorLine.Stop] = []
      for _ in 0..<Int(count) {
        guard let offset = next(), let color = color() else { return nil }
        stops.append(.init(offset: offset, color: color))
      }
      return PaintColorLine(extend: Int(extend), stops: stops)
    }
    var events: [PaintEvent] = []
    while let opcode = next() {
      switch opcode {
      case 1:
        guard let n = numbers(6) else { return nil }
        events.append(.pushTransform(xx: n[0], yx: n[1], xy: n[2], yy: n[3], dx: n[4], dy: n[5]))
      case 2: events.append(.popTransform)
      case 3:
        guard let glyph = next() else { return nil }
        events.append(.pushClipGlyph(UInt32(glyph)))
      case 4:
        guard let n = numbers(4) else { return nil }
        events.append(.pushClipRectangle(x0: n[0], y0: n[1], x1: n[2], y1: n[3]))
      case 5: events.append(.popClip)
      case 6:
        guard let color = color() else { return nil }
        events.append(.color(color))
      case 7:
        guard let n = numbers(6), let line = line() else { return nil }
        events.append(.linear(x0: n[0], y0: n[1], x1: n[2], y1: n[3], x2: n[4], y2: n[5], line: line))
      case 8:
        guard let n = numbers(6), let line = line() else { return nil }
        events.append(.radial(x0: n[0], y0: n[1], r0: n[2], x1: n[3], y1: n[4], r1: n[5], line: line))
      case 9:
        guard let n = numbers(4), let line = line() else { return nil }
        events.append(.sweep(cx: n[0], cy: n[1], start: n[2], end: n[3], line: line))
      case 10: events.append(.pushGroup)
      case 11:
        guard let mode = next() else { return nil }
        events.append(.popGroup(mode: Int(mode)))
      default: return nil
      }
    }
    return events
  }
}
