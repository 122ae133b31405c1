import Foundation
import HarfBuzz
import SwiftShape
import SwiftShapeRequests
import TestFixtures
import Testing

@testable import SwiftShapeFixtures

@Suite("Fixtures")
struct FixtureTests {
  static let passing = "\(Paths.fixtures)/fixtures/passing.json"
  static let mismatches = "\(Paths.fixtures)/fixtures/mismatches.json"
  static let fontbakery = "\(Paths.fixtures)/fixtures/fontbakery.json"

  @Test func passingFixtureVerifies() throws {
    let fixture = try Fixture.load(Self.passing)
    #expect(fixture.format == .swiftshape)
    #expect(fixture.cases.count == 6)
    try fixture.verify()
  }

  @Test func failingFixtureThrowsTheReadableDiff() throws {
    let fixture = try Fixture.load(Self.mismatches)
    #expect {
      try fixture.verify()
    } throws: { error in
      let report = (error as? FixtureFailure)?.description ?? ""
      return report.contains("case 3 \"wrong advance\": \"Ta\"")
        && report.contains("glyph 0 (T): x_advance expected 476, actual 556")
        && report.hasSuffix("0 passed, 5 failed, 0 skipped\n")
    }
  }

  @Test func eachKindOfMismatchNamesGlyphAndField() throws {
    let results = try Fixture.load(Self.mismatches).check()
    func differences(_ index: Int) -> [GlyphDifference] {
      if case .failed(let differences, _, _, _) = results[index].status { return differences }
      return []
    }
    #expect(differences(0) == [GlyphDifference(glyph: 1, field: "name", expected: "f", actual: "f_f_i")])
    #expect(differences(1) == [GlyphDifference(glyph: 1, field: "cluster", expected: "2", actual: "1")])
    #expect(differences(2) == [GlyphDifference(glyph: 0, field: "x_advance", expected: "476", actual: "556")])
    #expect(differences(3).map(\.field).prefix(2) == ["x_offset", "y_offset"])
    #expect(differences(4).first == GlyphDifference(glyph: nil, field: "count", expected: "4", actual: "6"))
    #expect(differences(4).count == 3, "the count and the first differing glyph's fields")
  }

  @Test func hbTextExpectationsCompareOnlyTheFieldsWritten() throws {
    let glyphs = try ExpectedGlyph.parseHBText("o|f_f_i=1|c=4+480|e=5@1,2+564,7")
    #expect(glyphs[0] == ExpectedGlyph(name: "o"))
    #expect(glyphs[1] == ExpectedGlyph(name: "f_f_i", cluster: 1))
    #expect(
      glyphs[2] == ExpectedGlyph(name: "c", cluster: 4, xAdvance: 480, yAdvance: 0, xOffset: 0, yOffset: 0))
    #expect(
      glyphs[3] == ExpectedGlyph(name: "e", cluster: 5, xAdvance: 564, yAdvance: 7, xOffset: 1, yOffset: 2))
    #expect(throws: ShapingError.self) { try ExpectedGlyph.parseHBText("[a=x+1]") }
  }

  @Test func fontbakeryFilesRunAgainstTheFontsGiven() throws {
    let fixture = try Fixture.load(Self.fontbakery)
    #expect(fixture.format == .fontbakery)
    let results = fixture.check(fonts: [Paths.latin])
    #expect(results.count == 6, "the excluded test does not run")
    #expect(results.map(\.passed) == [true, true, false, true, true, false])
    #expect(results.map(\.skipped) == [false, false, false, false, false, true], "no coretext shaper here")
    #expect(results[2].testCase.name == "this one fails: kerning is on")
    let none = fixture.check(fonts: [])
    #expect(
      none.allSatisfy {
        if case .error = $0.status { return true }
        return false
      })
  }

  @Test func updateRewritesOnlyTheFailingExpectations() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swiftshape-update-\(getpid())")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("fixtures"), withIntermediateDirectories: true)
    try? FileManager.default.createSymbolicLink(
      at: folder.appendingPathComponent("fonts"),
      withDestinationURL: URL(fileURLWithPath: "\(Paths.fixtures)/fonts"))
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("fixtures/mismatches.json").path
    let original = try String(contentsOfFile: Self.mismatches, encoding: .utf8)
    try original.write(toFile: path, atomically: true, encoding: .utf8)

    let fixture = try Fixture.load(path)
    #expect(try fixture.update(with: fixture.check()) == 5)
    let updated = try String(contentsOfFile: path, encoding: .utf8)
    try Fixture.load(path).verify()
    // Every changed line is an expectation: the inputs, options and names are as they were. Each
    // re-recorded case also says which HarfBuzz recorded it, in a line of its own.
    let before = original.split(separator: "\n", omittingEmptySubsequences: false)
    let stamp = "\"harfbuzz\": \"\(EngineVersion.running)\","
    #expect(updated.components(separatedBy: stamp).count - 1 == 5)
    let after = updated.split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.hasSuffix(stamp) }
    #expect(before.count == after.count)
    for (old, new) in zip(before, after) where old != new {
      #expect(
        old.contains("\"expect\"") || old.contains("\"x_advance\""),
        "changed a line that is no expectation: \(old)")
    }
    #expect(updated.contains("\"expect\": \"[o=0+605|f=1+344|f=2+344|i=3+258|c=4+480|e=5+564]\""))
    #expect(updated.contains("{\"id\": 53, \"name\": \"T\", \"cluster\": 0, \"x_advance\": 556,"))
    #expect(try Fixture.load(path).updated(with: Fixture.load(path).check()) == nil, "nothing left to update")
  }

  @Test func recordCreatesThenAppends() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swiftshape-record-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("new.json").path
    var request = ShapingRequest(font: FontSpecification(.file(Paths.arabic)))
    request.options.language = try Language(parsing: "ar")
    try Fixture.record(text: "سلام", request: request, name: "first", into: path)
    request.options.features = [try Feature(parsing: "-kern")]
    try Fixture.record(text: "عليكم", request: request, name: nil, into: path)
    let fixture = try Fixture.load(path)
    #expect(fixture.cases.map(\.name) == ["first", nil])
    #expect(fixture.cases[1].request.options.features == request.options.features)
    #expect(fixture.cases[1].request.font.source == .file(RequestPaths.normalized(Paths.arabic)))
    try fixture.verify()
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.hasPrefix("{\n  \"format\": \"swiftshape-fixture\",\n  \"version\": 1,"))
    #expect(text.components(separatedBy: "\"text\":").count == 3)
  }

  @Test(arguments: [
    ("{", "not JSON: expected a key in quotes at line 1, column 2"),
    ("[]", "not a fixture (not a JSON object)"),
    ("{\"format\": \"swiftshape-fixture\", \"version\": 2, \"cases\": []}", "unsupported fixture version"),
    (
      "{\"format\": \"swiftshape-fixture\", \"version\": 1, \"cases\": [{\"text\": \"a\"}]}",
      "case 1: a case needs \"expect\""
    ),
    (
      "{\"format\": \"swiftshape-fixture\", \"version\": 1, \"cases\": [{\"name\": \"n\", \"txt\": \"a\", \"expect\": []}]}",
      "case 1 \"n\": unknown key \"txt\""
    ),
    (
      "{\"format\": \"swiftshape-fixture\", \"version\": 1, \"cases\": [{\"text\": \"a\", \"expect\": [{\"id\": -1}]}]}",
      "case 1, glyph 0: \"id\" must be a whole number"
    ),
    (
      "{\"format\": \"swiftshape-fixture\", \"version\": 1, \"cases\": [{\"text\": \"a\", \"expect\": \"[a=x]\"}]}",
      "case 1: \"expect\""
    ),
    ("{\"tests\": [{\"expectation\": \"a\"}]}", "test 1: a test needs an \"input\" string"),
  ])
  func malformedFixturesNameTheFileAndTheCase(_ text: String, _ message: String) throws {
    #expect {
      try Fixture(path: "bad.json", contents: Array(text.utf8))
    } throws: { error in
      guard let error = error as? ShapingError else { return false }
      return error.kind == .badText && error.description.hasPrefix("bad.json")
        && error.description.contains(message)
    }
  }

  /// The fixture schema documents the settings the key table reads, no more and no fewer, in its
  /// order.
  @Test func theSchemaListsEveryKey() throws {
    let text = try String(
      contentsOfFile: "\(Paths.repository)/Sources/SwiftShapeFixtures/Schemas/fixture.schema.json",
      encoding: .utf8)
    let schema = try SourceJSON.parse(Array(text.utf8))
    let documented = schema["$defs"]?["settings"]?["properties"]?.members?.map(\.key) ?? []
    #expect(documented == RequestKey.all.filter(\.inFixtures).map(\.name))
  }

  @Test func missingFontIsAnErrorNamingTheCase() throws {
    let text = """
      {"format": "swiftshape-fixture", "version": 1, "cases": [{"name": "gone", "font": "missing.ttf", "text": "a", "expect": "[a]"}]}
      """
    let results = try Fixture(path: "dir/f.json", contents: Array(text.utf8)).check()
    guard case .error(let error) = results[0].status else {
      Issue.record("expected an error")
      return
    }
    #expect(error.description == "dir/f.json: case 1 \"gone\": dir/missing.ttf: No such file or directory")
  }
}

/// The code of `FixturesInTests.md` (`SwiftShapeFixtures.docc`), with the test files.
@Suite("Documentation snippets: fixtures")
struct FixtureSnippetTests {
  @Test func aFontbakeryFileIsCheckedAgainstTheFontsGiven() throws {
    let fixture = try Fixture.load("\(Paths.fixtures)/fontbakery/compare/collisions-font-marks.json")
    let results = fixture.check(fonts: ["\(Paths.fixtures)/fontbakery/fonts/Collisions-Test.ttf"])
    #expect(results.count == 5)
  }
}
