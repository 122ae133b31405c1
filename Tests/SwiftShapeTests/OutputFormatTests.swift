import Foundation
import HarfBuzz
import TestFixtures
import Testing

@_spi(Writers) @testable import SwiftShape

@Suite("Output formats")
struct OutputFormatTests {
  /// Numbers are written in decimal as Swift prints them, at every length (the digits are written
  /// two at a time, so odd and even lengths and each power of ten's edges are checked).
  @Test func numbersInDecimal() {
    var values: [UInt] = [0, UInt.max, UInt.max - 1]
    var power: UInt = 1
    for _ in 0..<20 {
      values += [power - 1, power, power + 1, power &* 7 &+ 3]
      if power > UInt.max / 10 { break }
      power *= 10
    }
    for value in values {
      var buffer = ByteBuffer()
      buffer.appendDigits(value)
      buffer.append(-Int(clamping: value))
      #expect(String(decoding: buffer.bytes, as: UTF8.self) == "\(value)\(-Int(clamping: value))")
    }
  }

  func result(_ glyphs: [ShapedGlyph]) -> ShapeResult {
    let run = ShapedRun(
      font: FontIdentity(file: "f", faceIndex: 0, unitsPerEm: 1000, glyphCount: 10),
      unit: .fontUnits(unitsPerEm: 1000),
      scale: Scale(x: 1000, y: 1000), direction: .leftToRight, script: .latin, language: nil, glyphs: glyphs)
    return ShapeResult(text: "ab", clusterUnit: .unicodeScalars, runs: [run])
  }

  @Test func hbTextWritesOffsetsAndYAdvancesOnlyWhenNotZero() {
    let text = HBFormat().line(
      for: result([
        ShapedGlyph(id: 1, name: "a", cluster: 0, xAdvance: 500),
        ShapedGlyph(id: 2, name: "b", cluster: 1, xAdvance: 0, yAdvance: -1000, xOffset: -3, yOffset: 7),
      ]))
    #expect(text == "[a=0+500|b=1@-3,7+0,-1000]")
  }

  @Test func hbTextWithoutAdvancesWritesAbsolutePositions() {
    var format = HBFormat()
    format.advances = false
    format.glyphNames = false
    let text = format.line(
      for: result([
        ShapedGlyph(id: 1, cluster: 0, xAdvance: 500),
        ShapedGlyph(id: 2, cluster: 1, xAdvance: 400, xOffset: 10),
      ]))
    #expect(text == "[1=0|2=1@510,0]")
  }

  @Test func hbTextFlagsAndExtents() {
    var format = HBFormat()
    format.glyphFlags = true
    format.extents = true
    format.clusters = false
    let text = format.line(
      for: result([
        ShapedGlyph(
          id: 1, name: "a", cluster: 0, xAdvance: 500, flags: [.unsafeToBreak, .unsafeToConcat],
          extents: GlyphExtents(xBearing: 1, yBearing: 2, width: 3, height: -4))
      ]))
    #expect(text == "[a+500#3<1,2,3,-4>]")
  }

  @Test func emptyResultIsAnEmptyLine() {
    #expect(HBFormat().line(for: result([])) == "")
  }

  /// The compact layout writes numbers of every width in place: the extremes read back as they
  /// were, beside a long escaped name, through JSON Lines and through the compact document.
  @Test func compactLayoutKeepsExtremeValues() throws {
    let font = try ShapingFont(file: Paths.latin)
    let glyphs = [
      ShapedGlyph(
        id: .max, name: String(repeating: "\"x\\", count: 100), cluster: .max, xAdvance: .min,
        yAdvance: .max, xOffset: .min, yOffset: .min, flags: GlyphFlags(rawValue: 3)),
      ShapedGlyph(id: 0, name: nil, cluster: 0, xAdvance: 0),
    ]
    var shaped = result(glyphs)
    shaped.text = String(repeating: "é\u{2028}\n", count: 50)
    let entry = ShapeDocument.Entry(line: .max, result: shaped)
    var bytes: [UInt8] = []
    ShapeDocumentLines(font: font, options: ShapeOptions()).append(entry, to: &bytes)
    let compact = ShapeDocument(font: font, options: ShapeOptions(), entries: [entry]).json(.compact)
    for json in [String(decoding: bytes, as: UTF8.self), compact] {
      let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
      let first = (object?["results"] as? [[String: Any]])?.first
      #expect(first?["line"] as? Int == .max)
      #expect(first?["text"] as? String == shaped.text)
      let written = first?["glyphs"] as? [[String: Any]]
      #expect(written?.count == 2)
      #expect(written?.first?["id"] as? Int == Int(UInt32.max))
      #expect(written?.first?["name"] as? String == glyphs[0].name)
      #expect(written?.first?["cluster"] as? Int == .max)
      #expect(written?.first?["x_advance"] as? Int == Int(Int32.min))
      #expect(written?.first?["y_advance"] as? Int == Int(Int32.max))
      #expect(written?.first?["y_offset"] as? Int == Int(Int32.min))
      #expect(written?.first?["flags"] as? Int == 3)
      #expect(written?.last?["name"] == nil)
    }
  }

  /// Strings of every kind of character the writer treats apart (quotes, backslashes, control
  /// characters, DEL, U+2028 and U+2029, other multi-byte text, and E2 bytes of other characters)
  /// read back the same, with no raw control character or line separator left in the JSON.
  @Test func jsonStringsReadBackTheSame() throws {
    let pieces = [
      "a", "plain text ", "\"", "\\", "\n", "\r", "\t", "\u{8}", "\u{C}", "\u{0}", "\u{1F}", "\u{7F}",
      "\u{2028}", "\u{2029}", "\u{2020}", "\u{20AC}", "\u{202F}", "é", "ب", "𝒜",
    ]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<500 {
      let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement()! }.joined()
      var json = ""
      JSONWriter.appendString(text, to: &json)
      let decoded = try JSONDecoder().decode(String.self, from: Data(json.utf8))
      #expect(decoded == text, "\(json)")
      #expect(!json.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{2028}" || $0 == "\u{2029}" })
    }
  }

  @Test func jsonEscapesStringsAndKeepsKeyOrder() throws {
    let font = try ShapingFont(file: Paths.latin)
    let shaped = try font.shape("a\"\\\u{1}")
    let json = ShapeDocument(font: font, options: ShapeOptions(), entries: [.init(line: 1, result: shaped)])
      .json(.compact)
    #expect(json.contains(#""text":"a\"\\\u0001""#))
    #expect(json.hasPrefix(#"{"format":"swiftshape-shape","version":1,"harfbuzz":""#))
    let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    #expect((object?["results"] as? [[String: Any]])?.first?["text"] as? String == "a\"\\\u{1}")
    let keys = [
      "\"id\"", "\"name\"", "\"cluster\"", "\"x_advance\"", "\"y_advance\"", "\"x_offset\"", "\"y_offset\"",
      "\"flags\"",
    ]
    let positions = keys.compactMap { json.range(of: $0)?.lowerBound }
    #expect(positions.count == keys.count && positions == positions.sorted())
  }

  @Test func prettyJSONPutsOneGlyphOnALine() throws {
    let font = try ShapingFont(file: Paths.latin)
    let document = ShapeDocument(
      font: font, options: ShapeOptions(), entries: [.init(line: 1, result: try font.shape("abc"))])
    let lines = document.json(.pretty).split(separator: "\n")
    #expect(lines.filter { $0.contains("\"x_advance\"") }.count == 3)
  }
}
