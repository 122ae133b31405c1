import Foundation
import HarfBuzz
import TestFixtures
import Testing

@testable import SwiftShape

/// The shaping cache gives the glyphs HarfBuzz gives the whole line, byte for byte: at each kind
/// of joint a font can reach across, on the fixture fonts, and on the benchmark corpora.
@Suite("Shaping cache")
struct ShapingCacheTests {
  /// `lines` shaped with the cache (after enough lines for it to start) and without: the same
  /// results, line by line.
  static func expectSame(
    _ font: ShapingFont, _ lines: [String], options givenOptions: ShapeOptions = ShapeOptions(),
    spans: ((String) -> [TextSpan])? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    // Every line through the cache, not only those where it is faster.
    ShapingCache.choosesByTime = false
    ShapingCache.removeAllOnThisThread()
    var options = givenOptions
    let warmUp = Array(repeating: "warm up", count: ShapingCache.warmUpLines)
    for line in warmUp + lines + lines {
      if let spans { options.spans = spans(line) }
      var plain = options
      plain.usesCache = false
      let cached = try font.shape(line, options: options)
      let whole = try font.shape(line, options: plain)
      guard cached != whole else { continue }
      func brief(_ result: ShapeResult) -> String {
        "\(result.runs.map { "\($0.direction) \($0.script) \($0.language?.identifier ?? "-")" }) "
          + result.glyphs.map {
            "\($0.id)=\($0.cluster)+\($0.xAdvance)@\($0.xOffset),\($0.yOffset)#\($0.flags.rawValue)"
          }
          .joined(separator: "|")
      }
      Issue.record(
        "\(line.unicodeScalars.map { String($0.value, radix: 16) }): cached \(brief(cached)) whole \(brief(whole))",
        sourceLocation: sourceLocation)
    }
  }

  @Test func theJointsAFontReachesAcrossAreFound() throws {
    let font = try ShapingFont(file: Paths.spaceJoints)
    let joints = SpaceJoints(font: font.font)
    #expect(joints.isUsable)
    func glyph(_ character: Unicode.Scalar) -> UInt32 { font.font.nominalGlyph(for: character)! }
    // Kerning with the space (T), a ligature across it (x, y), a context across it (o, z), a
    // substituted space (b), a substitution after it (y), a glyph the font deletes (d): not
    // joined.
    for character in "Txyozbd".unicodeScalars {
      #expect(!joints.mayFollowSpace(glyph(character)), "\(character)")
    }
    // Letters no lookup that reads the space reaches: joined.
    for character in "qfia".unicodeScalars {
      #expect(joints.mayFollowSpace(glyph(character)), "\(character)")
    }
  }

  @Test func eachKindOfJointIsShapedWhole() throws {
    let font = try ShapingFont(file: Paths.spaceJoints)
    let lines = [
      "a Ta Ta qa Ta",  // kerning with the space glyph after it
      "ak qa ak Ta ak Tk Tk ",  // kerning with the space glyph before it
      "qa x y qa x y",  // a ligature across a space
      "qo z qa o z",  // a contextual substitution across a space
      "qa b qa b qa",  // a font that substitutes its space glyph
      "qa ya qa ya",  // a substitution after a space
      "qa \u{301}a qa \u{301}",  // a mark after a space
      "qa \u{200D}a qa \u{200C}a",  // joiners after a space
      "qa da qa da ad qa",  // a glyph the font deletes, first in a piece
      " qa fi qa ", "  qa  ", " ", "",  // pieces at the start and end of the text
    ]
    try Self.expectSame(font, lines)
    var options = ShapeOptions()
    options.bufferFlags = [.beginningOfText, .endOfText]
    try Self.expectSame(font, lines + ["\u{301}qa fi", "qa fi \u{301}"], options: options)
    options.direction = .rightToLeft
    options.clusterLevel = .characters
    try Self.expectSame(font, lines, options: options)
  }

  @Test func arabicJoinsAcrossJoinersAsWhole() throws {
    let font = try ShapingFont(file: Paths.arabic)
    let lines = [
      "سلام عليكم سلام", "بب \u{200D}بب بب", "بب \u{200C}بب بب", "بب \u{64E}بب بب", "\u{64E}بب بب",
      "سلام 123 سلام (عليكم) سلام",
    ]
    try Self.expectSame(font, lines)
    var options = ShapeOptions()
    options.bufferFlags = [.beginningOfText, .endOfText]
    options.clusterUnit = .utf16
    try Self.expectSame(font, lines, options: options)
  }

  /// A paragraph's runs go through the cache where their context cannot change them: the same
  /// glyphs as with the cache off, with the context that can (joiners, tatweels, Arabic letters
  /// of another run, marks at a run's start) around Arabic runs, in each cluster unit.
  @Test func paragraphRunsShapeAsWithTheirContext() throws {
    let fallback = try [Paths.hebrew, Paths.arabic, Paths.devanagari].map { try ShapingFont(file: $0) }
    let font = try ShapingFont(file: Paths.latin).withFallback(FontFallback(fonts: fallback))
    let lines = [
      "Hello مرحبا world", "«مرحبا» and «سلام»", "x\u{200D}مرحبا y", "مرحبا\u{200D}x y",
      "abc \u{640}مرحبا\u{640} abc", "مرحبا 123 عالم ٤٥ سلام", "abc\u{64E}بب bb", "bb بب\u{301} cc",
      "नमस्ते hello नमस्ते", "שָׁלוֹם world שלום", "a \u{301}b \u{5B7}ש c", "(مرحبا) [سلام]—abc…مرحبا",
      "مرحبا\u{AD}abc", "abc\u{AD}مرحبا",
    ]
    for unit in [ClusterUnit.unicodeScalars, .utf8, .utf16] {
      var options = ShapeOptions()
      options.paragraph = .auto
      options.clusterUnit = unit
      try Self.expectSame(font, lines, options: options)
      options.bufferFlags = [.beginningOfText, .endOfText]
      options.textBefore = "ب"
      try Self.expectSame(font, lines, options: options)
    }
  }

  /// Text with a context goes through the cache where the context cannot change its glyphs: the
  /// same glyphs as with the cache off, with contexts that join (Arabic letters, joiners, a
  /// tatweel), that are transparent (marks, the soft hyphen), and that keep a dotted circle away.
  @Test func textWithAContextShapesAsWithIt() throws {
    let arabic = try ShapingFont(file: Paths.arabic)
    // The Devanagari font has a dotted circle (U+25CC), which HarfBuzz puts before a mark at the
    // beginning of text without context (and before a broken syllable anywhere).
    let devanagari = try ShapingFont(file: Paths.devanagari)
    let contexts = ["", "a", "ب", "\u{200D}", "\u{640}", "\u{64E}", "\u{AD}", "«", "ب\u{64E}", " "]
    for before in contexts {
      for after in contexts {
        var options = ShapeOptions()
        options.textBefore = before
        options.textAfter = after
        options.bufferFlags = [.beginningOfText, .endOfText]
        // (Text that starts or ends with a space: the context beyond it cannot join.)
        try Self.expectSame(
          arabic,
          ["سلام عليكم سلام", "\u{64E}بب بب", "بب بب\u{64E}", "abc بب", " بب بب ", "بب بب ", " \u{64E}بب"],
          options: options)
        try Self.expectSame(
          devanagari, ["\u{94D}कक", "\u{94D}कक कक", "\u{301}ab", "\u{301}ab cd", "कक\u{94D}"],
          options: options)
      }
    }
  }

  /// A span of features over a whole run goes through the cache: the same glyphs as without the
  /// cache, and pieces found, on a font whose lookups reach across spaces and on Indic and Arabic
  /// fonts (whose shapers treat a ranged setting apart from a global one).
  @Test func featureSpansOverWholeRunsAreCached() throws {
    ShapingCache.choosesByTime = false
    let cases: [(String, [String], [String])] = [
      (Paths.spaceJoints, ["qa Ta x y qa", "qo z qa b", "ak qa ak Tk"], ["-kern", "-liga", "-calt"]),
      (Paths.devanagari, ["क्षत्रिय नमस्ते क्षत्रिय", "नमस्ते क्ष नमस्ते"], ["-half", "-rphf", "abvm=0"]),
      (Paths.arabic, ["سلام عليكم سلام", "بب بب"], ["-init", "-calt"]),
    ]
    for (path, lines, settings) in cases {
      let font = try ShapingFont(file: path)
      for setting in settings {
        ShapingCache.removeAllOnThisThread()
        let before = ShapingCache.statistics.hits
        // Enough lines of the script for its table to pass its first four.
        for line in Array(repeating: lines, count: 2 + ShapingCache.warmUpLines).flatMap({ $0 }) {
          var options = ShapeOptions()
          options.spans = [TextSpan(0..<line.unicodeScalars.count, features: [try Feature(parsing: setting)])]
          let cached = try font.shape(line, options: options)
          options.usesCache = false
          #expect(cached == (try font.shape(line, options: options)), "\(setting) \(line)")
        }
        #expect(ShapingCache.statistics.hits > before, "\(setting): nothing found")
      }
    }
  }

  /// Glyphs asked with HarfBuzz's tatweel flags (`produceSafeToInsertTatweel`, which kashida reads)
  /// come through the cache with the same flags as shaped whole: on the Arabic fixture font, Amiri
  /// (whose contextual forms leave places unflagged) and the Persian corpus, plain and in paragraphs.
  @Test func tatweelFlagsShapeTheSame() throws {
    var options = ShapeOptions()
    options.bufferFlags = [.produceSafeToInsertTatweel]
    let lines = [
      "سلام عليكم مرحبا بالعالم كتاب", "كتاب سلام", "مرحبا بالعالم", "سلام  عليكم", "عليكم، سلام!",
    ]
    for path in [Paths.arabic, "\(Paths.fixtures)/kashida/Amiri-Subset.ttf"] {
      let font = try ShapingFont(file: path)
      try Self.expectSame(font, lines, options: options)
      var paragraph = options
      paragraph.paragraph = .auto
      try Self.expectSame(font, lines, options: paragraph)
    }
    guard let shared = Paths.shared else {
      print("skipped: ../shared (the benchmark corpora) is absent")
      return
    }
    let perf = "\(shared)/corpus/harfbuzz-6.0.0-perf"
    let font = try ShapingFont(file: "\(perf)/fonts/Amiri-Regular.ttf")
    let text = try String(contentsOfFile: "\(perf)/texts/fa-thelittleprince.txt", encoding: .utf8)
    try Self.expectSame(font, text.split(separator: "\n").map(String.init), options: options)
  }

  /// A span of language a word: the runs whose languages select the same language systems are
  /// shaped together (one lookup for them all), the others apart, and the glyphs, runs and
  /// languages are those of the cache off — on fonts with language systems (Romanian, Catalan,
  /// Urdu, Marathi) and on one whose lookups reach across spaces.
  @Test func languageSpansShapeAsRunByRun() throws {
    ShapingCache.choosesByTime = false
    let cases: [(String, [String], [String])] = [
      (
        Paths.latin, ["Şi ţara l·l Lluís ştie şi ţine", "the same words the same words"],
        ["en", "ro", "de", "ca", "nl"]
      ),
      (Paths.spaceJoints, ["qa Ta x y qa", "qo z qa b", "ak qa ak Tk"], ["en", "de", "tr"]),
      (Paths.arabic, ["سلام عليكم سلام", "بب بب يي"], ["ar", "ur", "fa"]),
      (Paths.devanagari, ["क्षत्रिय नमस्ते क्षत्रिय", "नमस्ते र्क नमस्ते"], ["hi", "mr", "ne", "sa"]),
    ]
    // (Each cluster level: a group's runs are found in its glyphs by binary search where the
    // level keeps clusters monotone, glyph by glyph where it does not.)
    for (path, lines, languages) in cases {
      for level in [Buffer.ClusterLevel.monotoneGraphemes, .monotoneCharacters, .characters] {
        let font = try ShapingFont(file: path)
        ShapingCache.removeAllOnThisThread()
        // Enough rounds for each language's table to pass its first lines.
        let rounds = (2 + ShapingCache.warmUpLines) * languages.count
        for (round, line) in Array(repeating: lines, count: rounds).flatMap({ $0 }).enumerated() {
          var options = ShapeOptions()
          options.paragraph = .auto
          options.clusterLevel = level
          var start = 0
          for (index, word) in line.split(separator: " ").enumerated() {
            let length = word.unicodeScalars.count
            let language = Language(harfBuzzString: languages[(index + round) % languages.count])
            options.spans.append(TextSpan(start..<(start + length), language: language))
            start += length + 1
          }
          let cached = try font.shape(line, options: options)
          options.usesCache = false
          let plain = try font.shape(line, options: options)
          #expect(cached == plain, "\(path) \(line) \(level)")
          #expect(cached.runs.map(\.language) == plain.runs.map(\.language))
        }
      }
    }
    // Languages that select the same systems: one lookup for the line's runs.
    let font = try ShapingFont(file: Paths.latin)
    var options = ShapeOptions()
    options.paragraph = .auto
    let line = "one two three four"
    options.spans = [0..<3, 8..<13].map { TextSpan($0, language: Language(harfBuzzString: "de")) }
    for _ in 0..<(2 + ShapingCache.warmUpLines) { _ = try font.shape(line, options: options) }
    let before = ThreadCache.current.counts.lines
    let result = try font.shape(line, options: options)
    #expect(ThreadCache.current.counts.lines - before == 1)
    let other = Language.processDefault?.identifier
    #expect(result.runs.map { $0.language?.identifier } == ["de", other, "de", other])
  }

  /// The edges of runs of spaces between runs shaped apart are cut whatever the font's layout
  /// does across a space: a font whose space kerns with T, whose k kerns with the space, and
  /// which makes a ligature and a context across a space gives, for a span a word, the glyphs of
  /// its runs shaped one by one, in one lookup a line.
  @Test func languageSpansCutAtSpacesTheFontReachesAcross() throws {
    ShapingCache.choosesByTime = false
    let font = try ShapingFont(file: Paths.spaceJoints)
    ShapingCache.removeAllOnThisThread()
    for line in ["ak Ta x y oz", "Tk  Ta k T", "qa x y Ta"] {
      var options = ShapeOptions()
      options.paragraph = .auto
      var start = 0
      for word in line.split(separator: " ", omittingEmptySubsequences: false) {
        let length = word.unicodeScalars.count
        if length > 0 {
          options.spans.append(TextSpan(start..<(start + length), language: Language(harfBuzzString: "de")))
        }
        start += length + 1
      }
      var plain = options
      plain.usesCache = false
      let expected = try font.shape(line, options: plain)
      for round in 0..<(2 + ShapingCache.warmUpLines) {
        let before = ThreadCache.current.counts.lines
        let cached = try font.shape(line, options: options)
        #expect(cached == expected, "\(line)")
        if round > ShapingCache.warmUpLines {
          #expect(ThreadCache.current.counts.lines - before == 1, "\(line)")
        }
      }
    }
  }

  /// Every fixture font, on words drawn at random (a fixed seed) from what it covers, joined by one
  /// or two spaces, with marks and joiners among them.
  @Test(arguments: [
    Paths.latin, Paths.arabic, Paths.devanagari, Paths.thai, Paths.hebrew, Paths.variable, Paths.spaceJoints,
  ])
  func randomTextOnEachFixtureFont(_ path: String) throws {
    let font = try ShapingFont(file: path)
    let covered = font.font.face.unicodes.filter { $0.value > 0x20 }
    var generator = SplitMix64(seed: 42)
    let words = (0..<60).map { _ in
      String(
        String.UnicodeScalarView(
          (0..<Int.random(in: 1...6, using: &generator)).map { _ in
            covered.randomElement(using: &generator)!
          }))
    }
    let lines = (0..<80).map { _ in
      (0..<Int.random(in: 1...12, using: &generator)).map { _ in words.randomElement(using: &generator)! }
        .joined(separator: Bool.random(using: &generator) ? " " : "  ")
    }
    try Self.expectSame(font, lines)
    var options = ShapeOptions()
    options.clusterLevel = .monotoneCharacters
    options.clusterUnit = .utf8
    options.includeExtents = true
    options.features = [try Feature(parsing: "-liga"), try Feature(parsing: "kern=0")]
    try Self.expectSame(font, lines, options: options)
  }

  /// The benchmark corpora and the mixed corpus, whole, with the cache and without.
  @Test func theCorporaShapeTheSame() throws {
    guard let shared = Paths.shared else {
      print("skipped: ../shared (the benchmark corpora) is absent")
      return
    }
    let perf = "\(shared)/corpus/harfbuzz-6.0.0-perf"
    let cases = [
      ("\(perf)/fonts/Roboto-Regular.ttf", "\(perf)/texts/en-thelittleprince.txt"),
      ("\(perf)/fonts/Amiri-Regular.ttf", "\(perf)/texts/fa-thelittleprince.txt"),
      ("\(perf)/fonts/NotoNastaliqUrdu-Regular.ttf", "\(perf)/texts/fa-words.txt"),
      (Paths.latin, "\(shared)/corpus/mixed/mixed-thelittleprince.txt"),
      (Paths.arabic, "\(shared)/corpus/mixed/mixed-thelittleprince.txt"),
    ]
    for (fontPath, textPath) in cases {
      let font = try ShapingFont(file: fontPath)
      let lines = try String(contentsOfFile: textPath, encoding: .utf8).split(
        separator: "\n", omittingEmptySubsequences: false
      ).map(String.init)
      try Self.expectSame(font, lines)
      // In paragraph mode, and broken into lines.
      var options = ShapeOptions()
      options.paragraph = .auto
      try Self.expectSame(font, lines, options: options)
      options.lineWidth = 20 * Int32(font.font.face.unitsPerEm)
      try Self.expectSame(font, lines, options: options)
    }
    // A span of language a word (as the spans benchmark has them), on fonts whose layout reaches
    // across spaces (Roboto's space kerns with T; Amiri's contexts see the space).
    for (fontPath, textPath) in cases.prefix(2) {
      let lines = try String(contentsOfFile: textPath, encoding: .utf8).split(separator: "\n").map(
        String.init)
      var options = ShapeOptions()
      options.paragraph = .auto
      options.clusterUnit = .utf8
      let language = Language(harfBuzzString: "en-GB")
      try Self.expectSame(try ShapingFont(file: fontPath), lines, options: options) { line in
        var spans: [TextSpan] = []
        var start = 0
        for word in line.utf8.split(separator: 0x20, omittingEmptySubsequences: false) {
          if !word.isEmpty { spans.append(TextSpan(start..<(start + word.count), language: language)) }
          start += word.count + 1
        }
        return spans
      }
    }
  }

  /// After plain shaping was chosen, lines that come back start a new cycle of the timing (the
  /// cache may pay on text that repeats); lines that do not, or short ones, never do.
  @Test func linesThatComeBackTimeTheCacheAgain() throws {
    let chose = ShapingCache.choosesByTime
    defer { ShapingCache.choosesByTime = chose }
    ShapingCache.choosesByTime = true
    let table = ThreadCache.Table(shared: nil)
    table.timing.plainIsFaster = true
    table.timing.cycleLine = 1000
    func note(_ line: String) {
      var line = line
      line.withUTF8 { table.noteLineBack($0) }
      table.timing.cycleLine += 1
    }
    let lines = (0..<16).map { "line \($0) of a document that is shaped again" }
    for line in lines { note(line) }
    #expect(table.timing.cycleLine == 1016)  // new lines: plain shaping goes on
    for line in lines { note(line) }
    #expect(table.timing.cycleLine == 1)  // they came back: a new cycle started (then counted one line)
    // Lines that do not come back, and short lines that do, plain shaping still faster: no new cycle.
    table.timing.cycleLine = 1000
    for number in 0..<320 { note(number.isMultiple(of: 2) ? "a line seen once, number \(number)" : "“No.”") }
    #expect(table.timing.cycleLine == 1320)
  }

  /// Text at the beginning or end of text takes the table of the same text inside one (a piece's
  /// edges are in its key): a paragraph's first and last runs find the pieces of the runs
  /// between. Other flags keep tables apart.
  @Test func textEdgesShareTheTableOfTextInside() throws {
    let font = try ShapingFont(file: Paths.latin)
    let cache = ThreadCache.current
    func table(_ flags: Buffer.Flags) -> ThreadCache.Table {
      var options = ShapeOptions()
      options.bufferFlags = flags
      return cache.table(
        font: font.cacheState, direction: .leftToRight, script: Script(iso15924: "Latn"), language: nil,
        options: options)
    }
    let inside = table([])
    #expect(table([.beginningOfText]) === inside)
    #expect(table([.endOfText]) === inside)
    #expect(table([.beginningOfText, .endOfText]) === inside)
    #expect(table([.beginningOfText, .removeDefaultIgnorables]) !== inside)
    #expect(table([.beginningOfText, .removeDefaultIgnorables]) === table([.removeDefaultIgnorables]))
    // Found: the middle word of a line at the text's edges, shaped inside a text before (its first
    // and last words are keyed with their edges).
    ShapingCache.choosesByTime = false
    ShapingCache.removeAllOnThisThread()
    var options = ShapeOptions()
    for _ in 0..<(ShapingCache.warmUpLines + 1) {
      _ = try font.shape("x alpha beta gamma y", options: options)
    }
    options.bufferFlags = [.beginningOfText, .endOfText]
    let before = ShapingCache.statistics.hits
    let cached = try font.shape("alpha beta gamma", options: options)
    #expect(ShapingCache.statistics.hits - before >= 1)
    options.usesCache = false
    #expect(cached == (try font.shape("alpha beta gamma", options: options)))
  }

  /// Text laid out in lines (a width, an alignment, hyphenation, kashida) takes the table of the
  /// same text shaped as a paragraph: the settings of paragraphs and lines do not change how a
  /// run is shaped. Every other setting is compared: each changed alone tells the options apart,
  /// and each of the options' fields is either one of those or one of the settings of paragraphs
  /// and lines (`laidOutFields`), so that a setting added later is not left out unseen.
  @Test func linesShareTheTableOfTheirParagraph() throws {
    let font = try ShapingFont(file: Paths.latin)
    let cache = ThreadCache.current
    func table(_ change: (inout ShapeOptions) -> Void) -> ThreadCache.Table {
      var options = ShapeOptions()
      options.paragraph = .auto
      change(&options)
      return cache.table(
        font: font.cacheState, direction: .leftToRight, script: Script(iso15924: "Latn"), language: nil,
        options: options)
    }
    let paragraph = table { _ in }
    #expect(table { $0.lineWidth = 4000 } === paragraph)
    #expect(
      table { ($0.lineWidth, $0.alignment, $0.kashida) = (4000, .justify, KashidaMode.none) } === paragraph)
    #expect(table { ($0.lineWidth, $0.hyphenates, $0.breaksAnywhere) = (4000, true, true) } === paragraph)
    #expect(table { $0.paragraph = nil } === paragraph)
    #expect(table { $0.includeExtents = true } !== paragraph)
    #expect(table { $0.clusterLevel = .characters } !== paragraph)
    // Each compared setting changed alone makes options that do not shape runs alike.
    let changes: [String: (inout ShapeOptions) -> Void] = [
      "features": { $0.features = [Feature("liga", value: 0)] },
      "direction": { $0.direction = .rightToLeft },
      "script": { $0.script = Script(iso15924: "Arab") },
      "language": { $0.language = Language(harfBuzzString: "tr") },
      "clusterLevel": { $0.clusterLevel = .characters },
      "clusterUnit": { $0.clusterUnit = .utf8 },
      "textBefore": { $0.textBefore = "a" },
      "textAfter": { $0.textAfter = "a" },
      "bufferFlags": { $0.bufferFlags = [.removeDefaultIgnorables] },
      "invisibleGlyph": { $0.invisibleGlyph = 3 },
      "notFoundGlyph": { $0.notFoundGlyph = 3 },
      "notFoundVariationSelectorGlyph": { $0.notFoundVariationSelectorGlyph = 3 },
      "shapers": { $0.shapers = ["fallback"] },
      "includeGlyphNames": { $0.includeGlyphNames = false },
      "includeExtents": { $0.includeExtents = true },
      "normalizeGlyphs": { $0.normalizeGlyphs = true },
      "verify": { $0.verify = true },
      "trace": { $0.trace = true },
      "usesCache": { $0.usesCache = false },
    ]
    for (field, change) in changes {
      var changed = ShapeOptions()
      change(&changed)
      #expect(!changed.shapesRunsAlike(ShapeOptions()), "\(field) is not compared")
      #expect(!ShapeOptions().shapesRunsAlike(changed), "\(field) is not compared")
    }
    let fields = Set(Mirror(reflecting: ShapeOptions()).children.compactMap(\.label))
    let compared = Set(changes.keys)
    #expect(fields == compared.union(ShapeOptions.laidOutFields))
    #expect(compared.isDisjoint(with: ShapeOptions.laidOutFields))
    // Lines of a paragraph shaped before find its pieces, and give the glyphs of shaping without
    // the cache.
    ShapingCache.choosesByTime = false
    ShapingCache.removeAllOnThisThread()
    var options = ShapeOptions()
    options.paragraph = .auto
    let text = "the quick brown fox jumps over the lazy dog and runs far away"
    for _ in 0..<(ShapingCache.warmUpLines + 1) { _ = try font.shape(text, options: options) }
    options.lineWidth = 6000
    options.alignment = .justify
    // (This thread's counts: other tests may shape on other threads meanwhile.)
    let (hits, bytes) = (cache.counts.hits, cache.bytes)
    let lines = try font.shape(text, options: options)
    #expect(cache.counts.hits > hits)
    #expect(cache.bytes == bytes, "the lines' text was shaped again")
    options.usesCache = false
    #expect(lines == (try font.shape(text, options: options)))
  }

  /// A thread finds the pieces another shaped with the same font and options (`SharedPieces`),
  /// and its lines come out as without the cache. The pieces of another font (made from the same
  /// file, but not the same object) stay that font's.
  @Test func threadsFindThePiecesOtherThreadsShaped() throws {
    let chose = ShapingCache.choosesByTime
    defer { ShapingCache.choosesByTime = chose }
    ShapingCache.choosesByTime = false
    let font = try ShapingFont(file: Paths.latin)
    let other = try ShapingFont(file: Paths.latin)
    let lines = [
      "the shared words of one thread", "are found by another thread", "shared words found, not shaped",
    ]
    let warmUp = Array(repeating: "warm up", count: ShapingCache.warmUpLines)
    // Run on two threads of their own, one after the other, both alive from the start: the first
    // shapes the lines (and the other font's), the second shapes them again.
    struct Outcome: Sendable {
      var results: [ShapeResult] = []
      var counts = ShapingCache.Statistics()
      var failure: String?
    }
    let outcomes = Protected<[Outcome]>([Outcome(), Outcome(), Outcome()])
    let firstDone = DispatchSemaphore(value: 0)
    let bothMade = DispatchGroup()
    let finished = DispatchGroup()
    for thread in 0..<2 {
      bothMade.enter()
      finished.enter()
      Thread.detachNewThread {
        defer { finished.leave() }
        do {
          // Each thread's cache made (a line shaped) before either shapes the lines.
          _ = try font.shape("x")
          bothMade.leave()
          bothMade.wait()
          if thread == 1 { firstDone.wait() }
          let cache = ThreadCache.current
          let before = cache.counts
          var results: [ShapeResult] = []
          for line in warmUp + lines { results.append(try font.shape(line)) }
          if thread == 0 {
            for line in warmUp + lines { _ = try other.shape(line) }
            firstDone.signal()
          }
          var counts = cache.counts
          counts.sharedHits -= before.sharedHits
          counts.shapedRuns -= before.shapedRuns
          counts.hits -= before.hits
          outcomes.withLock { $0[thread] = Outcome(results: results, counts: counts) }
        } catch {
          if thread == 0 { firstDone.signal() }
          outcomes.withLock { $0[thread].failure = "\(error)" }
        }
      }
    }
    finished.wait()
    let (first, second) = outcomes.withLock { ($0[0], $0[1]) }
    #expect(first.failure == nil && second.failure == nil)
    #expect(second.counts.sharedHits >= 10, "the second thread found the first's pieces")
    #expect(second.counts.shapedRuns < first.counts.shapedRuns)
    var plain = ShapeOptions()
    plain.usesCache = false
    for (index, line) in (warmUp + lines).enumerated() where index < second.results.count {
      #expect(second.results[index] == (try font.shape(line, options: plain)), "\(line)")
      #expect(first.results[index] == second.results[index], "\(line)")
    }
    // The other font's pieces stay its own.
    #expect(font.cacheState.sharedTables.withLock { $0.keys.allSatisfy { $0.font == font.cacheState.id } })
  }

  /// A font's shared pieces go with the font, though the thread's tables of it stay (emptied
  /// only at the cache's limit).
  @Test func sharedPiecesGoWithTheirFont() throws {
    weak var shared: SharedPieces?
    do {
      let font = try ShapingFont(file: Paths.latin)
      for _ in 0..<(ShapingCache.warmUpLines + 2) { _ = try font.shape("a few words of a line") }
      shared = font.cacheState.sharedTables.withLock { $0.values.first }
      #expect(shared != nil)
    }
    #expect(shared == nil)
  }

  @Test func statisticsCountWhatTheCacheDid() throws {
    let font = try ShapingFont(file: Paths.latin)
    ShapingCache.choosesByTime = false
    ShapingCache.removeAllOnThisThread()
    let before = ShapingCache.statistics
    for _ in 0..<(ShapingCache.warmUpLines + 2) { _ = try font.shape("the same words the same words") }
    let after = ShapingCache.statistics
    #expect(after.lines - before.lines >= 2)  // other tests may shape on other threads meanwhile
    #expect(after.hits - before.hits >= 5)
    #expect(after.bytes > 0)
  }
}
