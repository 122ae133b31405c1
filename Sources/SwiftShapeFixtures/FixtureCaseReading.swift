import HarfBuzz
import SwiftShape
import SwiftShapeRequests

/// fontbakery's shaping-test settings over a request: `features` (an object of tag to bool or
/// number, or a list), `variations` (an object of axis to value), `script`, `language`,
/// `direction`; `shaper` is returned (the HarfBuzz shaper a test is for).
extension ShapingRequest {
  mutating func read(fontbakery json: SourceJSON, context: String, allowing extra: Set<String> = []) throws
    -> String?
  {
    guard let members = json.members else {
      throw ShapingError(.badText, input: context, reason: "expected an object, found \(json.typeName)")
    }
    func parsed<T>(_ name: String, _ body: () throws -> T) throws -> T {
      do {
        return try ShapingError.parsing(name, body)
      } catch let error as ShapingError {
        throw ShapingError(.badText, input: "\(context): \(error.input)", reason: error.reason)
      }
    }
    var shaper: String?
    for (key, value) in members {
      switch key {
      case "features":
        let settings: [String]
        if let object = value.members {
          settings = try object.map { tag, setting in
            if let on = setting.bool { return on ? tag : "-\(tag)" }
            if let number = setting.number { return "\(tag)=\(Int(number))" }
            throw ShapingError(
              .badText, input: context, reason: "feature \"\(tag)\" must be true, false or a number")
          }
        } else if let items = value.array {
          settings = items.compactMap(\.string)
        } else if let text = value.string {
          settings = text.split(separator: ",").map(String.init)
        } else {
          throw ShapingError(.badText, input: context, reason: "\"features\" must be an object or a list")
        }
        options.features = try parsed("features") { try settings.map(Feature.init(parsing:)) }
      case "variations":
        guard let object = value.members else {
          throw ShapingError(
            .badText, input: context, reason: "\"variations\" must be an object of axis to value")
        }
        let settings = try object.map { tag, setting in
          guard let number = setting.number else {
            throw ShapingError(.badText, input: context, reason: "variation \"\(tag)\" must be a number")
          }
          return "\(tag)=\(number)"
        }
        font.options.variations = try parsed("variations") { try settings.map(Variation.init(parsing:)) }
      case "script":
        if let text = value.string { options.script = try parsed("script") { try Script(parsing: text) } }
      case "language":
        if let text = value.string {
          options.language = try parsed("language") { try Language(parsing: text) }
        }
      case "direction":
        if let text = value.string {
          options.direction = try parsed("direction") { try Direction(parsing: text) }
        }
      case "shaper": shaper = value.string
      case "comment": break
      default:
        guard extra.contains(key) || key.hasPrefix("comment") else {
          throw ShapingError(.badText, input: context, reason: "unknown key \"\(key)\"")
        }
      }
    }
    return shaper
  }
}

extension FixtureCase {
  /// A case of SwiftShape's format.
  init(
    swiftshape json: SourceJSON, index: Int, defaults: ShapingRequest, folder: String, file: String,
    source: [UInt8]
  ) throws {
    let context = "\(file): case \(index)"
    guard json.members != nil else {
      throw ShapingError(.badText, input: context, reason: "a case must be an object, found \(json.typeName)")
    }
    let named = json["name"]?.string
    let context2 = named.map { "\(context) \"\($0)\"" } ?? context
    request = defaults
    try request.read(
      json, syntax: .fixture, context: context2, kind: .badText, folder: folder,
      allowing: ["name", "text", "unicodes", "expect", "note", "harfbuzz"])
    objectStart = json.range.lowerBound
    if let engine = json["harfbuzz"] {
      self.engine = try FixtureCase.engine(engine, context: "\(context2): harfbuzz")
      engineRange = engine.range
    }
    name = named
    self.index = index
    text = try json.inputText(context: context2, kind: .badText, of: "a case")
    guard let expect = json["expect"] else {
      throw ShapingError(.badText, input: context2, reason: "a case needs \"expect\"")
    }
    expectationRange = expect.range
    indent = FixtureCase.indentation(of: expect.range.lowerBound, in: source)
    if let text = expect.string {
      do {
        _ = try ExpectedGlyph.parseHBText(text)
      } catch let error as ShapingError {
        throw ShapingError(.badText, input: context2, reason: "\"expect\": \(error.description)")
      }
      expectation = .hbText(text)
    } else if let items = expect.array {
      expectation = .glyphs(
        try items.enumerated().map { glyphIndex, item in
          try ExpectedGlyph(json: item, context: "\(context2), glyph \(glyphIndex)")
        })
    } else {
      throw ShapingError(.badText, input: context2, reason: "\"expect\" must be a list of glyphs or a string")
    }
  }

  /// A test of fontbakery's shaping-regression format.
  init(
    fontbakery json: SourceJSON, index: Int, defaults: ShapingRequest, shaper defaultShaper: String?,
    extras defaultExtras: FontbakeryExtras,
    file: String, source: [UInt8], expectationOptional: Bool = false
  ) throws {
    let context = "\(file): test \(index)"
    guard json.members != nil else {
      throw ShapingError(.badText, input: context, reason: "a test must be an object, found \(json.typeName)")
    }
    request = defaults
    shaper =
      try request.read(
        fontbakery: json, context: context,
        allowing: FontbakeryExtras.keys.union([
          "input", "expectation", "note", "only", "exclude", "collidoscope",
        ])) ?? defaultShaper
    let extras = try FontbakeryExtras(json: json, context: context)
    isPattern = (extras.inputType ?? defaultExtras.inputType) == "pattern"
    allowedCollisions = extras.allowedCollisions ?? defaultExtras.allowedCollisions ?? []
    if let rules = json["collidoscope"] {
      collisionRules = try CollisionRules(json: rules, context: "\(context): collidoscope")
    }
    let collisionsChecked = collisionRules != nil
    self.index = index
    name = json["note"]?.string
    guard let input = json["input"]?.string else {
      throw ShapingError(.badText, input: context, reason: "a test needs an \"input\" string")
    }
    text = input
    func names(_ value: SourceJSON?) -> [String]? {
      guard let value else { return nil }
      if let single = value.string { return [single] }
      return value.array?.compactMap(\.string)
    }
    onlyFonts = names(json["only"])
    excludedFonts = names(json["exclude"]) ?? []
    guard let expect = json["expectation"] else {
      guard expectationOptional || collisionsChecked else {
        throw ShapingError(.badText, input: context, reason: "a test needs an \"expectation\"")
      }
      expectation = .none
      expectationRange = 0..<0
      indent = 0
      return
    }
    expectationRange = expect.range
    indent = FixtureCase.indentation(of: expect.range.lowerBound, in: source)
    if let text = expect.string {
      expectation = .hbText(text)
    } else if let members = expect.members, members.allSatisfy({ $0.value.string != nil }) {
      guard members.contains(where: { $0.key == "default" }) else {
        throw ShapingError(.badText, input: context, reason: "per-font expectations need a \"default\"")
      }
      expectation = .perFont(members.map { ($0.key, $0.value.string!, $0.value.range) })
    } else {
      throw ShapingError(
        .badText, input: context, reason: "\"expectation\" must be a string or an object of strings")
    }
  }

  /// The number of spaces that start the line holding `offset`.
  static func indentation(of offset: Int, in source: [UInt8]) -> Int {
    let lineStart = source[..<offset].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
    return source[lineStart...].prefix(while: { $0 == 0x20 }).count
  }
}

/// The keys of fontbakery's shaping tests that say what to check rather than how to shape; a
/// test's own, or the file's `defaults`.
struct FontbakeryExtras {
  static let keys: Set<String> = ["input_type", "allowedcollisions"]

  /// `string` (the default) or `pattern`.
  var inputType: String?
  var allowedCollisions: [String]?

  init() {}

  init(json: SourceJSON, context: String) throws {
    if let value = json["input_type"] {
      guard let text = value.string, text == "string" || text == "pattern" else {
        throw ShapingError(
          .badText, input: context, reason: "\"input_type\" must be \"string\" or \"pattern\"")
      }
      inputType = text
    }
    if let value = json["allowedcollisions"] {
      guard let items = value.array, items.allSatisfy({ $0.string != nil }) else {
        throw ShapingError(
          .badText, input: context,
          reason: "\"allowedcollisions\" must be a list of glyph pairs (\"first/second\")")
      }
      allowedCollisions = items.compactMap(\.string)
    }
  }
}

extension ExpectedGlyph {
  /// An expected glyph in SwiftShape's JSON form.
  init(json: SourceJSON, context: String) throws {
    guard let members = json.members else {
      throw ShapingError(
        .badText, input: context, reason: "a glyph must be an object, found \(json.typeName)")
    }
    func integer<T: FixedWidthInteger>(_ key: String, _ value: SourceJSON) throws -> T {
      guard let number = value.number, number == number.rounded(), let result = T(exactly: number) else {
        throw ShapingError(.badText, input: context, reason: "\"\(key)\" must be a whole number")
      }
      return result
    }
    for (key, value) in members {
      switch key {
      case "id": id = try integer(key, value)
      case "name":
        guard let text = value.string else {
          throw ShapingError(.badText, input: context, reason: "\"name\" must be a string")
        }
        name = text
      case "cluster": cluster = try integer(key, value)
      case "x_advance": xAdvance = try integer(key, value)
      case "y_advance": yAdvance = try integer(key, value)
      case "x_offset": xOffset = try integer(key, value)
      case "y_offset": yOffset = try integer(key, value)
      default: throw ShapingError(.badText, input: context, reason: "unknown key \"\(key)\"")
      }
    }
  }
}

extension FixtureCase {
  /// A `harfbuzz` member's version (`"6.0.0"`).
  static func engine(_ json: SourceJSON, context: String) throws -> EngineVersion {
    guard let text = json.string, let version = EngineVersion(text) else {
      throw ShapingError(.badText, input: context, reason: "not a HarfBuzz version (\"6.0.0\")")
    }
    return version
  }
}
