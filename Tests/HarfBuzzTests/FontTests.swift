import CHarfBuzz
import TestFixtures
import Testing

@testable import HarfBuzz

@Suite("Fonts")
struct FontTests {
  let face: Face

  init() throws { face = try Face(blob: Blob(contentsOfFile: Paths.latin)) }

  /// The module page's example: synthetic bold where the build has it (HarfBuzz 7.0.0 and later),
  /// which widens advances; nothing asked of an engine without it.
  @Test func syntheticBoldWhereTheEngineHasIt() throws {
    var configuration = Font.Configuration()
    if EngineFeature.syntheticBold.isAvailable {
      configuration.syntheticBold = Font.SyntheticBold(x: 0.02, y: 0.02)
    }
    let font = Font(face: face, configuration: configuration)
    let plain = Font(face: face)
    let o = try #require(plain.nominalGlyph(for: "o"))
    if EngineFeature.syntheticBold.isAvailable {
      #expect(font.advance(of: o).x > plain.advance(of: o).x)
    } else {
      #expect(font.advance(of: o).x == plain.advance(of: o).x)
    }
    #expect(EngineVersion("15.0.0")! > EngineVersion("6.0.0")!)
    #expect(EngineVersion("6.0") == nil)
  }

  @Test func defaultScaleIsUnitsPerEm() {
    let font = Font(face: face)
    #expect(font.scale == (1000, 1000))
  }

  @Test func queriesGlyphs() throws {
    let font = Font(face: face)
    let a = try #require(font.nominalGlyph(for: "a"))
    #expect(font.glyphName(a) == "a")
    #expect(font.glyphLabel(a) == "a")
    #expect(font.advance(of: a) == (561, 0))
    #expect(font.nominalGlyph(for: "ب") == nil)
    let extents = try #require(font.glyphExtents(a))
    #expect(extents.width > 0 && extents.height < 0)
    let line = font.extents()
    #expect(line.ascender > 0 && line.descender < 0)
    // Kept from the start for both horizontal directions, as HarfBuzz gives them; vertical ones
    // asked for each time.
    for direction in Direction.allCases {
      var raw = hb_font_extents_t()
      hb_font_get_extents_for_direction(font.pointer, direction.raw, &raw)
      #expect(
        font.extents(for: direction)
          == FontExtents(ascender: raw.ascender, descender: raw.descender, lineGap: raw.line_gap))
    }
    #expect(font.extents(for: .rightToLeft) == line && font.extents(for: .topToBottom) != line)
    #expect(font.variationGlyph(for: "a", selector: "\u{FE00}") == nil)
  }

  @Test func scaleChangesPositions() throws {
    var configuration = Font.Configuration()
    configuration.scale = (2000, 2000)
    let font = Font(face: face, configuration: configuration)
    let a = try #require(font.nominalGlyph(for: "a"))
    #expect(font.advance(of: a) == (1122, 0))
  }

  @Test func freeTypeFunctionsAgreeWithOpenTypeAtUnitsPerEm() throws {
    var configuration = Font.Configuration()
    configuration.functions = .freeType
    let ft = Font(face: face, configuration: configuration)
    let ot = Font(face: face)
    for scalar in "office AVTa".unicodeScalars {
      let glyph = try #require(ot.nominalGlyph(for: scalar))
      #expect(ft.nominalGlyph(for: scalar) == glyph)
      #expect(ft.advance(of: glyph) == ot.advance(of: glyph))
      #expect(ft.glyphName(glyph) == ot.glyphName(glyph))
    }
  }

  @Test func variationsChangeAdvances() throws {
    let variable = try Face(blob: Blob(contentsOfFile: Paths.variable))
    var bold = Font.Configuration()
    bold.variations = [try Variation(parsing: "wght=900")]
    let regular = Font(face: variable)
    let heavy = Font(face: variable, configuration: bold)
    let glyph = try #require(regular.nominalGlyph(for: "a"))
    #expect(heavy.advance(of: glyph).x > regular.advance(of: glyph).x)
  }

  @Test func glyphsWithoutNamesGetGIDLabels() throws {
    let cjk = try Face(blob: Blob(contentsOfFile: Paths.cjkCollection))
    let font = Font(face: cjk)
    let glyph = try #require(font.nominalGlyph(for: "日"))
    #expect(font.glyphLabel(glyph) == "gid\(glyph)")
  }
}
