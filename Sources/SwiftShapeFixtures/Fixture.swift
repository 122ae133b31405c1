import HarfBuzz
import SwiftShape
import SwiftShapeRequests

/// A file of expected shaping results: SwiftShape's fixture format, or fontbakery's
/// shaping-regression JSON.
///
/// ```swift
/// let fixture = try Fixture.load("Tests/Fixtures/latin.json")
/// try fixture.verify()   // throws FixtureFailure, whose description is the readable diff
/// ```
public struct Fixture: Sendable {
  /// Which format the file is in.
  public enum Format: String, Sendable {
    /// `{"format": "swiftshape-fixture", "version": 1, "defaults": {…}, "cases": […]}`.
    case swiftshape = "swiftshape-fixture"
    /// `{"configuration": {"defaults": {…}}, "tests": […]}`, checked against fonts given separately.
    case fontbakery
  }

  /// The file's path, as given.
  public let path: String
  /// Which format the file is in.
  public let format: Format
  /// The cases, in file order.
  public let cases: [FixtureCase]
  /// The file's bytes, for editing in place.
  let source: [UInt8]
  /// Where the `cases` (or `tests`) array is in the source.
  let casesRange: Range<Int>
  /// fontbakery's `forbidden_glyphs` (`configuration.forbidden_glyphs`): glyph names no test's
  /// shaping may produce (`.notdef`, `dottedcircle`); empty for none. With them, a test needs no
  /// expectation.
  public private(set) var forbiddenGlyphs: [String] = []
  /// fontbakery's `collidoscope` rules (`configuration.collidoscope`): with them, every test is
  /// checked for colliding glyphs and needs no expectation.
  public private(set) var collisionRules: CollisionRules?
  /// Whether collision rules take glyphs in reversed order (`configuration.direction` is `RTL`).
  public private(set) var collisionsReversed = false
  /// fontbakery's `ingredients`: the names pattern inputs use, with their regular expressions, in
  /// file order.
  public private(set) var ingredients: [(name: String, expression: String)] = []

  /// The format name and version SwiftShape writes.
  public static let formatName = "swiftshape-fixture"
  /// The version of the fixture format SwiftShape writes.
  public static let version = 1

  /// The folder fonts are relative to.
  public var folder: String { Fixture.folder(of: path) }

  static func folder(of path: String) -> String {
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    return parts.count > 1 ? parts.dropLast().joined(separator: "/") : "."
  }

  /// Reads and parses a fixture file.
  ///
  /// - Throws: `ShapingError` of kind `.unreadableFile` when the file cannot be read, `.badText`
  ///   when it is not JSON or not a fixture, naming the file and the case.
  public static func load(_ path: String) throws -> Fixture {
    let bytes: [UInt8]
    do {
      bytes = try Blob(contentsOfFile: path).bytes
    } catch let error as HarfBuzzError {
      throw ShapingError(.unreadableFile, input: path, reason: error.reason)
    }
    return try Fixture(path: path, contents: bytes)
  }

  /// Parses a fixture from bytes; `path` names it in errors and anchors relative font paths.
  public init(path: String, contents: [UInt8]) throws {
    self.path = path
    source = contents
    _ = try TextInput.decode(contents, name: path)
    let root: SourceJSON
    do {
      root = try SourceJSON.parse(contents)
    } catch let error as SourceJSON.SyntaxError {
      throw ShapingError(
        .badText, input: path,
        reason: "not JSON: \(error.message) at line \(error.line), column \(error.column)")
    }
    guard root.members != nil else {
      throw ShapingError(.badText, input: path, reason: "not a fixture (not a JSON object)")
    }
    if root["format"]?.string == Fixture.formatName {
      format = .swiftshape
      guard let version = root["version"]?.number, version == Double(Fixture.version) else {
        throw ShapingError(
          .badText, input: path, reason: "unsupported fixture version (this SwiftShape reads version 1)")
      }
      let folder = Fixture.folder(of: path)
      var defaults = ShapingRequest()
      if let object = root["defaults"] {
        try defaults.read(
          object, syntax: .fixture, context: "\(path): defaults", kind: .badText, folder: folder)
      }
      guard let list = root["cases"], let items = list.array else {
        throw ShapingError(.badText, input: path, reason: "a fixture needs a \"cases\" array")
      }
      casesRange = list.range
      let fileEngine = try root["harfbuzz"].map { try FixtureCase.engine($0, context: "\(path): harfbuzz") }
      cases = try items.enumerated().map { index, item in
        var testCase = try FixtureCase(
          swiftshape: item, index: index + 1, defaults: defaults, folder: folder, file: path, source: contents
        )
        testCase.engine = testCase.engine ?? fileEngine
        return testCase
      }
    } else if let tests = root["tests"] {
      format = .fontbakery
      if let forbidden = root["configuration"]?["forbidden_glyphs"] {
        guard let names = forbidden.array, names.allSatisfy({ $0.string != nil }) else {
          throw ShapingError(
            .badText, input: path, reason: "\"configuration.forbidden_glyphs\" must be a list of glyph names")
        }
        forbiddenGlyphs = names.compactMap(\.string)
      }
      if let rules = root["configuration"]?["collidoscope"] {
        collisionRules = try CollisionRules(json: rules, context: "\(path): configuration.collidoscope")
      }
      collisionsReversed = root["configuration"]?["direction"]?.string == "RTL"
      if let list = root["configuration"]?["ingredients"] {
        guard let members = list.members, members.allSatisfy({ $0.value.string != nil }) else {
          throw ShapingError(
            .badText, input: path,
            reason: "\"configuration.ingredients\" must be an object of names to regular expressions")
        }
        ingredients = members.map { ($0.key, $0.value.string!) }
      }
      let expectationOptional = !forbiddenGlyphs.isEmpty || collisionRules != nil
      var defaultExtras = FontbakeryExtras()
      var defaults = ShapingRequest()
      var defaultShaper: String?
      if let object = root["configuration"]?["defaults"] {
        let context = "\(path): configuration.defaults"
        defaultExtras = try FontbakeryExtras(json: object, context: context)
        defaultShaper = try defaults.read(
          fontbakery: object, context: context, allowing: FontbakeryExtras.keys)
      }
      guard let items = tests.array else {
        throw ShapingError(.badText, input: path, reason: "\"tests\" must be an array")
      }
      casesRange = tests.range
      cases = try items.enumerated().map { index, item in
        try FixtureCase(
          fontbakery: item, index: index + 1, defaults: defaults, shaper: defaultShaper,
          extras: defaultExtras,
          file: path,
          source: contents, expectationOptional: expectationOptional)
      }
    } else {
      throw ShapingError(
        .badText, input: path,
        reason: "not a fixture (no \"format\": \"\(Fixture.formatName)\", and no fontbakery \"tests\")")
    }
  }
}

/// One case of a fixture: an input, how to shape it, and the glyphs expected.
public struct FixtureCase: Sendable {
  /// The 1-based position of the case in its file.
  public var index: Int
  /// The case's name, if it has one.
  public var name: String?
  /// The text to shape.
  public var text: String
  /// How the case is shaped: the file's defaults with the case's own settings over them; font
  /// paths relative to the fixture's folder already joined to it.
  public var request: ShapingRequest
  /// fontbakery's `shaper`: the HarfBuzz shaper a test is for (`ot`; `coretext`, `directwrite`
  /// and `uniscribe` exist only on their systems); a test for a shaper HarfBuzz lacks is skipped.
  public var shaper: String?
  /// What the result must be.
  public var expectation: Expectation
  /// For fontbakery tests: the font files (by name) the test is only for, or is not for.
  public var onlyFonts: [String]?
  /// For fontbakery tests: the font files (by name) the test is not for.
  public var excludedFonts: [String] = []
  /// For fontbakery tests: whether `text` is a pattern recipe (`"input_type": "pattern"`) standing
  /// for every string it matches.
  public var isPattern = false
  /// For fontbakery tests: collisions that are not failures, as `first/second` glyph names.
  public var allowedCollisions: [String] = []
  /// For fontbakery tests: collision rules of the test's own (`"collidoscope"`), over the file's.
  public var collisionRules: CollisionRules?
  /// The HarfBuzz the expectation was recorded with: the case's `harfbuzz` member, or the file's;
  /// nil when the file does not say. A case that fails on another engine names both, so that a
  /// changed engine is not taken for a changed font.
  public var engine: EngineVersion?
  /// Where the case's own `harfbuzz` value is in the source, if it has one; where its object
  /// starts (its `{`).
  var engineRange: Range<Int>?
  var objectStart = 0
  /// Where the expectation value is in the source, and the indentation of its line.
  let expectationRange: Range<Int>
  let indent: Int

  /// How the case names itself in reports: `case 3 "ligature"`.
  public var label: String { "case \(index)" + (name.map { " \"\($0)\"" } ?? "") }
}

/// What a case expects.
public enum Expectation: Sendable {
  /// A glyph list in SwiftShape's JSON form: every field given.
  case glyphs([ExpectedGlyph])
  /// hb-shape's text syntax (`[o=0+605|f_f_i=1+946]`, brackets optional): only the fields written
  /// are compared.
  case hbText(String)
  /// fontbakery's per-font expectations: by font file name, with a `default`.
  case perFont([(font: String, text: String, range: Range<Int>)])
  /// None: a fontbakery test of a file with `forbidden_glyphs` checks only that none comes out.
  case none
}

/// One expected glyph; a nil field is not compared.
public struct ExpectedGlyph: Sendable, Hashable {
  /// The glyph ID.
  public var id: UInt32?
  /// The glyph name.
  public var name: String?
  /// The cluster.
  public var cluster: Int?
  /// The horizontal advance.
  public var xAdvance: Int32?
  /// The vertical advance.
  public var yAdvance: Int32?
  /// The horizontal offset.
  public var xOffset: Int32?
  /// The vertical offset.
  public var yOffset: Int32?

  /// An expected glyph; a field left nil is not compared.
  public init(
    id: UInt32? = nil, name: String? = nil, cluster: Int? = nil, xAdvance: Int32? = nil,
    yAdvance: Int32? = nil,
    xOffset: Int32? = nil, yOffset: Int32? = nil
  ) {
    (self.id, self.name, self.cluster, self.xAdvance) = (id, name, cluster, xAdvance)
    (self.yAdvance, self.xOffset, self.yOffset) = (yAdvance, xOffset, yOffset)
  }

  /// Parses hb-shape's text syntax: `[name=cluster@dx,dy+ax,ay|…]`; brackets, clusters, offsets and
  /// advances are optional, flags (`#…`) and extents (`<…>`) are ignored.
  public static func parseHBText(_ text: String) throws -> [ExpectedGlyph] {
    var body = Substring(text.trimmingWhitespace())
    if body.hasPrefix("[") && body.hasSuffix("]") { body = body.dropFirst().dropLast() }
    guard !body.isEmpty else { return [] }
    return try body.split(separator: "|", omittingEmptySubsequences: false).map { item in
      var rest = item
      if let angle = rest.firstIndex(of: "<") { rest = rest[..<angle] }
      if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
      var glyph = ExpectedGlyph()
      func ints(_ text: Substring) throws -> [Int32] {
        try text.split(separator: ",", omittingEmptySubsequences: false).map {
          guard let value = Int32($0) else {
            throw ShapingError(.badText, input: String(item), reason: "not a glyph in hb-shape's syntax")
          }
          return value
        }
      }
      if let plus = rest.firstIndex(of: "+") {
        let advance = try ints(rest[rest.index(after: plus)...])
        glyph.xAdvance = advance.first
        glyph.yAdvance = advance.count > 1 ? advance[1] : 0
        rest = rest[..<plus]
      }
      if let at = rest.firstIndex(of: "@") {
        let offset = try ints(rest[rest.index(after: at)...])
        guard offset.count == 2 else {
          throw ShapingError(.badText, input: String(item), reason: "not a glyph in hb-shape's syntax")
        }
        (glyph.xOffset, glyph.yOffset) = (offset[0], offset[1])
        rest = rest[..<at]
      } else if glyph.xAdvance != nil {
        (glyph.xOffset, glyph.yOffset) = (0, 0)
      }
      if let equals = rest.lastIndex(of: "=") {
        guard let cluster = Int(rest[rest.index(after: equals)...]) else {
          throw ShapingError(.badText, input: String(item), reason: "not a glyph in hb-shape's syntax")
        }
        glyph.cluster = cluster
        rest = rest[..<equals]
      }
      guard !rest.isEmpty else {
        throw ShapingError(.badText, input: String(item), reason: "a glyph without a name")
      }
      glyph.name = String(rest)
      return glyph
    }
  }
}
