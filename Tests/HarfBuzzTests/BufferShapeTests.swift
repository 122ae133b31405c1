import TestFixtures
import Testing

@testable import HarfBuzz

@Suite("Buffers and shaping")
struct BufferShapeTests {
  func shape(
    _ text: String, font path: String = Paths.latin, features: [Feature] = [],
    configure: (Buffer) -> Void = { _ in }
  ) throws -> (Font, Buffer, [GlyphRecord]) {
    let font = Font(face: try Face(blob: Blob(contentsOfFile: path)))
    let buffer = try Buffer()
    let scalars = text.unicodeScalars.map(\.value)
    scalars.withUnsafeBufferPointer { buffer.add(utf32: $0) }
    configure(buffer)
    buffer.guessSegmentProperties()
    try font.shape(buffer, features: features)
    return (font, buffer, buffer.glyphs())
  }

  @Test func ligatureFormsOneGlyphForSeveralCharacters() throws {
    let (font, _, glyphs) = try shape("office")
    #expect(glyphs.map { font.glyphLabel($0.glyph) } == ["o", "f_f_i", "c", "e"])
    #expect(glyphs.map(\.cluster) == [0, 1, 4, 5])
  }

  @Test func featuresTurnLigaturesOff() throws {
    let (font, _, glyphs) = try shape("office", features: [try Feature(parsing: "-liga")])
    #expect(glyphs.map { font.glyphLabel($0.glyph) } == ["o", "f", "f", "i", "c", "e"])
  }

  @Test func kerningChangesAdvances() throws {
    let (_, _, kerned) = try shape("Ta")
    let (_, _, plain) = try shape("Ta", features: [try Feature(parsing: "-kern")])
    #expect(kerned[0].xAdvance < plain[0].xAdvance)
  }

  @Test func guessedPropertiesForArabic() throws {
    let (_, buffer, glyphs) = try shape("سلام", font: Paths.arabic)
    #expect(buffer.direction == .rightToLeft)
    #expect(buffer.script == .arabic)
    // Visual order: the last character's glyph comes first.
    #expect(glyphs.first?.cluster == 3 && glyphs.last?.cluster == 0)
  }

  @Test func contextChangesJoiningWithoutBeingShaped() throws {
    let font = Font(face: try Face(blob: Blob(contentsOfFile: Paths.arabic)))
    func shapeLam(before: String) throws -> UInt32 {
      let buffer = try Buffer()
      let text = (before + "ل").unicodeScalars.map(\.value)
      text.withUnsafeBufferPointer { buffer.add(utf32: $0, item: (text.count - 1)..<text.count) }
      buffer.guessSegmentProperties()
      try font.shape(buffer)
      #expect(buffer.count == 1)
      return buffer.glyphs()[0].glyph
    }
    #expect(try shapeLam(before: "س") != shapeLam(before: ""))
  }

  @Test func utf8ClustersAreByteOffsets() throws {
    let font = Font(face: try Face(blob: Blob(contentsOfFile: Paths.latin)))
    let buffer = try Buffer()
    Array("aéb".utf8).withUnsafeBufferPointer { buffer.add(utf8: $0) }
    buffer.guessSegmentProperties()
    try font.shape(buffer)
    #expect(buffer.glyphs().map(\.cluster) == [0, 1, 3])
  }

  @Test func flagsAndClusterLevelAreKept() throws {
    let buffer = try Buffer()
    buffer.flags = [.beginningOfText, .endOfText, .produceUnsafeToConcat]
    buffer.clusterLevel = .characters
    buffer.invisibleGlyph = 3
    buffer.notFoundGlyph = 4
    #expect(buffer.flags == [.beginningOfText, .endOfText, .produceUnsafeToConcat])
    #expect(buffer.clusterLevel == .characters)
    #expect(buffer.invisibleGlyph == 3 && buffer.notFoundGlyph == 4)
    buffer.reset()
    #expect(buffer.flags == [] && buffer.clusterLevel == .monotoneGraphemes)
  }

  @Test func unknownShaperFails() throws {
    let font = Font(face: try Face(blob: Blob(contentsOfFile: Paths.latin)))
    let buffer = try Buffer()
    [0x61].withUnsafeBufferPointer { buffer.add(utf32: $0) }
    buffer.guessSegmentProperties()
    #expect(throws: HarfBuzzError.self) { try font.shape(buffer, shapers: ["nonexistent"]) }
    try font.shape(buffer, shapers: ["fallback"])
    #expect(buffer.count == 1)
  }

  @Test(arguments: Font.Functions.allCases)
  func oneFontShapesOnManyThreadsAtOnce(_ functions: Font.Functions) async throws {
    var configuration = Font.Configuration()
    configuration.functions = functions
    let font = Font(face: try Face(blob: Blob(contentsOfFile: Paths.arabic)), configuration: configuration)
    let text = "سلامٌ عليكم".unicodeScalars.map(\.value)
    func shapeOnce() throws -> [GlyphRecord] {
      let buffer = try Buffer()
      text.withUnsafeBufferPointer { buffer.add(utf32: $0) }
      buffer.guessSegmentProperties()
      try font.shape(buffer)
      return buffer.glyphs()
    }
    let expected = try shapeOnce()
    try await withThrowingTaskGroup(of: [GlyphRecord].self) { group in
      for _ in 0..<64 { group.addTask { try shapeOnce() } }
      for try await glyphs in group { #expect(glyphs == expected) }
    }
  }
}

@Suite("The reusable buffer")
struct ReusableBufferTests {
  @Test func theThreadsBufferIsReusedAndResetBetweenUses() throws {
    let first = try Buffer.withReusable { buffer in
      var text = "office"
      text.withUTF8 { buffer.add(utf8: $0) }
      buffer.flags = .removeDefaultIgnorables
      buffer.clusterLevel = .characters
      buffer.direction = .rightToLeft
      buffer.messageHandler = { _ in true }
      return ObjectIdentifier(buffer)
    }
    try Buffer.withReusable { buffer in
      #expect(ObjectIdentifier(buffer) == first)
      #expect(buffer.count == 0)
      #expect(buffer.flags == [])
      #expect(buffer.clusterLevel == .monotoneGraphemes)
      #expect(buffer.direction == nil)
      #expect(buffer.messageHandler == nil)
    }
    // A use that changes only the contents and segment properties leaves nothing behind either.
    try Buffer.withReusable { buffer in
      var text = "abc"
      text.withUTF8 { buffer.add(utf8: $0) }
      buffer.guessSegmentProperties()
    }
    try Buffer.withReusable { buffer in
      #expect(buffer.count == 0)
      #expect(buffer.direction == nil)
      #expect(buffer.script == nil)
    }
  }

  @Test func aNestedUseGetsABufferOfItsOwn() throws {
    try Buffer.withReusable { outer in
      var text = "outer"
      text.withUTF8 { outer.add(utf8: $0) }
      try Buffer.withReusable { inner in
        #expect(ObjectIdentifier(inner) != ObjectIdentifier(outer))
        #expect(inner.count == 0)
      }
      // The inner use left the outer buffer alone.
      #expect(outer.count == 5)
    }
  }

  @Test func threadsHaveBuffersOfTheirOwn() async throws {
    let ids = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<8 {
        group.addTask {
          try Buffer.withReusable { buffer in
            var text = "abc"
            text.withUTF8 { buffer.add(utf8: $0) }
            // Each use sees only its own text.
            return buffer.count
          }
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(ids == Array(repeating: 3, count: 8))
  }
}
