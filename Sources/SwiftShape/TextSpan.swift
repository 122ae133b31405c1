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
  public var features: [Feature]
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
    (self.language, self.features) = (language, features)
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
    features = try container.decodeIfPresent([Feature].self, forKey: .features) ?? []
    direction = try container.decodeIfPresent(BaseDirection.self, forKey: .direction)
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
    get { locator.withLock { $0 } }
    set { locator.withLock { $0 = newValue } }
  }
  private static let locator = Protected<(@Sendable (String) throws -> (file: String, faceIndex: Int))?>(nil)

  /// The fonts a span's text falls back on when the span names its font by pattern: the
  /// pattern's own list (fontconfig's sort for it, in the span's language), given the pattern, the
  /// language and the span's font (left out of the list). SwiftShapeRequests installs it with
  /// `fontLocator`. nil: a span's text falls back on the paragraph's list.
  public static var fallbackLocator: (@Sendable (String, Language?, ShapingFont) throws -> FontFallback?)? {
    get { fallbackLocatorStorage.withLock { $0 } }
    set { fallbackLocatorStorage.withLock { $0 = newValue } }
  }
  private static let fallbackLocatorStorage = Protected<
    (@Sendable (String, Language?, ShapingFont) throws -> FontFallback?)?
  >(nil)
}

/// A paragraph's spans resolved against its text and font: the style of each scalar, and the
/// features the spans add as ranged features.
struct SpanStyles {
  /// One combination of the settings that cut runs.
  struct Style {
    /// The font the style's text is shaped with (the paragraph's own when no span sets one).
    var font: ShapingFont
    var language: Language?
    /// The first span that gives the style a setting; nil for the paragraph's own style.
    var span: Int?
    /// Whether a span names the font (a file, a pattern, a face), rather than the paragraph's own
    /// at another size or with other variations.
    var ownsFont = false
    /// The fonts the style's text falls back on when its font is a pattern's: the pattern's own
    /// list (`TextSpan.fallbackLocator`); nil for the paragraph's.
    var fallback: FontFallback?
  }

  /// The font a run that starts at `scalar` was shaped with: its style's font, or for a fallback
  /// run the fallback font it names, from the style's own list or else `paragraphFont`'s, at the
  /// style's size; nil when the list has no such font.
  func font(of run: ShapedRun, at scalar: Int, paragraphFont: ShapingFont) -> ShapingFont? {
    let style = styles[styleOfScalar[scalar]]
    guard run.isFallback else { return style.font }
    return (style.fallback ?? paragraphFont.fallback)?
      .font(file: run.font.file, faceIndex: run.font.faceIndex, for: style.font)
      .map { paragraphFont.fallbackFont($0, sizedAs: style.font) }
  }

  /// The styles; 0 is the paragraph's own.
  var styles: [Style]
  /// The style of each scalar.
  var styleOfScalar: [Int]
  /// The spans' features, each with the span's range, in the cluster unit.
  var features: [Feature]

  /// Checks each span on its own — its range within the text's `length` (in the cluster unit) and
  /// on characters' edges (`isEdge`), its size, its features, its font given one way — and gives
  /// the spans' features, each with its span's range.
  ///
  /// - Throws: `ShapingError` of kind `.invalidArgument` naming the span.
  static func features(of spans: [TextSpan], length: Int, font: ShapingFont, isEdge: (Int) -> Bool) throws
    -> [Feature]
  {
    func fail(_ index: Int, _ reason: String) -> ShapingError {
      ShapingError(.invalidArgument, input: "span \(index + 1)", reason: reason)
    }
    var features: [Feature] = []
    // (Each span's fields read in place: a span copied out retains and releases its strings and
    // arrays, a fifth of resolving a span a word, callgrind.)
    for index in spans.indices {
      let (start, end) = (spans[index].start, spans[index].end)
      guard start >= 0, start <= end, end <= length else {
        throw fail(index, "\(start):\(end) is not a range of the text (0 to \(length))")
      }
      guard isEdge(start), isEdge(end) else {
        throw fail(index, "\(start):\(end) cuts a character")
      }
      if spans[index].points != nil, case .points = font.options.size {
      } else if spans[index].points != nil {
        throw fail(index, "a size in points needs the paragraph's font sized in points (--size)")
      }
      if !spans[index].features.isEmpty {
        for feature in spans[index].features {
          guard feature.start == 0, feature.end == Feature.globalEnd else {
            throw fail(index, "feature '\(feature)' has a range of its own; the span's range is its range")
          }
          var ranged = feature
          ranged.start = UInt32(start)
          ranged.end = UInt32(end)
          features.append(ranged)
        }
      }
      if spans[index].fontFile != nil, spans[index].fontPattern != nil {
        throw fail(index, "give the span's font one way (a file or a pattern)")
      }
    }
    return features
  }

  /// The features spans that set features alone give a paragraph of one run, each ranged over
  /// the run (`Feature.forRun`): a span over the whole text gives its features over every
  /// cluster (`Feature.coversAll`).
  ///
  /// Speed: one span of one feature over the whole text is set without the arrays of
  /// `features(ofFeatureSpans:text:unit:font:)` and `forRun` (callgrind: one span of `kern` a
  /// line of the English text cost 2,600 instructions a line, 8% of the line through the cache;
  /// 570 after).
  static func runFeatures(
    ofFeatureSpans spans: [TextSpan], text: String, unit: ClusterUnit, font: ShapingFont
  )
    throws -> [Feature]
  {
    let length = unit.length(of: text)
    // One span of one feature over the whole text (a caller styling whole lines): its feature
    // over every cluster, in the array of the last such line where the feature is the same (a
    // new array a line was a fifth of what the span cost).
    if spans.count == 1, spans[0].start == 0, spans[0].end == length, spans[0].features.count == 1,
      spans[0].points == nil, spans[0].fontFile == nil || spans[0].fontPattern == nil,
      spans[0].features[0].start == 0, spans[0].features[0].end == Feature.globalEnd
    {
      let cache = ThreadCache.current
      if let last = cache.lastSpanFeature, last.given == spans[0].features[0] { return last.run }
      var covering = spans[0].features[0]
      covering.end = Feature.coversAll
      let run = [covering]
      cache.lastSpanFeature = (spans[0].features[0], run)
      return run
    }
    return try features(ofFeatureSpans: spans, text: text, unit: unit, font: font)
      .compactMap { $0.forRun(0..<length, clustersFrom: 0) }
  }

  /// The features of spans that set features alone (`cutsRuns` false for each), checked as
  /// `features(of:length:font:isEdge:)` checks them, for `text` in `unit`, without the arrays a
  /// paragraph's styles need.
  static func features(ofFeatureSpans spans: [TextSpan], text: String, unit: ClusterUnit, font: ShapingFont)
    throws -> [Feature]
  {
    switch unit {
    case .unicodeScalars:
      return try features(of: spans, length: text.unicodeScalars.count, font: font) { _ in true }
    case .utf8:
      let utf8 = text.utf8
      return try features(of: spans, length: utf8.count, font: font) { offset in
        offset == utf8.count || utf8[utf8.index(utf8.startIndex, offsetBy: offset)] & 0xC0 != 0x80
      }
    case .utf16:
      let utf16 = text.utf16
      return try features(of: spans, length: utf16.count, font: font) { offset in
        offset == utf16.count
          || !UTF16.isTrailSurrogate(utf16[utf16.index(utf16.startIndex, offsetBy: offset)])
      }
    }
  }

  /// The isolates of spans with a direction, in scalar indices (`offsets[k]`: where scalar `k`
  /// starts in the cluster unit, the spans' ranges already checked).
  ///
  /// - Throws: `ShapingError` of kind `.invalidArgument` naming a span whose isolate overlaps
  ///   another's without nesting in it.
  static func isolates(of spans: [TextSpan], offsets: [Int]) throws -> [Isolate] {
    var scalarAt = [Int: Int]()
    for (scalar, offset) in offsets.enumerated() { scalarAt[offset] = scalar }
    var isolates: [(span: Int, isolate: Isolate)] = []
    for (index, span) in spans.enumerated() {
      guard let direction = span.direction, let start = scalarAt[span.start], let end = scalarAt[span.end]
      else {
        continue
      }
      let range = start..<end
      for other in isolates where other.isolate.range.overlaps(range) {
        let nested =
          (other.isolate.range.lowerBound <= range.lowerBound
            && range.upperBound <= other.isolate.range.upperBound)
          || (range.lowerBound <= other.isolate.range.lowerBound
            && other.isolate.range.upperBound <= range.upperBound)
        guard nested else {
          throw ShapingError(
            .invalidArgument, input: "span \(index + 1)",
            reason: "its isolate overlaps span \(other.span + 1)'s without nesting in it")
        }
      }
      isolates.append((index, Isolate(range, base: direction)))
    }
    // Outer isolates first where two start at one place, so that their initiators come first.
    return isolates.map(\.isolate).sorted {
      $0.range.lowerBound != $1.range.lowerBound
        ? $0.range.lowerBound < $1.range.lowerBound : $0.range.upperBound > $1.range.upperBound
    }
  }

  /// The fonts spans name, loaded once per file, face and options.
  private static let fonts = FontCache()

  private struct DerivedKey: Hashable {
    var file: String
    var faceIndex: Int
    var options: ShapingFont.Options
  }

  /// The paragraph's own font (or another face of its file) with other options, made once.
  private static let derivedFonts = Protected<[DerivedKey: ShapingFont]>([:])

  static func derived(from font: ShapingFont, faceIndex: Int?, options: ShapingFont.Options) throws
    -> ShapingFont
  {
    if let faceIndex, faceIndex != font.identity.faceIndex {
      return try fonts.font(file: font.identity.file, faceIndex: faceIndex, options: options)
    }
    let key = DerivedKey(file: font.identity.file, faceIndex: font.identity.faceIndex, options: options)
    if let made = derivedFonts.withLock({ $0[key] }) { return made }
    let made = try ShapingFont(face: font.font.face, file: font.identity.file, options: options)
    derivedFonts.withLock {
      if $0.count >= 256 { $0.removeAll() }
      $0[key] = made
    }
    return made
  }

  /// Resolves `spans` for a paragraph of `scalars` shaped with `font` and `options` (whose cluster
  /// unit the spans' ranges count in; `offsets[k]` is where scalar `k` starts in that unit).
  ///
  /// - Throws: `ShapingError` of kind `.invalidArgument` naming the span (`span 2`, counted from
  ///   1) for a range past the text or inside a character, a feature with a range of its own, a
  ///   size when the paragraph's font is not sized in points, two overlapping spans that set a
  ///   setting differently; what loading a span's font throws, naming the span.
  init(_ spans: [TextSpan], scalarCount: Int, offsets: [Int], font: ShapingFont, options: ShapeOptions) throws
  {
    let length = offsets[scalarCount]
    var scalarAt = [Int](repeating: -1, count: length + 1)
    for (scalar, offset) in offsets.enumerated() { scalarAt[offset] = scalar }
    func fail(_ index: Int, _ reason: String) -> ShapingError {
      ShapingError(.invalidArgument, input: "span \(index + 1)", reason: reason)
    }
    features = try Self.features(of: spans, length: length, font: font) { scalarAt[$0] >= 0 }
    let ranges = spans.map { scalarAt[$0.start]..<scalarAt[$0.end] }
    func differ<T: Equatable>(_ x: T?, _ y: T?) -> Bool { x != nil && y != nil && x != y }
    func conflict(_ first: TextSpan, _ second: TextSpan) -> Bool {
      differ(first.fontFile, second.fontFile) || differ(first.fontPattern, second.fontPattern)
        || (first.fontFile != nil && second.fontPattern != nil)
        || (first.fontPattern != nil && second.fontFile != nil) || differ(first.faceIndex, second.faceIndex)
        || differ(first.points, second.points) || differ(first.language, second.language)
        || (!first.variations.isEmpty && !second.variations.isEmpty && first.variations != second.variations)
    }
    // Each scalar's settings, then one style for each combination met.
    struct Key: Hashable {
      var fontFile: String?
      var fontPattern: String?
      var faceIndex: Int?
      var points: Double?
      var variations: [Variation] = []
      var language: Language?
    }
    styles = [Style(font: font, language: nil, span: nil)]
    styleOfScalar = [Int](repeating: 0, count: scalarCount)
    var styleOfKey: [Key: Int] = [Key(): 0]
    var keys = [Key()]
    // The settings change only where a span that cuts runs starts or ends: each stretch between
    // two such edges is looked up once, in the spans over it (kept as the stretches go by, in the
    // spans' order). Two spans overlap where one starts inside the other: each span is checked
    // against those over the stretch it starts. (Each character looked up cost a span a word 14×
    // the paragraph without spans on the English text; each stretch looked up in every span, and
    // every pair of spans checked, 4×.)
    let cutting = spans.indices.filter { spans[$0].cutsRuns && !ranges[$0].isEmpty }
      .sorted { (ranges[$0].lowerBound, $0) < (ranges[$1].lowerBound, $1) }
    var edges = [0, scalarCount]
    for index in cutting { edges += [ranges[index].lowerBound, ranges[index].upperBound] }
    edges.sort()
    var next = 0
    var over: [Int] = []
    var stretchStart = 0
    for stretchEnd in edges where stretchEnd > stretchStart {
      defer { stretchStart = stretchEnd }
      let scalar = stretchStart
      over.removeAll { ranges[$0].upperBound <= scalar }
      while next < cutting.count, ranges[cutting[next]].lowerBound <= scalar {
        let added = cutting[next]
        next += 1
        for other in over where conflict(spans[min(added, other)], spans[max(added, other)]) {
          throw fail(
            max(added, other), "overlaps span \(min(added, other) + 1) and sets the same setting differently")
        }
        over.insert(added, at: over.firstIndex { $0 > added } ?? over.count)
      }
      var key = Key()
      var firstSpan: Int?
      for index in over {
        if key.fontFile == nil { key.fontFile = spans[index].fontFile }
        if key.fontPattern == nil { key.fontPattern = spans[index].fontPattern }
        if key.faceIndex == nil { key.faceIndex = spans[index].faceIndex }
        if key.points == nil { key.points = spans[index].points }
        if key.variations.isEmpty { key.variations = spans[index].variations }
        if key.language == nil { key.language = spans[index].language }
        firstSpan = firstSpan ?? index
      }
      // The few styles a paragraph has are compared with, not hashed (hashing the key of each
      // stretch was a sixth of resolving a span a word, callgrind).
      if let style = styles.count <= 8 ? keys.firstIndex(of: key) : styleOfKey[key] {
        for index in stretchStart..<stretchEnd { styleOfScalar[index] = style }
        continue
      }
      var fontOptions = font.options
      if let points = key.points { fontOptions.size = .points(points) }
      if !key.variations.isEmpty { fontOptions.variations = key.variations }
      let styleFont: ShapingFont
      if key.fontFile == nil, key.fontPattern == nil, key.faceIndex == nil, fontOptions == font.options {
        styleFont = font
      } else {
        do {
          var file = key.fontFile
          var faceIndex = key.faceIndex
          if let pattern = key.fontPattern {
            guard let locate = TextSpan.fontLocator else {
              throw ShapingError(
                .invalidArgument, input: "'\(pattern)'",
                reason: "a font pattern needs fontconfig (TextSpan.fontLocator)")
            }
            let found = try locate(pattern)
            (file, faceIndex) = (found.file, faceIndex ?? found.faceIndex)
          }
          if let file {
            // A span's own font at the paragraph font's scale, as a fallback font is, unless the
            // span sets a size.
            if key.points == nil, font.options.size == .unitsPerEm {
              fontOptions.size = .scale(x: font.scale.x, y: font.scale.y)
            }
            styleFont = try Self.fonts.font(file: file, faceIndex: faceIndex ?? 0, options: fontOptions)
          } else {
            styleFont = try Self.derived(from: font, faceIndex: faceIndex, options: fontOptions)
          }
        } catch let error as ShapingError {
          throw ShapingError(error.kind, input: "span \((firstSpan ?? 0) + 1)", reason: error.description)
        }
      }
      // A pattern's font falls back on the pattern's own list, as fontconfig sorts it.
      var fallback: FontFallback?
      if let pattern = key.fontPattern, let locate = TextSpan.fallbackLocator {
        do {
          fallback = try locate(pattern, key.language ?? options.language, styleFont)
        } catch let error as ShapingError {
          throw ShapingError(error.kind, input: "span \((firstSpan ?? 0) + 1)", reason: error.description)
        }
      }
      styleOfKey[key] = styles.count
      keys.append(key)
      for index in stretchStart..<stretchEnd { styleOfScalar[index] = styles.count }
      styles.append(
        Style(
          font: styleFont, language: key.language, span: firstSpan,
          ownsFont: key.fontFile != nil || key.fontPattern != nil || key.faceIndex != nil,
          fallback: fallback))
    }
  }
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
