import Synchronization
import TestFixtures
import Testing

@testable import HarfBuzz

@Suite("Blobs and faces")
struct BlobFaceTests {
  @Test func blobFromFileHasTheFileBytes() throws {
    let blob = try Blob(contentsOfFile: Paths.latin)
    #expect(blob.count > 1000)
    #expect(Array(blob.bytes.prefix(4)) == [0, 1, 0, 0])  // TrueType sfnt version
  }

  @Test func missingFileIsAnErrorNotAnEmptyBlob() {
    #expect(throws: HarfBuzzError.self) { try Blob(contentsOfFile: "/nonexistent/font.ttf") }
    #expect(throws: HarfBuzzError.self) { try Blob(contentsOfFile: Paths.repository) }
  }

  @Test func copyingBlobOwnsItsBytes() throws {
    var bytes: [UInt8] = [1, 2, 3]
    let blob = try Blob(copying: bytes)
    bytes[0] = 9
    #expect(blob.bytes == [1, 2, 3])
  }

  @Test func zeroCopyBlobReleasesItsBytesWhenHarfBuzzIsDone() throws {
    let fontBytes = try Blob(contentsOfFile: Paths.latin).bytes
    let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: fontBytes.count, alignment: 16)
    storage.copyBytes(from: fontBytes)
    let released = Atomic<Int>(0)
    var face: Face?
    do {
      let blob = try Blob(
        bytesNoCopy: UnsafeRawBufferPointer(storage),
        deallocator: {
          released.add(1, ordering: .sequentiallyConsistent)
        })
      face = try Face(blob: blob)
    }
    // The face still holds the blob: nothing released yet, and the font is readable.
    #expect(released.load(ordering: .sequentiallyConsistent) == 0)
    #expect(face?.unitsPerEm == 1000)
    face = nil
    #expect(released.load(ordering: .sequentiallyConsistent) == 1)
    storage.deallocate()
  }

  @Test func faceReportsItsTables() throws {
    let face = try Face(blob: Blob(contentsOfFile: Paths.latin))
    #expect(face.unitsPerEm == 1000)
    #expect(face.glyphCount > 100)
    let tags = face.tableTags
    for required in ["cmap", "head", "GSUB", "GPOS", "glyf"] {
      #expect(tags.contains(OpenTypeTag(stringLiteral: required)))
    }
    let head = try #require(face.table("head"))
    #expect(head.count == 54)
    #expect(Array(head[12..<16]) == [0x5F, 0x0F, 0x3C, 0xF5])  // head.magicNumber
    #expect(face.table("SVG ") == nil)
  }

  @Test func faceListsItsCmapCoverage() throws {
    let face = try Face(blob: Blob(contentsOfFile: Paths.latin))
    let unicodes = face.unicodes
    #expect(unicodes.contains("A") && unicodes.contains("é"))
    #expect(!unicodes.contains("ب"))
    #expect(unicodes == unicodes.sorted { $0.value < $1.value })
  }

  @Test func collectionsHaveSeveralFaces() throws {
    let blob = try Blob(contentsOfFile: Paths.cjkCollection)
    #expect(Face.count(in: blob) == 2)
    let second = try Face(blob: blob, index: 1)
    #expect(second.index == 1 && second.unitsPerEm == 1000)
    #expect(second.name(.family) == "Noto Sans CJK KR")
    #expect {
      try Face(blob: blob, index: 2, name: "cjk.ttc")
    } throws: { error in
      (error as? HarfBuzzError)?.kind == .faceIndexOutOfRange(count: 2)
    }
  }

  @Test func bytesThatAreNotAFontAreRejected() throws {
    #expect {
      try Face(blob: Blob(copying: Array("not a font at all".utf8)))
    } throws: { error in
      (error as? HarfBuzzError)?.kind == .notAFont
    }
  }

  @Test func tableRecordsOutsideTheFileAreRejected() throws {
    let bytes = try Blob(contentsOfFile: Paths.latin).bytes
    #expect {
      try Face(blob: Blob(copying: bytes.prefix(bytes.count / 2)), name: "half.ttf")
    } throws: { error in
      guard let error = error as? HarfBuzzError else { return false }
      return error.kind == .corruptFont && error.description.hasPrefix("half.ttf: corrupt font: table")
    }
  }
}

@Suite("Ownership")
struct OwnershipTests {
  @Test func faceKeepsItsBlobAlive() throws {
    var blob: Blob? = try Blob(contentsOfFile: Paths.latin)
    let face = try Face(blob: blob!)
    blob = nil
    #expect(face.table("head")?.count == 54)
    #expect(face.blob.count > 1000)
  }

  @Test func fontKeepsItsFaceAlive() throws {
    var face: Face? = try Face(blob: Blob(contentsOfFile: Paths.latin))
    let font = Font(face: face!)
    face = nil
    let buffer = try Buffer()
    [0x61, 0x62].withUnsafeBufferPointer { buffer.add(utf32: $0) }
    buffer.guessSegmentProperties()
    try font.shape(buffer)
    #expect(buffer.glyphs().map { font.glyphLabel($0.glyph) } == ["a", "b"])
  }

  @Test func glyphRecordsAreCopiesThatOutliveTheBuffer() throws {
    let font = Font(face: try Face(blob: Blob(contentsOfFile: Paths.latin)))
    var buffer: Buffer? = try Buffer()
    [0x66, 0x69].withUnsafeBufferPointer { buffer!.add(utf32: $0) }
    buffer!.guessSegmentProperties()
    try font.shape(buffer!)
    let glyphs = buffer!.glyphs()
    buffer!.reset()
    buffer = nil
    #expect(glyphs.count == 1 && font.glyphLabel(glyphs[0].glyph) == "fi")
  }
}
