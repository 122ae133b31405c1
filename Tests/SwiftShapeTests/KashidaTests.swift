import Foundation
import HarfBuzz
import TestFixtures
import Testing

@testable import SwiftShape

/// Kashida (`ShapeOptions.kashida`): justified lines of Arabic script stretched with tatweels at
/// the places HarfBuzz flags safe, the line then exactly its text with the tatweels written in.
@Suite("Kashida")
struct KashidaTests {
  static let text = String(repeating: "سلام عليكم مرحبا بالعالم كتاب ", count: 4)

  static func justified(_ font: ShapingFont, width: Int32, kashida: KashidaMode? = nil) throws -> ShapeResult
  {
    var options = ShapeOptions()
    options.paragraph = .auto
    options.lineWidth = width
    options.alignment = .justify
    options.kashida = kashida
    return try font.shape(Self.text, options: options)
  }

  /// Every line but the last fills the width; tatweels go only before characters HarfBuzz flags
  /// `SAFE_TO_INSERT_TATWEEL` in the line shaped without them, one place a word at most; the
  /// line's glyphs are those of its text with the tatweels written in, shaped alone with the
  /// paragraph as context (spaces aside, which justification widened); the fill lists them.
  /// (Amiri's contextual forms leave some places unflagged.)
  @Test(arguments: [
    ("NotoSansArabic-Subset.ttf", 3000), ("NotoSansArabic-Subset.ttf", 4500),
    ("NotoSansArabic-Subset.ttf", 7000), ("Amiri-Subset.ttf", 2500), ("Amiri-Subset.ttf", 4000),
  ])
  func tatweelsGoWhereHarfBuzzAllowsThem(file: String, width: Int32) throws {
    let font = try ShapingFont(
      file: file.hasPrefix("Amiri") ? "\(Paths.fixtures)/kashida/\(file)" : Paths.font(file))
    let result = try Self.justified(font, width: width)
    let lines = try #require(result.lines)
    let scalars = Array(Self.text.unicodeScalars)
    let tatweel = try #require(font.font.nominalGlyph(for: "\u{640}"))
    var withKashida = 0
    for (index, line) in lines.enumerated() {
      let glyphs = line.runs.flatMap(\.glyphs)
      let kashidas = line.fill?.kashidas ?? []
      // (Amiri substitutes the tatweel, and joins several into one glyph.)
      if file.hasPrefix("Noto") { #expect(glyphs.filter { $0.id == tatweel }.count == kashidas.count) }
      if index == lines.count - 1 {
        #expect(kashidas.isEmpty)
        continue
      }
      #expect(line.visibleAdvance == width, "line \(index)")
      guard !kashidas.isEmpty else { continue }
      withKashida += 1
      // Flagged where they went, shaped without them.
      var flagged = ShapeOptions(direction: .rightToLeft, script: Script(iso15924: "Arab"))
      flagged.bufferFlags = [.produceSafeToInsertTatweel]
      flagged.textBefore = String(String.UnicodeScalarView(scalars[0..<line.range.lowerBound]))
      flagged.textAfter = String(String.UnicodeScalarView(scalars[line.range.upperBound...]))
      let lineText = String(String.UnicodeScalarView(scalars[line.range]))
      let safe = Set(
        try font.shape(lineText, options: flagged).glyphs.filter { $0.flags.contains(.safeToInsertTatweel) }
          .map { $0.cluster + line.range.lowerBound })
      for place in kashidas { #expect(safe.contains(place), "tatweel before \(place) is not flagged") }
      // One place a word.
      let words = Set(kashidas.map { place in scalars[..<place].lastIndex(of: " ") ?? -1 })
      #expect(words.count == Set(kashidas).count)
      // The text with the tatweels written in.
      var written = String.UnicodeScalarView()
      for offset in line.range {
        written += Array(
          repeating: "\u{640}" as Unicode.Scalar, count: kashidas.filter { $0 == offset }.count)
        written.append(scalars[offset])
      }
      var alone = flagged
      alone.bufferFlags = []
      let expected = try font.shape(String(written), options: alone).glyphs
      let space = font.font.nominalGlyph(for: " ")
      #expect(expected.map(\.id) == glyphs.map(\.id))
      #expect(expected.map { [$0.xOffset, $0.yOffset] } == glyphs.map { [$0.xOffset, $0.yOffset] })
      // Advances too, where the rest went to the spaces (not between characters).
      if line.fill?.kind == .spaces {
        #expect(
          expected.filter { $0.id != space }.map(\.xAdvance)
            == glyphs.filter { $0.id != space }.map(\.xAdvance))
      }
    }
    #expect(withKashida > 0)
  }

  /// `none` fills with spaces only; a font without a tatweel falls back to spaces; Latin text is
  /// left to its spaces.
  @Test func spacesWhereThereIsNoKashida() throws {
    let font = try ShapingFont(file: Paths.arabic)
    let tatweel = try #require(font.font.nominalGlyph(for: "\u{640}"))
    let none = try #require(try Self.justified(font, width: 4500, kashida: KashidaMode.none).lines)
    #expect(none.allSatisfy { ($0.fill?.kashidas ?? []).isEmpty })
    #expect(!none.flatMap(\.runs).flatMap(\.glyphs).contains { $0.id == tatweel })
    #expect(none.dropLast().allSatisfy { $0.visibleAdvance == 4500 })
    let bare = try ShapingFont(file: "\(Paths.fixtures)/kashida/NotoSansArabic-NoTatweel.ttf")
    let lines = try #require(try Self.justified(bare, width: 4500).lines)
    #expect(lines.allSatisfy { ($0.fill?.kashidas ?? []).isEmpty })
    #expect(!lines.flatMap(\.runs).flatMap(\.glyphs).contains { $0.id == 0 })
    #expect(lines.dropLast().allSatisfy { $0.visibleAdvance == 4500 || $0.fill?.kind == LineFill.Kind.none })
    #expect(lines.dropLast().contains { $0.fill?.kind == .spaces })
  }

  /// Kashida lines shaped through the shaping cache (their pieces looked up in it directly once
  /// its table is in use, `CachedPieces`) are those shaped without it: both fonts, three widths,
  /// the three cluster units (tatweels' clusters are moved back in each), paragraphs of the same
  /// words in other orders so that pieces come back.
  @Test(arguments: ["NotoSansArabic-Subset.ttf", "Amiri-Subset.ttf"])
  func theCacheChangesNoKashidaLine(file: String) throws {
    let font = try ShapingFont(
      file: file.hasPrefix("Amiri") ? "\(Paths.fixtures)/kashida/\(file)" : Paths.font(file))
    let words = ["سلام", "عليكم", "مرحبا", "بالعالم", "كتاب"]
    let paragraphs = (0..<12).map { seed in
      (0..<10).map { words[($0 * 7 + seed * 3) % words.count] }.joined(separator: " ")
    }
    var kashidaLines = 0
    for unit in [ClusterUnit.unicodeScalars, .utf8, .utf16] {
      for width in [Int32(2500), 4000, 6000] {
        var options = ShapeOptions()
        options.paragraph = .auto
        options.lineWidth = width
        options.alignment = .justify
        options.clusterUnit = unit
        var plain = options
        plain.usesCache = false
        for paragraph in paragraphs {
          let cached = try font.shape(paragraph, options: options)
          #expect(cached == (try font.shape(paragraph, options: plain)), "\(unit) \(width): \(paragraph)")
          kashidaLines += cached.lines?.filter { !($0.fill?.kashidas ?? []).isEmpty }.count ?? 0
        }
      }
    }
    #expect(kashidaLines > 50)
  }

  /// Pieces shaped again with their context (at a line's start where a cut would not be exact)
  /// are remembered by the thread (`KashidaPieceTables.shapedAgain`): the same paragraphs laid
  /// out again, each twice in a row, give the lines shaped without the cache, and the second
  /// time some pieces come from what was remembered.
  @Test func piecesShapedAgainAreRememberedExactly() throws {
    let font = try ShapingFont(file: "\(Paths.fixtures)/kashida/Amiri-Subset.ttf")
    let words = ["سلام", "عليكم", "مرحبا", "بالعالم", "كتاب"]
    let paragraphs = (0..<12).map { seed in
      (0..<10).map { words[($0 * 7 + seed * 3) % words.count] }.joined(separator: " ")
    }
    var options = ShapeOptions()
    options.paragraph = .auto
    options.alignment = .justify
    var remembered = 0
    for width in [Int32(2500), 4000, 6000] {
      options.lineWidth = width
      var plain = options
      plain.usesCache = false
      for paragraph in paragraphs {
        let expected = try font.shape(paragraph, options: plain)
        #expect(try font.shape(paragraph, options: options) == expected, "\(width): \(paragraph)")
        #expect(try font.shape(paragraph, options: options) == expected, "again, \(width): \(paragraph)")
        remembered = max(remembered, ThreadCache.current.kashidaTables.shapedAgain.count)
      }
    }
    #expect(remembered > 0)
  }

  /// The Persian text of the benchmark corpus (its first 200 paragraphs) justified at 40 em in
  /// Amiri: each line of one run that took tatweels is, glyph for glyph (IDs, clusters, offsets,
  /// flags; advances but the spaces'), its text with the tatweels written in, shaped alone with
  /// the paragraph as context. Most such lines are shaped again only where their tatweels are
  /// (`spliceTatweels`), so this checks that splicing is exact on real text. Skipped without
  /// `../shared`.
  ///
  /// At HarfBuzz's default cluster level the line's pieces are spliced in by binary search over
  /// its clusters, which go one way; at level 2 (`characters`) through a table of its offsets.
  @Test(
    .enabled(if: Paths.shared != nil, "../shared (the benchmark corpus) is absent"),
    arguments: [Buffer.ClusterLevel.monotoneGraphemes, .characters])
  func corpusLinesAreTheirTextWithTatweels(level: Buffer.ClusterLevel) throws {
    let corpus = "\(Paths.shared!)/corpus/harfbuzz-6.0.0-perf"
    let font = try ShapingFont(file: "\(corpus)/fonts/Amiri-Regular.ttf")
    let paragraphs = try String(contentsOfFile: "\(corpus)/texts/fa-thelittleprince.txt", encoding: .utf8)
      .split(separator: "\n").prefix(200).map(String.init)
    var options = ShapeOptions()
    options.paragraph = .auto
    options.lineWidth = 40 * Int32(font.identity.unitsPerEm)
    options.alignment = .justify
    options.clusterLevel = level
    var checked = 0
    for paragraph in paragraphs {
      let scalars = Array(paragraph.unicodeScalars)
      for line in try #require(try font.shape(paragraph, options: options).lines) {
        let kashidas = line.fill?.kashidas ?? []
        guard !kashidas.isEmpty, line.runs.count == 1, let run = line.runs.first else { continue }
        var written = String.UnicodeScalarView()
        // Each tatweel's cluster is the character it goes before; the others keep theirs.
        var clusters: [Int] = []
        for offset in line.range {
          for _ in kashidas.filter({ $0 == offset }) {
            written.append("\u{640}")
            clusters.append(offset)
          }
          written.append(scalars[offset])
          clusters.append(offset)
        }
        var alone = ShapeOptions(direction: run.direction, script: run.script)
        alone.clusterLevel = level
        alone.textBefore = String(String.UnicodeScalarView(scalars[0..<line.range.lowerBound]))
        alone.textAfter = String(String.UnicodeScalarView(scalars[line.range.upperBound...]))
        let expected = try font.shape(String(written), options: alone).glyphs
        let space = font.font.nominalGlyph(for: " ")
        #expect(expected.map(\.id) == run.glyphs.map(\.id))
        #expect(expected.map { clusters[$0.cluster] } == run.glyphs.map(\.cluster))
        #expect(expected.map { [$0.xOffset, $0.yOffset] } == run.glyphs.map { [$0.xOffset, $0.yOffset] })
        #expect(expected.map(\.flags) == run.glyphs.map(\.flags))
        // (Amiri substitutes some spaces' glyphs: the spaces are known by their character.)
        #expect(
          expected.filter { scalars[clusters[$0.cluster]] != " " && $0.id != space }.map(\.xAdvance)
            == run.glyphs.filter { scalars[$0.cluster] != " " && $0.id != space }.map(\.xAdvance))
        checked += 1
      }
    }
    #expect(checked > 100)
  }

  /// The premise of shaping a kashida paragraph with HarfBuzz's tatweel flag: on the engine in
  /// use, the flag changes nothing but the tatweel bit (glyphs, positions, clusters and the other
  /// flags, with and without unsafe-to-concat), on the fixture text and, where `../shared` is,
  /// the first 300 paragraphs of the Persian corpus, in Noto Sans Arabic and Amiri.
  @Test func theTatweelFlagChangesNothingElse() throws {
    var texts = [Self.text, "بِسْمِ اللَّهِ الرَّحْمَٰنِ الرَّحِيمِ", "لا إله إلا الله، ﻻ"]
    var fonts = [Paths.arabic, "\(Paths.fixtures)/kashida/Amiri-Subset.ttf"]
    if let shared = Paths.shared {
      let corpus = "\(shared)/corpus/harfbuzz-6.0.0-perf"
      texts += try String(contentsOfFile: "\(corpus)/texts/fa-thelittleprince.txt", encoding: .utf8)
        .split(separator: "\n").prefix(300).map(String.init)
      fonts.append("\(corpus)/fonts/Amiri-Regular.ttf")
    }
    var flagged = 0
    for file in fonts {
      let font = try ShapingFont(file: file)
      for concat in [false, true] {
        var plain = ShapeOptions()
        plain.usesCache = false
        if concat { plain.bufferFlags.insert(.produceUnsafeToConcat) }
        var withFlag = plain
        withFlag.bufferFlags.insert(.produceSafeToInsertTatweel)
        for text in texts {
          let expected = try font.shape(text, options: plain).glyphs
          var glyphs = try font.shape(text, options: withFlag).glyphs
          flagged += glyphs.filter { $0.flags.contains(.safeToInsertTatweel) }.count
          for index in glyphs.indices { glyphs[index].flags.remove(.safeToInsertTatweel) }
          #expect(glyphs == expected, "\(file): \(text)")
        }
      }
    }
    #expect(flagged > 0)
  }

  /// A justified paragraph with kashida shows no tatweel flag (it is shaped with it, for the
  /// places, and the flag is taken off), unless asked for, and is otherwise what it is shaped
  /// without kashida where no tatweel went (the last line).
  @Test func theFlagIsTakenOffUnlessAskedFor() throws {
    let font = try ShapingFont(file: Paths.arabic)
    let result = try Self.justified(font, width: 4500)
    let lines = try #require(result.lines)
    #expect(lines.contains { !($0.fill?.kashidas ?? []).isEmpty })
    #expect(!result.glyphs.contains { $0.flags.contains(.safeToInsertTatweel) })
    #expect(!lines.flatMap(\.runs).flatMap(\.glyphs).contains { $0.flags.contains(.safeToInsertTatweel) })
    let spaces = try #require(try Self.justified(font, width: 4500, kashida: KashidaMode.none).lines)
    #expect(lines.last?.runs == spaces.last?.runs)
    var options = ShapeOptions()
    options.paragraph = .auto
    options.lineWidth = 4500
    options.alignment = .justify
    options.bufferFlags = [.produceSafeToInsertTatweel]
    let asked = try font.shape(Self.text, options: options)
    #expect(asked.glyphs.contains { $0.flags.contains(.safeToInsertTatweel) })
    #expect(asked.lines?.map(\.fill) == result.lines?.map(\.fill))
    // Lines whose edges are shaped again (words cut anywhere, with hyphens; soft hyphens) have
    // the flag taken off too.
    var cut = ShapeOptions()
    cut.paragraph = .auto
    cut.alignment = .justify
    cut.breaksAnywhere = true
    for (text, width) in [
      (Self.text, Int32(1500)), (Self.text.replacingOccurrences(of: "مرحبا", with: "مر\u{AD}حبا"), 2000),
    ] {
      cut.lineWidth = width
      let shaped = try font.shape(text, options: cut)
      #expect(shaped.reshapedEdges > 0, "\(width)")
      #expect(width == 1500 || shaped.lines?.contains(where: \.hyphen) == true)
      #expect(
        !(shaped.lines ?? []).flatMap(\.runs).flatMap(\.glyphs).contains {
          $0.flags.contains(.safeToInsertTatweel)
        })
      #expect(!shaped.glyphs.contains { $0.flags.contains(.safeToInsertTatweel) })
    }
  }

  /// The paragraphs shaped with the tatweel flag: justified with kashida, with a character of the
  /// Arabic blocks (the main block, its supplement and extended-B, the presentation forms).
  @Test func whichParagraphsTakeTheFlag() {
    var options = ShapeOptions()
    options.alignment = .justify
    for text in ["سلام", "a\u{0600}", "x\u{077F}", "\u{0870}", "\u{08FF}", "\u{FB50}", "\u{FEFC} b"] {
      #expect(Kashida.flagsPlaces(text, options: options), "\(text.unicodeScalars.map(\.value))")
    }
    for text in ["", "Hello", "שלום", "\u{0800}", "\u{086F}", "\u{0780}", "\u{FB4F}", "\u{FF00}", "日本"] {
      #expect(!Kashida.flagsPlaces(text, options: options), "\(text.unicodeScalars.map(\.value))")
    }
    var none = options
    none.kashida = KashidaMode.none
    #expect(!Kashida.flagsPlaces("سلام", options: none))
    var start = options
    start.alignment = .start
    #expect(!Kashida.flagsPlaces("سلام", options: start))
    #expect(Kashida.isWordScalar("س") && Kashida.isWordScalar("\u{64E}") && !Kashida.isWordScalar(" "))
    // The tables below U+0700 say what the properties say.
    for value in UInt32(0)..<0x700 {
      guard let scalar = Unicode.Scalar(value) else { continue }
      #expect(
        ShapingFont.startsAlone(scalar) == ShapingFont.startsAloneTested(scalar)
          || (0x21...0x7E).contains(value))
    }
    #expect(!Kashida.isWordScalar("\u{60C}") && Kashida.isWordScalar("\u{200C}") && Kashida.isWordScalar("ڭ"))
  }

  /// The priorities: after the seen family first, then before tall letters, then the rest.
  @Test func prioritiesFollowAlreq() {
    #expect(Kashida.priority(after: "س", before: "ل") == 1)
    #expect(Kashida.priority(after: "ب", before: "ا") == 2)
    #expect(Kashida.priority(after: "ب", before: "ه") == 3)
    #expect(Kashida.priority(after: "ب", before: "ر") == 4)
    #expect(Kashida.priority(after: "ب", before: "ب") == 5)
    // The classes the places are chosen by say what `isWordScalar` and `priority` say, below
    // U+0700 (the table) and above.
    Kashida.placeClasses.withUnsafeBufferPointer { classes in
      for value in UInt32(0)..<0x2100 {
        guard let scalar = Unicode.Scalar(value) else { continue }
        let placeClass = Kashida.placeClass(scalar, table: classes)
        #expect((placeClass & 1 != 0) == Kashida.isWordScalar(scalar), "U+\(String(value, radix: 16))")
        #expect((placeClass & 2 != 0) == (Kashida.priority(after: scalar, before: "ب") == 1))
        #expect(Int(placeClass >> 2) == Kashida.priority(after: "ب", before: scalar))
      }
    }
  }

  /// The strings a line's pieces are shaped again from, written as UTF-8 directly: one to four
  /// bytes a scalar, as Swift's own encoding gives; and a paragraph's scalars, read from its UTF-8
  /// directly, as its `unicodeScalars` gives them.
  @Test func scalarsToStrings() {
    let text = "a\u{7F}\u{80}é\u{7FF}\u{800}€\u{FFFF}\u{10000}😀\u{10FFFF}سلام"
    let scalars = Array(text.unicodeScalars)
    #expect(String(utf8Of: scalars[...]) == text)
    #expect(String(utf8Of: scalars[2..<5]) == "\u{80}é\u{7FF}")
    #expect(String(utf8Of: scalars[0..<0]).isEmpty)
    // And back: each length of UTF-8, a bridged-looking substring, nothing.
    #expect([Unicode.Scalar](scalarsOf: text) == scalars)
    #expect([Unicode.Scalar](scalarsOf: String(text.dropFirst(3))) == Array(scalars.dropFirst(3)))
    #expect([Unicode.Scalar](scalarsOf: "").isEmpty)
  }
}
