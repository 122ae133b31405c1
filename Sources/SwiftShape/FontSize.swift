import HarfBuzz

/// The size to shape at, which decides the unit of every position in a result.
public enum FontSize: Sendable, Hashable, Codable {
  /// The font's own units: the scale is the face's units per em (hb-shape's default).
  case unitsPerEm
  /// A point size: the scale is the size × 64 and positions are 26.6 fixed-point values (64 to a
  /// point), the font's point size (ptem) is set too.
  case points(Double)
  /// An explicit scale, x and y, as hb-shape's `--font-size`: positions are in 1/scale em.
  /// `unitsPerEmScale` on an axis stands for the face's units per em, as 2147483647 does in
  /// hb-shape.
  case scale(x: Int32, y: Int32)

  /// The scale that stands for the face's units per em (hb-shape's `FONT_SIZE_UPEM`).
  public static let unitsPerEmScale = Int32.max

  /// The rule every font size given as a number follows (`--font-size`, and `font_size` in
  /// fixtures and requests): one or two numbers from 1 to 2147483520, truncated to integers the
  /// way hb-shape makes them a scale (through a 32-bit float, so past 16777216 a scale is
  /// rounded to what a float holds, and 2147483520 is the largest float below 2^31). hb-shape also takes 0, which makes every position 0, and
  /// negative sizes, which mirror the text; SwiftShape refuses both (run as `hb-shape`, they are
  /// taken as hb-shape takes them).
  public static let rule = "'upem', or one or two numbers (x, y) from 1 to 2147483520"

  /// Parses hb-shape's `--font-size` syntax: `upem`, or one or two numbers (x and y, separated by
  /// a space or a comma), following `rule`.
  ///
  /// - Parameters:
  ///   - text: the value, as written.
  ///   - name: what the error names the value by (`font_size` in a fixture).
  /// - Throws: `ShapingError` of kind `.invalidArgument` for anything else.
  public init(parsing text: String, name: String = "--font-size") throws {
    if text == "upem" {
      self = .unitsPerEm
      return
    }
    let parts = text.split(whereSeparator: { $0 == " " || $0 == "," })
    let values = parts.compactMap { Double($0) }
    guard (1...2).contains(parts.count), values.count == parts.count,
      values.allSatisfy({ $0.isFinite && $0 >= 1 && $0 <= 2_147_483_520 })
    else {
      throw ShapingError(
        .invalidArgument, input: name == "--font-size" ? "--font-size=\(text)" : "\(name) \(text)",
        reason: "not a font size (\(FontSize.rule))")
    }
    self = .scale(x: FontSize.scale(values[0]), y: FontSize.scale(values.count == 2 ? values[1] : values[0]))
  }

  /// A number from 1 to 2147483520 made a scale as hb-shape makes it: `(int) scalbnf(size, 0)`.
  private static func scale(_ value: Double) -> Int32 { Int32(Float(value).rounded(.towardZero)) }

  /// The rule point sizes follow (`--size`, and `points` in fixtures and requests).
  public static let pointsRule = "a number of points above 0, up to 33554431"

  /// A point size, checked against `pointsRule`.
  ///
  /// - Throws: `ShapingError` of kind `.invalidArgument` naming `input` for any other value.
  public static func checkedPoints(_ points: Double, input: String) throws -> FontSize {
    // The scale is the size × 64, which must fit HarfBuzz's 32-bit scale.
    guard points.isFinite, points > 0, points * 64 <= Double(Int32.max) else {
      throw ShapingError(.invalidArgument, input: input, reason: "not a point size (\(FontSize.pointsRule))")
    }
    return .points(points)
  }

  /// The unit positions come out in, given the face's units per em.
  public func unit(unitsPerEm upem: Int) -> PositionUnit {
    switch self {
    case .unitsPerEm: .fontUnits(unitsPerEm: upem)
    case .points(let points): .fixed26_6(points: points)
    case .scale:
      scale(unitsPerEm: upem) == (Int32(clamping: upem), Int32(clamping: upem))
        ? .fontUnits(unitsPerEm: upem) : .scaled(x: scale(unitsPerEm: upem).x, y: scale(unitsPerEm: upem).y)
    }
  }

  /// The HarfBuzz scale for a face with `upem` units per em.
  func scale(unitsPerEm upem: Int) -> (x: Int32, y: Int32) {
    switch self {
    case .unitsPerEm: (Int32(clamping: upem), Int32(clamping: upem))
    case .points(let points):
      (Int32(clamping: Int64((points * 64).rounded())), Int32(clamping: Int64((points * 64).rounded())))
    case .scale(let x, let y):
      (
        x == FontSize.unitsPerEmScale ? Int32(clamping: upem) : x,
        y == FontSize.unitsPerEmScale ? Int32(clamping: upem) : y
      )
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
