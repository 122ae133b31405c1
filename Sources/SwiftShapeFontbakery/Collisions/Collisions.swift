import HarfBuzz
import SwiftShape

/// Which glyph pairs of a shaped string are checked for colliding outlines: fontbakery's
/// `collidoscope` configuration.
///
/// Glyphs are marks when `GDEF` classes them so, bases otherwise. Pairs are ordered (each pair is
/// looked at both ways, and a collision is named `first/second`), in glyph order — reversed when
/// the file's `configuration.direction` is `RTL` — and a pair is checked when:
/// - both are bases and `bases` is true (when `bases` is false, such a pair never is);
/// - both are marks and `marks` is true;
/// - `faraway` is true and the second comes after the run of glyphs of the first's kind (base or
///   mark) that follows the first;
/// - `adjacentClusters` is true and their clusters (in characters) differ by at most one.
///
/// A crossing of a checked pair is a collision unless:
/// - `cursive` is true, both glyphs have a cursive attachment anchor inside their outline, and no
///   base lies between them;
/// - `area` is above zero and no piece of the area the two contours share is larger than `area`
///   times the area of either contour (`area` is a fraction: 0.05 is 5 %).
public struct CollisionRules: Sendable, Hashable {
  /// nil when not given: bases are then checked only by the other rules.
  public var bases: Bool?
  /// Check pairs of marks.
  public var marks = false
  /// Check a glyph against those after the run of its kind that follows it.
  public var faraway = false
  /// Check glyphs whose clusters differ by at most one.
  public var adjacentClusters = false
  /// Let glyphs joined by cursive attachment overlap.
  public var cursive = false
  /// A fraction of the smaller contour; 0 for none.
  public var area = 0.0

  /// No rule on.
  public init() {}
}

/// Two glyphs whose outlines cross.
public struct Collision: Sendable, Hashable {
  /// The glyphs' indices in the shaped run (in the order the rules looked at them).
  public var first: Int
  /// The other glyph's index.
  public var second: Int
  /// The first glyph's name.
  public var firstName: String
  /// The second glyph's name.
  public var secondName: String
  /// A point where the outlines cross, in the run's coordinates (font units, y up, from the run's
  /// origin).
  public var point: OutlinePoint
  /// The two crossing contours, placed.
  let contours: [Contour]

  /// `first/second`, as `allowedcollisions` names a pair.
  public var pair: String { "\(firstName)/\(secondName)" }

  /// The pieces of the area the two crossing contours share, each with its area and its shape
  /// as trapezoids in the run's coordinates (for pictures).
  public var sharedArea: [(area: Double, trapezoids: [[OutlinePoint]])] {
    OutlineGeometry.sharedPieces(contours[0], contours[1])
  }

  /// The same glyphs, names and point.
  public static func == (a: Collision, b: Collision) -> Bool {
    (a.first, a.second, a.firstName, a.secondName, a.point) == (
      b.first, b.second, b.firstName, b.secondName, b.point
    )
  }

  /// Hashes the glyphs and the point.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(first)
    hasher.combine(second)
    hasher.combine(point)
  }
}

/// Finds collisions in shaped runs of one font, as fontbakery's collision check does; outlines,
/// classes and anchors are read once per glyph. Not for use from several threads at once.
///
/// ```swift
/// var rules = CollisionRules()
/// rules.marks = true
/// let checker = CollisionChecker(font: font, rules: rules)
/// let collisions = checker.collisions(in: try font.shape("ệ̃").glyphs)
/// ```
public final class CollisionChecker {
  private struct Shape {
    var contours: [Contour]
    var box: OutlineBox
    var isMark: Bool
    var hasAnchor: Bool
  }

  private struct Placed {
    var index: Int
    var name: String
    var shape: Shape
    var dx, dy: Double
    var cluster: Int
    var box: OutlineBox { shape.box.offset(by: dx, dy) }
  }

  let font: Font
  /// The rules it checks by.
  public let rules: CollisionRules
  /// Whether pairs are taken in reversed glyph order (`configuration.direction` is `RTL`).
  public let reversed: Bool
  private var shapes: [UInt32: Shape] = [:]
  private lazy var anchors: [UInt32: [OutlinePoint]] = rules.cursive ? CursiveAnchors.read(font.face) : [:]

  /// A checker for runs shaped with `font` at its default scale (font units).
  public convenience init(font: ShapingFont, rules: CollisionRules, reversed: Bool = false) {
    self.init(font: font.font, rules: rules, reversed: reversed)
  }

  package init(font: Font, rules: CollisionRules, reversed: Bool) {
    self.font = font
    self.rules = rules
    self.reversed = reversed
  }

  private func shape(_ glyph: UInt32) -> Shape {
    if let known = shapes[glyph] { return known }
    let contours = OutlineGeometry.contours(of: font.outline(of: glyph))
    let box = contours.reduce(OutlineBox()) { $0.union($1.box) }
    let hasAnchor = (anchors[glyph] ?? []).contains { anchor in
      contours.reduce(0) { $0 + $1.winding(around: anchor) } != 0
    }
    let shape = Shape(
      contours: contours, box: box, isMark: font.face.glyphClass(glyph) == .mark, hasAnchor: hasAnchor)
    shapes[glyph] = shape
    return shape
  }

  /// The collisions of a run (its glyphs in the result's units, which must be font units), not
  /// counting `allowed` pairs (`first/second` glyph names).
  public func collisions(in glyphs: [ShapedGlyph], allowed: Set<String> = []) -> [Collision] {
    var placed: [Placed] = []
    var cursor = 0.0
    for (index, glyph) in glyphs.enumerated() {
      placed.append(
        Placed(
          index: index, name: glyph.name ?? font.glyphLabel(glyph.id), shape: shape(glyph.id),
          dx: cursor + Double(glyph.xOffset), dy: Double(glyph.yOffset), cluster: glyph.cluster))
      cursor += Double(glyph.xAdvance)
    }
    if reversed { placed.reverse() }
    var found: [Collision] = []
    for first in placed.indices {
      for second in placed.indices where checks(first, second, placed) {
        for collision in crossings(placed[first], placed[second]) where !allowed.contains(collision.pair) {
          if counts(first, second, placed, collision) { found.append(collision) }
        }
      }
    }
    return found
  }

  /// Whether the rules look at the pair (collidoscope's `we_care_about_this_index`).
  private func checks(_ first: Int, _ second: Int, _ glyphs: [Placed]) -> Bool {
    guard first != second else { return false }
    let a = glyphs[first].shape.isMark
    let b = glyphs[second].shape.isMark
    if !a && !b, let bases = rules.bases { return bases }
    if rules.marks && a && b { return true }
    if rules.faraway {
      var next = first + 1
      while next < glyphs.count && glyphs[next].shape.isMark == a { next += 1 }
      if second >= next { return true }
    }
    if rules.adjacentClusters && abs(glyphs[first].cluster - glyphs[second].cluster) < 2 { return true }
    return false
  }

  /// Whether a crossing counts (collidoscope's `we_care_about_this_overlap`).
  private func counts(_ first: Int, _ second: Int, _ glyphs: [Placed], _ collision: Collision) -> Bool {
    if rules.cursive && glyphs[first].shape.hasAnchor && glyphs[second].shape.hasAnchor {
      // Joined cursively, unless a base lies between them.
      guard first + 1 < second else { return false }
      return glyphs[(first + 1)..<second].contains { !$0.shape.isMark }
    }
    guard rules.area > 0 else { return true }
    let limits = collision.contours.map { $0.area * rules.area }
    return collision.sharedArea.contains { piece in piece.area > limits[0] || piece.area > limits[1] }
  }

  /// Every pair of contours of the two glyphs whose outlines cross: one collision each.
  private func crossings(_ a: Placed, _ b: Placed) -> [Collision] {
    guard !a.shape.contours.isEmpty, !b.shape.contours.isEmpty, a.box.intersection(b.box).area >= 0.2
    else { return [] }
    var out: [Collision] = []
    for contourA in a.shape.contours {
      let movedA = contourA.offset(by: a.dx, a.dy)
      for contourB in b.shape.contours {
        let movedB = contourB.offset(by: b.dx, b.dy)
        guard let point = OutlineGeometry.crossing(movedA, movedB) else { continue }
        out.append(
          Collision(
            first: a.index, second: b.index, firstName: a.name, secondName: b.name, point: point,
            contours: [movedA, movedB]))
      }
    }
    return out
  }
}
