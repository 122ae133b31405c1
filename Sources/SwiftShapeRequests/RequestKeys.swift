import HarfBuzz
import SwiftShape

/// One setting of a shaping request in JSON — fixture cases and their defaults, `--requests`
/// lines — declared once: its key, the command-line options it stands for, how its value is read
/// into a ``ShapingRequest`` and how it is written from one. Every JSON syntax reads and writes
/// through ``all``; an option of the shaping commands is one declaration on the command line and
/// one key here (a test checks that each has one, or that `record` refuses it).
public struct RequestKey: Sendable {
  /// The JSON key (`font_size`).
  public let name: String
  /// The command-line options that set the same value (`--font-size`), the first one named in
  /// messages.
  public let options: [String]
  /// Whether fixtures take the key too; output keys (`glyph_names`, `extents`) are for requests.
  public let inFixtures: Bool
  let read: @Sendable (SourceJSON, inout ShapingRequest, KeyReading) throws -> Void
  /// The value as JSON text, or nil when the request has the default (the key is not written).
  let write: @Sendable (ShapingRequest, KeyWriting) -> String?

  init(
    _ name: String, _ options: [String], inFixtures: Bool = true,
    read: @escaping @Sendable (SourceJSON, inout ShapingRequest, KeyReading) throws -> Void,
    write: @escaping @Sendable (ShapingRequest, KeyWriting) -> String?
  ) {
    self.name = name
    self.options = options
    self.inFixtures = inFixtures
    self.read = read
    self.write = write
  }

  /// The key named `name`.
  public static func named(_ name: String) -> RequestKey? { positions[name].map { all[$0] } }

  /// Each key's position in `all`, by name.
  static let positions = Dictionary(uniqueKeysWithValues: all.enumerated().map { ($1.name, $0) })
}

/// How one value is being read: what errors name, how relative paths are taken.
struct KeyReading {
  /// The key as errors name it (`font.face_index`).
  var key: String
  /// Where the object is (`f.json: case 2`, `request`).
  var context: String
  var kind: ShapingError.Kind
  /// The folder relative font paths are relative to.
  var folder: String
  /// Whether a value that does not parse is named with `context` (in a file of many objects) or
  /// alone (a request line answers for itself).
  var placesValueErrors = true

  func fail(_ expected: String) -> ShapingError {
    ShapingError(kind, input: context, reason: "\"\(key)\" must be \(expected)")
  }

  func bool(_ value: SourceJSON) throws -> Bool {
    guard let on = value.bool else { throw fail("true or false") }
    return on
  }

  func string(_ value: SourceJSON) throws -> String {
    guard let text = value.string else { throw fail("a string") }
    return text
  }

  /// A list of strings, or one string of items separated by commas.
  func strings(_ value: SourceJSON) throws -> [String] {
    if let text = value.string {
      return text.split(separator: ",").map { String($0).trimmingWhitespace() }
    }
    guard let items = value.array, items.allSatisfy({ $0.string != nil }) else {
      throw fail("a list of strings")
    }
    return items.compactMap(\.string)
  }

  func number(_ value: SourceJSON, in range: ClosedRange<Double>, _ expected: String) throws -> Double {
    guard let number = value.number, range.contains(number) else { throw fail(expected) }
    return number
  }

  func whole<T: FixedWidthInteger>(_ value: SourceJSON, in range: ClosedRange<Double>, _ expected: String)
    throws -> T
  {
    guard let number = value.number, number == number.rounded(), range.contains(number),
      let result = T(exactly: number)
    else { throw fail(expected) }
    return result
  }

  /// One number (for both) or a list of two (x and y).
  func pair(_ value: SourceJSON, in range: ClosedRange<Double>, _ expected: String) throws -> (Double, Double)
  {
    if let number = value.number, range.contains(number) { return (number, number) }
    guard let items = value.array, items.count == 2, let x = items[0].number, let y = items[1].number,
      range.contains(x), range.contains(y)
    else { throw fail(expected) }
    return (x, y)
  }

  /// A value parsed by HarfBuzz's or SwiftShape's own reader, its errors placed at `context`.
  func parsed<T>(_ body: () throws -> T) throws -> T {
    do {
      return try ShapingError.parsing(key, body)
    } catch let error as ShapingError {
      throw ShapingError(
        kind, input: placesValueErrors ? "\(context): \(error.input)" : error.input, reason: error.reason)
    }
  }

  /// A font path as given, taken relative to `folder`.
  func path(_ file: String) -> String {
    file.hasPrefix("/") || folder == "." ? file : RequestPaths.normalized("\(folder)/\(file)")
  }
}

/// How values are written: font paths as the file being written sees them.
struct KeyWriting {
  var path: @Sendable (String) -> String
}

/// JSON text for the values keys write.
enum JSONText {
  static func string(_ text: String) -> String {
    var out = ""
    JSONWriter.appendString(text, to: &out)
    return out
  }

  static func list(_ items: [String]) -> String { "[" + items.map(string).joined(separator: ", ") + "]" }

  /// A whole number as an integer (12, not 12.0); any other as Swift writes it.
  static func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
  }

  /// One number when both are equal, else a list of two.
  static func pair(_ x: String, _ y: String) -> String { x == y ? x : "[\(x), \(y)]" }
}

extension RequestKey {
  /// A key for a buffer flag the command line sets with a flag option.
  private static func flag(_ name: String, _ option: String, _ flag: Buffer.Flags) -> RequestKey {
    RequestKey(name, [option]) { value, request, reading in
      if try reading.bool(value) {
        request.options.bufferFlags.insert(flag)
      } else {
        request.options.bufferFlags.remove(flag)
      }
    } write: { request, _ in
      request.options.bufferFlags.contains(flag) ? "true" : nil
    }
  }

  /// A key for a Boolean option of `ShapeOptions`, written when it is not the default.
  private static func bool(
    _ name: String, _ option: String, inFixtures: Bool = true,
    _ field: WritableKeyPath<ShapeOptions, Bool> & Sendable
  ) -> RequestKey {
    RequestKey(name, [option], inFixtures: inFixtures) { value, request, reading in
      request.options[keyPath: field] = try reading.bool(value)
    } write: { request, _ in
      let value = request.options[keyPath: field]
      return value == ShapeOptions()[keyPath: field] ? nil : "\(value)"
    }
  }

  /// A key for a glyph ID.
  private static func glyph(
    _ name: String, _ option: String, _ field: WritableKeyPath<ShapeOptions, UInt32> & Sendable
  )
    -> RequestKey
  {
    RequestKey(name, [option]) { value, request, reading in
      request.options[keyPath: field] = try reading.whole(value, in: 0...Double(UInt32.max), "a glyph ID")
    } write: { request, _ in
      request.options[keyPath: field] == 0 ? nil : String(request.options[keyPath: field])
    }
  }

  /// A key for an optional value of `ShapeOptions` given as a string HarfBuzz's syntax reads,
  /// written as it describes itself.
  private static func parsed<Value: CustomStringConvertible & SendableMetatype>(
    _ name: String, _ option: String, _ field: WritableKeyPath<ShapeOptions, Value?> & Sendable,
    _ parse: @escaping @Sendable (String) throws -> Value
  ) -> RequestKey {
    RequestKey(name, [option]) { value, request, reading in
      let text = try reading.string(value)
      request.options[keyPath: field] = try reading.parsed { try parse(text) }
    } write: { request, _ in
      request.options[keyPath: field].map { JSONText.string($0.description) }
    }
  }

  /// A synthetic bold or grade strength.
  private static func emboldening(_ name: String, _ option: String, inPlace: Bool) -> RequestKey {
    RequestKey(name, [option]) { value, request, reading in
      let (x, y) = try reading.pair(value, in: -1...1, "a number from -1 to 1, or a list of two (x, y)")
      request.font.options.syntheticBold = Font.SyntheticBold(x: Float(x), y: Float(y), inPlace: inPlace)
    } write: { request, _ in
      guard let bold = request.font.options.syntheticBold, bold.inPlace == inPlace else { return nil }
      return JSONText.pair("\(bold.x)", "\(bold.y)")
    }
  }

  /// Every key, in the order they are read (a later key wins over an earlier one that sets the
  /// same value: `base_direction` over `paragraph`) and written.
  public static let all: [RequestKey] = fontKeys + shapingKeys + paragraphKeys + outputKeys

  private static let fontKeys: [RequestKey] = [
    RequestKey("font", ["--font-file", "--font"]) { value, request, reading in
      if let file = value.string {
        request.font.source = .file(reading.path(file))
        return
      }
      guard let members = value.members else { throw reading.fail("a file name or an object") }
      var file: String?
      var pattern: String?
      for (key, member) in members {
        var inner = reading
        inner.key = "font.\(key)"
        switch key {
        case "file": file = try inner.string(member)
        case "pattern": pattern = try inner.string(member)
        case "face_index", "variations": try RequestKey.named(key)!.read(member, &request, inner)
        default:
          throw ShapingError(reading.kind, input: reading.context, reason: "unknown key \"font.\(key)\"")
        }
      }
      switch (file, pattern) {
      case (let file?, nil): request.font.source = .file(reading.path(file))
      case (nil, let pattern?):
        request.font.source = .pattern(pattern)
        request.font.patternName = "font.pattern"
      case (nil, nil): break
      case (_?, _?):
        throw ShapingError(
          reading.kind, input: reading.context, reason: "give \"font.file\" or \"font.pattern\", not both")
      }
    } write: { request, writing in
      switch request.font.source {
      case .builtIn: nil
      case .file(let path): JSONText.string(writing.path(path))
      case .pattern(let pattern): "{\"pattern\": \(JSONText.string(pattern))}"
      }
    },
    RequestKey("face_index", ["--face-index"]) { value, request, reading in
      request.font.faceIndex = try reading.whole(value, in: 0...Double(Int32.max), "a whole number")
    } write: { request, _ in
      request.font.faceIndex.map(String.init)
    },
    RequestKey("strict", ["--strict"]) { value, request, reading in
      request.font.strict = try reading.bool(value)
    } write: { request, _ in
      request.font.strict ? "true" : nil
    },
    RequestKey("variations", ["--variations"]) { value, request, reading in
      let items = try reading.strings(value)
      request.font.options.variations = try reading.parsed { try items.map(Variation.init(parsing:)) }
    } write: { request, _ in
      let variations = request.font.options.variations
      return variations.isEmpty ? nil : JSONText.list(variations.map(\.description))
    },
    RequestKey("named_instance", ["--named-instance"]) { value, request, reading in
      request.font.options.namedInstance = try reading.whole(
        value, in: 0...Double(UInt32.max), "a whole number")
    } write: { request, _ in
      request.font.options.namedInstance.map(String.init)
    },
    RequestKey("font_size", ["--font-size"]) { value, request, reading in
      let text: String
      if let string = value.string {
        text = string
      } else if let number = value.number {
        text = JSONText.number(number)
      } else if let items = value.array, items.count == 2, let x = items[0].number, let y = items[1].number {
        text = "\(JSONText.number(x)) \(JSONText.number(y))"
      } else {
        throw reading.fail("\"upem\", a number or a list of two (x, y)")
      }
      request.font.options.size = try reading.parsed { try FontSize(parsing: text, name: reading.key) }
    } write: { request, _ in
      guard case .scale(let x, let y) = request.font.options.size else { return nil }
      return JSONText.pair(String(x), String(y))
    },
    RequestKey("points", ["--size"]) { value, request, reading in
      guard let points = value.number else { throw reading.fail("a number") }
      request.font.options.size = try reading.parsed {
        try FontSize.checkedPoints(points, input: "\(reading.key) \(points)")
      }
    } write: { request, _ in
      guard case .points(let points) = request.font.options.size else { return nil }
      return JSONText.number(points)
    },
    RequestKey("ppem", ["--font-ppem"]) { value, request, reading in
      let (x, y) = try reading.pair(
        value, in: 0...Double(UInt16.max), "a whole number from 0 to 65535, or a list of two (x, y)")
      guard x == x.rounded(), y == y.rounded() else {
        throw reading.fail("a whole number from 0 to 65535, or a list of two (x, y)")
      }
      request.font.options.ppem = (UInt32(x), UInt32(y))
    } write: { request, _ in
      let ppem = request.font.options.ppem
      return ppem == (0, 0) ? nil : JSONText.pair(String(ppem.x), String(ppem.y))
    },
    RequestKey("ptem", ["--font-ptem"]) { value, request, reading in
      request.font.options.pointSize = Float(
        try reading.number(
          value, in: 0...Double(Float.greatestFiniteMagnitude), "a number of points, 0 or more"))
    } write: { request, _ in
      request.font.options.pointSize == 0 ? nil : "\(request.font.options.pointSize)"
    },
    RequestKey("slant", ["--font-slant"]) { value, request, reading in
      request.font.options.syntheticSlant = Float(
        try reading.number(value, in: -64...64, "a ratio from -64 to 64"))
    } write: { request, _ in
      request.font.options.syntheticSlant == 0 ? nil : "\(request.font.options.syntheticSlant)"
    },
    emboldening("bold", "--font-bold", inPlace: false),
    emboldening("grade", "--font-grade", inPlace: true),
    RequestKey("font_funcs", ["--font-funcs"]) { value, request, reading in
      guard let name = value.string, let functions = Font.Functions(rawValue: name) else {
        throw reading.fail("\"ot\" or \"ft\"")
      }
      request.font.options.functions = functions
    } write: { request, _ in
      request.font.options.functions == .openType
        ? nil : JSONText.string(request.font.options.functions.rawValue)
    },
    RequestKey("ft_load_flags", ["--ft-load-flags"]) { value, request, reading in
      request.font.options.freeTypeLoadFlags = try reading.whole(
        value, in: Double(Int32.min)...Double(Int32.max), "a whole number")
    } write: { request, _ in
      request.font.options.freeTypeLoadFlags == 2 ? nil : String(request.font.options.freeTypeLoadFlags)
    },
  ]

  private static let shapingKeys: [RequestKey] = [
    RequestKey("features", ["--features"]) { value, request, reading in
      let items = try reading.strings(value)
      request.options.features = try reading.parsed { try items.map(Feature.init(parsing:)) }
    } write: { request, _ in
      request.options.features.isEmpty ? nil : JSONText.list(request.options.features.map(\.description))
    },
    RequestKey("shapers", ["--shapers"]) { value, request, reading in
      let items = try reading.strings(value)
      guard !items.isEmpty else { throw reading.fail("a list of shapers") }
      request.options.shapers = items
    } write: { request, _ in
      request.options.shapers.map(JSONText.list)
    },
    parsed("direction", "--direction", \.direction, Direction.init(parsing:)),
    parsed("script", "--script", \.script, Script.init(parsing:)),
    parsed("language", "--language", \.language, Language.init(parsing:)),
    RequestKey("cluster_level", ["--cluster-level"]) { value, request, reading in
      request.options.clusterLevel = Buffer.ClusterLevel(
        rawValue: try reading.whole(value, in: 0...3, "a cluster level from 0 to 3"))
    } write: { request, _ in
      let level = request.options.clusterLevel
      return level == .monotoneGraphemes ? nil : String(level.rawValue)
    },
    RequestKey("cluster_unit", ["--cluster-unit", "--utf8-clusters"]) { value, request, reading in
      guard let name = value.string, let unit = ClusterUnit(rawValue: name) else {
        throw reading.fail("\"scalars\", \"utf8\" or \"utf16\"")
      }
      request.options.clusterUnit = unit
    } write: { request, _ in
      request.options.clusterUnit == .unicodeScalars
        ? nil : JSONText.string(request.options.clusterUnit.rawValue)
    },
    RequestKey("text_before", ["--text-before", "--unicodes-before"]) { value, request, reading in
      request.options.textBefore = try reading.string(value)
    } write: { request, _ in
      request.options.textBefore.isEmpty ? nil : JSONText.string(request.options.textBefore)
    },
    RequestKey("text_after", ["--text-after", "--unicodes-after"]) { value, request, reading in
      request.options.textAfter = try reading.string(value)
    } write: { request, _ in
      request.options.textAfter.isEmpty ? nil : JSONText.string(request.options.textAfter)
    },
    flag("bot", "--bot", .beginningOfText),
    flag("eot", "--eot", .endOfText),
    flag("preserve_default_ignorables", "--preserve-default-ignorables", .preserveDefaultIgnorables),
    flag("remove_default_ignorables", "--remove-default-ignorables", .removeDefaultIgnorables),
    flag("unsafe_to_concat", "--unsafe-to-concat", .produceUnsafeToConcat),
    flag("safe_to_insert_tatweel", "--safe-to-insert-tatweel", .produceSafeToInsertTatweel),
    glyph("invisible_glyph", "--invisible-glyph", \.invisibleGlyph),
    glyph("not_found_glyph", "--not-found-glyph", \.notFoundGlyph),
    RequestKey("not_found_variation_selector_glyph", ["--not-found-variation-selector-glyph"]) {
      value, request, reading in
      request.options.notFoundVariationSelectorGlyph = try reading.whole(
        value, in: 0...Double(UInt32.max), "a glyph ID")
    } write: { request, _ in
      request.options.notFoundVariationSelectorGlyph.map(String.init)
    },
    bool("normalize_glyphs", "--normalize-glyphs", \.normalizeGlyphs),
    bool("verify", "--verify", \.verify),
  ]

  private static let paragraphKeys: [RequestKey] = [
    RequestKey("paragraph", ["--paragraph"]) { value, request, reading in
      request.options.paragraph = try reading.bool(value) ? .auto : nil
    } write: { request, _ in
      request.options.paragraph == .auto ? "true" : nil
    },
    RequestKey("base_direction", ["--base-direction"]) { value, request, reading in
      guard let name = value.string, let base = BaseDirection(rawValue: name) else {
        throw reading.fail("\"auto\", \"ltr\" or \"rtl\"")
      }
      request.options.paragraph = base
    } write: { request, _ in
      guard let base = request.options.paragraph, base != .auto else { return nil }
      return JSONText.string(base.rawValue)
    },
    RequestKey("fallback_font_files", ["--fallback-font-file"]) { value, request, reading in
      guard let items = value.array, items.allSatisfy({ $0.string?.isEmpty == false }) else {
        throw reading.fail("a list of font file names")
      }
      request.font.fallbackFiles = items.compactMap(\.string).map(reading.path)
    } write: { request, writing in
      request.font.fallbackFiles.isEmpty ? nil : JSONText.list(request.font.fallbackFiles.map(writing.path))
    },
    RequestKey("fallback", ["--no-fallback"]) { value, request, reading in
      request.font.usesFallback = try reading.bool(value)
    } write: { request, _ in
      request.font.usesFallback ? nil : "false"
    },
    RequestKey("width", ["--width"]) { value, request, reading in
      request.options.lineWidth = try reading.whole(
        value, in: 1...Double(Int32.max), "a whole number from 1 to 2147483647")
    } write: { request, _ in
      request.options.lineWidth.map(String.init)
    },
    RequestKey("align", ["--align"]) { value, request, reading in
      guard let name = value.string, let alignment = LineAlignment(rawValue: name) else {
        throw reading.fail("\"start\", \"end\", \"center\" or \"justify\"")
      }
      request.options.alignment = alignment
    } write: { request, _ in
      request.options.alignment == .start ? nil : JSONText.string(request.options.alignment.rawValue)
    },
    bool("break_anywhere", "--break-anywhere", \.breaksAnywhere),
    bool("hyphenate", "--hyphenate", \.hyphenates),
    RequestKey("kashida", ["--kashida"]) { value, request, reading in
      guard let name = value.string, let mode = KashidaMode(rawValue: name) else {
        throw reading.fail("\"auto\" or \"none\"")
      }
      request.options.kashida = mode
    } write: { request, _ in
      request.options.kashida.map { JSONText.string($0.rawValue) }
    },
    bool("markup", "--markup", \.readsMarkup),
    RequestKey("spans", ["--span"]) { value, request, reading in
      guard let items = value.array else { throw reading.fail("a list of span objects") }
      request.options.spans = try items.map { try TextSpan(reading: $0, reading) }
    } write: { request, writing in
      request.options.spans.isEmpty
        ? nil : "[" + request.options.spans.map { $0.json(writing) }.joined(separator: ", ") + "]"
    },
  ]

  private static let outputKeys: [RequestKey] = [
    bool("glyph_names", "--no-glyph-names", inFixtures: false, \.includeGlyphNames),
    bool("extents", "--show-extents", inFixtures: false, \.includeExtents),
  ]
}

extension ShapingRequest {
  /// Where a JSON object of settings comes from.
  package enum KeySyntax: Sendable {
    /// A fixture case or its defaults.
    case fixture
    /// A `--requests` line.
    case request
  }

  /// Reads the settings keys of a JSON object over this request: each key present sets its value,
  /// in ``RequestKey/all``'s order; other keys are an error unless `extra` allows them.
  ///
  /// - Parameters:
  ///   - context: where the object is, for errors (`f.json: case 2`).
  ///   - kind: the kind of the errors thrown.
  ///   - folder: the folder relative font paths are relative to.
  /// - Throws: `ShapingError` of kind `kind` naming `context` and the key: a value of the wrong type
  ///   or out of range, a value that does not parse, an unknown key, `points` with `font_size`.
  package mutating func read(
    _ json: SourceJSON, syntax: KeySyntax, context: String, kind: ShapingError.Kind, folder: String,
    allowing extra: Set<String> = []
  ) throws {
    guard let members = json.members else {
      throw ShapingError(kind, input: context, reason: "expected an object, found \(json.typeName)")
    }
    // Each member found in the table once (a dictionary lookup), then applied in the table's order.
    var found: [(index: Int, value: SourceJSON)] = []
    found.reserveCapacity(members.count)
    for (key, value) in members {
      if let index = RequestKey.positions[key], syntax == .request || RequestKey.all[index].inFixtures {
        found.append((index, value))
      } else if !extra.contains(key) {
        throw ShapingError(kind, input: context, reason: "unknown key \"\(key)\"")
      }
    }
    found.sort { $0.index < $1.index }
    if found.contains(where: { RequestKey.all[$0.index].name == "points" }),
      found.contains(where: { RequestKey.all[$0.index].name == "font_size" })
    {
      throw ShapingError(kind, input: context, reason: "\"points\" cannot be combined with \"font_size\"")
    }
    for (index, value) in found {
      let key = RequestKey.all[index]
      let reading = KeyReading(
        key: key.name, context: context, kind: kind, folder: folder, placesValueErrors: syntax == .fixture)
      try key.read(value, &self, reading)
    }
  }

  /// The settings keys of this request whose values differ from the defaults, as `"key": value`
  /// JSON text in ``RequestKey/all``'s order; font paths written as `path` gives them.
  package func keyMembers(
    syntax: KeySyntax, path: @escaping @Sendable (String) -> String = { $0 }
  ) -> [String] {
    let writing = KeyWriting(path: path)
    return RequestKey.all.compactMap { key in
      guard syntax == .request || key.inFixtures, let value = key.write(self, writing) else { return nil }
      return "\(JSONText.string(key.name)): \(value)"
    }
  }
}

/// Path arithmetic for files that name fonts by relative paths.
package enum RequestPaths {
  /// A path with `.` and `name/..` removed, so that `folder/../font.ttf` does not need `folder`.
  package static func normalized(_ path: String) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/", omittingEmptySubsequences: false) {
      if part == "." && !parts.isEmpty { continue }
      if part == "..", let last = parts.last, last != "..", last != ".", !last.isEmpty {
        parts.removeLast()
        continue
      }
      parts.append(part)
    }
    let joined = parts.joined(separator: "/")
    return joined.isEmpty ? "." : joined
  }

  /// `file` relative to the folder holding `other` (both as given, relative to the current
  /// folder or absolute).
  package static func relative(_ file: String, toFolderOf other: String) -> String {
    let target = absolute(file).split(separator: "/")
    let folder = absolute(other).split(separator: "/").dropLast()
    var common = 0
    while common < min(target.count, folder.count), target[common] == folder[common] { common += 1 }
    let up = Array(repeating: "..", count: folder.count - common)
    return (up + target[common...].map(String.init)).joined(separator: "/")
  }

  /// An absolute, normalized path.
  package static func absolute(_ path: String) -> String {
    var parts: [Substring] = []
    let full = path.hasPrefix("/") ? path : IO.currentDirectory() + "/" + path
    for part in full.split(separator: "/") {
      if part == "." { continue }
      if part == ".." {
        if !parts.isEmpty { parts.removeLast() }
        continue
      }
      parts.append(part)
    }
    return "/" + parts.joined(separator: "/")
  }
}

extension String {
  /// The string without leading and trailing white space.
  package func trimmingWhitespace() -> String {
    String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
  }
}
