import Foundation
import TestFixtures
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// The SVG's text layer: each cluster's characters as transparent text over its glyphs, in the
/// text's order, so that the document's text is the input's; `--no-text-layer` leaves it out.
@Suite("SVG text layer")
struct SVGTextLayerTests {
  /// The document's title and the text of each line's `<text data-layer="text">`, read as a DOM
  /// reads them (XMLParser); the `<tspan>`s' widths.
  final class Reader: NSObject, XMLParserDelegate {
    var title = ""
    var lines: [String] = []
    var widths: [Double] = []
    private var inTitle = false
    private var inLayer = false

    func parser(
      _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      if element == "title" { inTitle = true }
      if element == "text", attributes["data-layer"] == "text" {
        inLayer = true
        lines.append("")
      }
      if element == "tspan", inLayer { widths.append(Double(attributes["textLength"] ?? "0") ?? 0) }
    }

    func parser(
      _ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?
    ) {
      if element == "title" { inTitle = false }
      if element == "text" { inLayer = false }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
      if inTitle { title += string }
      if inLayer { lines[lines.count - 1] += string }
    }
  }

  static func read(_ svg: Data) throws -> Reader {
    let reader = Reader()
    let parser = XMLParser(data: svg)
    parser.delegate = reader
    try #require(parser.parse(), "not well-formed: \(parser.parserError.map { "\($0)" } ?? "")")
    return reader
  }

  /// Latin with ligatures and entities, Arabic with marks, Devanagari conjuncts, mixed directions;
  /// plain, in a paragraph broken to a width, and several lines of input: the layer's text is the
  /// input, line by line.
  @Test(arguments: [
    (Paths.latin, "office & <tea> \"affine\"", [String]()),
    (Paths.arabic, "بِسْمِ اللَّهِ الرَّحْمَٰنِ", []),
    (Paths.devanagari, "क्षत्रिय नमस्ते", []),
    (Paths.latin, "A paragraph long enough to be broken into lines.", ["--paragraph", "--width", "200"]),
  ])
  func theLayersTextIsTheInput(font: String, text: String, options: [String]) throws {
    let result = try swiftshape(["render", "--font-file", font, "--text", text, "-O", "svg"] + options)
    #expect(result.status == 0, "\(result.err)")
    let reader = try Self.read(result.stdout)
    #expect(reader.title == text)
    #expect(reader.lines.joined() == text)
    if options.isEmpty { #expect(reader.lines.count == 1) } else { #expect(reader.lines.count > 1) }
    #expect(reader.widths.allSatisfy { $0 >= 0 } && reader.widths.contains { $0 > 0 })
    let bare = try swiftshape(
      ["render", "--font-file", font, "--text", text, "-O", "svg", "--no-text-layer"] + options)
    let none = try Self.read(bare.stdout)
    #expect(none.title.isEmpty && none.lines.isEmpty)
  }

  /// Several lines of input: a line of the layer each, the title the lines; a control character
  /// (which XML may not hold) becomes U+FFFD, and the document stays well-formed.
  @Test func linesOfInputAndControlCharacters() throws {
    let input = "first line\nsecond \u{1}line\n"
    let result = try swiftshape(["render", "--font-file", Paths.latin, "-O", "svg"], stdin: Data(input.utf8))
    #expect(result.status == 0, "\(result.err)")
    let reader = try Self.read(result.stdout)
    #expect(reader.lines == ["first line", "second \u{FFFD}line"])
    #expect(reader.title == "first line\nsecond \u{FFFD}line")
    let png = try swiftshape([
      "render", "--font-file", Paths.latin, "--text", "a", "-O", "png", "--no-text-layer",
    ])
    #expect(png.status == 64 && png.err.contains("--no-text-layer"))
  }
}

/// The text layer in a real browser: headless Chromium (Debian's `chromium`) opens the SVG inside
/// a page whose script selects all of it; the selection's text is the input (Chromium ends each
/// line of the layer with a newline).
@Suite(
  "SVG text layer in Chromium",
  .enabled(if: Chromium.path != nil, "chromium is not installed (apt-get install chromium)"))
struct SVGTextLayerChromiumTests {
  @Test(arguments: [
    (Paths.latin, "office & <tea> \"affine\"", [String]()),
    (Paths.arabic, "سلام عليكم مرحبا بالعالم", ["--paragraph", "--width", "200"]),
    (Paths.devanagari, "क्षत्रिय नमस्ते", []),
  ])
  func selectingAllGivesTheInput(font: String, text: String, options: [String]) throws {
    let result = try swiftshape(["render", "--font-file", font, "--text", text, "-O", "svg"] + options)
    #expect(result.status == 0, "\(result.err)")
    let svg = result.out.split(separator: "\n", maxSplits: 1).last.map(String.init) ?? ""
    let script = """
      const s = getSelection(); s.removeAllRanges(); const r = document.createRange();
      r.selectNodeContents(document.querySelector("svg")); s.addRange(r);
      document.body.setAttribute("data-selection", s.toString());
      """
    guard
      let selection = try Chromium.attribute(
        "data-selection", of: "<!doctype html><html><body>\(svg)<script>\(script)</script></body></html>")
    else {
      print("skipped: chromium could not start")
      return
    }
    #expect(selection.replacingOccurrences(of: "\n", with: "") == text)
    #expect(options.isEmpty == !selection.contains("\n"))
  }
}

/// The text layer where the browser lays it: each cluster's text over its glyphs, in its direction
/// and language.
@Suite(
  "SVG text layer laid out by Chromium",
  .enabled(if: Chromium.path != nil, "chromium is not installed (apt-get install chromium)"))
struct SVGTextLayerPlacementTests {
  /// The span of pen positions each cluster's glyphs take, in the text's order, from `shape`'s
  /// advances (y down, as the SVG's), with its run's direction: what the layer's text must cover.
  static func clusterSpans(font: String, text: String, options: [String]) throws -> [(
    span: ClosedRange<Double>, direction: String
  )] {
    let result = try swiftshape(["shape", "--font-file", font, "--text", text, "-O", "jsonl"] + options)
    let document = try #require(
      try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], "\(result.err)")
    let results = try #require(document["results"] as? [[String: Any]])
    let line = try #require(results.first)
    let runs = line["runs"] as? [[String: Any]] ?? [line]
    let vertical = options.contains("ttb")
    var spans: [Int: (span: ClosedRange<Double>, direction: String)] = [:]
    var pen = 0.0
    for run in runs {
      let direction = try #require(run["direction"] as? String)
      for glyph in try #require(run["glyphs"] as? [[String: Any]]) {
        let cluster = try #require(glyph["cluster"] as? Int)
        let advance = try #require(glyph[vertical ? "y_advance" : "x_advance"] as? Double)
        let next = vertical ? pen - advance : pen + advance
        var span = min(pen, next)...max(pen, next)
        if let known = spans[cluster]?.span {
          span = min(known.lowerBound, span.lowerBound)...max(known.upperBound, span.upperBound)
        }
        spans[cluster] = (span, direction == "ttb" ? "ltr" : direction)
        pen = next
      }
    }
    return spans.keys.sorted().map { spans[$0]! }
  }

  /// Chromium's box of each `<tspan>` (`getBBox`, along the line) equals its cluster's span within
  /// a unit; the computed direction of each is its run's, and the language its run's. (The texts
  /// have no marks: the browser draws the layer with a font of its own, whose marks may stand
  /// past the box.)
  @Test(arguments: [
    (Paths.latin, "office affine", ["--language", "en"]),
    (Paths.arabic, "سلام عليكم", ["--language", "fa"]),
    (Paths.hebrew, "שלום עולם", ["--language", "he"]),
    (Paths.cjkCollection, "テキスト", ["--direction", "ttb", "--language", "ja"]),
    (
      Paths.latin, "office שלום affine",
      ["--paragraph", "--fallback-font-file", Paths.hebrew, "--language", "en"]
    ),
    (
      Paths.hebrew, "שלום office עולם",
      ["--paragraph", "--fallback-font-file", Paths.latin, "--language", "he"]
    ),
  ])
  func eachClustersTextLiesOverItsGlyphs(font: String, text: String, options: [String]) throws {
    let expected = try Self.clusterSpans(font: font, text: text, options: options)
    let result = try swiftshape(["render", "--font-file", font, "--text", text, "-O", "svg"] + options)
    #expect(result.status == 0, "\(result.err)")
    let svg = result.out.split(separator: "\n", maxSplits: 1).last.map(String.init) ?? ""
    let vertical = options.contains("ttb")
    let script = """
      const out = [];
      for (const t of document.querySelectorAll("tspan")) {
        const b = t.getBBox(), s = getComputedStyle(t);
        const [from, length] = \(vertical ? "[b.y, b.height]" : "[b.x, b.width]");
        out.push([from, from + length, s.direction, t.closest("text").getAttribute("xml:lang")].join(" "));
      }
      document.body.setAttribute("data-boxes", out.join("|"));
      """
    guard
      let boxes = try Chromium.attribute(
        "data-boxes", of: "<!doctype html><html><body>\(svg)<script>\(script)</script></body></html>")
    else {
      print("skipped: chromium could not start")
      return
    }
    let rows = boxes.split(separator: "|").map { $0.split(separator: " ").map(String.init) }
    #expect(rows.count == expected.count, "\(boxes)")
    #expect(Set(expected.map(\.direction)).count == (options.contains("--paragraph") ? 2 : 1))
    for (row, (span, direction)) in zip(rows, expected) {
      let (from, to) = (Double(row[0]) ?? .nan, Double(row[1]) ?? .nan)
      #expect(abs(from - span.lowerBound) <= 1 && abs(to - span.upperBound) <= 1, "\(row) against \(span)")
      #expect(row[2] == direction)
      #expect(row.count > 3 && row[3] == options.last)
    }
  }
}

/// The SVG as Chromium draws it against the PNG `render` draws with FreeType, pixel for pixel from
/// the same origin within a tolerance (antialiasing): the same glyphs in the same places, and the
/// text layer unseen.
@Suite(
  "SVG drawn by Chromium",
  .enabled(if: Chromium.path != nil && Raster.available, "chromium, rsvg-convert or python3-pil is absent"))
struct SVGChromiumScreenshotTests {
  @Test(arguments: [
    (Paths.latin, "Ta office affine", [String]()),
    (Paths.arabic, "بِسْمِ اللَّهِ الرَّحْمَٰنِ", []),
    (Paths.devanagari, "क्षत्रिय नमस्ते", []),
    (Paths.latin, "A paragraph long enough to be broken.", ["--paragraph", "--width", "300"]),
  ])
  func theSVGDrawsAsItsPNG(font: String, text: String, options: [String]) throws {
    let common = ["render", "--font-file", font, "--text", text, "--em-pixels", "48"] + options
    let svg = try swiftshape(common + ["-O", "svg"])
    #expect(svg.status == 0, "\(svg.err)")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swiftshape-svg-shot-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let png = folder.appendingPathComponent("render.png").path
    let drawn = try swiftshape(common + ["-O", "png", "-o", png])
    #expect(drawn.status == 0, "\(drawn.err)")
    let body = svg.out.split(separator: "\n", maxSplits: 1).last.map(String.init) ?? ""
    let page = "<!doctype html><html><body style=\"margin:0\">\(body)</body></html>"
    let shot = folder.appendingPathComponent("chromium.png").path
    guard try Chromium.screenshot(page, size: (1400, 600), to: shot) else {
      print("skipped: chromium could not start")
      return
    }
    // (The page is larger than the picture: beyond it, the page must be blank.)
    let differing = try Raster.compareAligned(png, shot)
    #expect(differing < 0.005, "\(differing) of the pixels differ")
  }
}

/// Headless Chromium: a page's DOM after its scripts ran.
enum Chromium {
  static let path = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// Runs headless Chromium on `page` (written to a file in a folder of its own, with its
  /// profile) with `arguments` before the page's URL; nil when it is not installed.
  private static func open(_ page: String, _ arguments: [String]) throws -> (status: Int32, out: String)? {
    guard let path else { return nil }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swiftshape-chromium-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("page.html")
    try Data(page.utf8).write(to: file)
    let result = try run(
      URL(fileURLWithPath: path),
      ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(folder.path)/profile"] + arguments
        + [file.absoluteString])
    return (result.status, result.out)
  }

  /// Draws the page in a window of `size` pixels into a PNG at `path`; false when Chromium could
  /// not start.
  static func screenshot(_ page: String, size: (Int, Int), to path: String) throws -> Bool {
    let result = try open(
      page,
      [
        "--hide-scrollbars", "--force-device-scale-factor=1", "--window-size=\(size.0),\(size.1)",
        "--screenshot=\(path)",
      ])
    return result?.status == 0 && FileManager.default.fileExists(atPath: path)
  }

  /// The value of `attribute` on the page's `<body>` after its scripts ran; nil when Chromium
  /// could not start.
  static func attribute(_ attribute: String, of page: String) throws -> String? {
    guard let result = try open(page, ["--dump-dom"]) else { return nil }
    guard result.status == 0, let range = result.out.range(of: "\(attribute)=\"") else { return nil }
    let rest = result.out[range.upperBound...]
    guard let end = rest.firstIndex(of: "\"") else { return nil }
    return String(rest[..<end]).replacingOccurrences(of: "&lt;", with: "<")
      .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
      .replacingOccurrences(of: "&amp;", with: "&")
  }
}
