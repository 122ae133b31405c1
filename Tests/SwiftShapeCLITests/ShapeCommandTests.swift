import Foundation
import TestFixtures
import Testing

@Suite("swiftshape shape")
struct ShapeCommandTests {
  @Test func builtInFontWorksWithoutAFontFile() throws {
    let result = try swiftshape(["shape", "Hello", "-O", "text"])
    #expect(result.status == 0)
    #expect(result.out == "[H=0+1540|e=1+1260|l=2+569|l=3+569|o=4+1253]\n")
  }

  @Test func shapeIsTheDefaultSubcommand() throws {
    let explicit = try swiftshape(["shape", "Hello"])
    let implicit = try swiftshape(["Hello"])
    #expect(implicit.status == 0 && implicit.out == explicit.out)
  }

  @Test func positionalFontAndText() throws {
    let result = try swiftshape(["fonts/NotoSans-Latin.ttf", "office", "-O", "text"])
    #expect(result.out == "[o=0+605|f_f_i=1+946|c=4+480|e=5+564]\n")
    // One argument that names a file is the font; the text then comes from --text or stdin.
    let fromStdin = try swiftshape(["fonts/NotoSans-Latin.ttf", "-O", "text"], stdin: Data("office\n".utf8))
    #expect(fromStdin.out == result.out)
  }

  @Test func jsonDocumentDescribesFontUnitsAndGlyphs() throws {
    let result = try swiftshape(["--font-file", "fonts/NotoSans-Latin.ttf", "--text", "Ta\nfi"])
    #expect(result.status == 0)
    let document = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
    #expect(document["format"] as? String == "swiftshape-shape")
    #expect(document["units"] as? String == "font-units")
    let font = try #require(document["font"] as? [String: Any])
    #expect(font["file"] as? String == "fonts/NotoSans-Latin.ttf")
    #expect(font["upem"] as? Int == 1000)
    let results = try #require(document["results"] as? [[String: Any]])
    #expect(results.map { $0["line"] as? Int } == [1, 2])
    #expect(results.map { $0["text"] as? String } == ["Ta", "fi"])
    let glyphs = try #require(results[0]["glyphs"] as? [[String: Any]])
    #expect(glyphs.map { $0["name"] as? String } == ["T", "a"])
    let advance = try #require(results[0]["advance"] as? [String: Any])
    #expect(advance["x"] as? Int == glyphs.compactMap { $0["x_advance"] as? Int }.reduce(0, +))
  }

  @Test func sizeGivesFixedPointUnits() throws {
    let result = try swiftshape(["--font-file", "fonts/NotoSans-Latin.ttf", "--size", "12", "--text", "a"])
    let document = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
    #expect(document["units"] as? String == "26.6")
    #expect((document["scale"] as? [String: Any])?["x"] as? Int == 768)
    #expect(document["ptem"] as? Int == 12)
    let glyph = try #require(
      ((document["results"] as? [[String: Any]])?.first?["glyphs"] as? [[String: Any]])?.first)
    // a is 561/1000 em: at 12 pt that is 6.732 pt, 430.848 in 26.6, rounded by HarfBuzz.
    #expect(glyph["x_advance"] as? Int == 431)
  }

  @Test func jsonLinesStreamsOneDocumentPerLine() throws {
    let result = try swiftshape(
      ["--font-file", "fonts/NotoSans-Latin.ttf", "-O", "jsonl"], stdin: Data("a\n\nb\n".utf8))
    let lines = result.out.split(separator: "\n")
    #expect(lines.count == 3)
    for (index, line) in lines.enumerated() {
      let document = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let results = try #require(document["results"] as? [[String: Any]])
      #expect(results.count == 1 && results[0]["line"] as? Int == index + 1)
    }
  }

  /// With `--jobs`, lines are shaped on several threads in runs and batches; the output is the
  /// one-thread output, byte for byte, in every line format.
  @Test(arguments: ["jsonl", "text", "hb-json"])
  func severalJobsWriteWhatOneJobWrites(format: String) throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("jobs-\(UUID().uuidString).txt")
    defer { try? FileManager.default.removeItem(at: file) }
    let words = ["office", "Ta AV", "fi", "", "Wave", "\"quoted\" \\ text", "ffl", "AVAVAV"]
    let lines = (0..<700).map { "\($0) \(words[$0 % words.count])" }
    try Data(lines.joined(separator: "\n").utf8).write(to: file)
    let arguments = ["-O", format, "--font-file", "fonts/NotoSans-Latin.ttf", "--text-file", file.path]
    let one = try swiftshape(arguments + ["--jobs", "1"])
    #expect(one.status == 0, "\(one.err)")
    #expect(one.out.split(separator: "\n", omittingEmptySubsequences: false).count > 700)
    for jobs in ["2", "3"] {
      let several = try swiftshape(arguments + ["--jobs", jobs])
      #expect(several.status == 0, "\(several.err)")
      #expect(several.stdout == one.stdout, "--jobs \(jobs)")
    }
  }

  /// A bad line far into a file stops the request before anything is written, with one thread or
  /// several (pieces before it may be in flight on other threads).
  @Test(arguments: ["jsonl", "text"])
  func severalJobsStopWhereOneJobStops(format: String) throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("jobs-\(UUID().uuidString).txt")
    defer { try? FileManager.default.removeItem(at: file) }
    var bytes: [UInt8] = []
    for line in 0..<900 {
      bytes += Array("\(line) office AVAV".utf8)
      if line == 700 { bytes += [0xC3, 0x28] }
      bytes.append(0x0A)
    }
    try Data(bytes).write(to: file)
    let arguments = ["-O", format, "--font-file", "fonts/NotoSans-Latin.ttf", "--text-file", file.path]
    let one = try swiftshape(arguments + ["--jobs", "1"])
    #expect(one.status == 65)
    #expect(
      one.err
        == "swiftshape: error: \(file.path): invalid UTF-8 at byte 11105 (line 701, byte 16 of the line)\n")
    #expect(one.stdout.isEmpty)
    for jobs in ["2", "3"] {
      let several = try swiftshape(arguments + ["--jobs", jobs])
      #expect(several.status == 65, "--jobs \(jobs)")
      #expect(several.err == one.err, "--jobs \(jobs)")
      let written = several.stdout.count
      #expect(written == 0, "--jobs \(jobs)")
    }
  }

  /// Text typed or piped in slowly is answered line by line, as hb-shape does: each line's result
  /// comes out before the next line is sent.
  @Test(arguments: ["1", "2"])
  func eachLineOfAnOpenStreamIsAnswered(jobs: String) throws {
    let conversation = try Conversation([
      "shape", "-O", "text", "--jobs", jobs, "--font-file", "fonts/NotoSans-Latin.ttf",
    ])
    conversation.send("office\n")
    #expect(conversation.answers(lines: 1) == "[o=0+605|f_f_i=1+946|c=4+480|e=5+564]\n")
    conversation.send("fi\n")
    #expect(conversation.answers(lines: 2) == "[o=0+605|f_f_i=1+946|c=4+480|e=5+564]\n[fi=0+602]\n")
    #expect(try conversation.finish() == 0)
  }

  @Test func clusterUnitsAreSelectable() throws {
    func clusters(_ unit: String) throws -> [Int] {
      let result = try swiftshape([
        "--font-file", "fonts/NotoSans-Latin.ttf", "--cluster-unit", unit, "--text", "é😀b",
      ])
      let document = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
      let glyphs = try #require(
        (document["results"] as? [[String: Any]])?.first?["glyphs"] as? [[String: Any]])
      return glyphs.compactMap { $0["cluster"] as? Int }
    }
    #expect(try clusters("scalars") == [0, 1, 2])
    #expect(try clusters("utf8") == [0, 2, 6])
    #expect(try clusters("utf16") == [0, 1, 3])
  }

  @Test func emptyInputPrintsNoResults() throws {
    let text = try swiftshape(["-O", "text", "--text", ""])
    #expect(text.status == 0 && text.out.isEmpty)
    let json = try swiftshape(["--text", ""])
    let document = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
    #expect((document["results"] as? [Any])?.isEmpty == true)
  }

  @Test func helpAndVersionSucceed() throws {
    let help = try swiftshape(["shape", "--help"])
    #expect(help.status == 0 && help.out.contains("--font-file") && help.out.contains("--features"))
    let version = try swiftshape(["--version"])
    #expect(version.status == 0)
    #expect(
      version.out.firstMatch(
        of:
          /^swiftshape \d+\.\d+\.\d+ \(HarfBuzz \d+\.\d+\.\d+, FreeType \d+\.\d+\.\d+(, fontconfig \d+\.\d+\.\d+)?\)\n$/
      ) != nil, "\(version.out)")
  }

  static let schemaValidator: URL? = {
    let python = URL(fileURLWithPath: "/usr/bin/python3")
    guard let check = try? run(python, ["-c", "import jsonschema"]), check.status == 0 else { return nil }
    return python
  }()

  @Test(.enabled(if: schemaValidator != nil, "python3-jsonschema is not installed"))
  func outputConformsToTheSchema() throws {
    let schema = Repository.root.appendingPathComponent(
      "Sources/SwiftShape/Schemas/shape-document.schema.json"
    ).path
    var documents: [Data] = []
    for arguments in [
      ["--text", "Hello"],
      ["--font-file", "fonts/NotoSansArabic-Subset.ttf", "--show-extents", "--text", "سلام\n\nبِسْمِ"],
      [
        "--font-file", "fonts/NotoSansCJK-Subset.ttc", "--face-index=1", "--direction=ttb", "--size=9.5",
        "--text", "日本",
      ],
      [
        "--font-file", "fonts/InterVariable-Subset.ttf", "--variations=wght=650", "--font-size=20 10",
        "--no-glyph-names", "--text", "Wave",
      ],
      ["--font-file", "fonts/NotoSansArabic-Subset.ttf", "--trace", "--text", "سلام"],
    ] {
      documents.append(try swiftshape(arguments).stdout)
    }
    // A paragraph with fallback fonts and a character no font has.
    documents.append(
      try swiftshape(
        [
          "--paragraph", "--font", "sans", "--text", "Hello שלום 123 مرحبا! 日本 😀 ก",
        ], environment: ["FONTCONFIG_FILE": Paths.fontconfigFile]
      ).stdout)
    // A paragraph broken to a width, in both layouts.
    for format in ["json", "jsonl"] {
      documents.append(
        try swiftshape([
          "-O", format, "--paragraph", "--width", "5000", "--text",
          "Hello שלום 123 مرحبا! and more words to break",
        ]).stdout)
    }
    documents += try swiftshape(["-O", "jsonl", "--text", "a\nb"]).out.split(separator: "\n").map {
      Data($0.utf8)
    }
    documents += try FileManager.default.contentsOfDirectory(
      atPath: Repository.fixtures.appendingPathComponent("golden").path
    )
    .filter { $0.hasSuffix(".json") && $0 != "cases.json" }
    .map { try Data(contentsOf: Repository.fixtures.appendingPathComponent("golden/\($0)")) }
    let validator = """
      import json, sys, jsonschema
      schema = json.load(open(sys.argv[1]))
      jsonschema.Draft202012Validator.check_schema(schema)
      for line in sys.stdin:
          jsonschema.validate(json.loads(line), schema, cls=jsonschema.Draft202012Validator)
      print("ok")
      """
    // One compact document per line for the validator.
    let input = try documents.map { document -> Data in
      let object = try JSONSerialization.jsonObject(with: document)
      return try JSONSerialization.data(withJSONObject: object) + Data("\n".utf8)
    }.reduce(Data(), +)
    let result = try run(Self.schemaValidator!, ["-c", validator, schema], stdin: input)
    #expect(result.status == 0, "\(result.err)")
    #expect(result.out == "ok\n")
    #expect(documents.count > 20)
  }
}

/// `--paragraph`: each line shaped as a paragraph of runs, in visual order, in every format.
@Suite("shape --paragraph")
struct ParagraphCommandTests {
  @Test func textFormatGroupsTheRuns() throws {
    let result = try swiftshape(["-O", "text", "--paragraph", "--text", "ab שלום"])
    #expect(result.status == 0, "\(result.err)")
    #expect(
      result.out
        == "<0 Latn>[a=0+1255|b=1+1300|space=2+651] <1 Hebr>[uni05DD=6+1359|uni05D5=5+558|uni05DC=4+1164|uni05E9=3+1451]\n"
    )
    let rtl = try swiftshape(["-O", "text", "--base-direction=rtl", "--text", "ab"])
    #expect(rtl.out == "<2 Latn>[a=0+1255|b=1+1300]\n")
  }

  @Test func jsonNamesTheRunsFontsAndLevels() throws {
    let result = try swiftshape(["-O", "jsonl", "--paragraph", "--text", "Hello שלום 123 مرحبا!"])
    #expect(result.status == 0)
    let document = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
    let entry = try #require((document["results"] as? [[String: Any]])?.first)
    #expect(entry["level"] as? Int == 0 && entry["direction"] as? String == "ltr")
    let runs = try #require(entry["runs"] as? [[String: Any]])
    #expect(runs.map { $0["level"] as? Int } == [0, 1, 1, 2, 1, 0])
    #expect(runs.map { $0["script"] as? String } == ["Latn", "Arab", "Hebr", "Hebr", "Hebr", "Arab"])
    #expect(
      runs.map { ($0["range"] as? [Int]) ?? [] } == [
        [0, 6], [15, 20], [14, 15], [11, 14], [6, 11], [20, 21],
      ])
    #expect((runs[0]["font"] as? [String: Any])?["file"] as? String == "<default>")
  }

  @Test func aBadBaseDirectionIsAUsageError() throws {
    let result = try swiftshape(["--base-direction=up", "--text", "a"])
    #expect(result.status == 64 && result.stdout.isEmpty)
    #expect(result.err.contains("--base-direction=up: not a base direction (auto, ltr or rtl)"))
  }
}
