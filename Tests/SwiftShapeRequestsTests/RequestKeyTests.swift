import HarfBuzz
import SwiftShape
import Testing

@testable import SwiftShapeRequests

/// The request's JSON keys: each value written is read back the same, and the rules across
/// settings hold in every syntax with the same message.
@Suite("Request keys")
struct RequestKeyTests {
  /// A request with every setting away from its default.
  static func everySetting() throws -> ShapingRequest {
    var request = ShapingRequest(font: FontSpecification(.file("fonts/a.ttf"), faceIndex: 2, strict: true))
    var font = ShapingFont.Options()
    font.size = .scale(x: 12, y: 24)
    font.variations = [try Variation(parsing: "wght=700")]
    font.ppem = (9, 10)
    font.pointSize = 9.5
    font.syntheticSlant = 0.2
    font.syntheticBold = Font.SyntheticBold(x: 0.02, y: 0.01)
    font.namedInstance = 3
    font.functions = .freeType
    font.freeTypeLoadFlags = 0
    request.font.options = font
    request.font.fallbackFiles = ["fonts/b.ttf"]
    var options = ShapeOptions()
    options.features = [try Feature(parsing: "-liga"), try Feature(parsing: "kern[0:2]")]
    options.shapers = ["ot"]
    options.direction = .rightToLeft
    options.script = try Script(parsing: "Arab")
    options.language = try Language(parsing: "ur")
    options.clusterLevel = .characters
    options.clusterUnit = .utf16
    options.textBefore = "س"
    options.textAfter = "\"b\""
    options.bufferFlags = [
      .beginningOfText, .endOfText, .preserveDefaultIgnorables, .removeDefaultIgnorables,
      .produceUnsafeToConcat, .produceSafeToInsertTatweel,
    ]
    options.invisibleGlyph = 3
    options.notFoundGlyph = 4
    options.notFoundVariationSelectorGlyph = 5
    options.normalizeGlyphs = true
    options.verify = true
    options.paragraph = .rightToLeft
    options.lineWidth = 900
    options.alignment = .center
    options.breaksAnywhere = true
    options.hyphenates = true
    options.kashida = KashidaMode.none
    options.readsMarkup = true
    options.spans = [
      TextSpan(2..<3, fontPattern: "Noto Sans:bold", direction: .rightToLeft),
      TextSpan(0..<2, features: [try Feature(parsing: "-kern")]),
      TextSpan(
        1..<3, fontFile: "fonts/c.ttf", faceIndex: 1, points: 14.5,
        variations: [try Variation(parsing: "wght=700")],
        language: try Language(parsing: "sr")),
    ]
    options.includeGlyphNames = false
    options.includeExtents = true
    request.options = options
    return request
  }

  static func read(_ members: [String], syntax: ShapingRequest.KeySyntax) throws -> ShapingRequest {
    let json = try SourceJSON.parse(Array(("{" + members.joined(separator: ", ") + "}").utf8))
    var read = ShapingRequest()
    try read.read(json, syntax: syntax, context: "test", kind: .badText, folder: ".")
    return read
  }

  @Test func everyKeyIsReadBackAsWritten() throws {
    let request = try Self.everySetting()
    let members = request.keyMembers(syntax: .request)
    let read = try Self.read(members, syntax: .request)
    #expect(read.font == request.font, "\(members)")
    #expect(read.options == request.options, "\(members)")
    // Each setting away from its default is written under its own key, but for the pairs that set
    // one value (`bold` or `grade`, `paragraph` or `base_direction`, `font_size` or `points`) and
    // `fallback`, which may not be false with fallback files.
    #expect(members.count == RequestKey.all.count - 4, "\(members)")
    // A fixture holds everything but the output keys.
    var shaping = request
    shaping.options.includeGlyphNames = true
    shaping.options.includeExtents = false
    #expect(try Self.read(request.keyMembers(syntax: .fixture), syntax: .fixture) == shaping)
  }

  @Test func theDefaultsWriteNothing() {
    #expect(ShapingRequest().keyMembers(syntax: .request).isEmpty)
  }

  @Test func numbersStayNumbers() throws {
    let request = try Self.read(
      [#""font_size": 12"#, #""width": 900"#, #""paragraph": true"#], syntax: .fixture)
    #expect(request.font.options.size == .scale(x: 12, y: 12))
    #expect(request.keyMembers(syntax: .fixture).contains(#""font_size": 12"#))
  }

  @Test(arguments: [
    (#""cluster_level": "1""#, #""cluster_level" must be a cluster level from 0 to 3"#),
    (#""width": 0"#, #""width" must be a whole number from 1 to 2147483647"#),
    (#""bot": 1"#, #""bot" must be true or false"#),
    (#""features": ["liga[x"]"#, "test: features 'liga[x'"),
    (#""points": 9, "font_size": 12"#, #""points" cannot be combined with "font_size""#),
    (#""font": {"file": "a.ttf", "pattern": "sans"}"#, "give \"font.file\" or \"font.pattern\", not both"),
    (#""fnot": 1"#, #"unknown key "fnot""#),
    (#""extents": true"#, #"unknown key "extents""#),
  ])
  func badValuesNameTheKey(_ member: String, _ message: String) throws {
    #expect {
      _ = try Self.read([member], syntax: .fixture)
    } throws: { error in
      (error as? ShapingError)?.description.contains(message) == true
    }
  }

  /// The rules across settings, named as each syntax names them.
  @Test(arguments: [
    ([#""width": 900"#], "width: lines are broken in paragraphs: add \"paragraph\": true"),
    ([#""paragraph": true"#, #""align": "end""#], "align: needs width"),
    ([#""fallback": false"#], "fallback: fallback fonts are for paragraphs"),
    (
      [#""paragraph": true"#, #""fallback": false"#, #""fallback_font_files": ["a.ttf"]"#],
      "fallback: cannot be combined with fallback_font_files"
    ),
    ([#""shapers": ["nope"]"#], "shapers nope: unknown or unavailable shaper"),
  ])
  func crossRulesHoldInJSON(_ members: [String], _ message: String) throws {
    let request = try Self.read(members, syntax: .fixture)
    #expect {
      try request.validate(naming: .keys)
    } throws: { error in
      (error as? ShapingError)?.description.hasPrefix(message) == true
    }
    #expect {
      try request.validate(naming: .options)
    } throws: { error in
      (error as? ShapingError)?.description.hasPrefix("--") == true
    }
  }
}
