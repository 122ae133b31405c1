import Foundation
import TestFixtures
import Testing

/// `render --trace`: the trace page has a row for each step of `shape --trace` that changed the
/// glyphs (another count, or a cluster holding other glyphs or positions), the others folded; in
/// headless Chromium, selecting a glyph shows its details and marks its characters.
@Suite("Trace page")
struct TracePageTests {
  static let cases: [(font: String, text: String, features: [String])] = [
    (Paths.latin, "Ta office", ["'liga'", "'kern'"]),
    (Paths.arabic, "بِسْمِ اللَّهِ", ["'init'", "'mark'"]),
    (Paths.devanagari, "क्षत्रिय", ["'half'", "'pres'"]),
  ]

  /// The steps of `shape --trace -O json` that changed the glyphs, counted from its JSON.
  static func changingSteps(font: String, text: String) throws -> Int {
    let result = try swiftshape(["shape", "--trace", "-O", "json", "--font-file", font, text])
    #expect(result.status == 0, "\(result.err)")
    let json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
    let entry = (json?["results"] as? [[String: Any]])?.first ?? [:]
    let events = entry["trace"] as? [[String: Any]] ?? []
    // (The first steps hold code points, under `codepoints`.)
    func summary(_ event: [String: Any]) -> (count: Int, positioned: Bool, clusters: [Int: [String]]) {
      let glyphs = event["glyphs"] as? [[String: Any]] ?? event["codepoints"] as? [[String: Any]] ?? []
      let positioned = glyphs.first?["x_advance"] != nil || glyphs.first?["codepoint"] != nil
      var clusters: [Int: [String]] = [:]
      for glyph in glyphs {
        let keys = ["id", "codepoint", "x_advance", "y_advance", "x_offset", "y_offset"]
        let key = keys.map { "\(glyph[$0] ?? "-")" }.joined(separator: ",")
        clusters[glyph["cluster"] as? Int ?? -1, default: []].append(key)
      }
      return (glyphs.count, positioned, clusters)
    }
    var count = 0
    var previous: (count: Int, positioned: Bool, clusters: [Int: [String]])?
    for event in events {
      let now = summary(event)
      if previous == nil || previous!.count != now.count || previous!.positioned != now.positioned
        || previous!.clusters != now.clusters
      {
        count += 1
      }
      previous = now
    }
    return count
  }

  static func page(font: String, text: String) throws -> String {
    let result = try swiftshape(["render", "--trace", "--font-file", font, "--text", text])
    #expect(result.status == 0, "\(result.err)")
    return result.out
  }

  /// A row for each changing step, the lookups named by their features; the result drawn.
  @Test(arguments: cases)
  func aRowForEachStepThatChangedTheGlyphs(font: String, text: String, features: [String]) throws {
    let page = try Self.page(font: font, text: text)
    let rows = page.components(separatedBy: "<div class=\"step\"").count - 1
    #expect(rows == (try Self.changingSteps(font: font, text: text)))
    #expect(rows > 2)
    for feature in features { #expect(page.contains("feature \(feature)"), "\(feature)") }
    #expect(page.contains("data-folded"))
    #expect(page.contains("<h2>Result</h2>") && page.contains("data-annotation") || page.contains("baseline"))
    #expect(!page.contains("http://") || page.contains("xmlns=\"http://www.w3.org/2000/svg\""))
  }

  /// Lookups are named where the font has a `Debg` table (fontTools' feaLib), and only there.
  @Test func lookupsAreNamedFromTheDebgTable() throws {
    let named = try Self.page(font: "\(Paths.fixtures)/trace/NotoSans-Debg.ttf", text: "Ta office")
    #expect(named.contains("start lookup 0 feature 'liga' (FFI_LIGATURE)"))
    #expect(named.contains("start lookup 0 feature 'kern' (KERN_T_A)"))
    let plain = try Self.page(font: Paths.latin, text: "Ta office")
    #expect(plain.contains("feature 'liga'</span>"))
  }

  /// A paragraph's page has a section a run, in the text's order, headed by its font, level and
  /// script, each with rows drawn with its own font.
  @Test func paragraphsHaveASectionPerRun() throws {
    let options = ["--paragraph", "--font-file", Paths.latin, "--fallback-font-file", Paths.hebrew]
    let text = "Hello שלום world"
    let page = try swiftshape(["render", "--trace", "--text", text] + options)
    #expect(page.status == 0, "\(page.err)")
    let shaped = try swiftshape(["shape", "-O", "json", text] + options)
    let json = try JSONSerialization.jsonObject(with: shaped.stdout) as? [String: Any]
    let runs = ((json?["results"] as? [[String: Any]])?.first?["runs"] as? [[String: Any]] ?? [])
      .sorted { ($0["range"] as? [Int])?.first ?? 0 < ($1["range"] as? [Int])?.first ?? 0 }
    let headings = page.out.components(separatedBy: "<h2>Run ").dropFirst().map { $0.prefix { $0 != "<" } }
    #expect(headings.count == runs.count && runs.count > 2)
    for (heading, run) in zip(headings, runs) {
      #expect(heading.contains(", \(run["script"] as? String ?? "?"), \(run["direction"] as? String ?? "?")"))
    }
    #expect(page.out.contains("Noto Sans Hebrew, level 1"))
    let sections = page.out.components(separatedBy: "<section class=\"steps\"").dropFirst()
    #expect(sections.count == runs.count && sections.allSatisfy { $0.contains("class=\"step\"") })
  }

  /// Bad input: an empty text gives a page that says so; two lines of text, or another format,
  /// are one-line errors.
  @Test func emptyTextAndBadOptions() throws {
    let empty = try swiftshape(["render", "--trace", "--font-file", Paths.latin, "--text", ""])
    #expect(empty.status == 0 && empty.out.contains("No shaping steps to show"))
    let two = try swiftshape(["render", "--trace", "--font-file", Paths.latin], stdin: Data("a\nb\n".utf8))
    #expect(
      two.status == 64 && two.err.hasPrefix("swiftshape: error: --trace: the trace page draws one line"))
    let svg = try swiftshape(["render", "--trace", "-O", "svg", "--font-file", Paths.latin, "--text", "a"])
    #expect(svg.status == 64 && svg.err.contains("the trace page is HTML"))
  }

  /// Every `href="#…"` of the page names an element it defines: no glyph refers to an outline
  /// that is not there.
  static func referencesAreDefined(_ page: String) -> Bool {
    let ids = Set(page.components(separatedBy: " id=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) })
    let references = page.components(separatedBy: "href=\"#").dropFirst().map {
      String($0.prefix { $0 != "\"" })
    }
    return !references.isEmpty && references.allSatisfy(ids.contains)
  }

  /// A font without outlines (Noto Color Emoji's bitmaps): the page says so, and draws each such
  /// glyph of each step as a dashed box, referring to no outline it lacks.
  @Test func aFontWithoutOutlines() throws {
    let result = try swiftshape(["render", "--trace", "--font-file", Paths.emoji, "--text", "😀👍"])
    #expect(result.status == 0, "\(result.err)")
    let page = result.out
    #expect(page.contains("data-notice=\"no-outline\">2 glyphs have no outline in this font"))
    // Each row of glyphs (not the first steps', which hold code points, drawn as text) draws
    // dashed boxes, and no outline.
    let rows = page.components(separatedBy: "<div class=\"step\"").dropFirst()
      .map { $0.components(separatedBy: "</svg></div>").first ?? "" }
      .filter { !$0.contains("<text ") }
    #expect(!rows.isEmpty && rows.allSatisfy { $0.contains("class=\"no-outline\"") && !$0.contains("<use") })
    #expect(Self.referencesAreDefined(page))
    let outlined = try Self.page(font: Paths.latin, text: "Ta")
    #expect(!outlined.contains("data-notice") && Self.referencesAreDefined(outlined))
  }

  /// A paragraph with characters no font has: the page lists them (offsets in the cluster unit)
  /// and draws the runs' steps with `.notdef`.
  @Test func aParagraphWithMissingGlyphs() throws {
    let result = try swiftshape([
      "render", "--trace", "--paragraph", "--no-fallback", "--font-file", Paths.latin, "--text", "ab שלום",
    ])
    #expect(result.status == 0, "\(result.err)")
    #expect(
      result.out.contains(
        "data-notice=\"missing\">Not in any font, shaped as .notdef: U+05E9 at 3, U+05DC at 4, U+05D5 at 5, U+05DD at 6."
      ))
    #expect(result.out.contains("data-name=\".notdef\""))
    #expect(Self.referencesAreDefined(result.out))
  }

  /// The page as Chromium draws it, against the expected picture within a tolerance: the steps'
  /// drawings only (the labels, headings, folded steps and the result are left out, since their text is drawn with
  /// whatever fonts the machine has; the glyphs are the page's own outlines). The steps are the
  /// engine's, so each engine has its picture, `Fixtures/render/trace-steps-expected-harfbuzz-V.png`
  /// (recorded for 6.0.0 and 15.0.0; re-record with `SWIFTSHAPE_RECORD_GOLDEN=1`).
  @Test(
    .enabled(if: Chromium.path != nil && Raster.available, "chromium, rsvg-convert or python3-pil is absent"))
  func theStepsDrawAsExpected() throws {
    let result = try swiftshape([
      "render", "--trace", "--em-pixels", "48", "--font-file", Paths.latin, "--text", "Ta office",
    ])
    #expect(result.status == 0, "\(result.err)")
    let style = "<style>h1, h2, p, .label, details, #details, .result { display: none; }</style>"
    let page = result.out.replacingOccurrences(of: "</head>", with: style + "</head>")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swiftshape-trace-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let shot = folder.appendingPathComponent("steps.png").path
    guard try Chromium.screenshot(page, size: (900, 700), to: shot) else {
      print("skipped: chromium could not start")
      return
    }
    // The steps are the engine's: a picture for each engine recorded with.
    let expected = "\(Paths.fixtures)/render/trace-steps-expected-harfbuzz-\(HarfBuzzTools.engine).png"
    if recordingGolden {
      try? FileManager.default.removeItem(atPath: expected)
      try FileManager.default.copyItem(atPath: shot, toPath: expected)
      return
    }
    guard FileManager.default.fileExists(atPath: expected) else {
      print(
        "skipped: no expected picture for HarfBuzz \(HarfBuzzTools.engine) (record with SWIFTSHAPE_RECORD_GOLDEN=1)"
      )
      return
    }
    let (width, height, expectedWidth, expectedHeight, differing) = try Raster.compare(shot, expected)
    #expect(abs(width - expectedWidth) <= 2 && abs(height - expectedHeight) <= 2)
    #expect(differing < 0.02, "\(differing) of the pixels differ")
  }

  /// In Chromium: the page's rows are there once its script ran; clicking a glyph of the last row
  /// fills the details (ID, name, cluster, advances, offsets, flags) and marks its characters.
  @Test(
    .enabled(if: Chromium.path != nil, "chromium is not installed (apt-get install chromium)"),
    arguments: cases)
  func selectingAGlyphShowsItsDetails(font: String, text: String, features: [String]) throws {
    var page = try Self.page(font: font, text: text)
    let script = """
      <script>
      const steps = document.querySelectorAll(".step");
      const glyph = steps[steps.length - 1].querySelector("g[data-glyph]");
      glyph.dispatchEvent(new MouseEvent("click"));
      document.body.setAttribute("data-steps", String(steps.length));
      document.body.setAttribute("data-marked", String(document.querySelectorAll(".input span.marked").length));
      document.body.setAttribute("data-details", document.getElementById("details").textContent);
      </script>
      """
    page = page.replacingOccurrences(of: "</body>", with: script + "</body>")
    guard let steps = try Chromium.attribute("data-steps", of: page),
      let marked = try Chromium.attribute("data-marked", of: page),
      let details = try Chromium.attribute("data-details", of: page)
    else {
      print("skipped: chromium could not start")
      return
    }
    #expect(Int(steps) == (try Self.changingSteps(font: font, text: text)))
    #expect((Int(marked) ?? 0) > 0)
    for field in ["id ", "name ", "cluster ", "advance ", "offset ", "flags "] {
      #expect(details.contains(field))
    }
  }
}
