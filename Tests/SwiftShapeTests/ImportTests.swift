import SwiftShape
import Testing

/// `import SwiftShape` alone is enough to use the shaping API: the typed values its options and
/// results are written in come with it.
@Suite("One import")
struct ImportTests {
  @Test func optionsAreFilledWithoutImportingHarfBuzz() throws {
    var options = ShapeOptions(features: [try Feature(parsing: "-liga")], direction: .leftToRight)
    options.script = try Script(parsing: "Latn")
    options.language = try Language(parsing: "en")
    options.clusterLevel = Buffer.ClusterLevel.characters
    options.bufferFlags = [Buffer.Flags.beginningOfText]
    var fontOptions = ShapingFont.Options()
    fontOptions.functions = Font.Functions.openType
    fontOptions.variations = [Variation(OpenTypeTag("wght"), 700)]
    let result = try ShapingFont.defaultFont(options: fontOptions).shape("office", options: options)
    #expect(result.glyphs.count == 6)
    #expect(result.runs.first?.direction == .leftToRight)
  }
}
