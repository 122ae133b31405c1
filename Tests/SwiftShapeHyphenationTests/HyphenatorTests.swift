import Foundation
import SwiftShapeHyphenation
import TestFixtures
import Testing

/// libhyphen's points, checked against pyphen's with the same dictionaries
/// (`Fixtures/hyphenation/pyphen-LANG.txt`, recorded by `Fixtures/hyphenation/record.py`).
@Suite("Hyphenation")
struct HyphenatorTests {
  static let dictionaries = [
    ("en", "/usr/share/hyphen/hyph_en_US.dic"), ("de", "/usr/share/hyphen/hyph_de_DE.dic"),
    ("fr", "/usr/share/hyphen/hyph_fr.dic"),
  ]

  /// Where the two differ, deliberately: pyphen leaves a fragment of one letter inside these
  /// German compounds (`Zei-le-n-um-bruch`), shorter than the two it is given as the minimum;
  /// libhyphen, which applies the dictionary's second level of patterns (compounds) with the
  /// minimum at compound edges too, does not. Each must still differ from pyphen's.
  static let knownDifferences = [
    "Zeilenumbruch": "Zei-len-um-bruch", "Einkaufsstraße": "Ein-kaufs-stra-ße",
    "Sprachverarbeitung": "Sprach-ver-ar-bei-tung",
  ]

  @Test(arguments: dictionaries)
  func pointsArePyphens(_ language: String, _ path: String) throws {
    guard FileManager.default.fileExists(atPath: path) else {
      print("skipped: \(path) is absent (Debian's hyphen-\(language == "en" ? "en-us" : language))")
      return
    }
    let hyphenator = try Hyphenator(dictionary: path)
    let expected = try String(
      contentsOfFile: "\(Paths.fixtures)/hyphenation/pyphen-\(language).txt", encoding: .utf8)
    var compared = 0
    for line in expected.split(separator: "\n") where !line.hasPrefix("#") {
      let fields = line.split(separator: "\t")
      try #require(fields.count == 2)
      let word = String(fields[0])
      let scalars = Array(word.unicodeScalars)
      var hyphenated = ""
      for (index, scalar) in scalars.enumerated() {
        if hyphenator.points(in: word).contains(index) { hyphenated += "-" }
        hyphenated.unicodeScalars.append(scalar)
      }
      if let known = Self.knownDifferences[word] {
        #expect(hyphenated == known && known != String(fields[1]), "\(language) \(word)")
      } else {
        #expect(hyphenated == String(fields[1]), "\(language) \(word)")
      }
      compared += 1
    }
    #expect(compared >= 40)
  }

  /// Languages find their dictionaries: the region's, else the language's; an unknown language
  /// is an error naming it.
  @Test func languagesFindTheirDictionaries() throws {
    guard FileManager.default.fileExists(atPath: "/usr/share/hyphen/hyph_en_US.dic") else {
      print("skipped: Debian's hyphen-en-us is absent")
      return
    }
    #expect(Hyphenator.dictionaryPath(for: "en-US")?.hasSuffix("hyph_en_US.dic") == true)
    #expect(Hyphenator.dictionaryPath(for: "EN_us")?.hasSuffix("hyph_en_US.dic") == true)
    #expect(Hyphenator.dictionaryPath(for: "en")?.hasSuffix(".dic") == true)
    #expect(Hyphenator.dictionaryPath(for: "xx-YY") == nil)
    #expect(Hyphenator.dictionaryPath(for: "../etc") == nil)
    #expect(throws: HyphenationError.self) { try Hyphenator(language: "xx") }
    do {
      _ = try Hyphenator(language: "xx")
    } catch let error as HyphenationError {
      #expect(error.description.hasPrefix("no hyphenation dictionary for 'xx'"))
    }
    #expect(throws: HyphenationError.unreadableDictionary("/nonexistent.dic")) {
      try Hyphenator(dictionary: "/nonexistent.dic")
    }
  }

  /// The minimum fragment lengths hold, the dictionary's or the caller's; capitals are matched as
  /// lowercase; words the dictionary's character set cannot write have no points.
  @Test func minimaCapitalsAndForeignLetters() throws {
    let path = "/usr/share/hyphen/hyph_en_US.dic"
    guard FileManager.default.fileExists(atPath: path) else {
      print("skipped: \(path) is absent")
      return
    }
    let english = try Hyphenator(dictionary: path)
    #expect((english.leftMinimum, english.rightMinimum) == (2, 3))
    #expect(english.points(in: "hyphenation") == [2, 6])
    #expect(english.points(in: "HYPHENATION") == [2, 6])
    #expect(english.points(in: "Hyphenation") == [2, 6])
    #expect(english.points(in: "a") == [])
    let wider = try Hyphenator(dictionary: path, leftMinimum: 3, rightMinimum: 6)
    #expect(wider.points(in: "hyphenation") == [])
    #expect(wider.points(in: "justification").allSatisfy { $0 >= 3 && $0 <= "justification".count - 6 })
    let german = "/usr/share/hyphen/hyph_de_DE.dic"
    if FileManager.default.fileExists(atPath: german) {
      let hyphenator = try Hyphenator(dictionary: german)
      #expect(hyphenator.points(in: "Größenverhältnisse") == [3, 6, 9, 13, 16])
      #expect(hyphenator.points(in: "Größenверхältnisse") == [])  // Cyrillic has no ISO 8859-1 byte
    }
  }
}
