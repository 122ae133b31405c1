import Foundation
import TestFixtures
import Testing

/// Spans on the command line: `--span START:END:KEY=VALUE;…`, the runs they make in the JSON,
/// requests, and bad input.
@Suite("Spans on the command line")
struct SpanCommandTests {
  /// A span in the Hebrew font: its run is shaped with it and names the span; a features span
  /// stays in its run. `--span` implies `--paragraph`.
  @Test func aSpanNamesItsRun() throws {
    let result = try swiftshape([
      "shape", "-O", "jsonl", "--font-file", Paths.latin, "--span",
      "4:8:font-file=\(Paths.hebrew);language=he",
      "--span", "0:3:features=-kern", "abc שלום def",
    ])
    #expect(result.status == 0, "\(result.err)")
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
    let entry = try #require((document["results"] as? [[String: Any]])?.first)
    let runs = try #require(entry["runs"] as? [[String: Any]])
    let spanned = runs.filter { $0["span"] as? Int == 0 }
    #expect(spanned.count == 1)
    #expect((spanned.first?["font"] as? [String: Any])?["file"] as? String == Paths.hebrew)
    #expect(spanned.first?["language"] as? String == "he")
    #expect(runs.filter { $0["span"] != nil }.count == 1)
  }

  /// A request line's `spans` are objects; an unknown member is the request's one-line error.
  @Test func requestsTakeSpanObjects() throws {
    let good =
      #"{"id": 1, "font": "\#(Paths.latin)", "text": "abc שלום", "spans": [{"start": 4, "end": 8, "font_file": "\#(Paths.hebrew)"}]}"#
    let bad =
      #"{"id": 2, "font": "\#(Paths.latin)", "text": "abc", "spans": [{"start": 0, "end": 2, "size": 3}]}"#
    let result = try swiftshape(["shape", "--requests", "-"], stdin: Data((good + "\n" + bad + "\n").utf8))
    let lines = result.out.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines[0].contains("\"span\":0") && lines[0].contains("NotoSansHebrew"))
    #expect(lines[1].contains("\"error\"") && lines[1].contains("not \\\"size\\\""), "\(lines[1])")
  }

  @Test(arguments: [
    (["--span", "4", "abc"], "--span=4: not a span"),
    (["--span", "2:1", "abc"], "--span=2:1: not a span"),
    (["--span", "0:2:colour=red", "abc"], "--span=0:2:colour=red: unknown key 'colour'"),
    (["--span", "0:2:size=0", "abc"], "--span=0:2:size=0: not a point size"),
    (["--span", "0:2:features=+", "abc"], "--span=0:2:features=+"),
    (["--span", "0:9", "abc"], "span 1: 0:9 is not a range of the text (0 to 3)"),
    (
      ["--span", "0:2:size=20", "abc"], "span 1: a size in points needs the paragraph's font sized in points"
    ),
    (["--span", "0:2:font-file=/no/such.ttf", "abc"], "span 1: /no/such.ttf"),
    (
      ["--span", "0:2:language=tr", "--span", "1:3:language=de", "abc"],
      "span 2: overlaps span 1 and sets the same setting differently"
    ),
  ])
  func badSpans(arguments: [String], message: String) throws {
    let result = try swiftshape(["shape", "--font-file", Paths.latin] + arguments)
    #expect(result.status != 0)
    #expect(result.err.hasPrefix("swiftshape: error: \(message)"), "\(result.err)")
    #expect(result.err.split(separator: "\n").count == 1)
    #expect(result.out.isEmpty)
  }

  /// Render draws a span's glyphs from its own font at its own size, on the line's baseline: the
  /// Hebrew glyphs are defined from the second face, and the line is as tall as its tallest run.
  @Test func renderDrawsSpansInTheirFontsAndSizes() throws {
    func svg(_ spans: [String]) throws -> String {
      let result = try swiftshape(
        ["render", "--font-file", Paths.latin, "--size", "12"] + spans.flatMap { ["--span", $0] } + [
          "abc שלום"
        ])
      #expect(result.status == 0, "\(result.err)")
      return result.out
    }
    func height(_ svg: String) -> Double {
      let viewBox = svg.components(separatedBy: "viewBox=\"").dropFirst().first?.split(separator: "\"").first
      return viewBox.flatMap { Double($0.split(separator: " ")[3]) } ?? 0
    }
    let plain = try svg([])
    let spanned = try svg(["4:8:font-file=\(Paths.hebrew);size=24"])
    #expect(!plain.contains("id=\"f1g") && spanned.contains("id=\"f1g"))
    #expect(height(spanned) > 1.5 * height(plain), "\(height(spanned)) \(height(plain))")
  }

  /// Markup's bold and italic come from the fixture fonts' bold and italic faces, drawn with
  /// their own outlines.
  @Test func renderDrawsMarkupFaces() throws {
    let result = try swiftshape(
      ["render", "--font", "sans", "--markup", "a <b>b</b> <i>c</i>"],
      environment: ["FONTCONFIG_FILE": Paths.fontconfigFile])
    #expect(result.status == 0, "\(result.err)")
    #expect(result.out.contains("id=\"f1g") && result.out.contains("id=\"f2g"))
    let json = try swiftshape(
      ["shape", "-O", "jsonl", "--font", "sans", "--markup", "a <b>b</b> <i>c</i>"],
      environment: ["FONTCONFIG_FILE": Paths.fontconfigFile])
    #expect(json.out.contains("NotoSans-Bold-Latin.ttf") && json.out.contains("NotoSans-Italic-Latin.ttf"))
  }

  /// A fallback font's run inside a sized span is drawn at the span's size: Hebrew at 24 points
  /// inside a Latin paragraph at 12 draws as the Hebrew font at 24 alone does (the same ink, to
  /// a pixel). It was drawn at the paragraph's size, though placed at the span's.
  @Test(.enabled(if: Raster.available, "rsvg-convert or python3-pil is absent"))
  func aFallbackRunInASizedSpanIsDrawnAtItsSize() throws {
    let folder = try RenderTests.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let spanned = folder.appendingPathComponent("spanned.png").path
    let alone = folder.appendingPathComponent("alone.png").path
    let first = try swiftshape([
      "render", "--font-file", Paths.latin, "--fallback-font-file", Paths.hebrew, "--size", "12", "--markup",
      "--text", "<span size=\"24pt\">שלום</span>", "-O", "png", "-o", spanned,
    ])
    #expect(first.status == 0, "\(first.err)")
    let second = try swiftshape([
      "render", "--font-file", Paths.hebrew, "--size", "24", "--text", "שלום", "-O", "png", "-o", alone,
      // (A drawing's pixels an em are its paragraph font's: 256 for 12 points, so 512 for 24.)
      "--em-pixels", "512",
    ])
    #expect(second.status == 0, "\(second.err)")
    let (width, height, aloneWidth, aloneHeight, differing) = try Raster.compare(spanned, alone)
    #expect(
      abs(width - aloneWidth) <= 1 && abs(height - aloneHeight) <= 1,
      "\(width)×\(height), \(aloneWidth)×\(aloneHeight)")
    #expect(differing < 0.01)
  }

  /// A span that names its font by pattern falls back on the pattern's own list (fontconfig's
  /// sort, as Pango's font description does), even where the paragraph has none (a font file):
  /// the Latin and Arabic inside a Noto Sans Hebrew span take Noto Sans and Noto Sans Arabic, in
  /// shaping and in drawing. Without the list they were `.notdef`.
  @Test func aPatternSpanFallsBackOnItsOwnList() throws {
    let text = "ab <span font=\"Noto Sans Hebrew\">שלום abc مرحبا</span>"
    let environment = ["FONTCONFIG_FILE": Paths.fontconfigFile]
    let shaped = try swiftshape(
      ["shape", "-O", "jsonl", "--font-file", Paths.latin, "--markup", "--text", text],
      environment: environment)
    #expect(shaped.status == 0, "\(shaped.err)")
    let json = try JSONSerialization.jsonObject(with: shaped.stdout) as? [String: Any]
    let runs = (json?["results"] as? [[String: Any]])?.first?["runs"] as? [[String: Any]] ?? []
    let families = runs.map { ($0["font"] as? [String: Any])?["family"] as? String ?? "" }
    #expect(Set(families) == ["Noto Sans", "Noto Sans Hebrew", "Noto Sans Arabic"], "\(families)")
    #expect(!shaped.out.contains("\"name\":\".notdef\""))
    let drawn = try swiftshape(
      ["render", "-O", "svg", "--font-file", Paths.latin, "--markup", "--text", text],
      environment: environment)
    #expect(drawn.status == 0, "\(drawn.err)")
    #expect(!drawn.out.contains("data-name=\".notdef\"") && drawn.out.contains("id=\"f2g"))
  }
}
