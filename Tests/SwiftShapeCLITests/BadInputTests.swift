import Foundation
import HarfBuzz
import TestFixtures
import Testing

/// Every kind of bad input: one line on standard error naming the input, the documented exit
/// status, nothing on standard output, never a crash.
@Suite("Bad input")
struct BadInputTests {
  static let usage: Int32 = 64
  static let badInput: Int32 = 65
  static let cannotOpen: Int32 = 66

  /// A temporary folder for damaged fonts and bad text files.
  static let scratch: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swiftshape-bad-input-\(getpid())")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }()

  static func write(_ bytes: [UInt8], _ name: String) throws -> String {
    let url = scratch.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url.path
  }

  static var latinBytes: [UInt8] {
    get throws { Array(try Data(contentsOf: URL(fileURLWithPath: Paths.latin))) }
  }

  /// Runs swiftshape and checks the shape of a failure.
  func expectFailure(
    _ arguments: [String], status: Int32, mentions: String, stdin: Data = Data(),
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let result = try swiftshape(arguments, stdin: stdin)
    #expect(result.status == status, "\(arguments): \(result.err)", sourceLocation: sourceLocation)
    #expect(result.stdout.isEmpty, "\(arguments) wrote to stdout", sourceLocation: sourceLocation)
    let lines = result.err.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(
      lines.count == 2 && lines[1].isEmpty, "not one line: \(result.err)", sourceLocation: sourceLocation)
    #expect(result.err.hasPrefix("swiftshape: error: "), sourceLocation: sourceLocation)
    #expect(
      result.err.contains(mentions), "\(result.err) does not name \(mentions)", sourceLocation: sourceLocation
    )
    #expect(!result.err.contains("Fatal error"), sourceLocation: sourceLocation)
  }

  @Test func missingFontFile() throws {
    try expectFailure(
      ["--font-file", "/nonexistent/font.ttf", "--text", "a"], status: Self.cannotOpen,
      mentions: "/nonexistent/font.ttf: No such file")
  }

  @Test func fontPathIsAFolder() throws {
    try expectFailure(
      ["--font-file", "fonts", "--text", "a"], status: Self.cannotOpen, mentions: "fonts: Is a directory")
  }

  @Test func fileThatIsNotAFont() throws {
    try expectFailure(
      ["--font-file", "golden/cases.json", "--text", "a"], status: Self.badInput,
      mentions: "golden/cases.json: not a font file")
  }

  @Test func emptyFontFile() throws {
    let path = try Self.write([], "empty.ttf")
    try expectFailure(
      ["--font-file", path, "--text", "a"], status: Self.badInput, mentions: "\(path): not a font file")
  }

  @Test func truncatedFont() throws {
    let bytes = try Self.latinBytes
    let path = try Self.write(Array(bytes.prefix(bytes.count / 3)), "truncated.ttf")
    try expectFailure(
      ["--font-file", path, "--text", "a"], status: Self.badInput, mentions: "lies outside the file")
  }

  @Test func tableRecordWithAbsurdLength() throws {
    var bytes = try Self.latinBytes
    // The first table record's length (offset 12 + 12) set to 0xFFFFFFF0.
    bytes.replaceSubrange(24..<28, with: [0xFF, 0xFF, 0xFF, 0xF0])
    let path = try Self.write(bytes, "absurd-length.ttf")
    try expectFailure(
      ["--font-file", path, "--text", "a"], status: Self.badInput, mentions: "length 4294967280")
  }

  @Test func fontWithNoGlyphs() throws {
    var bytes = try Self.latinBytes
    // Find maxp in the table directory and set numGlyphs (offset 4 in maxp) to 0.
    let tableCount = Int(bytes[4]) << 8 | Int(bytes[5])
    let record = try #require(
      (0..<tableCount).map { 12 + 16 * $0 }.first { Array(bytes[$0..<($0 + 4)]) == Array("maxp".utf8) })
    let offset = bytes[(record + 8)..<(record + 12)].reduce(0) { $0 << 8 | Int($1) }
    bytes[offset + 4] = 0
    bytes[offset + 5] = 0
    let path = try Self.write(bytes, "no-glyphs.ttf")
    try expectFailure(["--font-file", path, "--text", "a"], status: Self.badInput, mentions: "no glyphs")
  }

  @Test func faceIndexPastTheEnd() throws {
    try expectFailure(
      ["--font-file", "fonts/NotoSansCJK-Subset.ttc", "--face-index", "2", "--text", "a"],
      status: Self.badInput,
      mentions: "face index 2 is out of range (the file has 2 faces)")
    try expectFailure(
      ["--font-file", "fonts/NotoSans-Latin.ttf", "--face-index=-1", "--text", "a"], status: Self.badInput,
      mentions: "face index -1")
  }

  @Test func invalidUTF8InTextFile() throws {
    let path = try Self.write(Array("good line\nab".utf8) + [0xC3, 0x28] + Array("cd\n".utf8), "bad.txt")
    try expectFailure(
      ["--font-file", "fonts/NotoSans-Latin.ttf", "--text-file", path], status: Self.badInput,
      mentions: "invalid UTF-8 at byte 12 (line 2, byte 3 of the line)")
  }

  @Test func invalidUTF8OnStandardInput() throws {
    try expectFailure(
      ["--font-file", "fonts/NotoSans-Latin.ttf"], status: Self.badInput,
      mentions: "standard input: invalid UTF-8 at byte 1",
      stdin: Data([0x61, 0xFF]))
  }

  @Test func missingTextFile() throws {
    try expectFailure(
      ["--text-file", "/nonexistent.txt"], status: Self.cannotOpen, mentions: "/nonexistent.txt")
  }

  @Test(arguments: [
    ("zz", "zz: not a hexadecimal"), ("U+D800", "U+D800: a surrogate"), ("110000", "110000: past U+10FFFF"),
    ("U+", "U+: not a hexadecimal"), ("", "no code points"),
  ])
  func malformedUnicodes(_ list: String, _ message: String) throws {
    try expectFailure(["-u", list], status: Self.usage, mentions: message)
  }

  @Test(arguments: [
    (["--features", "kern,liga[x]"], "--features 'liga[x]': not a feature"),
    (["--features", "=1"], "--features '=1'"),
    (["--variations", "wght"], "--variations 'wght': not a variation"),
    (["--variations", "wght=bold"], "--variations 'wght=bold'"),
    (["--direction", "sideways"], "--direction 'sideways': not a direction"),
    (["--script", "Arabic"], "--script 'Arabic': not a script"),
    (["--language", "en US"], "--language 'en US': not a language"),
    EngineFeature.clusterLevelGraphemes.isAvailable
      ? (["--cluster-level", "4"], "--cluster-level=4") : (["--cluster-level", "3"], "--cluster-level=3"),
    (["--font-size", "big"], "--font-size=big"),
    (["--font-size", "0"], "--font-size=0"),
    (["--size=-12"], "-12"),
    (["--font-funcs", "coretext"], "--font-funcs=coretext"),
    (["--cluster-unit", "bytes"], "--cluster-unit=bytes"),
    (["--no-such-option"], "--no-such-option"),
    (["--face-index", "one"], "one"),
  ])
  func invalidOptionSyntax(_ arguments: [String], _ message: String) throws {
    try expectFailure(arguments + ["--text", "a"], status: Self.usage, mentions: message)
  }

  @Test func textGivenTwice() throws {
    try expectFailure(["--text", "a", "-u", "61"], status: Self.usage, mentions: "--text, --unicodes")
  }
}

@Suite("Limits")
struct LimitTests {
  @Test func aLineLongerThanTheLimitIsRefused() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swiftshape-limits-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("long.txt")
    try Data(("short\n" + String(repeating: "a", count: 5000) + "\n").utf8).write(to: file)
    let result = try swiftshape(["-O", "text", "--max-text-length", "1000", "--text-file", file.path])
    #expect(result.status == 65 && result.stdout.isEmpty)
    #expect(
      result.err
        == "swiftshape: error: \(file.path): line 2 is 5000 bytes, longer than 1000 (--max-text-length)\n")
    let text = try swiftshape(["-O", "text", "--max-text-length", "3", "--text", "abcd"])
    #expect(text.status == 65 && text.err.contains("the text: longer than 3 bytes"))
    let fine = try swiftshape(["-O", "text", "--max-text-length", "5000", "--text-file", file.path])
    #expect(fine.status == 0 && fine.out.split(separator: "\n").count == 2)
  }

  @Test func longRequestsAreAnsweredWithErrorsAndTheStreamsGoOn() throws {
    let long = String(repeating: "a", count: 3000)
    let batch = try swiftshape(
      ["--batch", "--max-text-length", "1000"],
      stdin: Data("fonts/NotoSans-Latin.ttf;--text=\(long)\nfonts/NotoSans-Latin.ttf;--text=ok\n".utf8))
    #expect(
      batch.out == "error: request: 3032 bytes, longer than 1000 (--max-text-length)\n[o=0+605|k=1+534]\n")
    let requests = try swiftshape(
      ["shape", "--requests", "-", "--max-text-length", "1000"],
      stdin: Data("{\"text\": \"\(long)\"}\n{\"id\": 2, \"text\": \"b\"}\n".utf8))
    let lines = requests.out.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines[0].contains("\"error\":{\"kind\":\"bad-text\"") && lines[1].hasPrefix("{\"id\":2,"))
  }
}
