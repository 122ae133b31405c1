import Foundation
import HarfBuzz
import SwiftShapeCommandLine
import SwiftShapeRequests
import TestFixtures
import Testing

@Suite("swiftshape record and check")
struct FixtureCommandTests {
  @Test func passingFixtureExitsZero() throws {
    let result = try swiftshape(["check", "fixtures/passing.json"])
    #expect(result.status == 0)
    #expect(result.out == "6 passed, 0 failed, 0 skipped\n")
  }

  @Test func failuresExitOneAndNameGlyphsAndFields() throws {
    let result = try swiftshape(["check", "fixtures/mismatches.json"])
    #expect(result.status == 1)
    #expect(
      result.out.contains(
        "FAIL fixtures/mismatches.json: case 4 \"wrong offset\": \"بِ\"\n  glyph 0 (uni0650): x_offset expected -35, actual 344\n"
      ))
    #expect(result.out.contains("  glyph count: expected 4, actual 6\n"))
    #expect(!result.out.contains("\u{1B}["), "no colors when standard output is not a terminal")
    #expect(result.out.hasSuffix("0 passed, 5 failed, 0 skipped\n"))
  }

  @Test func jsonReportIsMachineReadable() throws {
    let result = try swiftshape([
      "check", "--format", "json", "fixtures/mismatches.json", "fixtures/passing.json",
    ])
    #expect(result.status == 1)
    let report = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
    #expect(report["format"] as? String == "swiftshape-check")
    #expect(report["passed"] as? Int == 6 && report["failed"] as? Int == 5 && report["errors"] as? Int == 0)
    let cases = try #require(report["cases"] as? [[String: Any]])
    let advance = try #require(cases.first { $0["name"] as? String == "wrong advance" })
    #expect(advance["status"] as? String == "fail")
    let differences = try #require(advance["differences"] as? [[String: Any]])
    #expect(differences.first?["field"] as? String == "x_advance")
    #expect(
      differences.first?["expected"] as? String == "476" && differences.first?["actual"] as? String == "556")
  }

  /// fontbakery's forbidden_glyphs mode: a test fails when a forbidden glyph comes out, named with
  /// where; tests need no expectation, and one given is still checked.
  @Test func forbiddenGlyphsFailTheTestsThatProduceThem() throws {
    let result = try swiftshape([
      "check", "--font-file", "fonts/NotoSans-Latin.ttf", "fontbakery/forbidden-glyphs.json",
    ])
    #expect(result.status == 1)
    #expect(
      result.out
        == """
        FAIL fontbakery/forbidden-glyphs.json: case 2 "fails: 日 is not in the font, .notdef comes out" with NotoSans-Latin.ttf: "a日b"
          glyph 1 (.notdef): forbidden, .notdef (cluster 1)
          expected: none of .notdef, dottedcircle
          actual:   a=0+561|.notdef=1+600|b=2+615
        2 passed, 1 failed, 0 skipped

        """)
    // Without forbidden glyphs, a test without an expectation is an unusable file.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swiftshape-forbidden-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let plain = folder.appendingPathComponent("plain.json")
    try #"{"configuration": {}, "tests": [{"input": "a"}]}"#.write(
      to: plain, atomically: true, encoding: .utf8)
    let unusable = try swiftshape(["check", "--font-file", "fonts/NotoSans-Latin.ttf", plain.path])
    #expect(unusable.status == 65 && unusable.out.contains("test 1: a test needs an \"expectation\""))
  }

  /// `--svg FOLDER` draws each failing case: the actual and expected runs, or the run with its
  /// forbidden glyph in red.
  @Test func failuresAreDrawn() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swiftshape-svg-\(getpid())")
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try swiftshape([
      "check", "--svg", folder.path, "--font-file", "fonts/NotoSans-Latin.ttf",
      "fontbakery/forbidden-glyphs.json",
      "fixtures/fontbakery.json", "fixtures/passing.json",
    ])
    #expect(result.status == 1)
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(files == ["fontbakery-case3-NotoSans-Latin.svg", "forbidden-glyphs-case2-NotoSans-Latin.svg"])
    let forbidden = try String(
      contentsOf: folder.appendingPathComponent("forbidden-glyphs-case2-NotoSans-Latin.svg"), encoding: .utf8)
    #expect(forbidden.contains(##"fill="#D00000" data-gid="0" data-name=".notdef""##))
    let regression = try String(
      contentsOf: folder.appendingPathComponent("fontbakery-case3-NotoSans-Latin.svg"), encoding: .utf8)
    #expect(regression.contains(#"data-run="actual""#) && regression.contains(#"data-run="expected""#))
  }

  /// fontbakery's collision check with pattern inputs: the report names the pattern, how many of
  /// its strings fail, the first, and each colliding pair; `--svg` draws that string with the
  /// area the colliding glyphs share in red over them.
  @Test func collisionsAreFoundReportedAndDrawn() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swiftshape-collisions-\(getpid())")
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try swiftshape([
      "check", "--svg", folder.path, "--font-file", "fontbakery/fonts/Collisions-Test.ttf",
      "fontbakery/compare/collisions-font-marks.json",
    ])
    #expect(result.status == 1)
    #expect(
      result.out.hasPrefix(
        """
        FAIL fontbakery/compare/collisions-font-marks.json: case 1 with Collisions-Test.ttf: "base mark{1,2}"
          72 of 126 strings of the pattern fail; the first: "ả"
          glyph 0 (a) and glyph 1 (hookcomb) collide: a/hookcomb at (200, 700)
          expected: no collisions
          actual:   a=0+600|hookcomb=0+0

        """))
    // The allowed pair is not reported, the other way round is.
    #expect(result.out.contains("  glyph 2 (gravecomb) and glyph 1 (acutecomb) collide") == false)
    #expect(result.out.contains("  glyph 1 (acutecomb) and glyph 2 (gravecomb) collide: acutecomb/gravecomb"))
    #expect(result.out.hasSuffix("2 passed, 3 failed, 0 skipped\n"))
    let picture = try String(
      contentsOf: folder.appendingPathComponent("collisions-font-marks-case1-Collisions-Test.svg"),
      encoding: .utf8)
    #expect(picture.contains(#"data-gid="2" data-name="a""#) && picture.contains(#"data-name="hookcomb""#))
    // The shared area, y 600–700 above the baseline (at y 900 in the picture, whose y runs down).
    #expect(picture.contains(#"data-overlay="collision" d="M200 300L400 300L400 200L200 200Z""#))
  }

  /// Pattern and collision settings that cannot be used: one line naming the file and the test,
  /// exit status 65.
  @Test func badPatternsAndCollisionSettingsAreNamed() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swiftshape-patterns-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    func check(_ json: String, _ extra: [String] = []) throws -> (status: Int32, out: String) {
      let file = folder.appendingPathComponent("file.json")
      try json.write(to: file, atomically: true, encoding: .utf8)
      let result = try swiftshape(["check", "--font-file", "fonts/NotoSans-Latin.ttf"] + extra + [file.path])
      return (result.status, result.out)
    }
    let ingredients = #""ingredients": {"vowel": "[aeiou]", "any": "[a-z]"}"#
    let unknown = try check(
      #"{"configuration": {"collidoscope": {"marks": true}, \#(ingredients)}, "tests": [{"input": "vowl vowel", "input_type": "pattern"}]}"#
    )
    #expect(unknown.status == 65)
    #expect(
      unknown.out.hasPrefix(
        "ERROR \(folder.path)/file.json: case 1: pattern \"vowl vowel\": unknown ingredient \"vowl\" (the file's ingredients: vowel, any)\n"
      ))
    let tooMany = try check(
      #"{"configuration": {"collidoscope": {"marks": true}, \#(ingredients)}, "tests": [{"input": "any{3}", "input_type": "pattern"}]}"#,
      ["--pattern-limit", "1000"])
    #expect(tooMany.status == 65)
    #expect(
      tooMany.out.contains(
        "case 1: pattern \"any{3}\": the pattern stands for 17576 strings, more than the limit of 1000\n"))
    let area = try check(
      #"{"configuration": {"collidoscope": {"area": "5%"}}, "tests": [{"input": "a"}]}"#)
    #expect(area.status == 65)
    #expect(
      area.out.hasPrefix(
        "ERROR \(folder.path)/file.json: configuration.collidoscope: \"collidoscope.area\" must be a fraction from 0 to 1 (0.05 is 5 %)\n"
      ))
    let rule = try check(
      #"{"configuration": {}, "tests": [{"input": "a", "collidoscope": {"mark": true}}]}"#)
    #expect(rule.status == 65)
    #expect(rule.out.contains("file.json: test 1: collidoscope: unknown collidoscope rule \"mark\""))
    let kind = try check(#"{"configuration": {}, "tests": [{"input": "a", "input_type": "regex"}]}"#)
    #expect(
      kind.status == 65 && kind.out.contains("test 1: \"input_type\" must be \"string\" or \"pattern\""))
    let limit = try check(#"{"tests": []}"#, ["--pattern-limit", "0"])
    #expect(limit.status != 0 && limit.status != 1)
  }

  @Test func fontbakeryFilesTakeTheirFontsFromTheCommandLine() throws {
    let result = try swiftshape([
      "check", "--font-file", "fonts/NotoSans-Latin.ttf", "fixtures/fontbakery.json",
    ])
    #expect(result.status == 1)
    #expect(result.out.contains("case 3 \"this one fails: kerning is on\" with NotoSans-Latin.ttf: \"Ta\""))
    #expect(result.out.contains("  expected: T=0+556|a=1+561\n  actual:   T=0+476|a=1+561\n"))
    // The coretext test is skipped, as fontbakery skips it where that shaper is not.
    #expect(result.out.hasSuffix("4 passed, 1 failed, 1 skipped\n"))
    let json = try swiftshape([
      "check", "--format", "json", "--font-file", "fonts/NotoSans-Latin.ttf", "fixtures/fontbakery.json",
    ])
    #expect(
      json.out.contains(#""errors": 0, "skipped": 1,"#)
        && json.out.contains(#""status": "skip", "reason": "HarfBuzz has no coretext shaper here"#))
    let withoutFont = try swiftshape(["check", "fixtures/fontbakery.json"])
    #expect(withoutFont.status == 65 && withoutFont.out.contains("a fontbakery file needs --font-file"))
  }

  @Test func unusableFixturesExit65() throws {
    let folder = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let bad = folder.appendingPathComponent("bad.json")
    try Data("{\"format\": \"swiftshape-fixture\", \"version\": 1, \"cases\": [{\"text\": \"a\"}]}".utf8)
      .write(to: bad)
    let result = try swiftshape(["check", bad.path, "fixtures/passing.json"])
    #expect(result.status == 65)
    #expect(result.out.contains("ERROR \(bad.path): case 1: a case needs \"expect\""))
    #expect(result.out.hasSuffix("6 passed, 1 failed, 0 skipped\n"))
  }

  @Test func foldersAreSearchedForFixtures() throws {
    let result = try swiftshape(["check", "--font-file", "fonts/NotoSans-Latin.ttf", "fixtures"])
    #expect(result.status == 1)
    #expect(result.out.hasSuffix("10 passed, 6 failed, 1 skipped\n"))
  }

  @Test func recordThenFontChangeThenUpdate() throws {
    let folder = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let font = folder.appendingPathComponent("font.ttf")
    try FileManager.default.copyItem(at: URL(fileURLWithPath: Paths.latin), to: font)
    let fixture = folder.appendingPathComponent("cases/latin.json").path
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("cases"), withIntermediateDirectories: true)
    for (name, arguments) in [("ligature", ["--text", "office"]), ("kerning", ["--text", "Ta AV"])] {
      let recorded = try swiftshape(
        ["record", "-o", fixture, "--name", name, "--font-file", font.path] + arguments)
      #expect(recorded.status == 0, "\(recorded.err)")
    }
    let recorded = try String(contentsOfFile: fixture, encoding: .utf8)
    #expect(recorded.contains("\"font\": \"../font.ttf\""))
    #expect(try swiftshape(["check", fixture]).status == 0)

    // The font under the fixture changes: another font with the same glyph names.
    try FileManager.default.removeItem(at: font)
    try FileManager.default.copyItem(at: URL(fileURLWithPath: Paths.variable), to: font)
    let failed = try swiftshape(["check", fixture])
    #expect(failed.status == 1)
    #expect(failed.out.contains("name expected o, actual uni006F"))

    let updated = try swiftshape(["check", "--update", fixture])
    #expect(updated.status == 0)
    #expect(updated.err.contains("re-recorded 2 expectations"))
    #expect(try swiftshape(["check", fixture]).out == "2 passed, 0 failed, 0 skipped\n")
    let after = try String(contentsOfFile: fixture, encoding: .utf8)
    #expect(after != recorded)
    #expect(
      Self.withoutExpectations(after) == Self.withoutExpectations(recorded), "only expectation lines changed")
  }

  /// A case records the engine it was recorded with. Checked with another engine, a failure names
  /// both; --update records the running engine's result and says so in the case.
  @Test func casesNameTheEngineTheyWereRecordedWith() throws {
    let folder = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let fixture = folder.appendingPathComponent("engine.json").path
    let recorded = try swiftshape(["record", "-o", fixture, "--font-file", Paths.latin, "--text", "office"])
    #expect(recorded.status == 0, "\(recorded.err)")
    let text = try String(contentsOfFile: fixture, encoding: .utf8)
    #expect(text.contains("\"harfbuzz\": \"\(HarfBuzzTools.engine)\""))

    // As if recorded with HarfBuzz 1.2.3, which shaped the ligature's advance otherwise.
    let older = text.replacingOccurrences(
      of: "\"harfbuzz\": \"\(HarfBuzzTools.engine)\"", with: "\"harfbuzz\": \"1.2.3\""
    ).replacingOccurrences(of: "\"x_advance\": 946", with: "\"x_advance\": 900")
    try Data(older.utf8).write(to: URL(fileURLWithPath: fixture))
    let failed = try swiftshape(["check", fixture])
    #expect(failed.status == 1)
    #expect(
      failed.out.contains(
        "recorded with HarfBuzz 1.2.3, shaped with HarfBuzz \(HarfBuzzTools.engine): the engine changed"),
      "\(failed.out)")
    let report = try swiftshape(["check", "--format", "json", fixture])
    #expect(report.out.contains("\"recorded_harfbuzz\": \"1.2.3\""), "\(report.out)")

    #expect(try swiftshape(["check", "--update", fixture]).status == 0)
    #expect(try String(contentsOfFile: fixture, encoding: .utf8) == text)
    #expect(try swiftshape(["check", fixture]).out == "1 passed, 0 failed, 0 skipped\n")

    // A case without its own member, in a file that names an older engine: --update adds it.
    let fileLevel = text.replacingOccurrences(
      of: "      \"harfbuzz\": \"\(HarfBuzzTools.engine)\",\n", with: ""
    )
    .replacingOccurrences(of: "\"version\": 1,", with: "\"version\": 1,\n  \"harfbuzz\": \"1.2.3\",")
    .replacingOccurrences(of: "\"x_advance\": 946", with: "\"x_advance\": 900")
    try Data(fileLevel.utf8).write(to: URL(fileURLWithPath: fixture))
    #expect(try swiftshape(["check", fixture]).out.contains("recorded with HarfBuzz 1.2.3"))
    #expect(try swiftshape(["check", "--update", fixture]).status == 0)
    let updated = try String(contentsOfFile: fixture, encoding: .utf8)
    let fileWide = "\"version\": 1,\n  \"harfbuzz\": \"1.2.3\","
    #expect(updated == text.replacingOccurrences(of: "\"version\": 1,", with: fileWide))
    #expect(try swiftshape(["check", fixture]).out == "1 passed, 0 failed, 0 skipped\n")
  }

  /// `record` loses nothing: with each shaping option, the case holds the option's key, `check`
  /// passes, and the recorded glyphs are those `shape` gives with the same options.
  @Test(arguments: RecordCase.all)
  func recordKeepsEveryOption(_ recorded: RecordCase) throws {
    let folder = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let fixture = folder.appendingPathComponent("kept.json").path
    let arguments = ["--font-file", recorded.font, "--text", recorded.text] + recorded.options
    let result = try swiftshape(["record", "-o", fixture] + arguments)
    #expect(result.status == 0, "\(recorded.options): \(result.err)")
    let text = try String(contentsOfFile: fixture, encoding: .utf8)
    #expect(text.contains("\"\(recorded.key)\": "), "\(recorded.options): \(text)")
    let checked = try swiftshape(["check", fixture])
    #expect(checked.out.hasSuffix("1 passed, 0 failed, 0 skipped\n"), "\(recorded.options): \(checked.out)")
    let shaped = try swiftshape(["shape", "-O", "jsonl"] + arguments)
    #expect(shaped.status == 0, "\(shaped.err)")
    let document = try JSONSerialization.jsonObject(with: Data(shaped.out.utf8))
    let root = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    let cases = root?["cases"] as? [[String: Any]]
    let expected = (cases?.first?["expect"] as? [[String: Any]]) ?? []
    let fields = ["id", "cluster", "x_advance", "y_advance", "x_offset", "y_offset"]
    func values(_ glyphs: [[String: Any]]) -> [[Int]] {
      glyphs.map { glyph in fields.map { glyph[$0] as? Int ?? -1 } }
    }
    #expect(!expected.isEmpty && values(expected) == values(Self.glyphs(in: document)), "\(recorded.options)")
  }

  /// Every glyph of a SwiftShape JSON document, in order: of its results, lines and runs.
  static func glyphs(in value: Any) -> [[String: Any]] {
    if let list = value as? [Any] { return list.flatMap(glyphs(in:)) }
    guard let object = value as? [String: Any] else { return [] }
    if let glyphs = object["glyphs"] as? [[String: Any]] { return glyphs }
    return ["results", "lines", "runs"].flatMap { object[$0].map(glyphs(in:)) ?? [] }
  }

  /// `--glyphs` reads glyphs, which a case cannot hold: `record` names it, writes nothing and exits 64.
  @Test func recordRefusesGlyphInput() throws {
    let folder = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let fixture = folder.appendingPathComponent("refused.json").path
    let result = try swiftshape(
      ["record", "-o", fixture, "--font-file", Paths.latin, "--text", "[o=0+605]", "--glyphs"])
    #expect(result.status == 64, "\(result.err)")
    #expect(result.err.contains("--glyphs") && result.err.contains("nothing was recorded"), "\(result.err)")
    #expect(!FileManager.default.fileExists(atPath: fixture))
  }

  /// A fixture reached through a symbolic link is updated where it lives; the link stays a link.
  @Test func recordAndUpdateFollowASymbolicLink() throws {
    let folder = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let real = folder.appendingPathComponent("real.json").path
    let link = folder.appendingPathComponent("link.json").path
    let font = "\(Paths.fixtures)/fonts/NotoSans-Latin.ttf"
    #expect(
      try swiftshape(["record", "-o", real, "--name", "one", "--font-file", font, "--text", "a"]).status == 0)
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
    let recorded = try swiftshape(["record", "-o", link, "--name", "two", "--font-file", font, "--text", "b"])
    #expect(recorded.status == 0, "\(recorded.err)")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == real)
    #expect(try String(contentsOfFile: real, encoding: .utf8).contains("\"two\""))
    #expect(try swiftshape(["check", link]).out == "2 passed, 0 failed, 0 skipped\n")
  }

  @Test func recordRefusesFontbakeryFiles() throws {
    let folder = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let copy = folder.appendingPathComponent("fb.json")
    try FileManager.default.copyItem(
      at: URL(fileURLWithPath: "\(Paths.fixtures)/fixtures/fontbakery.json"), to: copy)
    let result = try swiftshape(["record", "-o", copy.path, "--text", "a"])
    #expect(
      result.status == 65 && result.err.contains("cases can only be recorded into a SwiftShape fixture"))
  }

  @Test(.enabled(if: HarfBuzzTools.hbShape != nil, HarfBuzzTools.absence("hb-shape")))
  func recordedFixtureAgreesWithHBShape() throws {
    // The passing fixture's cases, as hb-shape arguments: every expectation is hb-shape's result.
    let cases: [(String, [String])] = [
      ("latin ligature", ["fonts/NotoSans-Latin.ttf", "--text", "office"]),
      ("latin kerning off", ["fonts/NotoSans-Latin.ttf", "--features=-kern", "--text", "Ta"]),
      ("arabic marks", ["fonts/NotoSansArabic-Subset.ttf", "--language=ar", "--text", "بِسْمِ"]),
      ("devanagari", ["fonts/NotoSansDevanagari-Subset.ttf", "-u", "915,94D,937,93F"]),
      (
        "vertical, second face",
        ["fonts/NotoSansCJK-Subset.ttc", "--face-index=1", "--direction=ttb", "--text", "日本"]
      ),
      (
        "variable",
        [
          "fonts/InterVariable-Subset.ttf", "--variations=wght=700", "--font-size=768", "--font-ptem=12",
          "--text", "Wave",
        ]
      ),
    ]
    let fixture = try #require(
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: "\(Paths.fixtures)/fixtures/passing.json")))
        as? [String: Any])
    let recorded = try #require(fixture["cases"] as? [[String: Any]])
    for (name, arguments) in cases {
      let entry = try #require(recorded.first { $0["name"] as? String == name })
      let expected = try #require(entry["expect"] as? [[String: Any]])
      let hb = try run(HarfBuzzTools.hbShape!, ["-O", "json"] + arguments)
      let theirs = try #require(try JSONSerialization.jsonObject(with: hb.stdout) as? [[String: Any]])
      #expect(expected.map { $0["name"] as? String } == theirs.map { $0["g"] as? String }, "\(name)")
      for (key, theirKey) in [
        ("cluster", "cl"), ("x_advance", "ax"), ("y_advance", "ay"), ("x_offset", "dx"), ("y_offset", "dy"),
      ] {
        #expect(expected.map { $0[key] as? Int } == theirs.map { $0[theirKey] as? Int }, "\(name): \(key)")
      }
    }
  }

  /// A fixture's lines without the glyph lines of its expectations.
  static func withoutExpectations(_ text: String) -> [Substring] {
    text.split(separator: "\n").filter { !$0.contains("\"x_advance\"") }
  }

  static func scratch() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swiftshape-fixture-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }
}

/// Paragraphs in fixtures and requests: `"paragraph": true` (or `"base_direction"`), recorded by
/// `record --paragraph` and checked by `check`.
@Suite("Paragraph fixtures and requests")
struct ParagraphFixtureTests {
  @Test func recordAndCheckAParagraph() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swiftshape-para-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let fixture = folder.appendingPathComponent("paragraph.json").path
    let recorded = try swiftshape(["record", "-o", fixture, "--paragraph", "--language=en", "Hello שלום 123"])
    #expect(recorded.status == 0, "\(recorded.err)")
    let text = try String(contentsOfFile: fixture, encoding: .utf8)
    #expect(text.contains("\"paragraph\": true"))
    let checked = try swiftshape(["check", fixture])
    #expect(checked.status == 0 && checked.out.hasSuffix("1 passed, 0 failed, 0 skipped\n"), "\(checked.out)")
    // The same text shaped as one run does not match the paragraph's expectation.
    try text.replacingOccurrences(of: "\"paragraph\": true", with: "\"paragraph\": false")
      .write(toFile: fixture, atomically: true, encoding: .utf8)
    #expect(try swiftshape(["check", fixture]).status == 1)
  }

  @Test func requestsTakeParagraphAndBaseDirection() throws {
    let lines = [
      #"{"id": 1, "text": "ab שלום", "paragraph": true}"#,
      #"{"id": 2, "text": "ab", "base_direction": "rtl"}"#,
      #"{"id": 3, "text": "ab", "base_direction": "up"}"#,
    ]
    let result = try swiftshape(
      ["--requests", "-"], stdin: Data((lines.joined(separator: "\n") + "\n").utf8))
    let answers = result.out.split(separator: "\n")
    #expect(answers.count == 3)
    #expect(
      answers[0].contains(
        #""runs":[{"font":{"file":"<default>","face_index":0,"family":"DejaVu Sans","fallback":false},"level":0"#
      ))
    #expect(answers[1].contains(#""level":1,"direction":"rtl""#))
    #expect(answers[2].contains(#""base_direction\" must be \"auto\", \"ltr\" or \"rtl\""#))
  }
}

/// A shaping option `record` must keep: the option, the key it is kept under, and a font and a
/// text it changes the result of where it can.
struct RecordCase: Sendable, CustomTestStringConvertible {
  var options: [String]
  var key: String
  var font = Paths.latin
  var text = "office Tea"

  var testDescription: String { options.joined(separator: " ") }

  static let all: [RecordCase] =
    [
      RecordCase(options: ["--face-index", "1"], key: "face_index", font: Paths.cjkCollection, text: "中文"),
      RecordCase(options: ["--variations", "wght=700"], key: "variations", font: Paths.variable),
      RecordCase(options: ["--font-size", "12"], key: "font_size"),
      RecordCase(options: ["--font-size", "12 24"], key: "font_size"),
      RecordCase(options: ["--size", "9.5"], key: "points"),
      RecordCase(options: ["--font-ppem", "12"], key: "ppem"),
      RecordCase(options: ["--font-ptem", "9"], key: "ptem"),
      RecordCase(options: ["--font-slant", "0.2"], key: "slant"),
      RecordCase(options: ["--font-funcs", "ft"], key: "font_funcs"),
      RecordCase(options: ["--font-funcs", "ft", "--ft-load-flags", "0"], key: "ft_load_flags"),
      RecordCase(options: ["--features", "-liga,kern[0:2]"], key: "features"),
      RecordCase(options: ["--shapers", "ot"], key: "shapers"),
      RecordCase(options: ["--direction", "rtl"], key: "direction"),
      RecordCase(options: ["--script", "Arab"], key: "script", font: Paths.arabic, text: "سلام"),
      RecordCase(options: ["--language", "ur"], key: "language", font: Paths.arabic, text: "سلام"),
      RecordCase(options: ["--cluster-level", "1"], key: "cluster_level", text: "e\u{301}f"),
      RecordCase(options: ["--cluster-unit", "utf16"], key: "cluster_unit", text: "😀a"),
      RecordCase(options: ["--utf8-clusters"], key: "cluster_unit", text: "éa"),
      RecordCase(options: ["--text-before", "س"], key: "text_before", font: Paths.arabic, text: "لام"),
      RecordCase(options: ["--text-after", "ب"], key: "text_after", font: Paths.arabic, text: "سل"),
      RecordCase(
        options: ["--unicodes-before", "U+0633"], key: "text_before", font: Paths.arabic, text: "لام"),
      RecordCase(options: ["--unicodes-after", "U+0628"], key: "text_after", font: Paths.arabic, text: "سل"),
      RecordCase(options: ["--bot"], key: "bot", font: Paths.arabic, text: "\u{064E}ب"),
      RecordCase(options: ["--eot"], key: "eot", font: Paths.arabic, text: "ب\u{064E}"),
      RecordCase(
        options: ["--preserve-default-ignorables"], key: "preserve_default_ignorables", text: "a\u{200B}b"),
      RecordCase(
        options: ["--remove-default-ignorables"], key: "remove_default_ignorables", text: "a\u{200B}b"),
      RecordCase(options: ["--invisible-glyph", "3"], key: "invisible_glyph", text: "a\u{200B}b"),
      RecordCase(options: ["--not-found-glyph", "5"], key: "not_found_glyph", text: "a中"),
      RecordCase(options: ["--unsafe-to-concat"], key: "unsafe_to_concat"),
      RecordCase(
        options: ["--safe-to-insert-tatweel"], key: "safe_to_insert_tatweel", font: Paths.arabic, text: "سلام"
      ),
      RecordCase(options: ["--normalize-glyphs"], key: "normalize_glyphs"),
      RecordCase(options: ["--verify"], key: "verify"),
      RecordCase(options: ["--paragraph"], key: "paragraph", text: "office שלום"),
      RecordCase(options: ["--base-direction", "rtl"], key: "base_direction", text: "office Tea"),
      RecordCase(
        options: ["--paragraph", "--fallback-font-file", Paths.arabic], key: "fallback_font_files",
        text: "a سلام"),
      RecordCase(options: ["--paragraph", "--no-fallback"], key: "fallback", text: "a سلام"),
      RecordCase(options: ["--paragraph", "--width", "1500"], key: "width", text: "office Tea office Tea"),
      RecordCase(
        options: ["--paragraph", "--width", "1500", "--align", "center"], key: "align",
        text: "office Tea office"),
      RecordCase(
        options: ["--paragraph", "--width", "900", "--break-anywhere"], key: "break_anywhere",
        text: "officeofficeoffice"),
      RecordCase(
        options: ["--paragraph", "--width", "3000", "--hyphenate", "--language", "en-US"], key: "hyphenate",
        text: "hyphenation typography"),
      RecordCase(
        options: ["--paragraph", "--width", "2500", "--align", "justify", "--kashida", "none"],
        key: "kashida",
        text: "office office office"),
      RecordCase(
        options: [
          "--span", "0:6:features=-liga", "--span", "7:11:font-file=\(Paths.hebrew);language=he",
        ], key: "spans", text: "office שלום office"),
    ]
    + (EngineFeature.syntheticBold.isAvailable
      ? [
        RecordCase(options: ["--font-bold", "0.02"], key: "bold"),
        RecordCase(options: ["--font-grade", "0.02"], key: "grade"),
      ] : [])
    + (EngineFeature.notFoundVariationSelectorGlyph.isAvailable
      ? [
        RecordCase(
          options: ["--not-found-variation-selector-glyph", "4"], key: "not_found_variation_selector_glyph",
          text: "a\u{FE00}")
      ] : [])
}

/// Adding a shaping option is one declaration on the command line and one request key: every
/// option of the shaping commands that sets how text is shaped has a key, and every key's
/// options exist.
@Suite("Request keys cover the options")
struct RequestKeyCoverageTests {
  /// Options that say what to shape or what to list, not how to shape.
  static let notSettings: Set = [
    "--text", "--text-file", "--unicodes", "--single-par", "--glyphs", "--max-text-length", "--list-shapers",
    "--list-font-funcs", "--list-face-loaders", "--face-loader", "--no-cache",
  ]

  @Test func everyShapingOptionHasAKey() {
    let options =
      OptionSection<ShapeSettings>.shapingSections.flatMap(\.options).map(\.names)
      + [["--no-glyph-names"], ["--show-extents"]]
    let declared = Set(options.joined())
    let keyed = Set(RequestKey.all.flatMap(\.options))
    for names in options {
      #expect(
        names.contains { keyed.contains($0) || Self.notSettings.contains($0) }, "\(names) has no request key")
    }
    let engineOptions: Set = [
      "--font-bold", "--font-grade", "--not-found-variation-selector-glyph",
    ]
    for name in keyed where !engineOptions.contains(name) || declared.contains(name) {
      #expect(declared.contains(name), "\(name) is not an option")
    }
  }
}

/// The shaping cache from the command line: `--cache-stats` says what it did on standard error,
/// and `--no-cache` gives the same bytes.
@Suite("The shaping cache on the command line")
struct CacheCommandTests {
  @Test func theCacheChangesNothingButTheTime() throws {
    let folder = try FixtureCommandTests.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let text = folder.appendingPathComponent("lines.txt").path
    let lines = (0..<300).map { "The little prince said \($0 % 7) times: office Tea, yes. Ta \($0 % 3)" }
    try lines.joined(separator: "\n").write(toFile: text, atomically: true, encoding: .utf8)
    for format in ["jsonl", "text"] {
      let cached = try swiftshape(
        ["shape", "--cache-stats", "-O", format, "--font-file", Paths.latin, "--text-file", text])
      let plain = try swiftshape([
        "shape", "--no-cache", "-O", format, "--font-file", Paths.latin, "--text-file", text,
      ])
      #expect(cached.status == 0 && plain.status == 0)
      #expect(cached.out == plain.out)
      #expect(
        cached.err.hasPrefix("swiftshape: cache: ") && !cached.err.contains(", 0 found"), "\(cached.err)")
      #expect(plain.err.isEmpty)
    }
  }
}
