import HarfBuzz

/// The size to shape at, which decides the unit of every position in a result.
public enum FontSize: Sendable, Hashable, Codable {
  /// The font's own units: the scale is the face's units per em (hb-shape's default).
  case unitsPerEm
  /// A point size: the scale is the size × 64 and positions are 26.6 fixed-point values (64 to a
  /// point), the font's point size (ptem) is set too.
  case points(Double)
  /// An explicit scale, x and y, as hb-shape's `--font-size`: positions are in 1/scale em.
  case scale(x: Int32, y: Int32)

  /// Parses hb-shape's `--font-size` syntax: `upem`, or one or two numbers (x and y, separated by a
  /// space or a comma), which hb-shape truncates to integers.
  ///
  /// - Throws: `ShapingError` of kind `.invalidArgument` for anything else, 0, or a value past the
  ///   range of a 32-bit scale.
  public init(parsing text: String) throws {
    if text == "upem" {
      self = .unitsPerEm
      return
    }
    let parts = text.split(whereSeparator: { $0 == " " || $0 == "," })
    let values = parts.compactMap { Double($0) }
    guard (1...2).contains(parts.count), values.count == parts.count,
      values.allSatisfy({ $0.isFinite && abs($0) >= 1 && abs($0) <= Double(Int32.max) })
    else {
      throw ShapingError(
        .invalidArgument, input: "--font-size=\(text)",
        reason: "not a font size ('upem', or one or two numbers from 1 to 2147483647)")
    }
    self = .scale(x: Int32(values[0]), y: Int32(values.count == 2 ? values[1] : values[0]))
  }

  /// The unit positions come out in, given the face's units per em.
  public func unit(unitsPerEm upem: Int) -> PositionUnit {
    switch self {
    case .unitsPerEm: .fontUnits(unitsPerEm: upem)
    case .points(let points): .fixed26_6(points: points)
    case .scale(let x, let y):
      Int(x) == upem && Int(y) == upem ? .fontUnits(unitsPerEm: upem) : .scaled(x: x, y: y)
    }
  }

  /// The HarfBuzz scale for a face with `upem` units per em.
  func scale(unitsPerEm upem: Int) -> (x: Int32, y: Int32) {
    switch self {
    case .unitsPerEm: (Int32(clamping: upem), Int32(clamping: upem))
    case .points(let points):
      (Int32(clamping: Int64((points * 64).rounded())), Int32(clamping: Int64((points * 64).rounded())))
    case .scale(let x, let y): (x, y)
    }
  }
}

/// The unit of the advances, offsets and extents in a result.
///
/// Every result carries its unit; convert with `points(_:)` or `ems(_:)` rather than by hand.
public enum PositionUnit: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Font design units, `unitsPerEm` to the em.
  case fontUnits(unitsPerEm: Int)
  /// 26.6 fixed point: 64 to a point at the given point size.
  case fixed26_6(points: Double)
  /// 1/x em horizontally and 1/y em vertically.
  case scaled(x: Int32, y: Int32)

  /// How many units make an em, horizontally.
  public var unitsPerEmX: Double {
    switch self {
    case .fontUnits(let upem): Double(upem)
    case .fixed26_6(let points): points * 64
    case .scaled(let x, _): Double(x)
    }
  }

  /// How many units make an em, vertically.
  public var unitsPerEmY: Double {
    switch self {
    case .fontUnits(let upem): Double(upem)
    case .fixed26_6(let points): points * 64
    case .scaled(_, let y): Double(y)
    }
  }

  /// A horizontal value in ems.
  public func ems(x value: Int32) -> Double { Double(value) / unitsPerEmX }
  /// A vertical value in ems.
  public func ems(y value: Int32) -> Double { Double(value) / unitsPerEmY }

  /// The name the JSON output uses: `font-units`, `26.6` or `1/N em`.
  public var description: String {
    switch self {
    case .fontUnits: "font-units"
    case .fixed26_6: "26.6"
    case .scaled(let x, let y): x == y ? "1/\(x) em" : "1/\(x) em (x), 1/\(y) em (y)"
    }
  }
}
