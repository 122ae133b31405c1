import Foundation
import SwiftShapeCommandLine
import TestFixtures
import Testing

@Suite("swiftshape conformance")
struct ConformanceCommandTests {
  @Test func passingSuitePassesWithSkips() throws {
    let result = try swiftshape(["conformance", "conformance/passing.tests"])
    #expect(result.status == 0, "\(result.out)")
    #expect(result.out == "5 passed, 0 failed, 3 skipped\n")
  }

  @Test func verboseSaysWhySkipped() throws {
    let result = try swiftshape(["conformance", "--verbose", "conformance/passing.tests"])
    #expect(
      result.out.contains("conformance/passing.tests:9: skipped: /nonexistent/System/Font.ttf not found"))
    // The runner of the engine in use words it (HarfBuzz 11's takes --shaper out as a backend).
    let directives = HBShapeRelease.linked.conformanceRunner.directives
    #expect(
      result.out.contains(
        directives
          ? "passing.tests:11: skipped: shaper=coretext is not available"
          : "passing.tests:11: skipped: shaper coretext is not available"))
    #expect(result.out.contains("conformance/passing.tests:2: pass"))
  }

  @Test func failuresNameTheTestTheActualAndTheExpected() throws {
    let result = try swiftshape(["conformance", "conformance/failing.tests"])
    #expect(result.status == 1)
    let out = result.out
    // The first shaping HarfBuzz's runner makes: FreeType's functions up to HarfBuzz 10, then
    // every backend named.
    #expect(
      out.contains(
        HBShapeRelease.linked.conformanceRunner.directives
          ? "conformance/failing.tests:2: FAIL with shaper=ot face-loader=ot font-funcs=ot"
          : "conformance/failing.tests:2: FAIL with --font-funcs=ft"))
    #expect(out.contains("  actual:    [A=0+639]\n  expected:  [A=0+600]"))
    #expect(out.contains("fonts/Missing.ttf: No such file or directory"))
    // Line 3 fails HarfBuzz's verification where the engine finds the result unsafe.
    if EngineExpectations.verifyFailsOnForcedLTRArabic ?? true {
      #expect(out.contains("conformance/failing.tests:3: FAIL"))
      #expect(out.contains("verification failed: unsafe-to-break test failed"))
      #expect(out.hasSuffix("0 passed, 4 failed, 0 skipped\n"))
    } else {
      #expect(out.hasSuffix("1 passed, 3 failed, 0 skipped\n"))
    }
  }

  @Test func foldersRunEveryTestsFile() throws {
    let result = try swiftshape(["conformance", "--jobs", "2", "conformance"])
    #expect(result.status == 1)
    #expect(
      result.out.hasSuffix(
        EngineExpectations.verifyFailsOnForcedLTRArabic ?? true
          ? "5 passed, 4 failed, 3 skipped\n" : "6 passed, 3 failed, 3 skipped\n"))
  }

  @Test func systemFontsAreCheckedBySHA1() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swiftshape-sha1-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // The SHA-1 of NotoSans-Latin.ttf, as `sha1sum` prints it.
    let sha1 = try run(URL(fileURLWithPath: "/usr/bin/sha1sum"), [Paths.latin]).out.prefix(40)
    let tests = """
      \(Paths.latin)@\(sha1);;U+0041;[A=0+639]
      \(Paths.latin)@0000000000000000000000000000000000000000;;U+0041;[A=0+639]
      \(Paths.latin);;U+0041;[A=0+639]

      """
    let file = folder.appendingPathComponent("system.tests")
    try Data(tests.utf8).write(to: file)
    let result = try swiftshape(["conformance", "--verbose", file.path])
    #expect(result.out.contains("system.tests:1: pass"))
    #expect(result.out.contains("system.tests:2: skipped: different version of \(Paths.latin)"))
    #expect(result.out.hasSuffix("2 passed, 0 failed, 1 skipped\n"))
  }

  @Test func malformedTestsFileIsAnError() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swiftshape-bad-\(getpid()).tests")
    try Data("fonts/x.ttf;U+0041\n".utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let result = try swiftshape(["conformance", file.path])
    #expect(result.status == 65)
    #expect(result.err.contains("\(file.path):1: not a test (FONT;OPTIONS;UNICODES;EXPECTED)"))
    #expect(result.stdout.isEmpty)
  }

  static let inHouse = Paths.shared.map { "\($0)/conformance/harfbuzz-6.0.0/in-house/tests" }

  /// The suite's expectations are HarfBuzz 6.0.0's results (17 of them changed in later releases):
  /// it runs with the engine it was written for.
  @Test(
    .enabled(if: inHouse != nil, "../shared is absent: HarfBuzz's in-house suite is not run"),
    .enabled(
      if: HarfBuzzTools.engine == "6.0.0",
      Comment(rawValue: "HarfBuzz 6.0.0's suite is not run with HarfBuzz \(HarfBuzzTools.engine)")))
  func harfBuzzInHouseSuitePasses() throws {
    let result = try swiftshape(["conformance", "--jobs", "2", Self.inHouse!])
    #expect(result.status == 0, "\(result.out.suffix(3000))")
    let summary = result.out.split(separator: "\n").last.map(String.init) ?? ""
    #expect(summary.hasSuffix(" passed, 0 failed, 136 skipped"), "\(summary)")
  }
}

/// `.tests` files written for hb-shape pass as with hb-shape: option values are read as hb-shape
/// reads them (quoted feature lists, items HarfBuzz cannot parse, C's number syntax).
/// The folder of the running engine's shaping suites, when the environment names it.
let engineSuites = ProcessInfo.processInfo.environment["SWIFTSHAPE_HARFBUZZ_SUITES"]

/// The suites of the engine in use, from its source (`.ci/harfbuzz` keeps them in the prefix;
/// `.ci/with-harfbuzz` names the folder in `SWIFTSHAPE_HARFBUZZ_SUITES`): in-house, aots and
/// text-rendering-tests, each passing whole but for what HarfBuzz's own build leaves out.
@Suite(
  "swiftshape conformance: the engine's own suites",
  .enabled(
    if: engineSuites != nil,
    "SWIFTSHAPE_HARFBUZZ_SUITES is not set: the engine's own suites are not run"))
struct ConformanceEngineSuiteTests {
  @Test(arguments: ["in-house", "aots", "text-rendering-tests"])
  func suitePasses(_ suite: String) throws {
    let result = try swiftshape(["conformance", "--jobs", "2", "\(engineSuites!)/\(suite)/tests"])
    #expect(result.status == 0, "\(result.out.suffix(3000))")
    let summary = result.out.split(separator: "\n").last.map(String.init) ?? ""
    #expect(summary.contains(" passed, 0 failed"), "\(summary)")
    let passed = Int(summary.prefix { $0 != " " }) ?? 0
    #expect(passed >= 250, "\(summary)")
  }
}

@Suite("swiftshape conformance: hb-shape's option syntax")
struct ConformanceSyntaxTests {
  static let file = "conformance/hb-shape-syntax/quoted-features.tests"

  @Test func quotedFeatureListsPass() throws {
    let result = try swiftshape(["conformance", Self.file])
    #expect(result.status == 0, "\(result.out)")
    // From HarfBuzz 11 the runner takes --font-funcs=OT out of the test's options as a backend
    // that HarfBuzz does not have (names are exact from then on): that test is skipped.
    #expect(
      result.out
        == (HBShapeRelease.linked.fontFunctionsByExactName
          ? "16 passed, 0 failed, 1 skipped\n" : "17 passed, 0 failed, 0 skipped\n"))
  }

  /// The file's expectations are hb-shape's: each line run as HarfBuzz's runner runs it.
  @Test(.enabled(if: HarfBuzzTools.hbShape != nil, HarfBuzzTools.absence("hb-shape")))
  func expectationsAreHBShapes() throws {
    let folder = Repository.fixtures.appendingPathComponent("conformance/hb-shape-syntax")
    let lines = try String(contentsOf: Repository.fixtures.appendingPathComponent(Self.file), encoding: .utf8)
      .split(separator: "\n").filter { !$0.hasPrefix("#") }
    #expect(lines.count == 17)
    for line in lines {
      let fields = line.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
      for functions in ["ft", "ot"] {
        let arguments =
          [
            fields[0], "--shaper=ot", "--verify", "--unsafe-to-concat", "--font-funcs=\(functions)",
            "--unicodes",
          ]
          + [fields[2]] + fields[1].split(separator: " ").map(String.init)
        let theirs = try run(HarfBuzzTools.hbShape!, arguments, in: folder)
        if HBShapeRelease.linked.fontFunctionsByExactName, line.contains("--font-funcs=OT") {
          #expect(theirs.status != 0, "hb-shape \(HarfBuzzTools.engine) refuses --font-funcs=OT")
          continue
        }
        #expect(theirs.out == fields[3] + "\n", "\(line)")
      }
    }
  }
}
