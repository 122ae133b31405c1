import SwiftShape
import SwiftShapeFixtures

extension [ExpectedGlyph] {
  /// The expected glyphs as glyphs of `font` to draw: each glyph's ID (from its name when only
  /// that is given), and the font's own advance where none is expected.
  ///
  /// - Throws: `ShapingError` of kind `.invalidArgument`, naming `option`, for a glyph name the
  ///   font does not have.
  func shapedGlyphs(font: ShapingFont, option: String) throws -> [ShapedGlyph] {
    try map { glyph in
      let id: UInt32
      if let known = glyph.id {
        id = known
      } else if let name = glyph.name, let found = font.font.glyph(named: name) ?? UInt32(name) {
        id = found
      } else {
        throw ShapingError(
          .invalidArgument, input: option, reason: "the font has no glyph named \(glyph.name ?? "?")")
      }
      let advance = font.font.advance(of: id)
      return ShapedGlyph(
        id: id, name: glyph.name, cluster: glyph.cluster ?? 0, xAdvance: glyph.xAdvance ?? advance.x,
        yAdvance: glyph.yAdvance ?? advance.y, xOffset: glyph.xOffset ?? 0, yOffset: glyph.yOffset ?? 0)
    }
  }
}
