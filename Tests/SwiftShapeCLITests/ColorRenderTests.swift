import Foundation
import TestFixtures
import Testing

/// Color glyphs in `swiftshape render`: color bitmaps (`CBDT`) against pango-view (Debian's cairo
/// draws them in color), `COLR` layers against FreeType's own color rendering (through Python's
/// imaging library, `embedded_color`), COLR version 1 against blackrenderer, each cropped to its
/// ink: the same size within two pixels and under 3% of the pixels differing by more than a quarter
/// in a channel (at the best alignment within a pixel).
@Suite("swiftshape render: color glyphs")
struct ColorRenderTests {
  static let emoji = "😀👍🏽🏳️‍🌈👩‍💻"
  static let layers = "render/fonts/ColorLayers-Test.ttf"
  static let pangoView = HarfBuzzTools.find("pango-view")

  static let compareScript = """
    import sys
    from PIL import Image, ImageChops
    def ink(path):
        image = Image.open(path).convert('RGBA')
        white = Image.new('RGBA', image.size, (255, 255, 255, 255))
        white.alpha_composite(image)
        image = white.convert('RGB')
        mask = ImageChops.difference(image, Image.new('RGB', image.size, 'white')).convert('L')
        return image.crop(mask.point(lambda v: 255 if v > 32 else 0).getbbox())
    a, b = ink(sys.argv[1]), ink(sys.argv[2])
    print(a.size[0], a.size[1], b.size[0], b.size[1], end=' ')
    w, h = min(a.size[0], b.size[0]), min(a.size[1], b.size[1])
    # Ink boxes a pixel apart (edge antialiasing) shift everything: the best of the nine
    # alignments within a pixel counts.
    best = 1.0
    for dx in (0, 1):
        for dy in (0, 1):
            for first, second in ((a, b), (b, a)):
                if first.size[0] < w + dx or first.size[1] < h + dy:
                    continue
                diff = ImageChops.difference(first.crop((dx, dy, dx + w, dy + h)), second.crop((0, 0, w, h)))
                best = min(best, sum(1 for pixel in diff.getdata() if max(pixel) > 64) / float(w * h))
    print(best)
    """

  static func compare(_ first: String, _ second: String) throws -> (Int, Int, Int, Int, Double) {
    let result = try run(Raster.python, ["-c", compareScript, first, second])
    let parts = result.out.split(separator: " ").map {
      Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }
    try #require(parts.count == 5, "compare: \(result.err)")
    return (Int(parts[0]), Int(parts[1]), Int(parts[2]), Int(parts[3]), parts[4])
  }

  /// Debian's pango-view draws a bitmap font's strike at its own size (109 pixels an em for Noto
  /// Color Emoji) whatever size is asked, so the comparison is at that size; a ZWJ sequence (👩‍💻),
  /// a flag sequence and a skin tone are among the emoji. PNG output and the SVG (drawn by
  /// rsvg-convert) both.
  @Test(
    .enabled(if: Raster.available && pangoView != nil, "pango-view, rsvg-convert or python3-pil is missing"))
  func colorBitmapsMatchPangoView() throws {
    let folder = try RenderTests.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let pango = folder.appendingPathComponent("pango.png").path
    let reference = try run(
      Self.pangoView!, ["--dpi=72", "--font=Noto Color Emoji 109", "--text", Self.emoji, "-q", "-o", pango],
      environment: ["FONTCONFIG_FILE": Paths.fontconfigFile])
    try #require(reference.status == 0, "pango-view: \(reference.err)")
    let png = folder.appendingPathComponent("ours.png").path
    let svg = folder.appendingPathComponent("ours.svg").path
    let args = [
      "render", "--font-file", "fonts/NotoColorEmoji-Subset.ttf", "--text", Self.emoji, "--em-pixels", "109",
    ]
    #expect(try swiftshape(args + ["-o", png]).status == 0)
    #expect(try swiftshape(args + ["-o", svg]).status == 0)
    let svgPNG = try Raster.png(try String(contentsOfFile: svg, encoding: .utf8), "svg", in: folder)
    for ours in [png, svgPNG] {
      let (w1, h1, w2, h2, difference) = try Self.compare(ours, pango)
      #expect(abs(w1 - w2) <= 2 && abs(h1 - h2) <= 2, "ink \(w1)×\(h1) against pango-view's \(w2)×\(h2)")
      #expect(difference < 0.03, "\(difference * 100)% of the pixels differ")
    }
    // Scaled to 48 pixels an em, the ink scales with it.
    let small = folder.appendingPathComponent("small.png").path
    #expect(try swiftshape(args.dropLast(2) + ["--em-pixels", "48", "-o", small]).status == 0)
    let (w, h, referenceWidth, referenceHeight, _) = try Self.compare(small, pango)
    #expect(abs(Double(w) - Double(referenceWidth) * 48 / 109) <= 2)
    #expect(abs(Double(h) - Double(referenceHeight) * 48 / 109) <= 2)
  }

  /// COLR version 0 layers in their palette colors, against FreeType's color rendering.
  @Test(.enabled(if: Raster.available, "python3-pil is missing"))
  func colorLayersMatchFreeType() throws {
    let folder = try RenderTests.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let ours = folder.appendingPathComponent("ours.png").path
    let theirs = folder.appendingPathComponent("theirs.png").path
    #expect(
      try swiftshape([
        "render", "--font-file", Self.layers, "--text", "ABcA", "--em-pixels", "64", "-o", ours,
      ])
      .status == 0)
    let reference = try run(
      Raster.python,
      [
        "-c",
        """
        import sys
        from PIL import Image, ImageDraw, ImageFont
        font = ImageFont.truetype(sys.argv[1], 64)
        image = Image.new('RGBA', (400, 120), 'white')
        ImageDraw.Draw(image).text((20, 20), 'ABcA', font=font, fill='black', embedded_color=True)
        image.save(sys.argv[2])
        """,
        Repository.fixtures.appendingPathComponent(Self.layers).path, theirs,
      ])
    try #require(reference.status == 0, "\(reference.err)")
    let (w1, h1, w2, h2, difference) = try Self.compare(ours, theirs)
    #expect(abs(w1 - w2) <= 2 && abs(h1 - h2) <= 2, "ink \(w1)×\(h1) against FreeType's \(w2)×\(h2)")
    #expect(difference < 0.03, "\(difference * 100)% of the pixels differ")
  }

  /// The command the README gives: a paragraph in `sans` whose emoji come from the color emoji
  /// font by fallback, as PNG: the emoji are in color.
  @Test(.enabled(if: Raster.available, "python3-pil is missing"))
  func paragraphWithEmojiIsInColor() throws {
    let folder = try RenderTests.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("out.png").path
    let result = try swiftshape(
      ["render", "--paragraph", "--font", "sans", "Emoji 😀👩‍💻 and text", "-o", out],
      environment: ["FONTCONFIG_FILE": Paths.fontconfigFile])
    try #require(result.status == 0, "\(result.err)")
    let colored = try run(
      Raster.python,
      [
        "-c",
        "import sys\nfrom PIL import Image\nimage = Image.open(sys.argv[1]).convert('RGB')\n"
          + "print(sum(1 for p in image.getdata() if max(p) - min(p) > 60))",
        out,
      ])
    // Two emoji of about 250 pixels square each at 256 pixels an em: tens of thousands of colored
    // pixels; the text is black on white.
    #expect((Int(colored.out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 20_000)
  }

  /// COLR version 1: one glyph for each kind of paint (solid; linear, radial and sweep gradients
  /// with pad, repeat and reflect; an affine transform, translate, scale, rotate and skew about
  /// centers; composites; layers; a glyph of another; the foreground color), each against
  /// blackrenderer's picture of it (`Fixtures/render/colrv1/`, recorded by `record.py` there), as
  /// PNG and as SVG (which embeds a picture of the glyph, drawn by rsvg-convert).
  @Test(
    .enabled(if: Raster.available, "rsvg-convert or python3-pil is missing"),
    arguments: Array("abcdefghijklmno"))
  func paintGraphsMatchBlackrenderer(_ letter: Character) throws {
    let folder = try RenderTests.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let reference = Repository.fixtures.appendingPathComponent("render/colrv1/\(letter).png").path
    let png = folder.appendingPathComponent("ours.png").path
    let args = [
      "render", "--font-file", "render/fonts/ColorPaints-Test.ttf", "--text", String(letter), "--em-pixels",
      "64",
    ]
    #expect(try swiftshape(args + ["-o", png]).status == 0)
    let svg = try swiftshape(args + ["-O", "svg"])
    #expect(svg.out.contains("data:image/png;base64,"))
    let svgPNG = try Raster.png(svg.out, "svg", in: folder)
    for ours in [png, svgPNG] {
      let (w1, h1, w2, h2, difference) = try Self.compare(ours, reference)
      #expect(
        abs(w1 - w2) <= 2 && abs(h1 - h2) <= 2,
        "\(letter): ink \(w1)×\(h1) against blackrenderer's \(w2)×\(h2)")
      #expect(difference < 0.03, "\(letter): \(difference * 100)% of the pixels differ")
    }
  }

  /// `--palette 1` takes the second palette's colors; `--no-color` draws the outlines in the
  /// foreground color; a palette past the font's is an error.
  /// On engines with them (recent HarfBuzz releases), hb-raster and hb-vector draw color glyphs
  /// through HarfBuzz's own paint API: a second oracle, independent of SwiftShape's `COLR` reader.
  /// Layers (`COLR` version 0) and every paint graph of the test font (version 1), as PNG against
  /// hb-raster and as SVG against hb-vector (both drawn by rsvg-convert), at the same size.
  ///
  /// One listed difference: hb-vector 15.0.0 draws the source-in composite (`k`) as the source
  /// over the backdrop (SVG has no such operator; hb-raster, blackrenderer and SwiftShape keep the
  /// source inside the backdrop only), so `k` is compared with hb-raster alone.
  @Test(
    .enabled(if: Raster.available, "rsvg-convert or python3-pil is missing"),
    .enabled(
      if: HarfBuzzTools.engineTool("hb-raster") != nil && HarfBuzzTools.engineTool("hb-vector") != nil,
      "the running engine has no hb-raster and hb-vector"),
    arguments: [
      (layers, "ABcA"), ("render/fonts/ColorPaints-Test.ttf", "abcdefgh"),
      ("render/fonts/ColorPaints-Test.ttf", "ijklmno"),
    ])
  func colorGlyphsMatchTheEnginesPainter(_ font: String, _ text: String) throws {
    let folder = try RenderTests.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let tools = HarfBuzzTools.engineTool("hb-raster")!.deletingLastPathComponent()
    for (tool, format, drawn) in [
      ("hb-raster", "png", text), ("hb-vector", "svg", text.filter { $0 != "k" }),
    ] {
      let arguments = ["--font-file", font, "--text", drawn]
      let theirs = folder.appendingPathComponent("\(tool).\(format)").path
      let reference = try run(
        tools.appendingPathComponent(tool), arguments + ["--font-size", "64", "-o", theirs])
      try #require(reference.status == 0, "\(tool): \(reference.err)")
      let ours = folder.appendingPathComponent("ours.\(format)").path
      let result = try swiftshape(["render"] + arguments + ["--em-pixels", "64", "-o", ours])
      #expect(result.status == 0, "\(result.err)")
      let (first, second) =
        format == "png"
        ? (ours, theirs)
        : (
          try Raster.png(try String(contentsOfFile: ours, encoding: .utf8), "ours-svg", in: folder),
          try Raster.png(try String(contentsOfFile: theirs, encoding: .utf8), "theirs-svg", in: folder)
        )
      let (w1, h1, w2, h2, difference) = try Self.compare(first, second)
      #expect(
        abs(w1 - w2) <= 2 && abs(h1 - h2) <= 2, "\(drawn): ink \(w1)×\(h1) against \(tool)'s \(w2)×\(h2)")
      #expect(difference < 0.03, "\(drawn): \(difference * 100)% of the pixels differ from \(tool)'s")
    }
  }

  @Test func palettesAndNoColor() throws {
    let args = ["render", "--font-file", Self.layers, "--text", "AB", "-O", "svg"]
    let first = try swiftshape(args)
    #expect(first.out.contains(##"<path fill="#FF0000""##) && first.out.contains(##"<path fill="#0000FF""##))
    let second = try swiftshape(args + ["--palette", "1"])
    #expect(
      second.out.contains(##"<path fill="#009900""##) && second.out.contains(##"<path fill="#FF8000""##))
    #expect(!second.out.contains("#FF0000"))
    let plain = try swiftshape(args + ["--no-color"])
    #expect(!plain.out.contains("<path fill=") && plain.out.contains(#"<path id="g2""#))
    let past = try swiftshape(args + ["--palette", "2"])
    #expect(
      past.status == 64 && past.err == "swiftshape: error: --palette=2: the font has 2 palettes (0 to 1)\n")
    let none = try swiftshape([
      "render", "--font-file", "fonts/NotoSans-Latin.ttf", "--text", "a", "--palette", "1",
    ])
    #expect(none.status == 64 && none.err.contains("the font has no palettes"))
  }

  /// A damaged bitmap table: each glyph FreeType cannot read is a box, with a note naming it; the
  /// rest is drawn, and the exit status is 0.
  @Test func damagedColorBitmapsAreBoxesWithANote() throws {
    var font = try Data(
      contentsOf: Repository.fixtures.appendingPathComponent("fonts/NotoColorEmoji-Subset.ttf"))
    let tables = Int(font[4]) << 8 | Int(font[5])
    for index in 0..<tables {
      let record = 12 + 16 * index
      guard String(decoding: font[record..<record + 4], as: UTF8.self) == "CBDT" else { continue }
      func u32(_ at: Int) -> Int { font[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
      let (offset, length) = (u32(record + 8), u32(record + 12))
      font.replaceSubrange((offset + 4)..<(offset + length), with: repeatElement(0xFF, count: length - 4))
    }
    let folder = try RenderTests.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let damaged = folder.appendingPathComponent("damaged.ttf")
    try font.write(to: damaged)
    for format in ["svg", "png"] {
      let result = try swiftshape(["render", "--font-file", damaged.path, "--text", "😀👍", "-O", format])
      #expect(result.status == 0)
      #expect(
        result.err.hasSuffix("glyph 13 has color data FreeType cannot read; drawn as a box\n"),
        "\(result.err)")
      #expect(!result.stdout.isEmpty)
    }
  }
}
