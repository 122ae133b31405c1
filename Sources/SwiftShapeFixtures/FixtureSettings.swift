import HarfBuzz
import SwiftShape
import SwiftShapeRequests

/// How a case is shaped: the font and the shaping options. Every field is optional; a case's
/// settings fill in from the file's defaults.
public struct FixtureSettings: Sendable, Hashable {
  /// The font file, relative to the fixture's folder (or absolute).
  public var fontFile: String?
  /// The font, by fontconfig pattern, instead of a file.
  public var fontPattern: String?
  /// The face of a collection.
  public var faceIndex: Int?
  /// Variation settings in HarfBuzz's syntax (`wght=700`).
  public var variations: [String]?
  /// Feature settings in HarfBuzz's syntax (`-liga`, `kern[3:5]`).
  public var features: [String]?
  /// The direction (`ltr`, `rtl`, `ttb`, `btt`).
  public var direction: String?
  /// The script (`Latn`), or nil to guess it.
  public var script: String?
  /// The language (`tr`), or nil for the default.
  public var language: String?
  /// The font scale as hb-shape's `--font-size` takes it (`upem`, `12`, `2048 1024`).
  public var fontSize: String?
  /// A point size (`--size`): positions in 26.6.
  public var points: Double?
  /// HarfBuzz's cluster level (0, 1, 2 or 3).
  public var clusterLevel: Int?
  /// `scalars`, `utf8` or `utf16`.
  public var clusterUnit: String?
  /// Shape as a paragraph from this base direction (`auto`, `ltr`, `rtl`): `"paragraph": true`
  /// is `auto`, `"base_direction"` names another.
  public var paragraph: String?
  /// Fonts a paragraph falls back on, in order (`--fallback-font-file`), relative to the
  /// fixture's folder (or absolute).
  public var fallbackFontFiles: [String]?
  /// `false` for no fallback fonts (`--no-fallback`).
  public var fallback: Bool?
  /// With a paragraph: the width to break it to (`--width`), in the result's unit.
  public var lineWidth: Int?
  /// With a width: `start`, `end` or `center` (`--align`).
  public var alignment: String?
  /// With a width: cut words wider than it (`--break-anywhere`).
  public var breaksAnywhere: Bool?
  /// `ot` or `ft`.
  public var fontFunctions: String?
  /// fontbakery's `shaper`: the HarfBuzz shaper a test is for (`ot`; `coretext`, `directwrite`
  /// and `uniscribe` exist only on their systems); a test for a shaper HarfBuzz lacks is skipped.
  public var shaper: String?

  /// No setting given.
  public init() {}

  /// These settings over `defaults`: a field set here wins.
  public func over(_ defaults: FixtureSettings) -> FixtureSettings {
    var merged = defaults
    if fontFile != nil || fontPattern != nil {
      merged.fontFile = fontFile
      merged.fontPattern = fontPattern
    }
    merged.faceIndex = faceIndex ?? defaults.faceIndex
    merged.variations = variations ?? defaults.variations
    merged.features = features ?? defaults.features
    merged.direction = direction ?? defaults.direction
    merged.script = script ?? defaults.script
    merged.language = language ?? defaults.language
    merged.fontSize = fontSize ?? defaults.fontSize
    merged.points = points ?? defaults.points
    merged.clusterLevel = clusterLevel ?? defaults.clusterLevel
    merged.clusterUnit = clusterUnit ?? defaults.clusterUnit
    merged.paragraph = paragraph ?? defaults.paragraph
    merged.fallbackFontFiles = fallbackFontFiles ?? defaults.fallbackFontFiles
    merged.fallback = fallback ?? defaults.fallback
    merged.lineWidth = lineWidth ?? defaults.lineWidth
    merged.alignment = alignment ?? defaults.alignment
    merged.breaksAnywhere = breaksAnywhere ?? defaults.breaksAnywhere
    merged.fontFunctions = fontFunctions ?? defaults.fontFunctions
    merged.shaper = shaper ?? defaults.shaper
    return merged
  }

  /// The keys of a settings object, in the order SwiftShape writes them.
  static let keys = [
    "font", "face_index", "variations", "font_size", "points", "font_funcs", "features", "direction",
    "script",
    "language", "cluster_level", "cluster_unit", "paragraph", "base_direction", "fallback_font_files",
    "fallback", "width", "align", "break_anywhere",
  ]

  /// Reads SwiftShape's settings keys from an object; other keys are left to the caller.
  init(json: SourceJSON, context: String, allowing extra: Set<String> = []) throws {
    guard let members = json.members else {
      throw ShapingError(.badText, input: context, reason: "expected an object, found \(json.typeName)")
    }
    func fail(_ key: String, _ expected: String) -> ShapingError {
      ShapingError(.badText, input: context, reason: "\"\(key)\" must be \(expected)")
    }
    func strings(_ key: String, _ value: SourceJSON) throws -> [String] {
      if let text = value.string { return text.split(separator: ",").map { String($0).trimmingWhitespace() } }
      guard let items = value.array, items.allSatisfy({ $0.string != nil }) else {
        throw fail(key, "a list of strings")
      }
      return items.compactMap(\.string)
    }
    for (key, value) in members {
      switch key {
      case "font":
        if let file = value.string {
          fontFile = file
        } else if let object = value.members {
          for (fontKey, fontValue) in object {
            switch fontKey {
            case "file": fontFile = try fontValue.string ?? { throw fail("font.file", "a string") }()
            case "pattern": fontPattern = try fontValue.string ?? { throw fail("font.pattern", "a string") }()
            case "face_index":
              guard let index = fontValue.number, index >= 0, index == index.rounded() else {
                throw fail("font.face_index", "a whole number")
              }
              faceIndex = Int(index)
            case "variations": variations = try strings("font.variations", fontValue)
            default: throw ShapingError(.badText, input: context, reason: "unknown key \"font.\(fontKey)\"")
            }
          }
        } else {
          throw fail(key, "a file name or an object")
        }
      case "face_index":
        guard let index = value.number, index >= 0, index == index.rounded() else {
          throw fail(key, "a whole number")
        }
        faceIndex = Int(index)
      case "variations": variations = try strings(key, value)
      case "features": features = try strings(key, value)
      case "direction": direction = try value.string ?? { throw fail(key, "a string") }()
      case "script": script = try value.string ?? { throw fail(key, "a string") }()
      case "language": language = try value.string ?? { throw fail(key, "a string") }()
      case "font_size":
        if let text = value.string {
          fontSize = text
        } else if let number = value.number {
          // A whole number as an integer (12, not 12.0); any other (1e300 too) as Swift writes it.
          fontSize = number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
        } else {
          throw fail(key, "a string or a number")
        }
      case "points": points = try value.number ?? { throw fail(key, "a number") }()
      case "cluster_level":
        guard let level = value.number, [0, 1, 2].contains(level) else { throw fail(key, "0, 1 or 2") }
        clusterLevel = Int(level)
      case "cluster_unit": clusterUnit = try value.string ?? { throw fail(key, "a string") }()
      case "paragraph":
        guard let on = value.bool else { throw fail(key, "true or false") }
        // A base direction given too wins, in whichever order the keys come.
        if on { paragraph = paragraph ?? "auto" } else { paragraph = nil }
      case "base_direction":
        guard let base = value.string, BaseDirection(rawValue: base) != nil else {
          throw fail(key, "\"auto\", \"ltr\" or \"rtl\"")
        }
        paragraph = base
      case "fallback_font_files":
        guard let items = value.array, items.allSatisfy({ $0.string?.isEmpty == false }) else {
          throw fail(key, "a list of font file names")
        }
        fallbackFontFiles = items.compactMap(\.string)
      case "fallback":
        guard let on = value.bool else { throw fail(key, "true or false") }
        fallback = on
      case "width":
        guard let number = value.number, number == number.rounded(), number >= 1, number <= Double(Int32.max)
        else {
          throw fail(key, "a whole number from 1 to 2147483647")
        }
        lineWidth = Int(number)
      case "align":
        guard let text = value.string, LineAlignment(rawValue: text) != nil else {
          throw fail(key, "\"start\", \"end\" or \"center\"")
        }
        alignment = text
      case "break_anywhere":
        guard let on = value.bool else { throw fail(key, "true or false") }
        breaksAnywhere = on
      case "font_funcs": fontFunctions = try value.string ?? { throw fail(key, "\"ot\" or \"ft\"") }()
      default:
        guard extra.contains(key) else {
          throw ShapingError(.badText, input: context, reason: "unknown key \"\(key)\"")
        }
      }
    }
  }

  /// Reads fontbakery's keys: `features` (an object of tag to bool or number, or a list),
  /// `variations` (an object of axis to value), `script`, `language`, `direction`.
  init(fontbakery json: SourceJSON, context: String, allowing extra: Set<String> = []) throws {
    guard let members = json.members else {
      throw ShapingError(.badText, input: context, reason: "expected an object, found \(json.typeName)")
    }
    for (key, value) in members {
      switch key {
      case "features":
        if let object = value.members {
          features = try object.map { tag, setting in
            if let on = setting.bool { return on ? tag : "-\(tag)" }
            if let number = setting.number { return "\(tag)=\(Int(number))" }
            throw ShapingError(
              .badText, input: context, reason: "feature \"\(tag)\" must be true, false or a number")
          }
        } else if let items = value.array {
          features = items.compactMap(\.string)
        } else if let text = value.string {
          features = text.split(separator: ",").map(String.init)
        } else {
          throw ShapingError(.badText, input: context, reason: "\"features\" must be an object or a list")
        }
      case "variations":
        guard let object = value.members else {
          throw ShapingError(
            .badText, input: context, reason: "\"variations\" must be an object of axis to value")
        }
        variations = try object.map { tag, setting in
          guard let number = setting.number else {
            throw ShapingError(.badText, input: context, reason: "variation \"\(tag)\" must be a number")
          }
          return "\(tag)=\(number)"
        }
      case "script": script = value.string
      case "language": language = value.string
      case "direction": direction = value.string
      case "shaper": shaper = value.string
      case "comment": break
      default:
        guard extra.contains(key) || key.hasPrefix("comment") else {
          throw ShapingError(.badText, input: context, reason: "unknown key \"\(key)\"")
        }
      }
    }
  }
}

extension FixtureCase {
  /// A case of SwiftShape's format.
  init(swiftshape json: SourceJSON, index: Int, defaults: FixtureSettings, file: String, source: [UInt8])
    throws
  {
    let context = "\(file): case \(index)"
    guard json.members != nil else {
      throw ShapingError(.badText, input: context, reason: "a case must be an object, found \(json.typeName)")
    }
    let named = json["name"]?.string
    let context2 = named.map { "\(context) \"\($0)\"" } ?? context
    let own = try FixtureSettings(
      json: json, context: context2, allowing: ["name", "text", "unicodes", "expect", "note", "harfbuzz"])
    settings = own.over(defaults)
    objectStart = json.range.lowerBound
    if let engine = json["harfbuzz"] {
      self.engine = try FixtureCase.engine(engine, context: "\(context2): harfbuzz")
      engineRange = engine.range
    }
    name = named
    self.index = index
    switch (json["text"], json["unicodes"]) {
    case (let text?, nil):
      guard let value = text.string else {
        throw ShapingError(.badText, input: context2, reason: "\"text\" must be a string")
      }
      self.text = value
    case (nil, let unicodes?):
      guard let list = unicodes.string else {
        throw ShapingError(.badText, input: context2, reason: "\"unicodes\" must be a string (U+0041,U+0301)")
      }
      var view = String.UnicodeScalarView()
      do {
        view.append(contentsOf: try TextInput.scalars(fromUnicodesList: list))
      } catch let error as ShapingError {
        throw ShapingError(.badText, input: context2, reason: "\"unicodes\": \(error.description)")
      }
      self.text = String(view)
    default:
      throw ShapingError(
        .badText, input: context2, reason: "a case needs \"text\" or \"unicodes\" (one of them)")
    }
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
    fontbakery json: SourceJSON, index: Int, defaults: FixtureSettings,
    extras defaultExtras: FontbakeryExtras,
    file: String, source: [UInt8], expectationOptional: Bool = false
  ) throws {
    let context = "\(file): test \(index)"
    guard json.members != nil else {
      throw ShapingError(.badText, input: context, reason: "a test must be an object, found \(json.typeName)")
    }
    let own = try FixtureSettings(
      fontbakery: json, context: context,
      allowing: FontbakeryExtras.keys.union([
        "input", "expectation", "note", "only", "exclude", "collidoscope",
      ]))
    settings = own.over(defaults)
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

extension FixtureSettings {
  /// The request these settings describe, in the typed model every entry point shares; relative
  /// font paths are relative to `folder`, and `override` (a file) replaces the font.
  ///
  /// - Throws: `ShapingError` of kind `.invalidArgument` for a value that does not parse.
  public func shapingRequest(folder: String, font override: String? = nil) throws -> ShapingRequest {
    var fontOptions = ShapingFont.Options()
    if let points {
      fontOptions.size = try FontSize.checkedPoints(points, input: "points \(points)")
    } else if let fontSize {
      fontOptions.size = try FontSize(parsing: fontSize, name: "font_size")
    }
    if let variations {
      fontOptions.variations = try ShapingError.parsing("variations") {
        try variations.map(Variation.init(parsing:))
      }
    }
    if let fontFunctions {
      guard let value = Font.Functions(rawValue: fontFunctions) else {
        throw ShapingError(
          .invalidArgument, input: "font_funcs \"\(fontFunctions)\"", reason: "must be ot or ft")
      }
      fontOptions.functions = value
    }
    var font = FontSpecification(faceIndex: faceIndex, options: fontOptions, patternName: "font.pattern")
    if let file = override ?? fontFile {
      let path =
        file.hasPrefix("/") || override != nil || folder == "."
        ? file : Fixture.normalized("\(folder)/\(file)")
      font.source = .file(path)
    } else if let fontPattern {
      font.source = .pattern(fontPattern)
    }
    font.fallbackFiles = (fallbackFontFiles ?? []).map { file in
      file.hasPrefix("/") || folder == "." ? file : Fixture.normalized("\(folder)/\(file)")
    }
    font.usesFallback = fallback ?? true
    var options = ShapeOptions()
    if let features {
      options.features = try ShapingError.parsing("features") { try features.map(Feature.init(parsing:)) }
    }
    if let direction {
      options.direction = try ShapingError.parsing("direction") { try Direction(parsing: direction) }
    }
    if let script { options.script = try ShapingError.parsing("script") { try Script(parsing: script) } }
    if let language {
      options.language = try ShapingError.parsing("language") { try Language(parsing: language) }
    }
    if let clusterLevel, let value = Buffer.ClusterLevel(defined: clusterLevel) {
      options.clusterLevel = value
    }
    if let clusterUnit {
      guard let value = ClusterUnit(rawValue: clusterUnit) else {
        throw ShapingError(
          .invalidArgument, input: "cluster_unit \"\(clusterUnit)\"", reason: "must be scalars, utf8 or utf16"
        )
      }
      options.clusterUnit = value
    }
    options.paragraph = paragraph.flatMap(BaseDirection.init(rawValue:))
    options.lineWidth = lineWidth.map { Int32(clamping: $0) }
    options.alignment = alignment.flatMap(LineAlignment.init(rawValue:)) ?? .start
    options.breaksAnywhere = breaksAnywhere ?? false
    if options.paragraph == nil, options.lineWidth != nil {
      throw ShapingError(
        .invalidArgument, input: "width", reason: "lines are broken in paragraphs: add \"paragraph\": true")
    }
    return ShapingRequest(font: font, options: options)
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
