import Foundation
import SwiftShapeUnicode
import TestFixtures
import Testing

/// Script itemization: each run one script, Common and Inherited characters with their context.
@Suite("Script itemization")
struct ScriptItemizerTests {
  /// The runs as `script:text` pieces.
  static func pieces(_ text: String) throws -> [String] {
    let scalars = Array(text.unicodeScalars)
    return try ScriptItemizer.runs(text).map { run in
      var view = String.UnicodeScalarView()
      view.append(contentsOf: scalars[run.range])
      return "\(run.script):\(String(view))"
    }
  }

  @Test func mixedScripts() throws {
    #expect(
      try Self.pieces("Hello שלום 123 مرحبا! 日本")
        == ["Latn:Hello ", "Hebr:שלום 123 ", "Arab:مرحبا! ", "Hani:日本"])
  }

  /// Common characters at the start take the first script after them; digits and punctuation the
  /// script before them.
  @Test func commonCharactersTakeTheirContext() throws {
    #expect(try Self.pieces("123 abc") == ["Latn:123 abc"])
    #expect(try Self.pieces("١٢٣ abc") == ["Arab:١٢٣ ", "Latn:abc"])
    #expect(try Self.pieces("... 😀") == ["Zyyy:... 😀"])
    #expect(try Self.pieces("") == [])
  }

  /// A nonspacing or enclosing mark stays in its base's run whatever its own script (Hebrew
  /// points on Arabic and Latin letters); at the start of the text, it has no base to stay with.
  @Test func marksStayWithTheirBase() throws {
    #expect(try Self.pieces("ع\u{5B7}ل\u{5B4}ي") == ["Arab:ع\u{5B7}ل\u{5B4}ي"])
    #expect(try Self.pieces("a\u{5B7}b שָׁלוֹם") == ["Latn:a\u{5B7}b ", "Hebr:שָׁלוֹם"])
    #expect(try Self.pieces("a\u{20DD} b") == ["Latn:a\u{20DD} b"])
    #expect(try Self.pieces("\u{5B7}ab") == ["Hebr:\u{5B7}", "Latn:ab"])
  }

  /// A closing bracket goes with its opening one, whatever is between them.
  @Test func pairedBracketsTakeTheScriptOfTheOpeningBracket() throws {
    #expect(try Self.pieces("abc (שלום) def") == ["Latn:abc (", "Hebr:שלום", "Latn:) def"])
    #expect(try Self.pieces("(שלום) abc") == ["Hebr:(שלום) ", "Latn:abc"])
    #expect(try Self.pieces("«مرحبا» hi") == ["Arab:«مرحبا» ", "Latn:hi"])
  }

  /// Combining marks, joiners and variation selectors stay with the character before them, so
  /// emoji sequences and keycaps are never cut.
  @Test func marksJoinersAndSelectorsStayWithTheirBase() throws {
    #expect(try Self.pieces("a\u{301}b שׁ\u{5B8}") == ["Latn:a\u{301}b ", "Hebr:שׁ\u{5B8}"])
    #expect(try Self.pieces("שלום 👩‍💻 1️⃣") == ["Hebr:שלום 👩‍💻 1️⃣"])
    #expect(try Self.pieces("x 葛\u{E0100}") == ["Latn:x ", "Hani:葛\u{E0100}"])
  }

  /// Script_Extensions: a character used by several scripts goes on in the run of one of them,
  /// and starts a run of its first otherwise.
  @Test func scriptExtensions() throws {
    #expect(try Self.pieces("مرحبا، سلام") == ["Arab:مرحبا، سلام"])
    #expect(try Self.pieces("abc، def") == ["Latn:abc", "Arab:، ", "Latn:def"])
    #expect(try Self.pieces("नमस्ते।") == ["Deva:नमस्ते।"])
  }

  /// The one-run shortcut agrees with itemization: where it finds one run, itemization finds that
  /// run; where itemization finds several (or a level above 0), it finds none. On fixed strings and
  /// on every line of the benchmark corpora in `../shared`, when it is there.
  @Test func singleRunShortcutAgreesWithItemization() throws {
    var lines = [
      "Hello", "hello world (abc) 123.", "नमस्ते", "नमस्ते।", "abc שלום", "123", "...", "ab\u{301}c",
      "(שלום)", "مرحبا", "日本語", "a日", "office ﬃ", "x 😀", "«abc»", "", " ", "abc، def",
    ]
    if let shared = Paths.shared {
      let folder = shared + "/corpus/harfbuzz-6.0.0-perf/texts"
      for file in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
        let text = (try? String(contentsOfFile: folder + "/" + file, encoding: .utf8)) ?? ""
        lines += text.split(separator: "\n").prefix(2000).map(String.init)
      }
    }
    var shortcuts = 0
    for line in lines {
      for base in BaseDirection.allCases {
        let paragraph = try ItemizedParagraph(Array(line.unicodeScalars), base: base)
        let oneRun = paragraph.runs.count == 1 && paragraph.runs[0].level == 0 && paragraph.baseLevel == 0
        guard let (tag, count) = try ItemizedParagraph.singleRun(line, base: base) else { continue }
        shortcuts += 1
        #expect(count == line.unicodeScalars.count)
        let code = String(
          decoding: (0..<4).map { UInt8(truncatingIfNeeded: tag >> (24 - 8 * $0)) }, as: UTF8.self)
        #expect(oneRun && paragraph.runs[0].script == code, "\(line) (\(base)): \(code), \(paragraph.runs)")
      }
    }
    #expect(shortcuts > 10)
    #expect(try ItemizedParagraph.singleRun("abc שלום", base: .auto) == nil)
    #expect(try ItemizedParagraph.singleRun("abc", base: .rightToLeft) == nil)
    #expect(try ItemizedParagraph.singleRun("", base: .auto) == nil)
  }
}

/// Isolates (`ItemizedParagraph(_:base:isolates:)`) resolve as FSI, LRI or RLI … PDI written
/// around their range would: the same level for every character.
@Suite("Bidi isolates")
struct IsolateTests {
  /// Each scalar's level, from the paragraph's runs.
  static func levels(_ paragraph: ItemizedParagraph, count: Int) -> [UInt8] {
    var levels = [UInt8](repeating: 0, count: count)
    for run in paragraph.runs {
      for index in run.range { levels[index] = run.level }
    }
    return levels
  }

  @Test(arguments: [
    ("Hello שלום 123 world", [Isolate(6..<14, base: .rightToLeft)]),
    ("abc def", [Isolate(0..<3, base: .rightToLeft), Isolate(4..<7, base: .auto)]),
    ("مرحبا abc 12 def سلام", [Isolate(6..<16, base: .leftToRight), Isolate(10..<12, base: .rightToLeft)]),
    ("x שלום y", [Isolate(2..<6, base: .auto), Isolate(0..<8, base: .leftToRight)]),
  ])
  func isolatesAreTheirControlsWritten(_ text: String, isolates: [Isolate]) throws {
    let scalars = Array(text.unicodeScalars)
    let resolved = try ItemizedParagraph(scalars, base: .auto, isolates: isolates)
    // The same text with the controls written in, their own levels left out.
    var written: [Unicode.Scalar] = []
    var original: [Int] = []
    for (index, scalar) in scalars.enumerated() {
      for isolate in isolates where isolate.range.upperBound == index { written.append("\u{2069}") }
      for isolate in isolates.sorted(by: { $0.range.upperBound > $1.range.upperBound })
      where isolate.range.lowerBound == index {
        written.append(
          isolate.base == .auto ? "\u{2068}" : isolate.base == .leftToRight ? "\u{2066}" : "\u{2067}")
      }
      original.append(written.count)
      written.append(scalar)
    }
    for isolate in isolates where isolate.range.upperBound == scalars.count { written.append("\u{2069}") }
    let withControls = try ItemizedParagraph(written, base: .auto)
    let expected = Self.levels(withControls, count: written.count)
    #expect(Self.levels(resolved, count: scalars.count) == original.map { expected[$0] })
    #expect(resolved.baseLevel == withControls.baseLevel)
  }
}
