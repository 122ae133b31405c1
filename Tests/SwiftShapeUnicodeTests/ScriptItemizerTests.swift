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
