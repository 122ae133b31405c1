import Foundation
import TestFixtures
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// One render case of `Fixtures/render/cases.json`.
struct RenderCase: Decodable, CustomTestStringConvertible, Sendable {
  var name: String
  var args: [String]
  var testDescription: String { name }

  static let all: [RenderCase] = {
    let url = Repository.fixtures.appendingPathComponent("render/cases.json")
    guard let data = try? Data(contentsOf: url) else { return [] }
    return (try? JSONDecoder().decode([RenderCase].self, from: data)) ?? []
  }()

  var goldenURL: URL { Repository.fixtures.appendingPathComponent("render/\(name).svg") }
}

/// Compares rasterizations: rsvg-convert draws both SVGs, Python's imaging library crops each to its
/// ink and compares.
enum Raster {
  static let rsvg = HarfBuzzTools.find("rsvg-convert")
  static let hbView = HarfBuzzTools.hbView
  static let python = URL(fileURLWithPath: "/usr/bin/python3")
  static let available: Bool = {
    guard rsvg != nil, let check = try? run(python, ["-c", "import PIL"]) else { return false }
    return check.status == 0
  }()

  /// Rasterizes SVG text to a PNG file.
  static func png(_ svg: String, _ name: String, in folder: URL) throws -> String {
    let svgURL = folder.appendingPathComponent("\(name).svg")
    try Data(svg.utf8).write(to: svgURL)
    let pngPath = folder.appendingPathComponent("\(name).png").path
    // At 72 dpi a point is a pixel: hb-view sizes its SVGs in points, SwiftShape in pixels.
    let result = try run(rsvg!, ["--dpi-x", "72", "--dpi-y", "72", "-o", pngPath, svgURL.path])
    try #require(result.status == 0, "rsvg-convert: \(result.err)")
    return pngPath
  }

  static let compareScript = """
    import sys
    from PIL import Image, ImageChops
    def ink(path):
        image = Image.open(path).convert('L')
        box = ImageChops.invert(image).point(lambda v: 255 if v > 64 else 0).getbbox()
        return image.crop(box)
    a, b = ink(sys.argv[1]), ink(sys.argv[2])
    print(a.size[0], a.size[1], b.size[0], b.size[1], end=' ')
    w, h = min(a.size[0], b.size[0]), min(a.size[1], b.size[1])
    a, b = a.crop((0, 0, w, h)), b.crop((0, 0, w, h))
    diff = ImageChops.difference(a, b).point(lambda v: 255 if v > 96 else 0)
    print(sum(1 for v in diff.getdata() if v) / float(w * h))
    """

  /// The fraction of the pixels of `first` that differ in `second`, drawn from the same origin
  /// (`second` at least as large; the rest of it must be blank).
  static func compareAligned(_ first: String, _ second: String) throws -> Double {
    let script = """
      import sys
      from PIL import Image, ImageChops
      a, b = Image.open(sys.argv[1]).convert('L'), Image.open(sys.argv[2]).convert('L')
      rest = Image.new('L', b.size, 255)
      rest.paste(a, (0, 0))
      diff = ImageChops.difference(rest, b).point(lambda v: 255 if v > 96 else 0)
      print(sum(1 for v in diff.getdata() if v) / float(a.size[0] * a.size[1]))
      """
    let result = try run(python, ["-c", script, first, second])
    return try #require(
      Double(result.out.trimmingCharacters(in: .whitespacesAndNewlines)), "compare: \(result.err)")
  }

  /// The ink sizes of two PNGs and the fraction of their ink-cropped pixels that differ.
  static func compare(_ first: String, _ second: String) throws -> (Int, Int, Int, Int, Double) {
    let result = try run(python, ["-c", compareScript, first, second])
    let parts = result.out.split(separator: " ").map {
      Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }
    try #require(parts.count == 5, "compare: \(result.err)")
    return (Int(parts[0]), Int(parts[1]), Int(parts[2]), Int(parts[3]), parts[4])
  }
}

/// Set `SWIFTSHAPE_RECORD_GOLDEN=1` to rewrite the golden SVGs (see Fixtures/README.md).
@Suite("swiftshape render")
struct RenderTests {
  static func scratch() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swiftshape-render-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  @Test(arguments: RenderCase.all)
  func outputMatchesGoldenSVG(_ render: RenderCase) throws {
    let result = try swiftshape(["render"] + render.args)
    #expect(result.status == 0, "\(result.err)")
    if recordingGolden {
      try result.stdout.write(to: render.goldenURL, options: .atomic)
      return
    }
    let expected = try String(contentsOf: render.goldenURL, encoding: .utf8)
    #expect(result.out == expected, "\(render.name): re-record with SWIFTSHAPE_RECORD_GOLDEN=1")
  }

  @Test(arguments: RenderCase.all)
  func svgIsWellFormedXMLWithGlyphData(_ render: RenderCase) throws {
    let svg = try Data(contentsOf: render.goldenURL)
    final class Collector: NSObject, XMLParserDelegate {
      var uses: [[String: String]] = []
      var root: [String: String] = [:]
      func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
      ) {
        if element == "svg" { root = attributes }
        if attributes["data-gid"] != nil { uses.append(attributes) }
      }
    }
    let parser = XMLParser(data: svg)
    let collector = Collector()
    parser.delegate = collector
    #expect(parser.parse(), "\(render.name): \(parser.parserError.map { "\($0)" } ?? "")")
    #expect(collector.root["viewBox"] != nil)
    #expect(!collector.uses.isEmpty)
    #expect(collector.uses.allSatisfy { $0["data-name"] != nil && $0["data-cluster"] != nil })
  }

  @Test(
    .enabled(
      if: Raster.available && Raster.hbView != nil,
      "rsvg-convert, python3-pil or the running engine's hb-view is not installed"),
    arguments: RenderCase.all.filter { $0.name != "annotated" })
  func rasterMatchesHBView(_ render: RenderCase) throws {
    let folder = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let ours = try Raster.png(try String(contentsOf: render.goldenURL, encoding: .utf8), "ours", in: folder)
    let hbSVG = folder.appendingPathComponent("hb.svg").path
    let hb = try run(Raster.hbView!, render.args + ["-O", "svg", "-o", hbSVG])
    try #require(hb.status == 0, "hb-view: \(hb.err)")
    let theirs = try Raster.png(try String(contentsOfFile: hbSVG, encoding: .utf8), "theirs", in: folder)
    let (w1, h1, w2, h2, difference) = try Raster.compare(ours, theirs)
    #expect(
      abs(w1 - w2) <= 2 && abs(h1 - h2) <= 2, "\(render.name): ink \(w1)×\(h1) against hb-view's \(w2)×\(h2)")
    #expect(difference < 0.02, "\(render.name): \(difference * 100)% of the pixels differ")
  }

  @Test(.enabled(if: Raster.available, "rsvg-convert or python3-pil is not installed"))
  func wideItalicGlyphIsNotClippedAtMarginZero() throws {
    // Inter slanted: "f" leans past its advance on both sides.
    let arguments = [
      "render", "--font-file", "fonts/InterVariable-Subset.ttf", "--variations=slnt=-10", "--text", "ff",
    ]
    let folder = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let tight = try Raster.png(try swiftshape(arguments + ["--margin", "0"]).out, "tight", in: folder)
    let loose = try Raster.png(try swiftshape(arguments + ["--margin", "40"]).out, "loose", in: folder)
    let (w1, h1, w2, h2, difference) = try Raster.compare(tight, loose)
    #expect(w1 == w2 && h1 == h2, "the ink at margin 0 (\(w1)×\(h1)) is all the ink (\(w2)×\(h2))")
    #expect(difference < 0.01)
  }

  @Test func expectDrawsTheExpectedRunUnderTheResult() throws {
    let result = try swiftshape([
      "render", "--font-file", "fonts/NotoSans-Latin.ttf", "--expect", "[T=0+556|a=1+561]", "--text", "Ta",
    ])
    #expect(result.status == 0)
    #expect(result.out.contains("data-run=\"actual\"") && result.out.contains("data-run=\"expected\""))
    #expect(result.out.contains(">expected</text>"))
    let fromFixture = try swiftshape([
      "render", "--font-file", "fonts/NotoSans-Latin.ttf", "--expect",
      "fixtures/mismatches.json#wrong advance",
      "--text", "Ta",
    ])
    #expect(fromFixture.status == 0 && fromFixture.out.contains("data-run=\"expected\""))
    let bad = try swiftshape([
      "render", "--font-file", "fonts/NotoSans-Latin.ttf", "--expect", "[nosuchglyph]", "--text", "a",
    ])
    #expect(bad.status == 64 && bad.stdout.isEmpty && bad.err.contains("no glyph named nosuchglyph"))
  }

  @Test func colorsAndBackground() throws {
    let result = try swiftshape([
      "render", "--font-file", "fonts/NotoSans-Latin.ttf", "--foreground", "ff000080", "--background", "none",
      "--text", "a",
    ])
    #expect(result.out.contains("fill=\"#FF0000\" fill-opacity=\"0.5\""))
    #expect(!result.out.contains("<rect"))
    let bad = try swiftshape(["render", "--foreground", "red", "--text", "a"])
    #expect(bad.status == 64 && bad.err.contains("--foreground=red: not a color"))
  }

  @Test func builtInFontRenders() throws {
    let result = try swiftshape(["render", "Hello"])
    #expect(result.status == 0 && result.out.contains("data-name=\"H\""))
  }
}

/// `render --paragraph` draws a paragraph's runs in visual order, as `shape --paragraph` gives them.
@Suite("render --paragraph")
struct ParagraphRenderTests {
  @Test func glyphsAreDrawnInVisualOrder() throws {
    let text = "Hello שלום 123 مرحبا!"
    let svg = try swiftshape(["render", "--paragraph", "--text", text])
    #expect(svg.status == 0, "\(svg.err)")
    let drawn = svg.out.components(separatedBy: "data-cluster=\"").dropFirst().compactMap {
      Int($0.prefix { $0 != "\"" })
    }
    #expect(drawn == [0, 1, 2, 3, 4, 5, 19, 18, 17, 16, 15, 14, 11, 12, 13, 10, 9, 8, 7, 6, 20])
    let shaped = try swiftshape(["-O", "text", "--paragraph", "--text", text]).out
    // Each glyph is `name=cluster+advance`.
    let clusters = shaped.components(separatedBy: "=").dropFirst().compactMap {
      Int($0.prefix { $0.isNumber })
    }
    #expect(clusters == drawn)
  }
}
