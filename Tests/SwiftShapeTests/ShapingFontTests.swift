import HarfBuzz
import TestFixtures
import Testing

@testable import SwiftShape

@Suite("Shaping fonts")
struct ShapingFontTests {
  @Test func identityNamesTheFont() throws {
    let font = try ShapingFont(file: Paths.latin)
    #expect(font.identity.file == Paths.latin)
    #expect(font.identity.faceIndex == 0)
    #expect(font.identity.unitsPerEm == 1000)
    #expect(font.identity.family == "Noto Sans")
    #expect(font.identity.postScriptName == "NotoSans-Regular")
    #expect(font.unit == .fontUnits(unitsPerEm: 1000))
  }

  /// A shaping result written in hb-shape's syntax reads back as the same glyphs, at any size:
  /// names to IDs, clusters, and positions scaled from font units.
  @Test func serializedGlyphsReadBackAsShaped() throws {
    let units = try ShapingFont(file: Paths.latin)
    let shaped = try units.shape("office Ta")
    let text = shaped.runs[0].glyphs.map { "\($0.name!)=\($0.cluster)+\($0.xAdvance)" }.joined(separator: "|")
    var read = ShapeResult()
    try units.readGlyphs("[\(text)]", into: &read)
    #expect(read.runs[0].glyphs.map(\.id) == shaped.runs[0].glyphs.map(\.id))
    #expect(read.runs[0].glyphs.map(\.cluster) == shaped.runs[0].glyphs.map(\.cluster))
    #expect(read.runs[0].glyphs.map(\.xAdvance) == shaped.runs[0].glyphs.map(\.xAdvance))
    // At 2,000 units an em (the font has 1,000), written positions are scaled; names alone get the
    // font's own advances at that size.
    let double = try ShapingFont(file: Paths.latin, options: .init(size: .scale(x: 2000, y: 2000)))
    try double.readGlyphs(text, into: &read)
    #expect(read.runs[0].glyphs.map(\.xAdvance) == shaped.runs[0].glyphs.map { $0.xAdvance * 2 })
    try double.readGlyphs(shaped.runs[0].glyphs.map { $0.name! }.joined(separator: "|"), into: &read)
    #expect(
      read.runs[0].glyphs.map(\.xAdvance) == shaped.runs[0].glyphs.map { double.font.advance(of: $0.id).x })
  }

  @Test func defaultFontIsBuiltIn() throws {
    let font = try ShapingFont.defaultFont()
    #expect(font.identity.file == "<default>")
    #expect(font.identity.family == "DejaVu Sans")
    let result = try font.shape("Привет, κόσμε")
    #expect(!result.glyphs.contains { $0.id == 0 })
  }

  @Test func sizesDecideTheUnit() throws {
    let points = try ShapingFont(file: Paths.latin, options: .init(size: .points(10)))
    #expect(points.unit == .fixed26_6(points: 10))
    #expect(points.font.scale == (640, 640))
    #expect(points.font.configuration.pointSize == 10)
    let scaled = try ShapingFont(file: Paths.latin, options: .init(size: .scale(x: 100, y: 50)))
    #expect(scaled.unit == .scaled(x: 100, y: 50))
    let a = try scaled.shape("a").glyphs[0]
    #expect(a.xAdvance == 56)
    #expect(scaled.unit.ems(x: a.xAdvance) == 0.56)
    let upem = try ShapingFont(file: Paths.latin, options: .init(size: .scale(x: 1000, y: 1000)))
    #expect(upem.unit == .fontUnits(unitsPerEm: 1000))
  }

  @Test func badOptionsAreRejected() {
    #expect {
      try ShapingFont(file: Paths.latin, options: .init(size: .points(0)))
    } throws: { ($0 as? ShapingError)?.kind == .invalidArgument }
    #expect {
      try ShapingFont(file: Paths.latin, options: .init(size: .scale(x: 0, y: 10)))
    } throws: { ($0 as? ShapingError)?.kind == .invalidArgument }
  }

  @Test func fontErrorsHaveKinds() {
    #expect {
      try ShapingFont(file: "/nonexistent.ttf")
    } throws: { ($0 as? ShapingError)?.kind == .unreadableFile }
    #expect {
      try ShapingFont(bytes: [1, 2, 3], name: "three bytes")
    } throws: { error in
      guard let error = error as? ShapingError else { return false }
      return error.kind == .badFont && error.description.hasPrefix("three bytes: ")
    }
    #expect {
      try ShapingFont(file: Paths.cjkCollection, faceIndex: 5)
    } throws: { ($0 as? ShapingError)?.kind == .badFont }
  }

  /// A trace whose steps hold more glyphs than the result may keep is an error naming the trace,
  /// and the font shapes on after it (without the trace, and with a short text's).
  @Test func aTraceTooLongIsAnError() throws {
    let font = try ShapingFont(file: Paths.latin)
    var options = ShapeOptions()
    options.trace = true
    options.includeGlyphNames = false
    // Hundreds of steps (kerning adds steps by the glyph) of 20,000 glyphs each, past the limit
    // lowered to 200,000 for this test's shaping.
    let long = String(repeating: "office affine waffles ", count: 900)
    #expect {
      try TraceLimit.$glyphs.withValue(200_000) { try font.shape(long, options: options) }
    } throws: { error in
      guard let error = error as? ShapingError else { return false }
      return error.kind == .invalidArgument && error.input == "the trace" && !error.description.contains("\n")
    }
    #expect(try font.shape("office", options: options).trace?.isEmpty == false)
    var plain = options
    plain.trace = false
    #expect(try font.shape(long, options: plain).glyphs.count > 10_000)
    // Within the limit, a text of 2,200 characters keeps its trace.
    let shorter = String(repeating: "office affine waffles ", count: 100)
    #expect(try font.shape(shorter, options: options).trace?.isEmpty == false)
  }

  @Test func fontsFromMemoryShapeLikeFontsFromFiles() throws {
    let bytes = try Blob(contentsOfFile: Paths.arabic).bytes
    let fromMemory = try ShapingFont(bytes: bytes, name: "arabic")
    let fromFile = try ShapingFont(file: Paths.arabic)
    #expect(try fromMemory.shape("سلام").glyphs == fromFile.shape("سلام").glyphs)
  }

  @Test func oneFontIsSharedByConcurrentTasks() async throws {
    let font = try ShapingFont(file: Paths.devanagari)
    let texts = ["क्षत्रिय", "नमस्ते", "हिन्दी", "र्क द्ध"]
    let expected = try texts.map { try font.shape($0) }
    try await withThrowingTaskGroup(of: (Int, ShapeResult).self) { group in
      for round in 0..<200 {
        let index = round % texts.count
        group.addTask { (index, try font.shape(texts[index])) }
      }
      for try await (index, result) in group { #expect(result == expected[index]) }
    }
  }
}
