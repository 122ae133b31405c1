import HarfBuzz
import SwiftShapeUnicode

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
    // One span over the whole text (a caller styling whole lines) of global features: its
    // features over every cluster, made with the span.
    if spans.count == 1, let overAll = spans[0].featuresOverAll, spans[0].start == 0, spans[0].end == length,
      spans[0].points == nil, spans[0].fontFile == nil || spans[0].fontPattern == nil
    {
      return overAll
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

  /// (By the face itself, which the font made holds: by its file's name, two fonts loaded from
  /// memory under one name, `<memory>` by default, took each other's.)
  private struct DerivedKey: Hashable {
    var face: ObjectIdentifier
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
    let key = DerivedKey(face: ObjectIdentifier(font.font.face), options: options)
    if let made = derivedFonts.withLock({ $0[key] }) { return made }
    let made = try ShapingFont(face: font.font.face, file: font.identity.file, options: options)
    derivedFonts.withLock {
      if $0.count >= 256 { $0.removeAll() }
      $0[key] = made
    }
    return made
  }

  /// The font of a style whose spans set `file` (a font file, or a pattern's), `faceIndex`,
  /// `points` and `variations`, in a paragraph of `paragraphFont`: that font itself where they
  /// change nothing of it; another file at the paragraph font's scale, as a fallback font is,
  /// unless the spans set a size; the paragraph's own file with other options.
  static func font(
    file: String?, faceIndex: Int?, points: Double?, variations: [Variation], paragraphFont font: ShapingFont
  ) throws -> ShapingFont {
    var fontOptions = font.options
    if let points { fontOptions.size = .points(points) }
    if !variations.isEmpty { fontOptions.variations = variations }
    if file == nil, faceIndex == nil, fontOptions == font.options { return font }
    guard let file else { return try derived(from: font, faceIndex: faceIndex, options: fontOptions) }
    if points == nil, font.options.size == .unitsPerEm {
      fontOptions.size = .scale(x: font.scale.x, y: font.scale.y)
    }
    return try fonts.font(file: file, faceIndex: faceIndex ?? 0, options: fontOptions)
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
    // (The working arrays lent by the thread, `SpanScratch`: made for each paragraph, five small
    // arrays took 2.6 M of the 18.9 M instructions resolving a span a word took a pass over the
    // English text, callgrind.)
    let scratch = ThreadCache.current.spanScratch
    var scalarAt = scratch.scalarAt
    var ranges = scratch.ranges
    var cutting = scratch.cutting
    var edges = scratch.edges
    var over = scratch.over
    (scratch.scalarAt, scratch.ranges, scratch.cutting, scratch.edges, scratch.over) = ([], [], [], [], [])
    defer {
      scalarAt.removeAllKeepingCapacity()
      ranges.removeAllKeepingCapacity()
      cutting.removeAllKeepingCapacity()
      edges.removeAllKeepingCapacity()
      over.removeAllKeepingCapacity()
      (scratch.scalarAt, scratch.ranges, scratch.cutting, scratch.edges, scratch.over) = (
        scalarAt, ranges, cutting, edges, over
      )
    }
    scalarAt.append(contentsOf: repeatElement(-1, count: length + 1))
    scalarAt.withUnsafeMutableBufferPointer { scalarAt in
      for (scalar, offset) in offsets.enumerated() {
        precondition(offset >= 0 && offset <= length, "offsets out of the text")
        scalarAt[offset] = scalar
      }
    }
    func fail(_ index: Int, _ reason: String) -> ShapingError {
      ShapingError(.invalidArgument, input: "span \(index + 1)", reason: reason)
    }
    features = try Self.features(of: spans, length: length, font: font) { scalarAt[$0] >= 0 }
    for index in spans.indices {
      ranges.append(
        SpanRange(lowerBound: scalarAt[spans[index].start], upperBound: scalarAt[spans[index].end]))
    }
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
    styleOfScalar = [Int](filledWith: 0, count: scalarCount)
    // (Hashed only past the keys compared in the array: see below.)
    var styleOfKey: [Key: Int] = [:]
    var keys = [Key()]
    // The settings change only where a span that cuts runs starts or ends: each stretch between
    // two such edges is looked up once, in the spans over it (kept as the stretches go by, in the
    // spans' order). Two spans overlap where one starts inside the other: each span is checked
    // against those over the stretch it starts. (Each character looked up cost a span a word 14×
    // the paragraph without spans on the English text; each stretch looked up in every span, and
    // every pair of spans checked, 4×.)
    // (Spans given in order, apart, as a caller styling words gives them, are not sorted: the
    // sorts were a twentieth of resolving a span a word.)
    for index in spans.indices
    where spans[index].cutsRuns && ranges[index].lowerBound < ranges[index].upperBound {
      cutting.append(index)
    }
    func precedes(_ a: Int, _ b: Int) -> Bool { (ranges[a].lowerBound, a) < (ranges[b].lowerBound, b) }
    if cutting.indices.dropFirst().contains(where: { !precedes(cutting[$0 - 1], cutting[$0]) }) {
      cutting.sort(by: precedes)
    }
    edges.append(0)
    for index in cutting {
      edges.append(ranges[index].lowerBound)
      edges.append(ranges[index].upperBound)
    }
    edges.append(scalarCount)
    if edges.indices.dropFirst().contains(where: { edges[$0 - 1] > edges[$0] }) { edges.sort() }
    var next = 0
    var stretchStart = 0
    // The style of the last stretch under one span alone, by that span: a stretch under one span
    // whose settings are that span's takes it without a key made and compared (a span a word:
    // the words' stretches, between spaces under none).
    var lastAlone: (span: Int, style: Int)?
    // (Written through a buffer pointer: a scalar at a time, the property's array was checked for
    // uniqueness and bounds at each.)
    func setStyle(_ style: Int, of stretch: Range<Int>) {
      styleOfScalar.withUnsafeMutableBufferPointer { $0[stretch].update(repeating: style) }
    }
    func sameSettings(_ a: Int, _ b: Int) -> Bool {
      spans[a].fontFile == spans[b].fontFile && spans[a].fontPattern == spans[b].fontPattern
        && spans[a].faceIndex == spans[b].faceIndex && spans[a].points == spans[b].points
        && spans[a].variations == spans[b].variations && spans[a].language == spans[b].language
    }
    for stretchEnd in edges where stretchEnd > stretchStart {
      defer { stretchStart = stretchEnd }
      let scalar = stretchStart
      if over.count == 1 {
        // (Taken off the end: emptied through `removeAll(keepingCapacity:)`, which goes through
        // `replaceSubrange`, a span a word cost 1.1 M instructions more a pass over the English
        // text, callgrind.)
        if ranges[over[0]].upperBound <= scalar { over.removeLast() }
      } else if !over.isEmpty {
        over.removeAll { ranges[$0].upperBound <= scalar }
      }
      while next < cutting.count, ranges[cutting[next]].lowerBound <= scalar {
        let added = cutting[next]
        next += 1
        for other in over where conflict(spans[min(added, other)], spans[max(added, other)]) {
          throw fail(
            max(added, other), "overlaps span \(min(added, other) + 1) and sets the same setting differently")
        }
        if let after = over.firstIndex(where: { $0 > added }) {
          over.insert(added, at: after)
        } else {
          over.append(added)
        }
      }
      // Speed: a stretch under no span has the paragraph's own style; one under a span alone whose
      // settings are the last such span's, that span's style.
      if over.isEmpty {
        // (Each stretch is met once, and the scalars' styles start at 0.)
        continue
      }
      if over.count == 1, let last = lastAlone, last.span == over[0] || sameSettings(last.span, over[0]) {
        setStyle(last.style, of: stretchStart..<stretchEnd)
        continue
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
        setStyle(style, of: stretchStart..<stretchEnd)
        if over.count == 1 { lastAlone = (over[0], style) }
        continue
      }
      let styleFont: ShapingFont
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
        styleFont = try Self.font(
          file: file, faceIndex: faceIndex, points: key.points, variations: key.variations,
          paragraphFont: font)
      } catch let error as ShapingError {
        throw ShapingError(error.kind, input: "span \((firstSpan ?? 0) + 1)", reason: error.description)
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
      keys.append(key)
      if keys.count == 9 {
        for (style, known) in keys.enumerated() { styleOfKey[known] = style }
      } else if keys.count > 9 {
        styleOfKey[key] = styles.count
      }
      if over.count == 1 { lastAlone = (over[0], styles.count) }
      setStyle(styles.count, of: stretchStart..<stretchEnd)
      styles.append(
        Style(
          font: styleFont, language: key.language, span: firstSpan,
          ownsFont: key.fontFile != nil || key.fontPattern != nil || key.faceIndex != nil,
          fallback: fallback))
    }
  }
}

/// A span's range in scalars (`SpanStyles`). (Of a struct of its own: an array of `Range<Int>`
/// looks its type's metadata up each time it is made.)
struct SpanRange {
  var lowerBound: Int
  var upperBound: Int
}

/// What a thread's paragraphs with spans reuse: arrays lent to a paragraph and given back emptied,
/// with their capacity (`SpanStyles.init`, `shapeLanguageSpans`), and the result a paragraph of
/// language spans is shaped into whole.
final class SpanScratch {
  @exclusivity(unchecked) var scalarAt: [Int] = []
  @exclusivity(unchecked) var ranges: [SpanRange] = []
  @exclusivity(unchecked) var cutting: [Int] = []
  @exclusivity(unchecked) var edges: [Int] = []
  @exclusivity(unchecked) var over: [Int] = []
  /// A paragraph of language spans' runs, the first span of each language met (its language and
  /// index), and the cuts its runs require.
  @exclusivity(unchecked) var runs: [LanguageSpanRun] = []
  @exclusivity(unchecked) var firstSpans: [LanguageSpanRun] = []
  @exclusivity(unchecked) var cuts: [Int] = []
  /// The last answer to whether two languages shape a script alike, with the font's state's id.
  @exclusivity(unchecked) var lastAlike:
    (font: UInt64, script: Script, a: Language?, b: Language?, answer: Bool)?
  @exclusivity(unchecked) var result = ShapeResult()
  /// How many paragraphs the thread shaped as language spans.
  @exclusivity(unchecked) var paragraphs = 0
  /// The fonts of the styles of styled spans last resolved (`shapeStyledSpans`), the UTF-8 of a
  /// style's runs, and how many paragraphs the thread shaped as styled spans.
  @exclusivity(unchecked) var styleFonts = SpanStyleFonts()
  @exclusivity(unchecked) var bytes: [UInt8] = []
  @exclusivity(unchecked) var written: [Int] = []
  @exclusivity(unchecked) var styledParagraphs = 0
}

extension ShapingFont {
  /// The font of each scalar of a paragraph with spans, as an index into `runFonts` (which it
  /// fills): the scalar's style's font; where the paragraph's font lacks the character
  /// (`fallbackFonts`, the fallback's choice for each scalar, 0 for this font), the style's
  /// font when it has it, else the fallback's font.
  func styledFonts(
    _ scalars: [Unicode.Scalar], runs: [TextRun], styles: SpanStyles, fallbackFonts: [Int]?,
    into runFonts: inout [(font: ShapingFont, style: Int, isFallback: Bool)]
  ) throws -> [Int] {
    struct Key: Hashable {
      var style: Int
      var fallback: Int
    }
    // (The keys met are few, a span a word switching between two: compared in an array, not
    // hashed; and each style's font is read where a key is new, not at each scalar: hashing and
    // the font's retain and release at each scalar were most of this, callgrind.)
    var keys: [Key] = []
    var indexOf: [Key: Int] = [:]
    let firstFont = runFonts.count
    var last = Key(style: -1, fallback: -1)
    var fonts = [Int](filledWith: 0, count: scalars.count)
    // The fonts of the scalars of a style with a list of its own (a span's font pattern's), in
    // that list, found once a style.
    var ownFonts: [Int: [Int]?] = [:]
    let hasOwnList = styles.styles.map { $0.fallback != nil }
    for index in scalars.indices {
      let style = styles.styleOfScalar[index]
      var fallbackIndex: Int
      if hasOwnList[style], let own = styles.styles[style].fallback {
        if ownFonts[style] == nil {
          ownFonts[style] = .some(
            try own.fonts(
              for: scalars, runs: runs, primary: styles.styles[style].font, styles: styles.styleOfScalar))
        }
        fallbackIndex = ownFonts[style]!?[index] ?? 0
      } else {
        fallbackIndex = fallbackFonts?[index] ?? 0
        // A span's own font takes what it has before the fallback fonts; a span of this font at
        // another size or with other variations falls back as this font does.
        if fallbackIndex > 0, styles.styles[style].ownsFont,
          styles.styles[style].font.font.nominalGlyph(for: scalars[index]) != nil
        {
          fallbackIndex = 0
        }
      }
      let key = Key(style: style, fallback: fallbackIndex)
      if index > 0, key == last {
        fonts[index] = fonts[index - 1]
        continue
      }
      last = key
      if let known = keys.count <= 16 ? keys.firstIndex(of: key).map({ firstFont + $0 }) : indexOf[key] {
        fonts[index] = known
        continue
      }
      let styleFont = styles.styles[style].font
      // A fallback font at the style's size (one given loaded at this font's size is made again
      // at the style's).
      var font = styleFont
      if fallbackIndex > 0,
        let fallbackFont = (styles.styles[style].fallback ?? fallback)?.font(
          fallbackIndex - 1, for: styleFont)
      {
        font = self.fallbackFont(fallbackFont, sizedAs: styleFont)
      }
      keys.append(key)
      // (Hashed only past the keys compared in the array: each key hashed cost a span a word
      // a twentieth of the paragraph's styles.)
      if keys.count == 17 {
        for (offset, known) in keys.enumerated() { indexOf[known] = firstFont + offset }
      } else if keys.count > 17 {
        indexOf[key] = runFonts.count
      }
      fonts[index] = runFonts.count
      runFonts.append((font, style, fallbackIndex > 0))
    }
    return fonts
  }

  /// A fallback font for a span's text at the span's size (`styleFont`'s): one loaded at this
  /// font's size is made again at the span's.
  func fallbackFont(_ fallbackFont: ShapingFont, sizedAs styleFont: ShapingFont) -> ShapingFont {
    guard styleFont.options.size != options.size, fallbackFont.options.size == options.size else {
      return fallbackFont
    }
    var sized = fallbackFont.options
    sized.size = styleFont.options.size
    return (try? SpanStyles.derived(from: fallbackFont, faceIndex: nil, options: sized)) ?? fallbackFont
  }
}
