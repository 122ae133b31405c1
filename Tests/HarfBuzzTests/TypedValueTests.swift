import TestFixtures
import Testing

@testable import HarfBuzz

@Suite("Typed values")
struct TypedValueTests {
  @Test func tagsRoundTripAndPad() throws {
    #expect(try OpenTypeTag(parsing: "GSUB").description == "GSUB")
    #expect(try OpenTypeTag(parsing: "cv").description == "cv  ")
    let kern: OpenTypeTag = "kern"
    #expect(kern.rawValue == 0x6B65_726E)
    // Bytes outside printable ASCII (as a font's own tags may hold) print as `?`.
    #expect(OpenTypeTag(rawValue: 0x0041_7F42).description == "?A?B")
    #expect(OpenTypeTag(rawValue: 0xE941_2020).description == "?A  ")
  }

  @Test func languageIdentifierBytesAreTheIdentifier() throws {
    let language = try Language(parsing: "zh_Hant")
    #expect(language.withIdentifierBytes { Array($0) } == Array(language.identifier.utf8))
    #expect(language.identifier == "zh-hant")
  }

  @Test(arguments: ["", "toolong", "ké"])
  func invalidTagsThrow(_ string: String) {
    #expect(throws: HarfBuzzError.self) { try OpenTypeTag(parsing: string) }
  }

  @Test func featuresParseHarfBuzzSyntax() throws {
    let kern = try Feature(parsing: "kern")
    #expect(kern.tag == "kern" && kern.value == 1 && kern.start == 0 && kern.end == Feature.globalEnd)
    let noLiga = try Feature(parsing: "-liga")
    #expect(noLiga.tag == "liga" && noLiga.value == 0)
    let alternate = try Feature(parsing: "aalt=2")
    #expect(alternate.value == 2)
    let ranged = try Feature(parsing: "kern[3:5]")
    #expect(ranged.start == 3 && ranged.end == 5)
    #expect(ranged.description == "kern[3:5]")
    #expect(try Feature(parsing: "aalt[3:5]=2").description == "aalt[3:5]=2")
  }

  @Test(arguments: ["", "kern[", "=2", "kern=x", "kern[a:b]", "toolongtag"])
  func invalidFeaturesThrow(_ string: String) {
    #expect(throws: HarfBuzzError.self) { try Feature(parsing: string) }
  }

  @Test func featureListsSplitOnCommasAndSpaces() throws {
    let features = try Feature.parseList("kern,-liga aalt=2,,")
    #expect(features.map(\.description) == ["kern", "-liga", "aalt=2"])
    #expect(throws: HarfBuzzError.self) { try Feature.parseList("kern,bad[") }
  }

  @Test func variationsParse() throws {
    let weight = try Variation(parsing: "wght=700")
    #expect(weight.tag == "wght" && weight.value == 700)
    #expect(try Variation(parsing: "wdth=75.5").value == 75.5)
    #expect(throws: HarfBuzzError.self) { try Variation(parsing: "wght") }
    #expect(throws: HarfBuzzError.self) { try Variation(parsing: "wght=heavy") }
  }

  @Test func directionsParseByFirstLetter() throws {
    #expect(try Direction(parsing: "rtl") == .rightToLeft)
    #expect(try Direction(parsing: "TTB") == .topToBottom)
    #expect(try Direction(parsing: "l") == .leftToRight)
    #expect(throws: HarfBuzzError.self) { try Direction(parsing: "sideways") }
    #expect(throws: HarfBuzzError.self) { try Direction(parsing: "") }
  }

  @Test func scriptsAreISO15924Codes() throws {
    #expect(try Script(parsing: "arab") == .arabic)
    #expect(try Script(parsing: "DEVA").description == "Deva")
    #expect(Script.arabic.horizontalDirection == .rightToLeft)
    #expect(throws: HarfBuzzError.self) { try Script(parsing: "Arabic") }
    #expect(throws: HarfBuzzError.self) { try Script(parsing: "A1b2") }
  }

  @Test func languagesAreCanonicalized() throws {
    #expect(try Language(parsing: "zh_Hant").identifier == "zh-hant")
    #expect(try Language(parsing: "EN").identifier == "en")
    #expect(throws: HarfBuzzError.self) { try Language(parsing: "") }
    #expect(throws: HarfBuzzError.self) { try Language(parsing: "en US") }
  }
}
