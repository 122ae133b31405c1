import HarfBuzz

// SwiftShape's JSON is written by one writer, `ShapeDocument`'s (ShapeDocumentEntries.swift); the
// `Encodable` conformances (`ShapeDocument`, `ShapedGlyph`) hand its bytes to the encoder, and a
// document decodes back into the results it was written from (`DecodedShapeDocument`).

extension ShapeDocument: Encodable {
  /// Encodes the document as its writer writes it (`jsonBytes(.compact)`), key for key.
  public func encode(to encoder: any Encoder) throws {
    try SourceJSON.parse(jsonBytes(.compact)).encode(to: encoder)
  }
}

extension PositionUnit {
  /// The unit the document names `units` (`font-units`, `26.6`, `1/N em`), with what it needs from
  /// the header: the units per em, the scale and the point size.
  init(named name: String, unitsPerEm: Int, scale: Scale, points: Double?, codingPath: [any CodingKey]) throws
  {
    switch name {
    case "font-units": self = .fontUnits(unitsPerEm: unitsPerEm)
    case "26.6": self = .fixed26_6(points: points ?? Double(scale.x) / 64)
    case _ where name.hasPrefix("1/"): self = .scaled(x: scale.x, y: scale.y)
    default:
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: codingPath, debugDescription: "unknown units '\(name)' (font-units, 26.6 or 1/N em)"))
    }
  }
}

extension TraceEvent: Decodable {
  private enum CodingKeys: String, CodingKey {
    case message, glyphs, codepoints
  }

  /// A code point of an event before the text became glyphs.
  private struct CodePoint: Decodable {
    var codepoint: UInt32
    var cluster: Int
  }

  /// Reads it from SwiftShape's JSON form.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let message = try container.decode(String.self, forKey: .message)
    if let codePoints = try container.decodeIfPresent([CodePoint].self, forKey: .codepoints) {
      self.init(
        message: message,
        glyphs: codePoints.map { ShapedGlyph(id: $0.codepoint, cluster: $0.cluster, xAdvance: 0) },
        hasPositions: false, holdsCodePoints: true)
      return
    }
    // Positions are written once positioning has started: the first glyph tells.
    var items = try container.nestedUnkeyedContainer(forKey: .glyphs)
    var hasPositions = false
    if !items.isAtEnd {
      let first = try items.nestedContainer(keyedBy: ShapedGlyph.PositionKey.self)
      hasPositions = first.contains(.xAdvance)
    }
    self.init(
      message: message, glyphs: try container.decode([ShapedGlyph].self, forKey: .glyphs),
      hasPositions: hasPositions)
  }
}

extension ShapedGlyph {
  /// The key whose presence says a glyph object has positions.
  enum PositionKey: String, CodingKey {
    case xAdvance = "x_advance"
  }
}

/// A SwiftShape JSON document read back (`-O json`, or a line of `-O jsonl` or `--requests`):
/// what it says of the font and options, and its results, equal to the ones it was written from.
///
/// ```swift
/// let document = try JSONDecoder().decode(DecodedShapeDocument.self, from: data)
/// for entry in document.results { print(entry.line, entry.result.glyphs.count) }
/// ```
public struct DecodedShapeDocument: Decodable, Sendable {
  /// The HarfBuzz version the text was shaped with.
  public var harfbuzz: String
  /// The font, as the document names it.
  public var font: FontIdentity
  /// The fontconfig pattern the font was found by, when it was.
  public var pattern: String?
  /// The features and variations shaped with, in HarfBuzz's syntax.
  public var features: [String]
  /// Variation settings in HarfBuzz's syntax.
  public var variations: [String]
  /// The cluster level and unit shaped with.
  public var clusterLevel: Int
  /// What clusters count.
  public var clusterUnit: ClusterUnit
  /// The results, each with its input line number.
  public var results: [ShapeDocument.Entry]

  private enum CodingKeys: String, CodingKey {
    case format, version, harfbuzz, font, units, scale, ptem, variations, features
    case clusterLevel = "cluster_level"
    case clusterUnit = "cluster_unit"
    case results
  }

  private enum FontKeys: String, CodingKey { case pattern }

  /// Reads it from SwiftShape's JSON form.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    guard try container.decode(String.self, forKey: .format) == ShapeDocument.format else {
      throw DecodingError.dataCorruptedError(
        forKey: .format, in: container, debugDescription: "not a \(ShapeDocument.format) document")
    }
    harfbuzz = try container.decode(String.self, forKey: .harfbuzz)
    font = try container.decode(FontIdentity.self, forKey: .font)
    pattern = try container.nestedContainer(keyedBy: FontKeys.self, forKey: .font).decodeIfPresent(
      String.self, forKey: .pattern)
    features = try container.decode([String].self, forKey: .features)
    variations = try container.decode([String].self, forKey: .variations)
    clusterLevel = try container.decode(Int.self, forKey: .clusterLevel)
    clusterUnit = try container.decode(ClusterUnit.self, forKey: .clusterUnit)
    let scale = try container.decode(Scale.self, forKey: .scale)
    let unit = try PositionUnit(
      named: try container.decode(String.self, forKey: .units), unitsPerEm: font.unitsPerEm, scale: scale,
      points: try container.decodeIfPresent(Double.self, forKey: .ptem), codingPath: container.codingPath)
    let font = font
    let clusterUnit = clusterUnit
    results = try container.decode([EntryFields].self, forKey: .results).map { entry in
      func run(_ fields: RunFields, level: UInt8?, range: Range<Int>?) -> ShapedRun {
        var run = ShapedRun(
          font: fields.font.map {
            font.file == $0.file && font.faceIndex == $0.faceIndex ? font : $0.identity(like: font)
          }
            ?? font,
          unit: unit, scale: scale, direction: fields.direction, script: fields.script,
          language: fields.language.flatMap(Language.init(harfBuzzString:)), glyphs: fields.glyphs)
        run.level = level
        run.range = range
        run.isFallback = fields.font?.fallback ?? false
        run.span = fields.span
        return run
      }
      var result: ShapeResult
      if let lines = entry.lines {
        let shapedLines = lines.map { line in
          var shaped = ShapedLine(
            range: line.range[0]..<max(line.range[0], line.range[1]), advance: line.advance,
            visibleAdvance: line.visibleAdvance, ascent: line.ascent, descent: line.descent,
            baseline: line.baseline,
            x: line.x,
            runs: line.runs.map { run($0, level: $0.level, range: $0.range.map { $0[0]..<$0[1] }) },
            fill: line.fill)
          shaped.hyphen = line.hyphen ?? false
          return shaped
        }
        result = ShapeResult(
          text: entry.text, clusterUnit: clusterUnit, runs: shapedLines.flatMap(\.runs), trace: entry.trace)
        result.baseLevel = entry.level
        result.lines = shapedLines
        result.reshapedEdges = entry.reshapedEdges ?? 0
        result.missingCharacters = entry.missing ?? []
      } else if let runs = entry.runs {
        result = ShapeResult(
          text: entry.text, clusterUnit: clusterUnit,
          runs: runs.map { run($0, level: $0.level, range: $0.range.map { $0[0]..<$0[1] }) },
          trace: entry.trace)
        result.baseLevel = entry.level
        result.missingCharacters = entry.missing ?? []
      } else {
        result = ShapeResult(
          text: entry.text, clusterUnit: clusterUnit, runs: [run(entry.run, level: nil, range: nil)],
          trace: entry.trace)
      }
      return ShapeDocument.Entry(line: entry.line, result: result)
    }
  }

  /// A run's font as a paragraph names it.
  private struct RunFont: Decodable {
    var file: String
    var faceIndex: Int
    var family: String?
    var fallback: Bool?
    private enum CodingKeys: String, CodingKey {
      case file
      case faceIndex = "face_index"
      case family, fallback
    }
    /// The identity of a font the document names only by file, face and family.
    func identity(like font: FontIdentity) -> FontIdentity {
      FontIdentity(
        file: file, faceIndex: faceIndex, unitsPerEm: font.unitsPerEm, glyphCount: 0, family: family)
    }
  }

  /// A line of a paragraph broken to a width, as the document writes it.
  private struct LineFields: Decodable {
    var range: [Int]
    var advance, visibleAdvance, ascent, descent, baseline, x: Int32
    var fill: LineFill?
    var hyphen: Bool?
    var runs: [RunFields]

    private enum CodingKeys: String, CodingKey {
      case range, advance
      case visibleAdvance = "visible_advance"
      case ascent, descent, baseline, x, fill, hyphen, runs
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      range = try container.decode([Int].self, forKey: .range)
      guard range.count == 2 else {
        throw DecodingError.dataCorruptedError(
          forKey: .range, in: container, debugDescription: "not [start, end]")
      }
      advance = try container.decode(Int32.self, forKey: .advance)
      visibleAdvance = try container.decode(Int32.self, forKey: .visibleAdvance)
      ascent = try container.decode(Int32.self, forKey: .ascent)
      descent = try container.decode(Int32.self, forKey: .descent)
      baseline = try container.decode(Int32.self, forKey: .baseline)
      x = try container.decode(Int32.self, forKey: .x)
      fill = try container.decodeIfPresent(LineFill.self, forKey: .fill)
      hyphen = try container.decodeIfPresent(Bool.self, forKey: .hyphen)
      runs = try container.decode([RunFields].self, forKey: .runs)
    }
  }

  /// A run as the document writes it.
  private struct RunFields: Decodable {
    var font: RunFont?
    var level: UInt8?
    var range: [Int]?
    var span: Int?
    var direction: Direction
    var script: Script
    var language: String?
    var glyphs: [ShapedGlyph]
  }

  /// A result as the document writes it: one run's members, or a paragraph's level and runs; the
  /// font, unit and cluster unit come from the header.
  private struct EntryFields: Decodable {
    var line: Int
    var text: String
    var level: UInt8?
    var runs: [RunFields]?
    var run: RunFields
    var trace: [TraceEvent]?
    var missing: [MissingCharacter]?
    var lines: [LineFields]?
    var reshapedEdges: Int?

    private enum CodingKeys: String, CodingKey {
      case line, text, level, runs, trace, direction, missing, lines
      case reshapedEdges = "reshaped_edges"
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      line = try container.decode(Int.self, forKey: .line)
      text = try container.decode(String.self, forKey: .text)
      level = try container.decodeIfPresent(UInt8.self, forKey: .level)
      runs = try container.decodeIfPresent([RunFields].self, forKey: .runs)
      trace = try container.decodeIfPresent([TraceEvent].self, forKey: .trace)
      missing = try container.decodeIfPresent([MissingCharacter].self, forKey: .missing)
      lines = try container.decodeIfPresent([LineFields].self, forKey: .lines)
      reshapedEdges = try container.decodeIfPresent(Int.self, forKey: .reshapedEdges)
      run =
        runs == nil && lines == nil
        ? try RunFields(from: decoder)
        : RunFields(
          font: nil, level: nil, range: nil, direction: .leftToRight, script: .common, language: nil,
          glyphs: [])
    }
  }
}
