import SwiftShapeUnicode
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
}
