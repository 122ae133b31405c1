import Foundation
import HarfBuzz
import TestFixtures
import Testing

@testable import SwiftShapeFonts

/// `FontInfo` of every fixture font: the JSON equals `Fixtures/info/NAME.json` (re-recorded with
/// `SWIFTSHAPE_RECORD_GOLDEN=1`), and its facts agree with fontTools' reading of the same font.
@Suite("Font info")
struct FontInfoTests {
  static let fonts: [(file: String, faceIndex: Int)] = [
    ("NotoSans-Latin.ttf", 0), ("NotoSansArabic-Subset.ttf", 0), ("NotoSansDevanagari-Subset.ttf", 0),
    ("NotoSansThai-Subset.ttf", 0), ("NotoSansCJK-Subset.ttc", 0), ("NotoSansCJK-Subset.ttc", 1),
    ("InterVariable-Subset.ttf", 0),
  ]

  static func info(_ font: (file: String, faceIndex: Int)) throws -> FontInfo {
    let face = try Face(blob: Blob(contentsOfFile: Paths.font(font.file)), index: font.faceIndex)
    return FontInfo(face: face, file: "fonts/\(font.file)")
  }

  static func golden(_ font: (file: String, faceIndex: Int)) -> URL {
    let name = font.file.split(separator: ".").first! + (font.faceIndex > 0 ? "-\(font.faceIndex)" : "")
    return URL(fileURLWithPath: "\(Paths.fixtures)/info/\(name).json")
  }

  @Test(arguments: fonts.indices)
  func jsonMatchesGoldenFile(_ index: Int) throws {
    let font = Self.fonts[index]
    let json = try Self.info(font).json() + "\n"
    if ProcessInfo.processInfo.environment["SWIFTSHAPE_RECORD_GOLDEN"] == "1" {
      try #require(FontToolsReader.available, "recording needs python3-fonttools to cross-check")
      try expectAgreementWithFontTools(font)
      try Data(json.utf8).write(to: Self.golden(font), options: .atomic)
      return
    }
    let expected = try String(contentsOf: Self.golden(font), encoding: .utf8)
    #expect(json == expected, "\(font.file): re-record with SWIFTSHAPE_RECORD_GOLDEN=1")
  }

  @Test(
    .enabled(if: FontToolsReader.available, "python3-fonttools is not installed"), arguments: fonts.indices)
  func factsAgreeWithFontTools(_ index: Int) throws {
    try expectAgreementWithFontTools(Self.fonts[index])
  }

  func expectAgreementWithFontTools(_ font: (file: String, faceIndex: Int)) throws {
    let info = try Self.info(font)
    let facts = try FontToolsReader.read(Paths.font(font.file), faceIndex: font.faceIndex)
    #expect(info.unitsPerEm == facts["upem"] as? Int)
    #expect(info.glyphCount == facts["glyphs"] as? Int)
    #expect(info.unicodeCount == facts["cmap"] as? Int)
    #expect(info.faceCount == facts["faces"] as? Int)
    #expect(Set(info.gsubFeatures.map(\.description)) == Set(facts["gsub"] as? [String] ?? []))
    #expect(Set(info.gposFeatures.map(\.description)) == Set(facts["gpos"] as? [String] ?? []))
    #expect(info.tables.map(\.description).sorted() == (facts["tables"] as? [String])?.sorted())
    let axes = (facts["axes"] as? [[Any]]) ?? []
    #expect(info.variationAxes.count == axes.count)
    for (axis, fact) in zip(info.variationAxes, axes) {
      #expect(axis.tag.description == fact[0] as? String)
      #expect(Double(axis.minimum) == (fact[1] as? NSNumber)?.doubleValue)
      #expect(Double(axis.defaultValue) == (fact[2] as? NSNumber)?.doubleValue)
      #expect(Double(axis.maximum) == (fact[3] as? NSNumber)?.doubleValue)
    }
    let instances = (facts["instances"] as? [[NSNumber]]) ?? []
    #expect(
      info.namedInstances.map { $0.coordinates.map(Double.init) } == instances.map { $0.map(\.doubleValue) })
  }

  @Test func unicodeRangesAreMerged() throws {
    let info = try Self.info(("InterVariable-Subset.ttf", 0))
    #expect(info.unicodeRanges == [0x20...0x7E])
    #expect(info.unicodeCount == 95)
    #expect(FontInfo.describe(0x20...0x7E) == "U+0020-U+007E")
  }

  @Test func colorAndAATAreReported() throws {
    let info = try Self.info(("NotoSans-Latin.ttf", 0))
    #expect(!info.color.layers && !info.color.palettes && !info.color.svg && !info.color.bitmaps)
    #expect(info.aatTables.isEmpty)
    #expect(info.names.family == "Noto Sans" && info.names.postScriptName == "NotoSans-Regular")
  }
}

/// Reads facts of a font with fontTools (Debian's python3-fonttools), for cross-checking.
enum FontToolsReader {
  static let python = URL(fileURLWithPath: "/usr/bin/python3")

  static let available: Bool = {
    guard FileManager.default.isExecutableFile(atPath: python.path) else { return false }
    let process = Process()
    process.executableURL = python
    process.arguments = ["-c", "import fontTools"]
    process.standardError = Pipe()
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }()

  static let script = """
    import json, sys
    from fontTools.ttLib import TTFont, TTCollection
    path, index = sys.argv[1], int(sys.argv[2])
    font = TTFont(path, fontNumber=index)
    faces = len(TTCollection(path).fonts) if path.endswith(('.ttc', '.otc')) else 1
    def features(tag):
        if tag not in font or font[tag].table.FeatureList is None:
            return []
        return sorted({record.FeatureTag for record in font[tag].table.FeatureList.FeatureRecord})
    axes = [[a.axisTag, a.minValue, a.defaultValue, a.maxValue] for a in font['fvar'].axes] if 'fvar' in font else []
    instances = [[i.coordinates[a[0]] for a in axes] for i in font['fvar'].instances] if 'fvar' in font else []
    print(json.dumps({
        'upem': font['head'].unitsPerEm, 'glyphs': font['maxp'].numGlyphs,
        'cmap': len(font.getBestCmap() or {}), 'faces': faces, 'gsub': features('GSUB'), 'gpos': features('GPOS'),
        'tables': [t for t in font.reader.keys() if t != 'GlyphOrder'], 'axes': axes, 'instances': instances,
    }))
    """

  static func read(_ path: String, faceIndex: Int) throws -> [String: Any] {
    let process = Process()
    process.executableURL = python
    process.arguments = ["-c", script, path, String(faceIndex)]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
  }
}
