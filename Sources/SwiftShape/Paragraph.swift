import HarfBuzz
import SwiftShapeUnicode

extension ShapingFont {
  /// Shapes a paragraph of mixed directions and scripts: its bidi levels are resolved (UAX #9,
  /// from `base`), it is cut into runs of one level and one script (UAX #24), each run is shaped
  /// as `shape(_:options:)` shapes a text — in its direction and script, with the rest of the
  /// paragraph as context, so that joining and kerning across run edges are right — and the runs
  /// come in visual order (rule L2).
  ///
  /// Each run carries its `level` and its `range` in the paragraph; glyph clusters count from the
  /// start of the paragraph, in `options.clusterUnit`, and feature ranges (`kern[3:5]`) count in
  /// the paragraph too. `options.direction` and `options.script` are not used: each run's come
  /// from the text.
  ///
  /// ```swift
  /// let result = try font.shapeParagraph("Hello שלום 123 مرحبا!")
  /// for run in result.runs { print(run.level!, run.direction, run.script, run.glyphs.count) }
  /// ```
  ///
  /// - Throws: what `shape(_:options:)` throws; `ShapingError` of kind `.internalFailure` when ICU
  ///   fails.
  public func shapeParagraph(
    _ text: String, options: ShapeOptions = ShapeOptions(), base: BaseDirection = .auto
  ) throws -> ShapeResult {
    var result = ShapeResult()
    try shapeParagraph(text, options: options, base: base, into: &result)
    return result
  }

  /// Shapes a paragraph as `shapeParagraph(_:options:base:)` does, into `result`: a paragraph of
  /// one run reuses its storage as `shape(_:options:into:)` does. When it throws, `result` is
  /// left as it was.
  func shapeParagraph(
    _ text: String, options: ShapeOptions, base: BaseDirection, into result: inout ShapeResult
  ) throws {
    // Speed: a paragraph of one run (one level, one script) with no fallback fonts is found
    // without the arrays itemization fills (a word of Hindi: 0.8 µs over plain shaping before).
    // Spans of features alone cut no run: such a paragraph takes the same way, their features
    // ranged settings of its one run.
    let featuresOnly = Self.spansSetFeaturesAlone(options.spans)
    let simple: (scriptTag: UInt32, scalars: Int)?
    do {
      simple =
        fallback == nil && (options.spans.isEmpty || featuresOnly)
        ? try ItemizedParagraph.singleRun(text, base: base) : nil
    } catch let error as UnicodeAlgorithmError {
      throw ShapingError(.internalFailure, input: "the paragraph", reason: error.description)
    }
    // (Where the text was itemized by bidi on the way, and the paragraph is of more than one run,
    // the itemization is taken below.)
    var itemizedBefore: (scalars: [Unicode.Scalar], paragraph: ItemizedParagraph)?
    // A paragraph without spans, or with spans of features alone, found of one run by bidi
    // (right-to-left text) is shaped as one found without it. (Through the general path, its
    // features were ranged and cut into three arrays a paragraph: one span a line of the Persian
    // text cost 4.7% more than none, and the paragraphs without spans 1.6% more, callgrind.)
    var single = simple.map {
      (
        baseLevel: UInt8(0), level: UInt8(0), script: Script(tag: OpenTypeTag(rawValue: $0.scriptTag)),
        scalars: $0.scalars
      )
    }
    if single == nil, featuresOnly || options.spans.isEmpty, fallback == nil {
      let scalars = [Unicode.Scalar](scalarsOf: text)
      do {
        let paragraph = try ItemizedParagraph(scalars, base: base, isolates: [])
        if paragraph.runs.count == 1 {
          single = (
            paragraph.baseLevel, paragraph.runs[0].level, Script(iso15924: paragraph.runs[0].script),
            scalars.count
          )
        } else {
          itemizedBefore = (scalars, paragraph)
        }
      } catch let error as UnicodeAlgorithmError {
        throw ShapingError(.internalFailure, input: "the paragraph", reason: error.description)
      }
    }
    if let single {
      // Spans of features alone: their features ranged over the run, in place of the spans.
      // (The paragraph's options are copied once, for the run: copied into a variable here for
      // the spans' features, they were copied twice for every paragraph, 1,172 copies more a
      // pass over the English text, callgrind.)
      let features =
        featuresOnly
        ? try SpanStyles.runFeatures(
          ofFeatureSpans: options.spans, text: text, unit: options.clusterUnit, font: self) : nil
      try shapeSingleRun(
        text, scalarCount: single.scalars, level: single.level, script: single.script,
        font: self, options: options, spanFeatures: consume features, into: &result)
      result.baseLevel = single.baseLevel
      result.spans = options.spans
      if result.runs.contains(where: { $0.glyphs.contains { $0.id == 0 } }) {
        let scalars = [Unicode.Scalar](scalarsOf: text)
        result.missingCharacters = missingCharacters(
          scalars, runs: [TextRun(range: 0..<scalars.count, level: single.level, script: "")],
          shaped: result.runs, options: options, text: text)
      }
      return
    }
    // Spans of languages alone over one run (LanguageSpanRuns.swift).
    // (Tried only where the first span sets a language, after the paragraphs of spans of
    // features alone have gone: asked of every paragraph with spans, its checks cost one span of
    // features a line 87 instructions a paragraph, and asked first, the paragraph retained its
    // spans' array, callgrind.)
    if Self.firstSpanSetsLanguage(options.spans),
      try shapeLanguageSpans(text, options: options, base: base, itemized: &itemizedBefore, into: &result)
    {
      return
    }
    // Spans of fonts and languages over one run (StyledSpanRuns.swift).
    if Self.firstSpanCutsRuns(options.spans),
      try shapeStyledSpans(text, options: options, base: base, itemized: &itemizedBefore, into: &result)
    {
      return
    }
    let scalars = itemizedBefore?.scalars ?? [Unicode.Scalar](scalarsOf: text)
    var spanFeatures: [Feature] = []
    let styles: SpanStyles?
    if options.spans.isEmpty {
      styles = nil
    } else if featuresOnly {
      // Spans of features alone: the paragraph's features, ranged.
      styles = nil
      spanFeatures = try SpanStyles.features(
        ofFeatureSpans: options.spans, text: text, unit: options.clusterUnit, font: self)
    } else {
      styles = try SpanStyles(
        options.spans, scalarCount: scalars.count,
        offsets: Self.offsets(of: scalars, in: options.clusterUnit),
        font: self, options: options)
      spanFeatures = styles?.features ?? []
    }
    // (A constant the closures below read in place: a variable they capture was copied at each
    // read, a run's options made from two copies, 160 instructions each, callgrind.)
    let options = spanFeatures.isEmpty ? options : options.addingFeatures(spanFeatures)
    let isolates =
      options.spans.contains(where: { $0.direction != nil })
      ? try SpanStyles.isolates(
        of: options.spans, offsets: Self.offsets(of: scalars, in: options.clusterUnit)) : []
    let paragraph: ItemizedParagraph
    // With spans: the fonts runs are shaped with, by the index each run carries.
    var styledRunFonts: [(font: ShapingFont, style: Int, isFallback: Bool)] = []
    do {
      // A paragraph of one level and one script, found without ICU's bidi (spans or fallback
      // fonts then cut it further).
      let itemized: ItemizedParagraph
      if let itemizedBefore, isolates.isEmpty {
        itemized = itemizedBefore.paragraph
      } else if styles != nil, isolates.isEmpty,
        let single = try ItemizedParagraph.singleRun(text, base: base)
      {
        itemized = ItemizedParagraph(
          baseLevel: 0,
          runs: [
            TextRun(
              range: 0..<single.scalars, level: 0,
              script: Script(tag: OpenTypeTag(rawValue: single.scriptTag)).description)
          ])
      } else {
        itemized = try ItemizedParagraph(scalars, base: base, isolates: isolates)
      }
      let fonts = try fallback?.fonts(
        for: scalars, runs: itemized.runs, primary: self, styles: styles?.styleOfScalar)
      if let styles, fonts == nil, !styles.styles.contains(where: { $0.fallback != nil }) {
        // Speed: without fallback fonts a scalar's font is its style's, and a run's font index its
        // style (a span a word: 8.8 M instructions a pass of 145.5 M found each scalar's font).
        styledRunFonts = styles.styles.enumerated().map { ($1.font, $0, false) }
        paragraph = itemized.splittingRuns(byFonts: styles.styleOfScalar)
      } else if let styles {
        paragraph = itemized.splittingRuns(
          byFonts: try styledFonts(
            scalars, runs: itemized.runs, styles: styles, fallbackFonts: fonts, into: &styledRunFonts))
      } else if let fonts {
        paragraph = itemized.splittingRuns(byFonts: fonts)
      } else {
        paragraph = itemized
      }
    } catch let error as UnicodeAlgorithmError {
      throw ShapingError(.internalFailure, input: "the paragraph", reason: error.description)
    }
    // (A constant from here: the closures below read it for each run, and a variable they
    // capture is checked for exclusive access at each read, 60 instructions, callgrind.)
    let runFonts = styledRunFonts
    func font(ofRun run: TextRun) -> ShapingFont {
      runFonts.isEmpty ? self.font(ofRun: run) : runFonts[run.font].font
    }
    // A paragraph of one run (one script, one level, one font) is shaped from its own string.
    if styles == nil, paragraph.runs.count == 1, let run = paragraph.runs.first {
      var runOptions = options
      if featuresOnly {
        let length = options.clusterUnit.length(of: text)
        runOptions.features = options.features.compactMap { $0.forRun(0..<length, clustersFrom: 0) }
        runOptions.spans = []
      }
      try shapeSingleRun(
        text, scalarCount: scalars.count, level: run.level, script: Script(iso15924: run.script),
        font: font(ofRun: run), options: runOptions, into: &result)
      result.baseLevel = paragraph.baseLevel
      result.spans = options.spans
      result.missingCharacters = missingCharacters(
        scalars, runs: paragraph.runs, shaped: result.runs, options: options, text: text)
      return
    }
    // Each run is added to HarfBuzz's buffer as an item of one text, the paragraph between the
    // context given before and after it, so that HarfBuzz takes each run's context from the
    // text around it (the paragraph's own, then the given context at its ends) with no string
    // made for a run. The text is in UTF-8, or in UTF-16 for UTF-16 clusters, which HarfBuzz then
    // numbers; `base` is where the paragraph starts in it.
    let utf16 = options.clusterUnit == .utf16
    var units: [UInt8] = []
    var units16: [UInt16] = []
    let base: Int
    if utf16 {
      units16 = Array(options.textBefore.utf16)
      base = units16.count
      units16 += text.utf16
      units16 += options.textAfter.utf16
    } else {
      units = Array(options.textBefore.utf8)
      base = units.count
      units += text.utf8
      units += options.textAfter.utf8
    }
    // Where each scalar starts in the units added, and in the cluster unit.
    // (Written in place: appended, each scalar's start cost a uniqueness check; filled with zeros
    // first, a pass more over the text.)
    // (A constant the closures below read, as `runFonts` is.)
    let starts = [Int](capacity: scalars.count + 1) { starts in
      var position = base
      for (index, scalar) in scalars.enumerated() {
        starts[index] = position
        position += utf16 ? UTF16.width(scalar) : UTF8.width(scalar)
      }
      starts[scalars.count] = position
      return scalars.count + 1
    }
    let clusterUnit = options.clusterUnit
    let paragraphLanguage = options.language
    func offset(_ scalar: Int) -> Int {
      clusterUnit == .unicodeScalars ? scalar : starts[scalar] - base
    }
    // Clusters as HarfBuzz numbers them: scalar indices (renumbered), or offsets into the units.
    let clusterBase = options.clusterUnit == .unicodeScalars ? 0 : base

    var shaped: [ShapedRun] = []
    var trace: [TraceEvent]? = options.trace ? [] : nil
    shaped.reserveCapacity(paragraph.runs.count)
    var piece = ShapeResult()
    // Each run's language and span, features (the paragraph's, cut to the run), and options (its
    // direction, script, features and language).
    // (Each run's style read from a table made once: read through the optional `styles` for each
    // run, its three arrays were retained and released each time, callgrind.)
    let styleOfRunFont: [(language: Language?, span: Int?)] =
      styles.map { styles in
        runFonts.map {
          let style = styles.styles[$0.style]
          return (style.language ?? paragraphLanguage, style.span)
        }
      } ?? []
    func style(ofRun run: TextRun) -> (language: Language?, span: Int?) {
      styleOfRunFont.isEmpty ? (paragraphLanguage, nil) : styleOfRunFont[run.font]
    }
    // Features that cover the whole paragraph (global, or from its start to its end, as a span
    // over the whole text gives them) are the same for every run: cut once. (Cut for each run, a
    // span of features a line of the Persian text, whose paragraphs hold a few runs, made an array
    // a run, 4.7% of the paragraphs' instructions, callgrind.)
    let paragraphLength = offset(scalars.count)
    let everyRunsFeatures: [Feature]? =
      !options.features.isEmpty
        && options.features.allSatisfy {
          $0.start == 0 && ($0.end == Feature.globalEnd || Int($0.end) >= paragraphLength)
        } ? options.features.compactMap { $0.forRun(0..<paragraphLength, clustersFrom: clusterBase) } : nil
    func features(ofRun run: TextRun) -> [Feature] {
      if let everyRunsFeatures { return everyRunsFeatures }
      let range = offset(run.range.lowerBound)..<offset(run.range.upperBound)
      return options.features.compactMap { $0.forRun(range, clustersFrom: clusterBase) }
    }
    // Each run's options: the paragraph's, made once, with the run's settings written in for each
    // run. (Made anew for each run, copied from the paragraph's, each run's options retained and
    // released their arrays and strings, 800 instructions a run, callgrind.)
    var runOptions = options
    runOptions.paragraph = nil
    if !runOptions.spans.isEmpty { runOptions.spans = [] }
    if let everyRunsFeatures, !everyRunsFeatures.isEmpty { runOptions.features = everyRunsFeatures }
    let paragraphFlags = options.bufferFlags
    func setSettings(
      ofRun run: TextRun, script: Script, language: Language?, in runOptions: inout ShapeOptions
    ) {
      runOptions.bufferFlags = paragraphFlags
      // The paragraph's first and last runs are the text's beginning and end (a mark that starts
      // the paragraph is shown on a dotted circle, as shaped alone).
      if run.range.lowerBound == 0 { runOptions.bufferFlags.insert(.beginningOfText) }
      if run.range.upperBound == scalars.count { runOptions.bufferFlags.insert(.endOfText) }
      runOptions.direction = run.isRightToLeft ? .rightToLeft : .leftToRight
      runOptions.script = script
      // (The array set only where there is one: set anew, an empty array was made and the
      // copy's released, callgrind.)
      if !options.features.isEmpty, everyRunsFeatures == nil { runOptions.features = features(ofRun: run) }
      runOptions.language = language
    }
    // Whether two languages shape alike (`FontCacheState.shapesAlike`), kept for the paragraph:
    // asked of the font's state for each pair of runs, under its locks and through its
    // dictionaries, it was a twentieth of a span of language a word (callgrind).
    var alike: [(a: Language?, b: Language?, script: Script, font: ShapingFont, answer: Bool)] = []
    func shapesAlike(_ a: Language?, _ b: Language?, script: Script, font: ShapingFont) -> Bool {
      if a == b { return true }
      if let known = alike.first(where: { $0.a == a && $0.b == b && $0.script == script && $0.font === font })
      {
        return known.answer
      }
      let answer = font.cacheState.shapesAlike(a, b, script: script, font: font.font)
      if alike.count < 16 { alike.append((a, b, script, font, answer)) }
      return answer
    }
    // Runs that differ only in language, shaped together where the cache takes them so
    // (CachedRunGroups.swift): the runs from `groupStart` on, and where the groups tried end.
    var grouped: [ShapedRun?] = []
    var groupStart = 0
    var groupsTried = 0
    // The last run's script, by its name. (Made from its name for each run, twice, 170
    // instructions each, callgrind.)
    var lastScript: (name: String, script: Script)?
    for (index, run) in paragraph.runs.enumerated() {
      let start = offset(run.range.lowerBound)
      let (language, spanIndex) = style(ofRun: run)
      let runFont = font(ofRun: run)
      let script: Script
      if let last = lastScript, last.name == run.script {
        script = last.script
      } else {
        script = Script(iso15924: run.script)
        lastScript = (run.script, script)
      }
      if styles != nil, !utf16, index >= groupsTried, options.usesCache, !options.trace {
        var last = index
        let runFeatures = options.features.isEmpty ? [] : features(ofRun: run)
        while last + 1 < paragraph.runs.count {
          let nextRun = paragraph.runs[last + 1]
          guard nextRun.font == run.font || font(ofRun: nextRun) === runFont, nextRun.level == run.level,
            nextRun.script == run.script,
            options.features.isEmpty || everyRunsFeatures != nil || features(ofRun: nextRun) == runFeatures,
            shapesAlike(language, style(ofRun: nextRun).language, script: script, font: runFont)
          else { break }
          last += 1
        }
        groupsTried = last + 1
        grouped = []
        if last > index {
          let runs = paragraph.runs[index..<(last + 1)]
          setSettings(ofRun: run, script: script, language: language, in: &runOptions)
          if runs.last!.range.upperBound == scalars.count { runOptions.bufferFlags.insert(.endOfText) }
          grouped =
            try units.withUnsafeBufferPointer { units in
              try runFont.shapeRunGroupCached(
                units: units, items: runs.map { starts[$0.range.lowerBound]..<starts[$0.range.upperBound] },
                runOptions: runOptions,
                clusterStarts: runs.map { offset($0.range.lowerBound) + clusterBase },
                languages: runs.map { style(ofRun: $0).language }, scratch: &piece)
            }
          groupStart = index
        }
      }
      let item = starts[run.range.lowerBound]..<starts[run.range.upperBound]
      var shapedRun: ShapedRun
      var groupedRun: ShapedRun?
      if index - groupStart < grouped.count {
        // (Moved out of the group, so that the run is its glyphs' only owner, without a copy.)
        swap(&groupedRun, &grouped[index - groupStart])
      }
      if let taken = groupedRun.take() {
        shapedRun = taken
      } else {
        setSettings(ofRun: run, script: script, language: language, in: &runOptions)
        // Through the cache where the run's context cannot change its glyphs (clusters as the
        // plain path numbers them, from `clusterBase`).
        let cached =
          try !utf16
          && units.withUnsafeBufferPointer {
            try runFont.shapeRunCached(
              units: $0, item: item, runOptions: runOptions, clusterStart: start + clusterBase, into: &piece)
          }
        if !cached {
          try Buffer.withReusable { buffer in
            try runFont.shape(text, options: runOptions, in: buffer, into: &piece) { buffer in
              if utf16 {
                units16.withUnsafeBufferPointer { buffer.add(utf16: $0, item: item) }
              } else {
                units.withUnsafeBufferPointer { buffer.add(utf8: $0, item: item) }
                if options.clusterUnit == .unicodeScalars {
                  buffer.numberClustersByItem(from: run.range.lowerBound)
                }
              }
            }
          }
        }
        guard !piece.runs.isEmpty else { continue }
        // (Taken with its glyphs, the piece keeping its array of runs for the next run: taken
        // with `removeLast`, the next run's piece made a new array, a `malloc` and a `free` a run;
        // `removeFirst` copied the run and destroyed the array's.)
        if piece.runs.count == 1 {
          shapedRun = piece.runs[0]
          piece.runs[0].glyphs = ShapedGlyphs()
        } else {
          shapedRun = piece.runs.removeFirst()
        }
        if var events = piece.trace {
          if clusterBase != 0 {
            for event in events.indices {
              for index in events[event].glyphs.indices { events[event].glyphs[index].cluster -= clusterBase }
            }
          }
          trace? += events
        }
      }
      if clusterBase != 0 {
        shapedRun.glyphs.withUnsafeMutableBufferPointer { glyphs in
          for index in glyphs.indices { glyphs[index].cluster -= clusterBase }
        }
      }
      shapedRun.level = run.level
      shapedRun.range = start..<offset(run.range.upperBound)
      shapedRun.span = spanIndex
      // A span's font without a size of its own is at this font's scale, as a fallback font is.
      if self.options.size == .unitsPerEm, runFont !== self {
        (shapedRun.unit, shapedRun.scale) = (unit, scale)
      }
      if runFonts.isEmpty || runFonts[run.font].isFallback { adopt(&shapedRun, shapedWith: runFont) }
      // (Moved in: copied, each run was retained and then released, callgrind.)
      shaped.append(consume shapedRun)
    }
    let missing = missingCharacters(
      scalars, runs: paragraph.runs, shaped: shaped, options: options, text: text, fontOfRun: font(ofRun:))
    let order = paragraph.visualOrder
    if !order.indices.elementsEqual(order) { shaped.permute(to: order) }
    result = ShapeResult(text: text, clusterUnit: options.clusterUnit, runs: shaped, trace: trace)
    result.baseLevel = paragraph.baseLevel
    result.missingCharacters = missing
    result.spans = options.spans
  }

  /// Whether there are spans and they set features alone (none cuts runs or isolates). (Read in
  /// place, by index: through `contains(where:)`, a span was copied out for each paragraph, its
  /// strings and arrays retained and released, 400 instructions a paragraph, callgrind.)
  @inline(never)
  private static func spansSetFeaturesAlone(_ spans: [TextSpan]) -> Bool {
    guard !spans.isEmpty else { return false }
    for index in spans.indices where spans[index].cutsRuns || spans[index].direction != nil { return false }
    return true
  }

  /// Whether the first of `spans` cuts runs (`TextSpan.cutsRuns`), read in place.
  @inline(never)
  private static func firstSpanCutsRuns(_ spans: [TextSpan]) -> Bool {
    !spans.isEmpty && spans[0].cutsRuns
  }

  /// Whether the first of `spans` sets a language. (Read in place: `first` copies the span,
  /// retaining its strings and arrays.)
  @inline(never)
  private static func firstSpanSetsLanguage(_ spans: [TextSpan]) -> Bool {
    !spans.isEmpty && spans[0].language != nil
  }

  /// Shapes a paragraph of one run, at `level` in `script` with `runFont`, into `result`; with
  /// `spanFeatures`, the features of spans that set features alone, in place of the spans.
  private func shapeSingleRun(
    _ text: String, scalarCount: Int, level: UInt8, script: Script, font runFont: ShapingFont,
    options: ShapeOptions, spanFeatures: consuming [Feature]? = nil,
    into result: inout ShapeResult
  ) throws {
    var runOptions = options
    // (Taken, not copied: given as a copy, the array was retained into the run's options and
    // released with the caller's, 2 of the 4 reference counts one span of features a line adds,
    // callgrind.)
    if let spanFeatures = spanFeatures.take() {
      // (Given whole where the paragraph has none: appended, it is a second array.)
      if runOptions.features.isEmpty {
        runOptions.features = spanFeatures
      } else {
        runOptions.features += spanFeatures
      }
      runOptions.spans = []
    }
    runOptions.paragraph = nil
    runOptions.bufferFlags.formUnion([.beginningOfText, .endOfText])
    runOptions.direction = level & 1 == 1 ? .rightToLeft : .leftToRight
    runOptions.script = script
    try runFont.shape(text, options: runOptions, into: &result)
    let length = options.clusterUnit == .unicodeScalars ? scalarCount : options.clusterUnit.length(of: text)
    for index in result.runs.indices {
      result.runs[index].level = level
      result.runs[index].range = 0..<length
      adopt(&result.runs[index], shapedWith: runFont)
    }
  }

  /// Where each scalar starts in `unit`, and the end.
  static func offsets(of scalars: [Unicode.Scalar], in unit: ClusterUnit) -> [Int] {
    // (Written through buffer pointers, the unit chosen once: appended, with the unit's switch
    // for each scalar, 2.0 M instructions a pass over the English text with a span a word, now
    // 0.9 M, callgrind.)
    [Int](capacity: scalars.count + 1) { offsets in
      scalars.withUnsafeBufferPointer { scalars in
        var offset = 0
        switch unit {
        case .unicodeScalars:
          for index in scalars.indices { offsets[index] = index }
          offset = scalars.count
        case .utf8:
          for (index, scalar) in scalars.enumerated() {
            offsets[index] = offset
            offset += UTF8.width(scalar)
          }
        case .utf16:
          for (index, scalar) in scalars.enumerated() {
            offsets[index] = offset
            offset += UTF16.width(scalar)
          }
        }
        offsets[scalars.count] = offset
      }
      return scalars.count + 1
    }
  }

  /// The font a run of the paragraph is drawn with: this one, or one of its fallback fonts.
  private func font(ofRun run: TextRun) -> ShapingFont {
    guard run.font > 0, let fallback else { return self }
    return fallback.font(run.font - 1, for: self) ?? self
  }

  /// Marks a run shaped with a fallback font as such, in this font's unit (the fallback font is
  /// at this font's scale, so the values are the same).
  private func adopt(_ run: inout ShapedRun, shapedWith runFont: ShapingFont) {
    guard runFont !== self else { return }
    run.isFallback = true
    run.unit = unit
    run.scale = scale
  }

  /// The characters of the paragraph that the fonts of their runs lack (`runs` in logical order,
  /// `shaped` the same runs shaped), looked for only when a run has a `.notdef` glyph.
  func missingCharacters(
    _ scalars: [Unicode.Scalar], runs: [TextRun], shaped: [ShapedRun], options: ShapeOptions, text: String,
    fontOfRun: ((TextRun) -> ShapingFont)? = nil
  ) -> [MissingCharacter] {
    guard shaped.contains(where: { $0.glyphs.contains { $0.id == 0 } }) else { return [] }
    let traits = (try? FallbackTraits.of(scalars)) ?? []
    var missing: [MissingCharacter] = []
    var offset = 0
    var scalar = 0
    for run in runs {
      let runFont = fontOfRun?(run) ?? font(ofRun: run)
      while scalar < run.range.upperBound {
        let character = scalars[scalar]
        let ignorable = traits.indices.contains(scalar) && traits[scalar].contains(.ignorable)
        if !ignorable, runFont.font.nominalGlyph(for: character) == nil {
          missing.append(MissingCharacter(scalar: character, offset: offset))
        }
        offset += options.clusterUnit.width(of: character)
        scalar += 1
      }
    }
    return missing
  }
}
