import HarfBuzz
import SwiftShapeUnicode

extension ShapingFont {
  /// Breaks a shaped paragraph into lines of at most `width` (`ShapeOptions.lineWidth`):
  ///
  /// - break opportunities and mandatory breaks from UAX #14 (ICU's line break iterator);
  /// - greedy filling: a line takes as many of the pieces between opportunities as fit, its
  ///   trailing whitespace not counted; a piece wider than the width alone takes a line of its
  ///   own (with `breaksAnywhere`, it is cut between grapheme clusters instead);
  /// - widths come from the paragraph as shaped; the text of a line is shaped again only next to
  ///   an edge where HarfBuzz marked the glyph unsafe to break (or where the edge falls inside a
  ///   cluster), with the paragraph around it as context, and `reshapedEdges` counts those edges;
  /// - per line, trailing whitespace takes the paragraph level (rule L1) and the runs are put in
  ///   visual order (rule L2).
  ///
  /// With `removingTatweelFlags`, HarfBuzz's tatweel flag is taken off the lines' glyphs after
  /// kashida has read it (`Kashida.flagsPlaces`).
  func breakLines(
    _ result: inout ShapeResult, options: ShapeOptions, width: Int32, removingTatweelFlags: Bool = false
  ) throws {
    guard !result.text.isEmpty, let baseLevel = result.baseLevel else {
      result.lines = []
      if removingTatweelFlags { Kashida.removeFlags(from: &result) }
      return
    }
    if options.spans.isEmpty, var line = singleLine(result, options: options, width: width) {
      // The paragraph's one line is its last: a justified paragraph's stays at the start.
      if options.alignment == .justify { line.fill = LineFill(kind: .none, added: 0, places: 0) }
      if removingTatweelFlags {
        // The runs cleared in place, the line's then theirs (taken off the result's lines, the
        // runs were made again from them; see the other paragraphs' clearing below).
        line.runs = []
        Kashida.removeFlags(from: &result.runs)
        line.runs = result.runs
      }
      result.lines = [line]
      result.reshapedEdges = 0
      return
    }
    let scalars = [Unicode.Scalar](scalarsOf: result.text)
    let count = scalars.count
    let whitespace = try Self.unicodeAlgorithm { try BidiParagraph.trailingWhitespace(scalars) }

    // Where each scalar starts in the cluster unit, and the scalar at each offset.
    // (These arrays of a scalar or a glyph each are written through buffer pointers: appended
    // to and indexed, their checks were a third of breaking a Persian paragraph, callgrind.)
    let offsets = Self.offsets(of: scalars, in: options.clusterUnit)
    let position = offsets[count]
    var scalarAtOffset = [Int](filledWith: -1, count: position + 1)
    scalarAtOffset.withUnsafeMutableBufferPointer { scalarAt in
      for (index, offset) in offsets.enumerated() { scalarAt[offset] = index }
    }
    // (Constants, as `logical` and `unsafe` below.)
    let scalarAt = scalarAtOffset
    // With spans: their fonts, for the runs that have them, and their features, for the edges
    // shaped again (as `shapeParagraph` shaped the runs).
    let styles =
      options.spans.isEmpty
      ? nil
      : try SpanStyles(options.spans, scalarCount: count, offsets: offsets, font: self, options: options)
    let options = styles.map { options.addingFeatures($0.features) } ?? options
    func runFont(of run: ShapedRun) -> ShapingFont {
      if let styles, let range = run.range, scalarAt.indices.contains(range.lowerBound) {
        let scalar = scalarAt[range.lowerBound]
        if scalar >= 0, scalar < count, let font = styles.font(of: run, at: scalar, paragraphFont: self) {
          return font
        }
      }
      return self.font(of: run)
    }

    // The runs in logical order, the advance of each scalar's cluster, and where breaking is
    // unsafe: before a glyph HarfBuzz flagged, or inside a cluster.
    var sortedRuns = result.runs.sorted { ($0.range?.lowerBound ?? 0) < ($1.range?.lowerBound ?? 0) }
    let vertical = sortedRuns.first?.direction.isVertical ?? false
    var advance = [Int32](filledWith: 0, count: count)
    var startsCluster = [Bool](filledWith: false, count: count + 1)
    var unsafeEdges = [Bool](filledWith: false, count: count + 1)
    startsCluster[count] = true
    let unsafeToBreak = GlyphFlags.unsafeToBreak
    // Kashida's places: the scalars whose glyphs HarfBuzz flags safe to insert a tatweel before
    // (the paragraph shaped with `HB_BUFFER_FLAG_PRODUCE_SAFE_TO_INSERT_TATWEEL`), read in the
    // same pass (a pass of their own over the paragraph's runs was 1.1 M instructions a pass over
    // the Persian lines, callgrind).
    let readsTatweelPlaces =
      options.alignment == .justify && options.kashida != KashidaMode.none
      && options.bufferFlags.contains(.produceSafeToInsertTatweel)
    var tatweelPlaces = [Bool](filledWith: false, count: readsTatweelPlaces ? count : 0)
    let safeToInsertTatweel = GlyphFlags.safeToInsertTatweel
    advance.withUnsafeMutableBufferPointer { advance in
      startsCluster.withUnsafeMutableBufferPointer { startsCluster in
        unsafeEdges.withUnsafeMutableBufferPointer { unsafe in
          scalarAt.withUnsafeBufferPointer { scalarAt in
            tatweelPlaces.withUnsafeMutableBufferPointer { tatweelPlaces in
              for run in sortedRuns {
                run.glyphs.withUnsafeBufferPointer { glyphs in
                  for glyph in glyphs {
                    let scalar = glyph.cluster <= position ? scalarAt[glyph.cluster] : -1
                    guard scalar >= 0, scalar < count else { continue }
                    advance[scalar] &+= vertical ? -glyph.yAdvance : glyph.xAdvance
                    startsCluster[scalar] = true
                    if glyph.flags.contains(unsafeToBreak) { unsafe[scalar] = true }
                    if readsTatweelPlaces, glyph.flags.contains(safeToInsertTatweel) {
                      tatweelPlaces[scalar] = true
                    }
                  }
                }
              }
            }
          }
          for index in 0...count where !startsCluster[index] { unsafe[index] = true }
        }
      }
    }
    if removingTatweelFlags {
      // Kashida's places read, the flag is taken off the paragraph's glyphs in place, before the
      // lines take their stretches of them (the result's runs, which the lines replace, let go
      // first): taken off each line's glyphs after, it copied each stretch out of the shared
      // storage. With the one-line paragraphs' clearing above, 2.2 M instructions a pass over the
      // Persian lines justified with kashida, callgrind. Glyphs shaped again for a line are
      // cleared with the line (below).
      result.runs = []
      Kashida.removeFlags(from: &sortedRuns)
    }
    // (Constants from here: the closures below read them for each line, and a variable that an
    // escaping closure captures is checked for exclusive access at each read, 60 instructions,
    // five a line: 0.9 M instructions a pass over the English lines, callgrind.)
    let logical = sortedRuns
    let unsafe = unsafeEdges
    let prefix = [Int64](capacity: count + 1) { prefix in
      prefix[0] = 0
      advance.withUnsafeBufferPointer { advance in
        for index in 0..<count { prefix[index + 1] = prefix[index] + Int64(advance[index]) }
      }
      return count + 1
    }
    /// The width of scalars `a..<b` without the whitespace at its end.
    func visibleWidth(_ a: Int, _ b: Int) -> Int64 {
      var end = b
      while end > a, whitespace[end - 1] { end -= 1 }
      return prefix[end] - prefix[a]
    }

    // Break opportunities, found near each line's end (`lineEnd`); a paragraph that fits whole
    // and has no hard break needs none (ICU's iterator is not given its text).
    var breakFinder: LineBreakFinder?
    func finder() throws -> LineBreakFinder {
      if let breakFinder { return breakFinder }
      let made = try Self.unicodeAlgorithm { try LineBreakFinder(scalars) }
      breakFinder = made
      return made
    }
    func following(_ index: Int) throws -> LineBreak? {
      try Self.unicodeAlgorithm { try finder().following(index) }
    }
    func preceding(_ index: Int) throws -> Int? {
      try Self.unicodeAlgorithm { try finder().preceding(index) }
    }
    func isOpportunity(_ index: Int) throws -> Bool {
      try Self.unicodeAlgorithm { try finder().isOpportunity(index) }
    }
    /// Whether `scalars[range]` has a hard break or a soft hyphen: an opportunity after one may be
    /// mandatory, or need room for a hyphen.
    func hasHardBreakOrSoftHyphen(_ range: Range<Int>) -> Bool {
      scalars[range].contains {
        switch $0.value {
        case 0x0A...0x0D, 0x85, 0xAD, 0x2028, 0x2029: true
        default: false
        }
      }
    }

    // Hyphens at line ends inside words: the advance of the hyphen a line cut before a scalar
    // ends with, in the font of the scalar before it (nil where that font has none: no hyphen
    // goes there, as Pango does).
    var hyphenAdvances: [ObjectIdentifier: Int64?] = [:]
    func hyphenAdvance(before index: Int) -> Int64? {
      guard index > 0, let run = logical.last(where: { ($0.range?.lowerBound ?? 0) <= offsets[index - 1] })
      else { return nil }
      let font = runFont(of: run)
      if let known = hyphenAdvances[ObjectIdentifier(font)] { return known }
      let glyph = font.font.nominalGlyph(for: "\u{2010}") ?? font.font.nominalGlyph(for: "-")
      let advance = glyph.map {
        Int64(vertical ? -font.font.advance(of: $0, direction: .topToBottom).y : font.font.advance(of: $0).x)
      }
      hyphenAdvances[ObjectIdentifier(font)] = advance
      return advance
    }
    // Hyphenation: the word after a line's last opportunity that fits, cut at its last point
    // that fits with a hyphen (`hyphenAt`: the ends of lines with a hyphen inside a word, with the
    // start of their word).
    var hyphenation = options.hyphenates ? try LineHyphenation(scalars: scalars, options: options) : nil
    func language(of scalar: Int) -> Language? {
      if let styles, let language = styles.styles[styles.styleOfScalar[scalar]].language { return language }
      return options.language
    }
    var hyphenAt: [Int: Int] = [:]
    /// The advance of the hyphen `--break-anywhere` puts where it cuts a word before `index`, as
    /// Pango does; nil where it puts none.
    func cutHyphen(before index: Int) -> Int64? {
      pangoInsertsHyphen(scalars, at: index) ? hyphenAdvance(before: index) : nil
    }
    /// The advance of the hyphen a line broken after a soft hyphen before `index` shows (0 for
    /// another end), which the line must have room for, as Pango keeps it.
    func softHyphenAdvance(_ index: Int) -> Int64 {
      index < count && index > 0 && scalars[index - 1] == "\u{AD}" ? hyphenAdvance(before: index) ?? 0 : 0
    }
    /// Where the whitespace at the end of the line of scalars `range` starts (rule L1's): a soft
    /// hyphen the line is broken after is not among it (it shows a hyphen, which counts).
    func trailingStart(_ range: Range<Int>) -> Int {
      var trailing = range.upperBound
      if trailing < count, trailing > range.lowerBound, scalars[trailing - 1] == "\u{AD}" { return trailing }
      while trailing > range.lowerBound, whitespace[trailing - 1] { trailing -= 1 }
      return trailing
    }
    /// Where the word a cut at `index` is inside starts: the opportunity before it, or the line's
    /// start.
    func wordStart(before index: Int, from start: Int) throws -> Int {
      max(start, try preceding(index) ?? start)
    }

    // Greedy filling: the end of the line that starts at `start`.
    var graphemes: [Int]?
    func loadGraphemes() throws -> [Int] {
      if let graphemes { return graphemes }
      let found = try Self.unicodeAlgorithm { try GraphemeClusters.boundaries(scalars) }
      graphemes = found
      return found
    }
    func lineEnd(from start: Int) throws -> Int {
      var end = -1
      var overflowing: Int?
      // Speed: where no scalar of the rest of the paragraph takes the line past `width`, every
      // opportunity fits, and the line ends at the paragraph's end unless the rest has a hard
      // break or a soft hyphen: the last line is found without ICU. (Jumping to the last
      // opportunity before the first scalar past the width with ICU's `preceding` cost more than
      // it saved: ICU's iterator backs up to a safe point, most often the paragraph's start, and
      // finds the boundaries from there; callgrind.)
      let bound = prefix[start] + Int64(width)
      var passing = start + 1
      while passing <= count, prefix[passing] <= bound { passing += 1 }
      if passing > count, !hasHardBreakOrSoftHyphen(start..<(count - 1)) { return count }
      var candidate = try following(start)
      while let found = candidate {
        if end >= 0, visibleWidth(start, found.index) + softHyphenAdvance(found.index) > Int64(width) {
          overflowing = found.index
          break
        }
        end = found.index
        if found.isMandatory { break }
        candidate = try following(found.index)
      }
      if end >= 0, visibleWidth(start, end) > Int64(width) { (overflowing, end) = (end, -1) }
      if hyphenation != nil, let overflowing,
        let hyphenated = try hyphenation!.lastPoint(
          from: max(end, start), to: overflowing, language: language(of:),
          hyphenAdvance: hyphenAdvance(before:),
          fits: { point, hyphen in point > start && visibleWidth(start, point) + hyphen <= Int64(width) })
      {
        hyphenAt[hyphenated.point] = hyphenated.word
        return hyphenated.point
      }
      if end < 0 { end = overflowing ?? count }
      if options.breaksAnywhere, visibleWidth(start, end) > Int64(width) {
        // A piece wider than the width alone: cut it after the last grapheme cluster that fits
        // (at least one).
        // A hyphen where Pango puts one, and room for it.
        let inside = try loadGraphemes().filter { $0 > start && $0 < end }
        if let first = inside.first {
          end =
            inside.last { visibleWidth(start, $0) + (cutHyphen(before: $0) ?? 0) <= Int64(width) } ?? first
          if cutHyphen(before: end) != nil { hyphenAt[end] = try wordStart(before: end, from: start) }
        }
      }
      return end
    }

    let ownExtents = font.extents(for: .leftToRight)
    // Each line's runs: the paragraph's runs cut at the line's edges, its trailing whitespace at
    // the paragraph level, reshaped next to an unsafe edge.
    // Whether each run's clusters go one way, its line's parts then found by binary search.
    let monotone = logical.map { $0.glyphs.clustersAreMonotone(ascending: $0.direction != .rightToLeft) }
    func makeLine(_ range: Range<Int>, top: Int32) throws -> (line: ShapedLine, gap: Int32, reshaped: Int) {
      let trailing = trailingStart(range)
      let unsafeStart = range.lowerBound > 0 && unsafe[range.lowerBound]
      let unsafeEnd = range.upperBound < count && unsafe[range.upperBound]
      // A line broken after a soft hyphen shows a hyphen there: its last piece is shaped again
      // with the hyphen in the soft hyphen's place. A line hyphenated inside a word ends with its
      // word's part shaped again with a hyphen after it.
      let softHyphen = range.upperBound < count && scalars[range.upperBound - 1] == "\u{AD}"
      let hyphenWord = range.upperBound < count ? hyphenAt[range.upperBound] : nil
      let hyphenated = softHyphen || hyphenWord != nil
      var pieces: [ShapedRun] = []
      for (runIndex, run) in logical.enumerated() {
        guard let runRange = run.range else { continue }
        func glyphs(in clusters: Range<Int>) -> ShapedGlyphs {
          monotone[runIndex]
            ? run.glyphs.glyphs(in: clusters, ascending: run.direction != .rightToLeft)
            : ShapedGlyphs(run.glyphs.filter { clusters.contains($0.cluster) })
        }
        let runStart = scalarAt[runRange.lowerBound]
        let runEnd = scalarAt[runRange.upperBound]
        let a = max(runStart, range.lowerBound)
        let b = min(runEnd, range.upperBound)
        guard a < b else { continue }
        // Trailing whitespace is a piece of its own when rule L1 changes its level.
        let cuts =
          run.level == baseLevel
          ? [(a, b, baseLevel)] : [(a, min(b, trailing), run.level ?? 0), (max(a, trailing), b, baseLevel)]
        for (pieceStart, pieceEnd, level) in cuts where pieceStart < pieceEnd {
          let hyphenHere = hyphenated && pieceEnd == range.upperBound
          let needsShaping =
            (pieceStart == range.lowerBound && unsafeStart) || (pieceEnd == range.upperBound && unsafeEnd)
            || hyphenHere
          var piece = run
          if hyphenHere, let word = hyphenWord, word > pieceStart, !unsafe[word],
            !(pieceStart == range.lowerBound && unsafeStart)
          {
            // Only the word's part is shaped again, where its start is safe to break.
            let low = offsets[pieceStart]
            let high = offsets[word]
            let kept = glyphs(in: low..<high)
            let part = try reshape(
              run, font: runFont(of: run), scalars: scalars, from: word, to: pieceEnd, offsets: offsets,
              options: options, hyphen: .appended)
            piece.glyphs = run.direction == .rightToLeft ? part.glyphs + kept : kept + part.glyphs
          } else if needsShaping {
            piece = try reshape(
              run, font: runFont(of: run), scalars: scalars, from: pieceStart, to: pieceEnd, offsets: offsets,
              options: options, hyphen: hyphenHere ? (softHyphen ? .replacing : .appended) : nil)
          } else {
            let low = offsets[pieceStart]
            let high = offsets[pieceEnd]
            piece.glyphs = glyphs(in: low..<high)
          }
          piece.range = offsets[pieceStart]..<offsets[pieceEnd]
          if level != piece.level {
            // Trailing whitespace of a run at another level: the paragraph's direction.
            let rightToLeft = level & 1 == 1
            if rightToLeft != (piece.direction == .rightToLeft), !vertical {
              piece.glyphs.reverse()
              piece.direction = rightToLeft ? .rightToLeft : .leftToRight
            }
            piece.level = level
          }
          pieces.append(piece)
        }
      }
      let order =
        pieces.count == 1 ? [0] : ItemizedParagraph.visualOrder(levels: pieces.map { $0.level ?? 0 })
      let visual = order.map { pieces[$0] }
      var (ascent, descent, gap) = (ownExtents.ascender, -ownExtents.descender, ownExtents.lineGap)
      if !visual.allSatisfy({ !$0.isFallback && $0.span == nil }) {
        (ascent, descent, gap) = (0, 0, 0)
        for piece in visual {
          let extents = runFont(of: piece).font.extents(for: .leftToRight)
          ascent = max(ascent, extents.ascender)
          descent = max(descent, -extents.descender)
          gap = max(gap, extents.lineGap)
        }
      }
      let total = visual.reduce(Int32(0)) { $0 &+ (vertical ? -$1.advance.y : $1.advance.x) }
      // What fits is measured on the line's own glyphs (reshaping may change them).
      let hanging = offsets[trailing]
      let visible = visual.reduce(Int32(0)) { sum, run in
        run.glyphs.reduce(sum) { $1.cluster >= hanging ? $0 : $0 &+ (vertical ? -$1.yAdvance : $1.xAdvance) }
      }
      let x = lineStart(visible: visible, width: width, baseLevel: baseLevel, alignment: options.alignment)
      var line = ShapedLine(
        range: offsets[range.lowerBound]..<offsets[range.upperBound], advance: total, visibleAdvance: visible,
        ascent: ascent, descent: descent, baseline: top &+ ascent, x: x, runs: visual)
      line.hyphen = hyphenated
      return (line, gap, (unsafeStart ? 1 : 0) + (unsafeEnd ? 1 : 0))
    }

    var lines: [ShapedLine] = []
    var reshaped = 0
    var top: Int32 = 0
    var start = 0
    while start < count {
      var end = try lineEnd(from: start)
      var made = try makeLine(start..<end, top: top)
      // The line was measured with the glyphs of the unbroken paragraph; reshaped at an unsafe
      // edge (a cut inside a word above all), it may be wider. It is then cut at the opportunity
      // before (with `breaksAnywhere`, the grapheme cluster before), while it has one.
      while made.line.visibleAdvance > width {
        var earlier = try preceding(end).flatMap { $0 > start ? $0 : nil }
        if earlier == nil, options.breaksAnywhere {
          earlier = try loadGraphemes().last { $0 > start && $0 < end }
          if let earlier, cutHyphen(before: earlier) != nil {
            hyphenAt[earlier] = try wordStart(before: earlier, from: start)
          }
        }
        guard let earlier else { break }
        end = earlier
        made = try makeLine(start..<end, top: top)
      }
      // A word cut between its characters was measured with the paragraph's glyphs, where a
      // ligature's advance is its first character's; shaped at later cuts it may still fit (an
      // `ffi` cut apart): the line takes the last later cut that does, as Pango, which shapes each
      // cut it tries, does.
      if options.breaksAnywhere, end < count, made.line.visibleAdvance <= width,
        try !isOpportunity(end)
      {
        let next = try following(end)?.index ?? count
        for later in try loadGraphemes() where later > end && later < next {
          if cutHyphen(before: later) != nil { hyphenAt[later] = try wordStart(before: later, from: start) }
          let trial = try makeLine(start..<later, top: top)
          guard trial.line.visibleAdvance <= width else { break }
          (end, made) = (later, trial)
        }
      }
      lines.append(made.line)
      reshaped += made.reshaped
      top = top &+ made.line.ascent &+ made.line.descent &+ made.gap
      start = end
    }
    // Whether a line holds glyphs shaped again (at an unsafe edge, with a hyphen, as `makeLine`
    // shapes them): with the tatweel flag, theirs are cleared; the others' are the paragraph's,
    // cleared above. (Each line's glyphs looked at, 0.95 M instructions a pass over the Persian
    // lines justified with kashida, callgrind.)
    func shapedAgain(_ line: ShapedLine) -> Bool {
      let (start, end) = (scalarAt[line.range.lowerBound], scalarAt[line.range.upperBound])
      return line.hyphen || (start > 0 && unsafe[start]) || (end < count && unsafe[end])
    }
    if options.alignment == .justify {
      // Grapheme clusters are found (ICU's iterator) only for a line without word separators.
      var clusterStarts: Set<Int>?
      func starts() throws -> Set<Int> {
        if let clusterStarts { return clusterStarts }
        let made = Set(try loadGraphemes().map { offsets[$0] })
        clusterStarts = made
        return made
      }
      for index in lines.indices {
        let trailing = trailingStart(
          scalarAt[lines[index].range.lowerBound]..<scalarAt[lines[index].range.upperBound])
        // Tatweels first, on lines of Arabic script but the last and those before a hard break.
        var kashidas: [Int] = []
        let last = scalarAt[lines[index].range.upperBound] - 1
        if readsTatweelPlaces, index < lines.count - 1, last >= 0,
          ![0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029].contains(scalars[last].value)
        {
          let hyphenatedEnd = lines[index].hyphen ? lines[index].range.upperBound : nil
          kashidas = try insertKashidas(
            &lines[index], free: width &- lines[index].visibleAdvance, scalars: scalars, scalarAt: scalarAt,
            offsets: offsets, options: options, hyphenatedEnd: hyphenatedEnd, safePlaces: tatweelPlaces,
            clearsTatweelFlags: removingTatweelFlags,
            runFont: runFont(of:)
          ) { run, font, from, to, tatweels, alone in
            try reshape(
              run, font: font, scalars: scalars, from: from, to: to, offsets: offsets, options: options,
              tatweels: tatweels, alone: alone)
          }
        }
        try justify(
          &lines[index], width: width, isLast: index == lines.count - 1, scalars: scalars, scalarAt: scalarAt,
          hanging: offsets[trailing], clusterStarts: starts, baseLevel: baseLevel)
        if !kashidas.isEmpty {
          // Tatweels that took the whole width leave nothing to the spaces.
          if lines[index].visibleAdvance == width, lines[index].fill?.kind == LineFill.Kind.none {
            lines[index].fill = LineFill(kind: .spaces, added: 0, places: 0)
            lines[index].x = 0
          }
          lines[index].fill?.kashidas = kashidas.map { offsets[$0] }
        }
        // (Each line's own glyphs, in place: taken off the result after, its runs were made
        // again from its lines, 3.2 M instructions a pass over the Persian lines, callgrind.)
        // (A kashida line's runs shaped again have it cleared already, `insertKashidas`.)
        if removingTatweelFlags, shapedAgain(lines[index]) {
          Kashida.removeFlags(from: &lines[index].runs)
        }
      }
    } else if removingTatweelFlags {
      for index in lines.indices where shapedAgain(lines[index]) {
        Kashida.removeFlags(from: &lines[index].runs)
      }
    }
    // (A closure, not a key path: a key path is read through the runtime's generic projection.)
    result.runs = lines.flatMap { $0.runs }
    result.lines = lines
    result.reshapedEdges = reshaped
  }

  /// `body`'s result, ICU's failures given as the paragraph's (`ShapingError.Kind.internalFailure`).
  static func unicodeAlgorithm<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as UnicodeAlgorithmError {
      throw ShapingError(.internalFailure, input: "the paragraph", reason: error.description)
    }
  }

  /// Where a line of `visible` advance starts in `width`, by the alignment (start and end follow the
  /// paragraph's direction).
  func lineStart(visible: Int32, width: Int32, baseLevel: UInt8, alignment: LineAlignment) -> Int32 {
    let free = width &- visible
    let rightToLeft = baseLevel & 1 == 1
    switch alignment {
    case .start: return rightToLeft ? free : 0
    case .end: return rightToLeft ? 0 : free
    case .center: return free / 2
    // Justified lines are filled after (`justify`); until then they sit at the start.
    case .justify: return rightToLeft ? free : 0
    }
  }

  /// The font a run of a paragraph shaped with this font was shaped with: this one, or the
  /// fallback font it names.
  private func font(of run: ShapedRun) -> ShapingFont {
    guard run.isFallback else { return self }
    return fallback?.font(file: run.font.file, faceIndex: run.font.faceIndex, for: self) ?? self
  }
}
