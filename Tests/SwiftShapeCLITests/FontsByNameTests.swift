import Foundation
import Testing

@Suite(
  "Fonts by name and info", .enabled(if: HarfBuzzTools.find("fc-match") != nil, "fontconfig is not installed")
)
struct FontsByNameTests {
  static func fcMatch(_ pattern: String) throws -> String {
    try run(HarfBuzzTools.find("fc-match")!, ["-f", "%{file}", pattern]).out
  }

  @Test func fontPatternShapesWithTheFileFCMatchNames() throws {
    let file = try Self.fcMatch("DejaVu Sans:bold")
    let byName = try swiftshape(["--font", "DejaVu Sans:bold", "--text", "Ta"])
    #expect(byName.status == 0 && byName.stderr.isEmpty)
    let document = try #require(try JSONSerialization.jsonObject(with: byName.stdout) as? [String: Any])
    let font = try #require(document["font"] as? [String: Any])
    #expect(font["file"] as? String == file)
    #expect(font["pattern"] as? String == "DejaVu Sans:bold")
    let byName2 = try swiftshape(["--font", "DejaVu Sans:bold", "-O", "text", "--text", "Ta"])
    let byFile = try swiftshape(["--font-file", file, "-O", "text", "--text", "Ta"])
    #expect(byName2.out == byFile.out && !byFile.out.isEmpty)
  }

  @Test func substituteIsNotedAndStrictRefusesIt() throws {
    let noted = try swiftshape(["--font", "No Such Family Anywhere", "-O", "text", "--text", "a"])
    #expect(noted.status == 0 && !noted.stdout.isEmpty)
    #expect(
      noted.err.hasPrefix(
        "swiftshape: note: 'No Such Family Anywhere' is not installed; fontconfig substitutes "))
    let strict = try swiftshape([
      "--font", "No Such Family Anywhere", "--strict", "-O", "text", "--text", "a",
    ])
    #expect(strict.status == 65 && strict.stdout.isEmpty)
    #expect(
      strict.err.hasPrefix(
        "swiftshape: error: --font 'No Such Family Anywhere': no such family installed (--strict)"))
  }

  @Test func fontIsGivenOneWayOnly() throws {
    let both = try swiftshape([
      "--font", "monospace", "--font-file", "fonts/NotoSans-Latin.ttf", "--text", "a",
    ])
    #expect(both.status == 64 && both.err.contains("give the font one way only"))
  }

  @Test func fontsListsWhatFCListLists() throws {
    let result = try swiftshape(["fonts", "DejaVu Sans Mono"])
    #expect(result.status == 0)
    let files = Set(result.out.split(separator: "\n").map { $0.split(separator: "\t")[2] }.map(String.init))
    let fcList = try run(HarfBuzzTools.find("fc-list")!, ["-f", "%{file}\n", "DejaVu Sans Mono"]).out
    #expect(files == Set(fcList.split(separator: "\n").map(String.init)))
    let json = try swiftshape(["fonts", "-O", "json", "DejaVu Sans Mono"])
    let list = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]])
    #expect(list.count == files.count && list.allSatisfy { $0["family"] as? String == "DejaVu Sans Mono" })
  }

  @Test func infoReadsFilesAndPatterns() throws {
    let byFile = try swiftshape(["info", "fonts/InterVariable-Subset.ttf"])
    #expect(byFile.status == 0)
    #expect(byFile.out.contains("Units per em:    2816"))
    #expect(byFile.out.contains("  wght Weight: 100 … 400 … 900"))
    #expect(byFile.out.contains("  Bold: wght=700 slnt=0"))
    let byName = try swiftshape(["info", "-O", "json", "DejaVu Sans:bold"])
    let info = try #require(try JSONSerialization.jsonObject(with: byName.stdout) as? [String: Any])
    #expect(info["file"] as? String == (try Self.fcMatch("DejaVu Sans:bold")))
    #expect((info["names"] as? [String: Any])?["postscript_name"] as? String == "DejaVuSans-Bold")
    let face = try swiftshape(["info", "fonts/NotoSansCJK-Subset.ttc", "--face-index", "1", "-O", "json"])
    let faceInfo = try #require(try JSONSerialization.jsonObject(with: face.stdout) as? [String: Any])
    #expect(faceInfo["face_index"] as? Int == 1 && faceInfo["face_count"] as? Int == 2)
  }

  @Test func infoOfABadFontIsAOneLineError() throws {
    let result = try swiftshape(["info", "golden/cases.json"])
    #expect(result.status == 65 && result.stdout.isEmpty)
    #expect(
      result.err
        == "swiftshape: error: golden/cases.json: not a font file (no OpenType, TrueType or collection header)\n"
    )
  }
}
