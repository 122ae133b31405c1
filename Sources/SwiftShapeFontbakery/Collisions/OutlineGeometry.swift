import HarfBuzz

/// A point in font units, y up.
public struct OutlinePoint: Sendable, Hashable {
  /// Font units rightward.
  public var x: Double
  /// Font units upward.
  public var y: Double

  /// A point at (`x`, `y`).
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
}

/// An axis-aligned box.
struct OutlineBox: Sendable {
  var minX = Double.infinity
  var minY = Double.infinity
  var maxX = -Double.infinity
  var maxY = -Double.infinity

  var isEmpty: Bool { minX > maxX || minY > maxY }
  var area: Double { isEmpty ? 0 : (maxX - minX) * (maxY - minY) }

  mutating func add(_ point: OutlinePoint) {
    minX = min(minX, point.x)
    minY = min(minY, point.y)
    maxX = max(maxX, point.x)
    maxY = max(maxY, point.y)
  }

  func union(_ other: OutlineBox) -> OutlineBox {
    OutlineBox(
      minX: min(minX, other.minX), minY: min(minY, other.minY), maxX: max(maxX, other.maxX),
      maxY: max(maxY, other.maxY))
  }

  func intersection(_ other: OutlineBox) -> OutlineBox {
    OutlineBox(
      minX: max(minX, other.minX), minY: max(minY, other.minY), maxX: min(maxX, other.maxX),
      maxY: min(maxY, other.maxY))
  }

  func offset(by dx: Double, _ dy: Double) -> OutlineBox {
    OutlineBox(minX: minX + dx, minY: minY + dy, maxX: maxX + dx, maxY: maxY + dy)
  }

  /// Whether the segment's box meets this box.
  func meets(_ a: OutlinePoint, _ b: OutlinePoint) -> Bool {
    max(a.x, b.x) >= minX && min(a.x, b.x) <= maxX && max(a.y, b.y) >= minY && min(a.y, b.y) <= maxY
  }
}

/// One closed contour of a glyph, flattened to a polygon.
struct Contour: Sendable {
  /// The vertices; the last joins the first.
  var points: [OutlinePoint]
  var box: OutlineBox
  /// The enclosed area (positive whichever way the contour turns).
  var area: Double

  init(points: [OutlinePoint]) {
    self.points = points
    var box = OutlineBox()
    var twice = 0.0
    for (index, point) in points.enumerated() {
      box.add(point)
      let next = points[(index + 1) % points.count]
      twice += point.x * next.y - next.x * point.y
    }
    self.box = box
    area = abs(twice) / 2
  }

  /// The contour moved by (dx, dy).
  func offset(by dx: Double, _ dy: Double) -> Contour {
    var moved = self
    moved.points = points.map { OutlinePoint(x: $0.x + dx, y: $0.y + dy) }
    moved.box = box.offset(by: dx, dy)
    return moved
  }

  /// The winding number of the contour around a point.
  func winding(around point: OutlinePoint) -> Int {
    var winding = 0
    for (index, a) in points.enumerated() {
      let b = points[(index + 1) % points.count]
      if a.y <= point.y {
        if b.y > point.y && OutlineGeometry.cross(a, b, point) > 0 { winding += 1 }
      } else if b.y <= point.y && OutlineGeometry.cross(a, b, point) < 0 {
        winding -= 1
      }
    }
    return winding
  }
}

/// How outlines are flattened, crossed and intersected.
///
/// - Curves become polylines whose distance from the curve is at most `tolerance` font units
///   (quadratics and cubics are cut into equal steps of their parameter, as many as the curve's
///   second differences require).
/// - Two contours collide when their outlines cross: some edge of one crosses an edge of the
///   other. Outlines that only touch (along an edge, or at a point) do not cross, and a contour
///   wholly inside another crosses nothing. The second contour is moved by a millionth of a unit
///   first, so that a crossing through a vertex is seen once and not lost.
/// - The area two contours share is cut into trapezoids between the y values of their vertices and
///   crossings; inside each, a point is inside a contour by the nonzero rule. Trapezoids that touch
///   across a y value make one piece, and each piece's area is the sum of its trapezoids'.
enum OutlineGeometry {
  /// The flattening tolerance, in font units.
  static let tolerance = 0.1

  /// The contours of an outline.
  static func contours(of outline: GlyphPath) -> [Contour] {
    var contours: [Contour] = []
    var current: [OutlinePoint] = []
    var last = OutlinePoint(x: 0, y: 0)
    func finish() {
      if current.count > 1, current.first == current.last { current.removeLast() }
      if current.count >= 3 { contours.append(Contour(points: current)) }
      current = []
    }
    for element in outline.elements {
      switch element {
      case .move(let x, let y):
        finish()
        last = OutlinePoint(x: Double(x), y: Double(y))
        current = [last]
      case .line(let x, let y):
        last = OutlinePoint(x: Double(x), y: Double(y))
        current.append(last)
      case .quadratic(let cx, let cy, let x, let y):
        let control = OutlinePoint(x: Double(cx), y: Double(cy))
        let end = OutlinePoint(x: Double(x), y: Double(y))
        let dx = last.x - 2 * control.x + end.x
        let dy = last.y - 2 * control.y + end.y
        let steps = segments(for: (dx * dx + dy * dy).squareRoot() / 4)
        let start = last
        for step in 1...steps {
          let t = Double(step) / Double(steps)
          let u = 1 - t
          current.append(
            OutlinePoint(
              x: u * u * start.x + 2 * u * t * control.x + t * t * end.x,
              y: u * u * start.y + 2 * u * t * control.y + t * t * end.y))
        }
        last = end
      case .cubic(let c1x, let c1y, let c2x, let c2y, let x, let y):
        let c1 = OutlinePoint(x: Double(c1x), y: Double(c1y))
        let c2 = OutlinePoint(x: Double(c2x), y: Double(c2y))
        let end = OutlinePoint(x: Double(x), y: Double(y))
        let start = last
        let d1 = hypot(start.x - 2 * c1.x + c2.x, start.y - 2 * c1.y + c2.y)
        let d2 = hypot(c1.x - 2 * c2.x + end.x, c1.y - 2 * c2.y + end.y)
        let steps = segments(for: 3 * max(d1, d2) / 4)
        for step in 1...steps {
          let t = Double(step) / Double(steps)
          let u = 1 - t
          let a = u * u * u
          let b = 3 * u * u * t
          let c = 3 * u * t * t
          let d = t * t * t
          current.append(
            OutlinePoint(
              x: a * start.x + b * c1.x + c * c2.x + d * end.x,
              y: a * start.y + b * c1.y + c * c2.y + d * end.y))
        }
        last = end
      case .close:
        finish()
      }
    }
    finish()
    return contours
  }

  /// Steps for a curve whose chord error with n steps is `bound / n²`.
  private static func segments(for bound: Double) -> Int {
    max(1, min(512, Int((bound / tolerance).squareRoot().rounded(.up))))
  }

  private static func hypot(_ x: Double, _ y: Double) -> Double { (x * x + y * y).squareRoot() }

  /// The z of (b − a) × (p − a): positive when p is left of a→b.
  static func cross(_ a: OutlinePoint, _ b: OutlinePoint, _ p: OutlinePoint) -> Double {
    (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
  }

  /// The nudge given to the second contour of a pair (see the type's notes).
  static let nudge = (x: 1.0e-6, y: 1.618_034e-6)

  /// The first point where the outlines of `a` and `b` cross, or nil.
  static func crossing(_ a: Contour, _ b: Contour) -> OutlinePoint? {
    let overlap = a.box.intersection(b.box)
    guard !overlap.isEmpty else { return nil }
    let first = edges(of: a, within: overlap, dx: 0, dy: 0)
    let second = edges(of: b, within: overlap, dx: nudge.x, dy: nudge.y)
    var found: OutlinePoint?
    forEachCrossing(first, second, within: overlap) { point in
      found = point
      return false
    }
    return found
  }

  /// Calls `body` with each point where an edge of `first` crosses an edge of `second`, until it
  /// returns false. The second list's edges are put in a grid over `box` first, so that each edge
  /// of the first meets only the edges near it: a glyph's contours have hundreds of edges once
  /// flattened, and testing every pair made checking a large outline take seconds.
  static func forEachCrossing(
    _ first: [(OutlinePoint, OutlinePoint)], _ second: [(OutlinePoint, OutlinePoint)], within box: OutlineBox,
    _ body: (OutlinePoint) -> Bool
  ) {
    guard !first.isEmpty, !second.isEmpty else { return }
    let side = max(1, min(64, Int(Double(second.count).squareRoot())))
    let width = max(box.maxX - box.minX, 1e-9)
    let height = max(box.maxY - box.minY, 1e-9)
    func cells(_ p: OutlinePoint, _ q: OutlinePoint) -> (ClosedRange<Int>, ClosedRange<Int>) {
      func cell(_ value: Double, _ origin: Double, _ extent: Double) -> Int {
        let index = ((value - origin) / extent * Double(side)).rounded(.down)
        return index.isFinite ? max(0, min(side - 1, Int(index))) : 0
      }
      let x0 = cell(min(p.x, q.x), box.minX, width)
      let x1 = cell(max(p.x, q.x), box.minX, width)
      let y0 = cell(min(p.y, q.y), box.minY, height)
      let y1 = cell(max(p.y, q.y), box.minY, height)
      return (x0...x1, y0...y1)
    }
    var grid = [[Int]](repeating: [], count: side * side)
    for (index, (p, q)) in second.enumerated() {
      let (xs, ys) = cells(p, q)
      for y in ys { for x in xs { grid[y * side + x].append(index) } }
    }
    var seen = [Int](repeating: -1, count: second.count)
    for (index, (p, q)) in first.enumerated() {
      let (xs, ys) = cells(p, q)
      for y in ys {
        for x in xs {
          for other in grid[y * side + x] where seen[other] != index {
            seen[other] = index
            let (r, s) = second[other]
            if let point = crossing(p, q, r, s), !body(point) { return }
          }
        }
      }
    }
  }

  /// The edges of a contour whose boxes meet `box`, moved by (dx, dy).
  private static func edges(of contour: Contour, within box: OutlineBox, dx: Double, dy: Double)
    -> [(OutlinePoint, OutlinePoint)]
  {
    var out: [(OutlinePoint, OutlinePoint)] = []
    let points = contour.points
    for index in points.indices {
      let a = OutlinePoint(x: points[index].x + dx, y: points[index].y + dy)
      let next = points[(index + 1) % points.count]
      let b = OutlinePoint(x: next.x + dx, y: next.y + dy)
      if box.meets(a, b) { out.append((a, b)) }
    }
    return out
  }

  /// Where two segments cross properly (each strictly separates the other's ends), or nil.
  static func crossing(_ p: OutlinePoint, _ q: OutlinePoint, _ r: OutlinePoint, _ s: OutlinePoint)
    -> OutlinePoint?
  {
    let d1 = cross(p, q, r)
    let d2 = cross(p, q, s)
    guard (d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0) else { return nil }
    let d3 = cross(r, s, p)
    let d4 = cross(r, s, q)
    guard (d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0) else { return nil }
    let t = d3 / (d3 - d4)
    return OutlinePoint(x: p.x + t * (q.x - p.x), y: p.y + t * (q.y - p.y))
  }

  /// A trapezoid between two y values: its x extent at each.
  private struct Trapezoid {
    var bottom: ClosedRange<Double>
    var top: ClosedRange<Double>
    var y0: Double
    var y1: Double
  }

  /// The pieces of the area inside both contours, each as its area and its trapezoids (four
  /// corners each, for drawing).
  static func sharedPieces(_ a: Contour, _ b: Contour) -> [(area: Double, trapezoids: [[OutlinePoint]])] {
    let overlap = a.box.intersection(b.box)
    guard !overlap.isEmpty, overlap.minY < overlap.maxY else { return [] }
    // Every edge across the overlap's height counts for the winding, wherever its x.
    let band = OutlineBox(
      minX: -Double.infinity, minY: overlap.minY, maxX: Double.infinity, maxY: overlap.maxY)
    let edgesA = edges(of: a, within: band, dx: 0, dy: 0)
    let edgesB = edges(of: b, within: band, dx: 0, dy: 0)
    // The y values where the order of edges can change: vertices and crossings (which lie in the
    // overlap, so only edges that reach it can make one).
    var ys = Set<Double>()
    for (p, q) in edgesA + edgesB {
      ys.insert(p.y)
      ys.insert(q.y)
    }
    let nearA = edgesA.filter { overlap.meets($0.0, $0.1) }
    let nearB = edgesB.filter { overlap.meets($0.0, $0.1) }
    forEachCrossing(nearA, nearB, within: overlap) { point in
      ys.insert(point.y)
      return true
    }
    let levels = ys.filter { $0 >= overlap.minY && $0 <= overlap.maxY }.sorted()
    guard levels.count > 1 else { return [] }

    struct Edge {
      var low: OutlinePoint
      var high: OutlinePoint
      /// +1 for an edge going up, −1 going down.
      var direction: Int
      /// 0 for the first contour, 1 for the second.
      var contour: Int
      func x(at y: Double) -> Double { low.x + (high.x - low.x) * (y - low.y) / (high.y - low.y) }
    }
    // Edges by their lower end; a slab's edges are those active across it.
    var waiting: [Edge] = []
    for (contour, list) in [edgesA, edgesB].enumerated() {
      for (p, q) in list where p.y != q.y {
        waiting.append(
          p.y < q.y
            ? Edge(low: p, high: q, direction: 1, contour: contour)
            : Edge(low: q, high: p, direction: -1, contour: contour))
      }
    }
    waiting.sort { $0.low.y < $1.low.y }
    var next = 0
    var active: [Edge] = []
    var trapezoids: [Trapezoid] = []
    var slabStarts: [Int] = []
    for level in 0..<(levels.count - 1) {
      slabStarts.append(trapezoids.count)
      let y0 = levels[level]
      let y1 = levels[level + 1]
      while next < waiting.count && waiting[next].low.y <= y0 {
        active.append(waiting[next])
        next += 1
      }
      active.removeAll { $0.high.y <= y0 }
      guard y1 > y0 else { continue }
      let middle = (y0 + y1) / 2
      let spanning = active.filter { $0.low.y <= y0 && $0.high.y >= y1 }.map { ($0.x(at: middle), $0) }
        .sorted { $0.0 < $1.0 }
      var winding = [0, 0]
      for (index, (x, edge)) in spanning.enumerated() {
        winding[edge.contour] += edge.direction
        guard winding[0] != 0, winding[1] != 0, index + 1 < spanning.count else { continue }
        let (nextX, nextEdge) = spanning[index + 1]
        guard nextX > x else { continue }
        let bottom = (edge.x(at: y0), nextEdge.x(at: y0))
        let top = (edge.x(at: y1), nextEdge.x(at: y1))
        trapezoids.append(
          Trapezoid(
            bottom: min(bottom.0, bottom.1)...max(bottom.0, bottom.1),
            top: min(top.0, top.1)...max(top.0, top.1), y0: y0, y1: y1))
      }
    }
    slabStarts.append(trapezoids.count)

    // Trapezoids of neighbouring slabs that share part of their common edge are one piece. Each
    // slab's trapezoids run left to right, so the two rows are merged like sorted lists.
    var parent = Array(trapezoids.indices)
    func root(_ index: Int) -> Int {
      var index = index
      while parent[index] != index {
        parent[index] = parent[parent[index]]
        index = parent[index]
      }
      return index
    }
    for slab in 0..<max(0, slabStarts.count - 2) {
      var lower = slabStarts[slab]
      var upper = slabStarts[slab + 1]
      while lower < slabStarts[slab + 1] && upper < slabStarts[slab + 2] {
        let below = trapezoids[lower].top
        let above = trapezoids[upper].bottom
        if below.upperBound > above.lowerBound && above.upperBound > below.lowerBound {
          parent[root(lower)] = root(upper)
        }
        if below.upperBound < above.upperBound { lower += 1 } else { upper += 1 }
      }
    }
    var pieces: [Int: (area: Double, trapezoids: [[OutlinePoint]])] = [:]
    var order: [Int] = []
    for (index, trapezoid) in trapezoids.enumerated() {
      let key = root(index)
      let height = trapezoid.y1 - trapezoid.y0
      let widthBottom = trapezoid.bottom.upperBound - trapezoid.bottom.lowerBound
      let widthTop = trapezoid.top.upperBound - trapezoid.top.lowerBound
      let corners = [
        OutlinePoint(x: trapezoid.bottom.lowerBound, y: trapezoid.y0),
        OutlinePoint(x: trapezoid.bottom.upperBound, y: trapezoid.y0),
        OutlinePoint(x: trapezoid.top.upperBound, y: trapezoid.y1),
        OutlinePoint(x: trapezoid.top.lowerBound, y: trapezoid.y1),
      ]
      if pieces[key] == nil {
        pieces[key] = (0, [])
        order.append(key)
      }
      pieces[key]!.area += (widthBottom + widthTop) / 2 * height
      pieces[key]!.trapezoids.append(corners)
    }
    return order.map { pieces[$0]! }
  }
}
