import HarfBuzz

/// A range of a paragraph with a style of its own (`ShapeOptions.spans`): a font, a size,
/// variations, a language, features. What a span leaves nil (or empty) is the paragraph's.
///
/// A paragraph with spans is cut into runs where a span changes what HarfBuzz takes per buffer —
/// the font, the size, the variations, the language — on top of the cuts of bidi, script and
/// font fallback. A span that sets only features stays in its run: its features apply to its
/// range through HarfBuzz's feature ranges, so kerning and ligatures across its edges still apply.
/// Bidi, script itemization and context flow across span edges as inside one.
///
/// Spans may overlap; where they do, each setting comes from the one span that sets it (two
/// overlapping spans that set the same setting differently are an error), and features add up.
public struct TextSpan: Sendable, Hashable, Codable {
  /// Where the span starts, in the options' cluster unit from the start of the paragraph.
  public var start: Int
  /// Where the span ends (exclusive), in the same unit.
  public var end: Int
  /// A font file for the span's text; nil for the paragraph's font.
  public var fontFile: String?
  /// A font by fontconfig pattern (`Noto Sans:bold`), found through `TextSpan.fontLocator`; nil
  /// for none. A span names its font one way only.
  public var fontPattern: String?
  /// The face in `fontFile`; nil for 0 (or, without `fontFile`, the paragraph's face).
  public var faceIndex: Int?
  /// A size in points (the paragraph's font must be sized in points too, so that every run's
  /// positions are 26.6 points); nil for the paragraph's size.
  public var points: Double?
  /// Variation-axis settings for the span's font; empty for the paragraph font's.
  public var variations: [Variation]
  /// The span's language; nil for the paragraph's.
  public var language: Language?
  /// Features for the span's text, over the paragraph's (without ranges of their own).
  public var features: [Feature] {
    get { storedFeatures }
    set {
      storedFeatures = newValue
      featuresOverAll = Self.overAll(newValue)
    }
  }
  private var storedFeatures: [Feature]
  /// `features`, each ranged over every cluster of a run (`Feature.coversAll`), where each is
  /// global: what the span gives the one run of a paragraph it covers (`SpanStyles.runFeatures`),
  /// made with the span; nil where a feature has a range of its own, or there is none.
  /// (Made for each paragraph, and kept in the thread's cache from line to line, one span of
  /// `kern` over each line of the English text cost 310 instructions a line over the lines
  /// without it; made with the span, 265, callgrind.)
  private(set) var featuresOverAll: [Feature]?
  /// Makes the span a bidi isolate with this base direction (as FSI, LRI or RLI … PDI around it
  /// would); nil for none. Isolates nest, and may not otherwise overlap.
  public var direction: BaseDirection?

  /// A span of `start..<end` with the settings given.
  public init(
    _ range: Range<Int>, fontFile: String? = nil, fontPattern: String? = nil, faceIndex: Int? = nil,
    points: Double? = nil, variations: [Variation] = [], language: Language? = nil, features: [Feature] = [],
    direction: BaseDirection? = nil
  ) {
    self.direction = direction
    (start, end) = (range.lowerBound, range.upperBound)
    self.fontPattern = fontPattern
    (self.fontFile, self.faceIndex, self.points, self.variations) = (fontFile, faceIndex, points, variations)
    (self.language, storedFeatures) = (language, features)
    featuresOverAll = Self.overAll(features)
  }

  private static func overAll(_ features: [Feature]) -> [Feature]? {
    guard !features.isEmpty, features.allSatisfy({ $0.start == 0 && $0.end == Feature.globalEnd }) else {
      return nil
    }
    return features.map { feature in
      var covering = feature
      covering.end = Feature.coversAll
      return covering
    }
  }

  /// Whether the span sets anything that cuts runs (rather than only features).
  var cutsRuns: Bool {
    fontFile != nil || fontPattern != nil || faceIndex != nil || points != nil || !variations.isEmpty
      || language != nil
  }

  private enum CodingKeys: String, CodingKey {
    case start, end, fontFile = "font_file", fontPattern = "font", faceIndex = "face_index", points,
      variations
    case language, features, direction
  }

  /// Reads a span from SwiftShape's JSON form (`start`, `end`, and the settings it has).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    start = try container.decode(Int.self, forKey: .start)
    end = try container.decode(Int.self, forKey: .end)
    fontFile = try container.decodeIfPresent(String.self, forKey: .fontFile)
    fontPattern = try container.decodeIfPresent(String.self, forKey: .fontPattern)
    faceIndex = try container.decodeIfPresent(Int.self, forKey: .faceIndex)
    points = try container.decodeIfPresent(Double.self, forKey: .points)
    variations = try container.decodeIfPresent([Variation].self, forKey: .variations) ?? []
    language = try container.decodeIfPresent(Language.self, forKey: .language)
    storedFeatures = try container.decodeIfPresent([Feature].self, forKey: .features) ?? []
    direction = try container.decodeIfPresent(BaseDirection.self, forKey: .direction)
    featuresOverAll = Self.overAll(storedFeatures)
  }

  /// Writes the span in SwiftShape's JSON form, leaving out the settings it does not have.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(start, forKey: .start)
    try container.encode(end, forKey: .end)
    try container.encodeIfPresent(fontFile, forKey: .fontFile)
    try container.encodeIfPresent(fontPattern, forKey: .fontPattern)
    try container.encodeIfPresent(faceIndex, forKey: .faceIndex)
    try container.encodeIfPresent(points, forKey: .points)
    if !variations.isEmpty { try container.encode(variations, forKey: .variations) }
    try container.encodeIfPresent(language, forKey: .language)
    if !features.isEmpty { try container.encode(features, forKey: .features) }
    try container.encodeIfPresent(direction, forKey: .direction)
  }
}

extension TextSpan {
  /// Finds the font file and face of a font pattern (`fontPattern`); SwiftShapeRequests installs
  /// fontconfig's match (`fc-match`) before it shapes requests with spans. nil: patterns cannot be
  /// resolved, and a span with one is an error.
  public static var fontLocator: (@Sendable (String) throws -> (file: String, faceIndex: Int))? {
    get { locators.withLock { $0.font } }
    set { locators.withLock { $0.font = newValue } }
  }

  /// The fonts a span's text falls back on when the span names its font by pattern: the
  /// pattern's own list (fontconfig's sort for it, in the span's language), given the pattern, the
  /// language and the span's font (left out of the list). SwiftShapeRequests installs it with
  /// `fontLocator`. nil: a span's text falls back on the paragraph's list.
  public static var fallbackLocator: (@Sendable (String, Language?, ShapingFont) throws -> FontFallback?)? {
    get { locators.withLock { $0.fallback } }
    set { locators.withLock { $0.fallback = newValue } }
  }

  /// The two locators, in a struct of their own. (Kept as closures in `Protected` itself, each
  /// read handed the closure through `withLock`'s `inout` of a generic value, converted to and
  /// back from its generic form, and the conversions' thunks were written back around the
  /// stored closure: each read made every later call two frames deeper, so that a `<b>` every
  /// other word took time quadratic in the number of paragraphs (1,172 lines of English 126 ms,
  /// four copies 1.4 s). A struct's fields keep their own form.)
  private struct Locators: Sendable {
    var font: (@Sendable (String) throws -> (file: String, faceIndex: Int))?
    var fallback: (@Sendable (String, Language?, ShapingFont) throws -> FontFallback?)?
  }
  private static let locators = Protected(Locators())
}

extension TextSpan {
  /// The keys of the command line's span syntax (`--span START:END:KEY=VALUE;…`).
  public static let syntaxKeys = [
    "font-file", "font", "face-index", "size", "variations", "language", "features", "direction",
  ]

  /// Reads the command line's span syntax: `START:END` in the cluster unit, then optionally `:`
  /// and settings `KEY=VALUE` separated by `;` — `font-file`, `font` (a fontconfig pattern),
  /// `face-index`, `size` (points), `direction` (an isolate's: `auto`, `ltr`, `rtl`),
  /// `variations` and `features` (lists separated by commas, as `--variations` and `--features`
  /// take them), `language`.
  ///
  /// - Throws: `ShapingError` of kind `.invalidArgument` naming `input` and the value for anything
  ///   else: a range that is not two whole numbers, an unknown key, a value that does not parse,
  ///   a key given twice.
  public init(parsing text: String, input: String = "--span") throws {
    func fail(_ reason: String) -> ShapingError {
      ShapingError(.invalidArgument, input: "\(input)=\(text)", reason: reason)
    }
    let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count >= 2, let start = Int(parts[0]), let end = Int(parts[1]), start >= 0, end >= start
    else {
      throw fail("not a span (START:END[:KEY=VALUE;…], START and END whole numbers, END not before START)")
    }
    self.init(start..<end)
    guard parts.count == 3 else { return }
    var seen: Set<String> = []
    for setting in parts[2].split(separator: ";") {
      let pair = setting.split(separator: "=", maxSplits: 1)
      let key = String(pair[0])
      let value = pair.count == 2 ? String(pair[1]) : ""
      guard Self.syntaxKeys.contains(key) else {
        throw fail("unknown key '\(key)' (\(Self.syntaxKeys.joined(separator: ", ")))")
      }
      guard seen.insert(key).inserted else { throw fail("'\(key)' is given twice") }
      guard !value.isEmpty else { throw fail("'\(key)' needs a value") }
      do {
        switch key {
        case "font-file": fontFile = value
        case "font": fontPattern = value
        case "face-index":
          guard let index = Int(value), index >= 0 else {
            throw fail("face-index must be a whole number from 0")
          }
          faceIndex = index
        case "size":
          guard let points = Double(value) else { throw fail("size must be a number of points") }
          _ = try FontSize.checkedPoints(points, input: "size")
          self.points = points
        case "variations": variations = try Variation.parseList(value)
        case "features": features = try Feature.parseList(value)
        case "direction":
          guard let base = BaseDirection(rawValue: value) else {
            throw fail("direction must be auto, ltr or rtl")
          }
          direction = base
        default:
          guard let language = Language(harfBuzzString: value) else {
            throw fail("not a language: '\(value)'")
          }
          self.language = language
        }
      } catch let error as HarfBuzzError {
        throw fail(error.description)
      } catch let error as ShapingError where error.input == "size" {
        throw fail(error.reason)
      }
    }
  }

  /// The span in the command line's syntax, which `init(parsing:)` reads back.
  public var syntax: String {
    var settings: [String] = []
    if let fontFile { settings.append("font-file=\(fontFile)") }
    if let fontPattern { settings.append("font=\(fontPattern)") }
    if let faceIndex { settings.append("face-index=\(faceIndex)") }
    if let points {
      settings.append("size=\(points == points.rounded() ? String(Int(points)) : String(points))")
    }
    if !variations.isEmpty {
      settings.append("variations=\(variations.map(\.description).joined(separator: ","))")
    }
    if let language { settings.append("language=\(language.identifier)") }
    if !features.isEmpty { settings.append("features=\(features.map(\.description).joined(separator: ","))") }
    if let direction { settings.append("direction=\(direction.rawValue)") }
    return "\(start):\(end)" + (settings.isEmpty ? "" : ":" + settings.joined(separator: ";"))
  }
}

extension ShapingFont {
  /// The fonts the runs of a paragraph with spans were shaped with (`ShapedRun.span`), for
  /// `result` shaped with this font and `options` (its cluster unit and font options): a function
  /// that gives a run's font, the style's font of its first character (for a fallback run, its
  /// fallback font at that style's size); nil for a run without a span, or spans that no longer
  /// resolve. The spans are resolved once, on the first run that needs them.
  package func spanFonts(of result: ShapeResult, options givenOptions: ShapeOptions) -> (ShapedRun) ->
    ShapingFont?
  {
    var options = givenOptions
    options.spans = result.spans
    var resolved: (styles: SpanStyles, scalarAt: [Int: Int])??
    return { [self] run in
      guard run.span != nil, !options.spans.isEmpty, let start = run.range?.lowerBound else { return nil }
      if resolved == nil {
        let scalars = [Unicode.Scalar](scalarsOf: result.text)
        let offsets = ShapingFont.offsets(of: scalars, in: options.clusterUnit)
        resolved = .some(
          (try? SpanStyles(
            options.spans, scalarCount: scalars.count, offsets: offsets, font: self, options: options))
            .map { styles in
              (styles, Dictionary(uniqueKeysWithValues: offsets.dropLast().enumerated().map { ($1, $0) }))
            })
      }
      guard let found = resolved ?? nil, let first = found.scalarAt[start] else { return nil }
      return found.styles.font(of: run, at: first, paragraphFont: self)
    }
  }

}
