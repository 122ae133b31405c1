import Foundation
import HarfBuzz
import SwiftShapeHyphenation
import TestFixtures
import Testing

@testable import SwiftShape

/// Lines hyphenated by dictionary (`ShapeOptions.hyphenates`): the word a line would end before is
/// cut at a point of libhyphen's, the line ends with a hyphen shaped with its word, and it fits.
@Suite(
  "Hyphenated lines",
  .enabled(
    if: FileManager.default.fileExists(atPath: "/usr/share/hyphen/hyph_en_US.dic"),
    "Debian's hyphen-en-us is absent"))
struct HyphenationTests {
  static let text =
    "Hyphenation makes justified typography considerably more comfortable to read, particularly in narrow "
    + "columns where unhyphenated paragraphs would otherwise leave conspicuously irregular spacing."

  static func options(width: Int32, language: String = "en-US") -> ShapeOptions {
    var options = ShapeOptions()
    options.paragraph = .auto
    options.lineWidth = width
    options.hyphenates = true
    options.language = Language(harfBuzzString: language)
    return options
  }

  /// Each line fits; a line that ends inside a word ends at one of the dictionary's points for the
  /// word, with a hyphen after its last character (its cluster), and says so; the lines' glyphs,
  /// hyphens aside, are the text's; and the hyphen is shaped with its word: the line's glyphs are
  /// those of its text and U+2010 shaped alone.
  @Test(arguments: [4000, 6000, 9000, 14000])
  func hyphenatedLinesFitAtDictionaryPoints(width: Int32) throws {
    let font = try ShapingFont(file: Paths.latin)
    let result = try font.shape(Self.text, options: Self.options(width: width))
    let lines = try #require(result.lines)
    let scalars = Array(Self.text.unicodeScalars)
    let english = try Hyphenator(language: "en-US")
    // U+2010 where the font has it, else the hyphen-minus (the Latin fixture font has only that).
    let hyphenCharacter: Unicode.Scalar = font.font.nominalGlyph(for: "\u{2010}") != nil ? "\u{2010}" : "-"
    let hyphen = try #require(font.font.nominalGlyph(for: hyphenCharacter))
    var hyphenated = 0
    for line in lines {
      #expect(line.visibleAdvance <= width)
      let end = line.range.upperBound
      let glyphs = line.runs.flatMap(\.glyphs)
      let insideWord =
        end < scalars.count && scalars[end - 1].properties.isAlphabetic
        && scalars[end].properties.isAlphabetic
      #expect(line.hyphen == insideWord, "\(line.range)")
      guard insideWord else {
        #expect(!glyphs.contains { $0.id == hyphen })
        continue
      }
      hyphenated += 1
      var wordStart = end
      while wordStart > 0, scalars[wordStart - 1].properties.isAlphabetic { wordStart -= 1 }
      var wordEnd = end
      while wordEnd < scalars.count, scalars[wordEnd].properties.isAlphabetic { wordEnd += 1 }
      let word = String(String.UnicodeScalarView(scalars[wordStart..<wordEnd]))
      #expect(english.points(in: word).contains(end - wordStart), "\(word) cut at \(end - wordStart)")
      #expect(glyphs.last?.id == hyphen && glyphs.last?.cluster == end - 1)
      // The line's text with a hyphen, shaped alone.
      var alone = ShapeOptions()
      alone.language = Language(harfBuzzString: "en-US")
      let lineText = String(String.UnicodeScalarView(scalars[line.range])) + String(hyphenCharacter)
      let shaped = try font.shape(lineText, options: alone).glyphs
      #expect(shaped.map(\.id) == glyphs.map(\.id))
      #expect(shaped.map(\.xAdvance) == glyphs.map(\.xAdvance))
    }
    if width <= 9000 { #expect(hyphenated > 0, "no line was hyphenated at \(width)") }
    let text = lines.map { String(String.UnicodeScalarView(scalars[$0.range])) }.joined()
    #expect(text == Self.text)
  }

  /// Hyphenation fills lines: never more lines than without it, fewer on this text at 6000.
  @Test func hyphenationFillsLines() throws {
    let font = try ShapingFont(file: Paths.latin)
    var plain = Self.options(width: 6000)
    plain.hyphenates = false
    let without = try #require(try font.shape(Self.text, options: plain).lines).count
    let with = try #require(try font.shape(Self.text, options: Self.options(width: 6000)).lines).count
    #expect(with < without)
  }

  /// A span's language hyphenates its words with its own dictionary: a German compound in English
  /// text is cut at a German point.
  @Test func spansHyphenateInTheirLanguage() throws {
    guard FileManager.default.fileExists(atPath: "/usr/share/hyphen/hyph_de_DE.dic") else {
      print("skipped: Debian's hyphen-de is absent")
      return
    }
    let font = try ShapingFont(file: Paths.latin)
    let text = "The word Silbentrennungsalgorithmus is German."
    var options = Self.options(width: 7000)
    let start = text.unicodeScalars.distance(
      from: text.unicodeScalars.startIndex, to: text.range(of: "Silben")!.lowerBound)
    options.spans = [TextSpan(start..<(start + 29), language: Language(harfBuzzString: "de-DE"))]
    let lines = try #require(try font.shape(text, options: options).lines)
    let german = try Hyphenator(language: "de-DE")
    let cut = try #require(lines.first { $0.hyphen })
    #expect(german.points(in: "Silbentrennungsalgorithmus").contains(cut.range.upperBound - start))
  }

  /// The points kept for the process are the hyphenator's own: the same letters keep each
  /// dictionary's points apart, and after more words than are kept (all dropped at once) the
  /// answers are the same.
  @Test func keptPointsAreTheHyphenators() throws {
    guard FileManager.default.fileExists(atPath: "/usr/share/hyphen/hyph_de_DE.dic") else {
      print("skipped: Debian's hyphen-de is absent")
      return
    }
    let english = try Hyphenator.shared(for: #require(Language(harfBuzzString: "en-US")))
    let german = try Hyphenator.shared(for: #require(Language(harfBuzzString: "de-DE")))
    let word = ArraySlice("Silbentrennungsalgorithmus".unicodeScalars)
    #expect(english.points(inScalars: word) != german.points(inScalars: word))
    for _ in 0..<2 {
      #expect(LineHyphenation.points(of: word, by: english) == english.points(inScalars: word))
      #expect(LineHyphenation.points(of: word, by: german) == german.points(inScalars: word))
    }
    // Made-up words, more of them than are kept.
    let letters = Array("abcdefghijklmnopqrstuvwxyz".unicodeScalars)
    for index in 0...LineHyphenation.memoLimit {
      var made = Array("hyphen".unicodeScalars)
      var rest = index
      repeat {
        made.append(letters[rest % 26])
        rest /= 26
      } while rest > 0
      made += "ation".unicodeScalars
      #expect(LineHyphenation.points(of: made[...], by: english) == english.points(inScalars: made[...]))
    }
    #expect(LineHyphenation.points(of: word, by: german) == german.points(inScalars: word))
  }

  /// Without a language, or with one that has no dictionary, hyphenation is an error naming it.
  @Test func aLanguageWithoutADictionaryIsAnError() throws {
    let font = try ShapingFont(file: Paths.latin)
    var options = Self.options(width: 4000)
    options.language = nil
    #expect(throws: ShapingError.self) { try font.shape(Self.text, options: options) }
    options.language = Language(harfBuzzString: "xx")
    do {
      _ = try font.shape(Self.text, options: options)
      Issue.record("no error")
    } catch let error as ShapingError {
      #expect(error.description.contains("'xx'"))
    }
  }
}
