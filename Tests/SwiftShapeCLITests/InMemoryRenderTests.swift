import Foundation
import HarfBuzz
import SwiftShape
import SwiftShapeRender
import TestFixtures
import Testing

@Suite("Rendering fonts in memory")
struct InMemoryRenderTests {
  /// A font read into memory draws the same SVG as the same font opened by path, for a plain face,
  /// a variable one at a named weight and a collection's second face.
  @Test(arguments: [
    (Paths.latin, 0, "office AVATAR", [Variation]()),
    (Paths.variable, 0, "Hamburgefonstiv", [Variation("wght", 700)]),
    (Paths.cjkCollection, 1, "日本語", [Variation]()),
  ])
  func bytesDrawLikeTheFile(path: String, faceIndex: Int, text: String, variations: [Variation]) throws {
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    let fromFile = try ShapingFont(
      file: path, faceIndex: faceIndex, options: .init(variations: variations))
    let fromBytes = try ShapingFont(
      bytes: bytes, faceIndex: faceIndex, name: path, options: .init(variations: variations))
    let result = try fromFile.shape(text)
    #expect(try fromBytes.shape(text).glyphs == result.glyphs)
    let expected = try SVGRenderer(font: fromFile).svg([result])
    let outlines = try FreeTypeFace(bytes: bytes, faceIndex: faceIndex, name: path, variations: variations)
    let drawn = SVGRenderer(font: fromBytes, outlines: outlines).svg([result])
    #expect(drawn == expected)
    #expect(drawn.contains("<path"))
  }

  /// Bytes FreeType cannot open fail with the error naming the input.
  @Test func unreadableBytesAreBadFonts() {
    #expect {
      _ = try FreeTypeFace(bytes: Array("not a font".utf8), faceIndex: 0, name: "scrap")
    } throws: { error in
      guard let error = error as? ShapingError else { return false }
      return error.kind == .badFont && error.description.contains("scrap")
    }
  }
}
