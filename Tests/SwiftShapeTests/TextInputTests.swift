import TestFixtures
import Testing

@testable import SwiftShape

@Suite("Text input")
struct TextInputTests {
  @Test func linesSplitLikeHBShape() throws {
    #expect(TextInput.lines(of: "") == [])
    #expect(TextInput.lines(of: "a") == ["a"])
    #expect(TextInput.lines(of: "a\n") == ["a"])
    #expect(TextInput.lines(of: "a\n\nb\n\n") == ["a", "", "b", ""])
    #expect(TextInput.lines(of: "a\r\nb") == ["a\r", "b"])
  }

  @Test func invalidUTF8IsLocated() {
    #expect(TextInput.firstInvalidUTF8(in: Array("héllo".utf8)) == nil)
    #expect(TextInput.firstInvalidUTF8(in: [0x61, 0x80]) == 1)  // lone continuation
    #expect(TextInput.firstInvalidUTF8(in: [0xC0, 0xAF]) == 0)  // overlong
    #expect(TextInput.firstInvalidUTF8(in: [0xED, 0xA0, 0x80]) == 0)  // surrogate
    #expect(TextInput.firstInvalidUTF8(in: [0x61, 0xE2, 0x82]) == 1)  // truncated
    #expect(TextInput.firstInvalidUTF8(in: [0xF4, 0x90, 0x80, 0x80]) == 0)  // past U+10FFFF
    #expect {
      try TextInput.lines(fromUTF8: [0x61, 0x0A, 0x62, 0xFF], name: "in.txt")
    } throws: { error in
      (error as? ShapingError)?.description == "in.txt: invalid UTF-8 at byte 3 (line 2, byte 2 of the line)"
    }
  }

  @Test func unicodesListsParseInHBShapesForms() throws {
    #expect(try TextInput.scalars(fromUnicodesList: "U+0041,U+0301") == ["A", "\u{301}"])
    #expect(try TextInput.scalars(fromUnicodesList: "41 301;0x42\tu+1F600") == ["A", "\u{301}", "B", "😀"])
    #expect(throws: ShapingError.self) { try TextInput.scalars(fromUnicodesList: "U+12345678") }
    #expect(throws: ShapingError.self) { try TextInput.scalars(fromUnicodesList: "DFFF") }
    #expect(throws: ShapingError.self) { try TextInput.scalars(fromUnicodesList: ", ,") }
  }
}
