import CHarfBuzz

/// A glyph's outline in the font's scale, as HarfBuzz draws it: contours of lines and quadratic
/// and cubic Bézier curves, y up.
public struct GlyphPath: Sendable, Hashable {
  /// One drawing step.
  public enum Element: Sendable, Hashable {
    /// Starts a contour.
    case move(x: Float, y: Float)
    case line(x: Float, y: Float)
    case quadratic(controlX: Float, controlY: Float, x: Float, y: Float)
    case cubic(control1X: Float, control1Y: Float, control2X: Float, control2Y: Float, x: Float, y: Float)
    /// Ends a contour (back to its start).
    case close
  }

  /// The steps, contour after contour.
  public var elements: [Element]

  /// A path of `elements`.
  public init(elements: [Element] = []) { self.elements = elements }
}

extension Font {
  /// The glyph's outline (`glyf`, `CFF`, `CFF2`, with the font's variations applied), in the
  /// font's scale; empty for a glyph with no outline (a space, a bitmap-only glyph, an unknown ID).
  ///
  /// The corresponding C function is `hb_font_draw_glyph` (`hb_font_get_glyph_shape` before HarfBuzz 7).
  public func outline(of glyph: UInt32) -> GlyphPath {
    var outline = GlyphPath()
    withUnsafeMutablePointer(to: &outline) { pointer in
      swiftshape_hb_font_draw_glyph(self.pointer, glyph, OutlineDrawing.funcs, pointer)
    }
    return outline
  }
}

/// The draw callbacks that append to a `GlyphPath` (passed as draw data); made once, immutable.
private enum OutlineDrawing {
  nonisolated(unsafe) static let funcs: OpaquePointer = {
    let funcs = hb_draw_funcs_create()!
    hb_draw_funcs_set_move_to_func(
      funcs,
      { _, data, _, x, y, _ in append(data, .move(x: x, y: y)) }, nil, nil)
    hb_draw_funcs_set_line_to_func(
      funcs,
      { _, data, _, x, y, _ in append(data, .line(x: x, y: y)) }, nil, nil)
    hb_draw_funcs_set_quadratic_to_func(
      funcs,
      { _, data, _, cx, cy, x, y, _ in
        append(data, .quadratic(controlX: cx, controlY: cy, x: x, y: y))
      }, nil, nil)
    hb_draw_funcs_set_cubic_to_func(
      funcs,
      { _, data, _, c1x, c1y, c2x, c2y, x, y, _ in
        append(data, .cubic(control1X: c1x, control1Y: c1y, control2X: c2x, control2Y: c2y, x: x, y: y))
      }, nil, nil)
    hb_draw_funcs_set_close_path_func(funcs, { _, data, _, _ in append(data, .close) }, nil, nil)
    hb_draw_funcs_make_immutable(funcs)
    return funcs
  }()

  static func append(_ data: UnsafeMutableRawPointer?, _ element: GlyphPath.Element) {
    data!.assumingMemoryBound(to: GlyphPath.self).pointee.elements.append(element)
  }
}

extension Face {
  /// How the face's `GDEF` table classes a glyph.
  public enum GlyphClass: Sendable, Hashable {
    /// Not classed (or no `GDEF` table).
    case unclassified
    case base
    case ligature
    case mark
    case component
  }

  /// The glyph's class in the `GDEF` table.
  ///
  /// The corresponding C function is `hb_ot_layout_get_glyph_class`.
  public func glyphClass(_ glyph: UInt32) -> GlyphClass {
    switch hb_ot_layout_get_glyph_class(pointer, glyph) {
    case HB_OT_LAYOUT_GLYPH_CLASS_BASE_GLYPH: return .base
    case HB_OT_LAYOUT_GLYPH_CLASS_LIGATURE: return .ligature
    case HB_OT_LAYOUT_GLYPH_CLASS_MARK: return .mark
    case HB_OT_LAYOUT_GLYPH_CLASS_COMPONENT: return .component
    default: return .unclassified
    }
  }
}
