import Foundation
import TestFixtures
import Testing

/// Font fallback on the command line: `--font PATTERN` with fontconfig's sorted list (the fixture
/// fonts' configuration, so results are the same on every machine), `--fallback-font-file`,
/// `--no-fallback`, fixtures and requests, render, and bad input.
@Suite("Font fallback on the command line")
struct FallbackCommandTests {
  static let environment = ["FONTCONFIG_FILE": Paths.fontconfigFile]
  static let text = "Hello שלום 123 مرحبا! 日本 😀"

  /// The runs of a one-line JSON Lines result: family, fallback, level, text range.
  static func runs(_ output: String) throws -> [(family: String, fallback: Bool, level: Int, range: [Int])] {
    let json = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
    let entry = (json?["results"] as? [[String: Any]])?.first ?? json ?? [:]
    return (entry["runs"] as? [[String: Any]] ?? []).map { run in
      let font = run["font"] as? [String: Any] ?? [:]
      return (
        font["family"] as? String ?? "", font["fallback"] as? Bool ?? false, run["level"] as? Int ?? -1,
        run["range"] as? [Int] ?? []
      )
    }
  }

  @Test func aPatternFallsBackOnFontconfigsSortedList() throws {
    let result = try swiftshape(
      ["-O", "jsonl", "--paragraph", "--font", "sans", "--no-glyph-names", Self.text],
      environment: Self.environment)
    #expect(result.status == 0, "\(result.err)")
    let runs = try Self.runs(result.out)
    #expect(
      runs.map(\.family) == [
        "Noto Sans", "Noto Sans Arabic", "Noto Sans", "Noto Sans", "Noto Sans Hebrew", "Noto Sans",
        "Noto Sans CJK JP", "Noto Color Emoji",
      ])
    #expect(runs.map(\.fallback) == runs.map { $0.family != "Noto Sans" })
    #expect(runs.map(\.level) == [0, 1, 1, 2, 1, 0, 0, 0])
    #expect(!result.out.contains("\"missing\""))
    // The hb text format names the fallback fonts.
    let text = try swiftshape(
      ["-O", "text", "--paragraph", "--font", "sans", Self.text], environment: Self.environment)
    #expect(text.out.contains("<0 Hani \"Noto Sans CJK JP\">[gid47=22+1000|gid50=23+1000|gid1=24+224]"))
    #expect(text.out.hasPrefix("<0 Latn>[H=0+741|"))
  }

  @Test func noFallbackUsesTheOneFontAndListsWhatItLacks() throws {
    let result = try swiftshape(
      ["-O", "jsonl", "--paragraph", "--font", "sans", "--no-fallback", "a 日本"], environment: Self.environment
    )
    #expect(result.status == 0, "\(result.err)")
    #expect(try Self.runs(result.out).allSatisfy { $0.family == "Noto Sans" && !$0.fallback })
    #expect(
      result.out.contains(#""missing":[{"code_point":26085,"cluster":2},{"code_point":26412,"cluster":3}]"#))
  }

  /// Given files are tried in order, before anything fontconfig knows.
  @Test func fallbackFilesAreTriedInOrder() throws {
    let result = try swiftshape([
      "-O", "jsonl", "--paragraph", "--font-file", "fonts/NotoSans-Latin.ttf", "--fallback-font-file",
      "fonts/NotoSansCJK-Subset.ttc", "--fallback-font-file", "fonts/NotoSansHebrew-Subset.ttf", "ab שלום 日本",
    ])
    #expect(result.status == 0, "\(result.err)")
    #expect(
      try Self.runs(result.out).map(\.family) == [
        "Noto Sans", "Noto Sans Hebrew", "Noto Sans", "Noto Sans CJK JP",
      ])
  }

  /// Bad input: one line naming it, a documented status, nothing on standard output.
  @Test(arguments: [
    (
      ["--paragraph", "--fallback-font-file", "fonts/missing.ttf", "a"], Int32(66),
      "--fallback-font-file fonts/missing.ttf:"
    ),
    (
      ["--paragraph", "--fallback-font-file", "README.md", "a"], 65,
      "--fallback-font-file README.md: not a font file"
    ),
    (["--paragraph", "--fallback-font-file=", "a"], 64, "--fallback-font-file '': an empty path"),
    (
      ["--fallback-font-file", "fonts/NotoSansHebrew-Subset.ttf", "a"], 64,
      "--fallback-font-file: fallback fonts are for paragraphs"
    ),
    (["--no-fallback", "a"], 64, "--no-fallback: fallback fonts are for paragraphs"),
    (["--paragraph", "--base-direction=up", "a"], 64, "--base-direction=up: not a base direction"),
    (["--width", "100", "a"], 64, "--width: lines are broken in paragraphs: add --paragraph"),
    (["--paragraph", "--width=0", "a"], 64, "--width=0: not a width"),
    (["--paragraph", "--width=wide", "a"], 64, "--width"),
    (["--paragraph", "--width=100", "--align=up", "a"], 64, "--align=up: not an alignment"),
    (["--paragraph", "--break-anywhere", "a"], 64, "--break-anywhere: needs --width"),
    (
      ["--paragraph", "--width=100", "--hyphenate", "a"], 64,
      "--hyphenate: needs --language to choose its dictionary"
    ),
    (
      ["--paragraph", "--width=100", "--hyphenate", "--language=xx", "a"], 64,
      "--language: 'xx' has no hyphenation dictionary"
    ),
    (["--hyphenate", "a"], 64, "--hyphenate: lines are broken in paragraphs: add --paragraph"),
  ])
  func badInput(arguments: [String], status: Int32, message: String) throws {
    let result = try swiftshape(arguments, environment: Self.environment)
    #expect(result.status == status)
    #expect(result.err.hasPrefix("swiftshape: error: \(message)"), "\(result.err)")
    #expect(result.err.split(separator: "\n").count == 1)
    #expect(result.out.isEmpty)
  }

  /// A fontconfig that knows no font: the pattern matches nothing.
  @Test func aPatternThatMatchesNothing() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swiftshape-nofonts-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let configuration = folder.appendingPathComponent("fonts.conf")
    try #"<?xml version="1.0"?><fontconfig></fontconfig>"#.write(
      to: configuration, atomically: true, encoding: .utf8)
    let result = try swiftshape(
      ["--paragraph", "--font", "sans", "a"], environment: ["FONTCONFIG_FILE": configuration.path])
    #expect(result.status == 65)
    #expect(result.err == "swiftshape: error: sans: no installed font matches\n")
    #expect(result.out.isEmpty)
  }

  /// Render draws each run with its own font's outlines: the fallback fonts' glyphs have their own
  /// definitions, and the color emoji (a bitmap, no outline) is an embedded PNG image (a visible
  /// box with `--no-color`).
  @Test func renderDrawsEachRunWithItsFont() throws {
    let result = try swiftshape(
      ["render", "--paragraph", "--font", "sans", Self.text], environment: Self.environment)
    #expect(result.status == 0, "\(result.err)")
    let svg = result.out
    #expect(svg.contains("<path id=\"g41\""))
    for prefix in ["f1g", "f2g", "f3g"] { #expect(svg.contains("<path id=\"\(prefix)")) }
    #expect(svg.contains("<image id=\"f4g") && svg.contains("data:image/png;base64,iVBORw0KGgo"))
    #expect(!svg.contains("fill=\"none\" stroke"))
    let plain = try swiftshape(
      ["render", "--paragraph", "--no-color", "--font", "sans", Self.text], environment: Self.environment)
    #expect(plain.out.contains("fill=\"none\" stroke") && !plain.out.contains("<image"))
  }

  /// Fixtures and requests take `fallback_font_files` (relative to the fixture) and `fallback`.
  @Test func requestsTakeFallbackFonts() throws {
    let request =
      #"{"id":1,"font":"fonts/NotoSans-Latin.ttf","paragraph":true,"fallback_font_files":["fonts/NotoSansHebrew-Subset.ttf"],"text":"ab שלום"}"#
    let result = try swiftshape(["--requests", "-"], stdin: Data((request + "\n").utf8))
    #expect(result.status == 0, "\(result.err)")
    #expect(result.out.contains(#""family":"Noto Sans Hebrew","fallback":true"#))
    let off =
      #"{"id":2,"font":"fonts/NotoSans-Latin.ttf","paragraph":true,"fallback":false,"text":"ab שלום"}"#
    let second = try swiftshape(["--requests", "-"], stdin: Data((off + "\n").utf8))
    #expect(second.out.contains(#""missing":[{"code_point":1513,"cluster":3}"#))
  }

  /// `--width` on the command line: a line of hb text output each line, JSON lines, and render
  /// stacking the lines (in pixels at `--em-pixels`).
  @Test func widthBreaksParagraphsIntoLines() throws {
    let arguments = [
      "--paragraph", "--font-file", "fonts/NotoSans-Latin.ttf", "--width", "3000", "--no-glyph-names",
    ]
    let text = try swiftshape(["-O", "text"] + arguments + ["office affine difficult efficient"])
    #expect(text.status == 0, "\(text.err)")
    #expect(
      text.out
        == "<0 Latn>[80=0+605|219=1+946|68=4+480|70=5+564|1=6+260]\n<0 Latn>[66=7+561|219=8+946|79=11+618|70=12+564|1=13+260]\n<0 Latn>[69=14+615|74=15+258|219=16+946|68=19+480|86=20+618|77=21+258|85=22+361|1=23+260]\n<0 Latn>[70=24+564|219=25+946|68=28+480|74=29+258|70=30+564|79=31+618|85=32+361]\n"
    )
    let json = try swiftshape(["-O", "jsonl"] + arguments + ["office affine difficult efficient"])
    #expect(
      json.out.contains(
        #""reshaped_edges":0,"lines":[{"range":[0,7],"advance":2855,"visible_advance":2595,"#))
    let svg = try swiftshape([
      "render", "--paragraph", "--font-file", "fonts/NotoSans-Latin.ttf", "--em-pixels", "32", "--width",
      "100",
      "--align", "end", "office affine difficult",
    ])
    #expect(svg.status == 0, "\(svg.err)")
    // Three lines: glyphs at three baselines.
    let baselines = Set(
      svg.out.split(separator: "\n").compactMap { line -> Substring? in
        guard line.hasPrefix("<use"), let y = line.range(of: " y=\"") else { return nil }
        return line[y.upperBound...].prefix { $0 != "\"" }
      })
    #expect(baselines.count == 3)
  }

  /// Requests (and fixtures) take `width`, `align` and `break_anywhere`; a width needs a paragraph.
  @Test func requestsTakeAWidth() throws {
    let lines = [
      #"{"id":1,"font":"fonts/NotoSans-Latin.ttf","paragraph":true,"width":3000,"align":"center","text":"office affine difficult efficient"}"#,
      #"{"id":2,"font":"fonts/NotoSans-Latin.ttf","width":3000,"text":"office"}"#,
      #"{"id":3,"font":"fonts/NotoSans-Latin.ttf","paragraph":true,"width":0,"text":"office"}"#,
    ]
    let result = try swiftshape(
      ["--requests", "-"], stdin: Data((lines.joined(separator: "\n") + "\n").utf8))
    #expect(result.status == 0, "\(result.err)")
    let answers = result.out.split(separator: "\n")
    #expect(answers.count == 3)
    #expect(
      answers[0].contains(
        #""reshaped_edges":0,"lines":[{"range":[0,7],"advance":2855,"visible_advance":2595,"#))
    #expect(answers[0].contains(#""x":202,"#))
    #expect(answers[1].contains(#""error":{"kind":"invalid-argument","input":"width""#))
    #expect(answers[2].contains(#""error""#) && answers[2].contains("a whole number from 1"))
  }
}
