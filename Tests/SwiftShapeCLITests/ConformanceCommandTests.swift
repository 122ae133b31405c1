import Foundation
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
    #expect(result.out.contains("passing.tests:11: skipped: shaper coretext is not available"))
    #expect(result.out.contains("conformance/passing.tests:2: pass"))
  }

  @Test func failuresNameTheTestTheActualAndTheExpected() throws {
    let result = try swiftshape(["conformance", "conformance/failing.tests"])
    #expect(result.status == 1)
    let out = result.out
    #expect(out.contains("conformance/failing.tests:2: FAIL with --font-funcs=ft"))
    #expect(out.contains("  actual:    [A=0+639]\n  expected:  [A=0+600]"))
    #expect(out.contains("conformance/failing.tests:3: FAIL"))
    #expect(out.contains("verification failed: unsafe-to-break test failed"))
    #expect(out.contains("fonts/Missing.ttf: No such file or directory"))
    #expect(out.hasSuffix("0 passed, 4 failed, 0 skipped\n"))
  }

  @Test func foldersRunEveryTestsFile() throws {
    let result = try swiftshape(["conformance", "--jobs", "2", "conformance"])
    #expect(result.status == 1)
    #expect(result.out.hasSuffix("5 passed, 4 failed, 3 skipped\n"))
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

  @Test(.enabled(if: inHouse != nil, "../shared is absent: HarfBuzz's in-house suite is not run"))
  func harfBuzzInHouseSuitePasses() throws {
    let result = try swiftshape(["conformance", "--jobs", "2", Self.inHouse!])
    #expect(result.status == 0, "\(result.out.suffix(3000))")
    let summary = result.out.split(separator: "\n").last.map(String.init) ?? ""
    #expect(summary.hasSuffix(" passed, 0 failed, 136 skipped"), "\(summary)")
  }
}

/// `.tests` files written for hb-shape pass as with hb-shape: option values are read as hb-shape
/// reads them (quoted feature lists, items HarfBuzz cannot parse, C's number syntax).
@Suite("swiftshape conformance: hb-shape's option syntax")
struct ConformanceSyntaxTests {
  static let file = "conformance/hb-shape-syntax/quoted-features.tests"

  @Test func quotedFeatureListsPass() throws {
    let result = try swiftshape(["conformance", Self.file])
    #expect(result.status == 0, "\(result.out)")
    #expect(result.out == "17 passed, 0 failed, 0 skipped\n")
  }

  /// The file's expectations are hb-shape's: each line run as HarfBuzz's runner runs it.
  @Test(.enabled(if: HarfBuzzTools.hbShape != nil, "hb-shape is not installed"))
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
        #expect(theirs.out == fields[3] + "\n", "\(line)")
      }
    }
  }
}
