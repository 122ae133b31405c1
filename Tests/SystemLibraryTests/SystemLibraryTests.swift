import CFontconfig
import CFreeType
import CHarfBuzz
import Testing

/// The C modules import, link and answer: the libraries pkg-config found are usable from Swift.
@Suite("System libraries")
struct SystemLibraryTests {
  @Test func harfBuzzReportsItsVersion() {
    var major: UInt32 = 0
    var minor: UInt32 = 0
    var micro: UInt32 = 0
    hb_version(&major, &minor, &micro)
    #expect(major >= 6)
    #expect(String(cString: hb_version_string()) == "\(major).\(minor).\(micro)")
    #expect(swiftshape_hb_feature_global_end() == UInt32.max)
  }

  @Test func freeTypeOpensALibrary() {
    var library: FT_Library?
    #expect(FT_Init_FreeType(&library) == 0)
    defer { FT_Done_FreeType(library) }
    var major: Int32 = 0
    var minor: Int32 = 0
    var patch: Int32 = 0
    FT_Library_Version(library, &major, &minor, &patch)
    #expect(major == 2)
  }

  @Test func fontconfigParsesAPattern() throws {
    #expect(FcGetVersion() >= 21_000)
    let pattern = try #require(FcNameParse("DejaVu Sans:bold"))
    defer { FcPatternDestroy(pattern) }
    var family: UnsafeMutablePointer<FcChar8>?
    #expect(FcPatternGetString(pattern, FC_FAMILY, 0, &family) == FcResultMatch)
    #expect(family.map { String(cString: $0) } == "DejaVu Sans")
  }
}
