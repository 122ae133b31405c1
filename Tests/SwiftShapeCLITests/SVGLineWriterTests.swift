import Foundation
import HarfBuzz
import SwiftShape
import SwiftShapeRender
import TestFixtures
import Testing

/// The drawing of compact lines (`SVGRenderer.writeSVG(lines:options:jobs:to:)`, the render
/// command's path for plain text) writes the bytes of the plain drawing of the same results.
@Suite("Drawing compact lines")
struct SVGLineWriterTests {
  /// Both drawings of `lines` shaped with `options`, on `jobs` threads for the compact one.
  private func drawings(
    _ lines: [String], font path: String, options: ShapeOptions = ShapeOptions(),
    svg: SVGOptions = SVGOptions(), jobs: Int = 1
  ) throws -> (plain: [UInt8], compact: [UInt8], drawable: Bool) {
    let font = try ShapingFont(file: path)
    var named = options
    named.includeGlyphNames = true
    let results = try lines.map { try font.shape($0, options: named) }
    let plain = try SVGRenderer(font: font).svgBytes(results, options: svg)
    var unnamed = options
    unnamed.includeGlyphNames = false
    let compactLines = try lines.map { try SVGRenderer.drawingLines(of: font.shape($0, options: unnamed)) }
    let renderer = try SVGRenderer(font: font)
    let drawable =
      renderer.canDrawLines(shapedWith: options, options: svg) && !compactLines.contains { $0 == nil }
    var compact: [UInt8] = []
    renderer.writeSVG(lines: compactLines.flatMap { $0 ?? [] }, options: svg, jobs: jobs) {
      compact.append(contentsOf: $0)
    }
    return (plain, compact, drawable)
  }

  /// Latin with ligatures, kerning and spaces; Arabic with marks (offsets); Devanagari; empty
  /// lines; a character the font lacks (`.notdef`); on one thread and three.
  @Test(arguments: [1, 3])
  func sameBytesAsThePlainDrawing(jobs: Int) throws {
    let cases: [(String, [String])] = [
      (Paths.latin, ["office AVATAR", "", "  fine  ", "Ünïcödé 123 ☃"]),
      (Paths.arabic, ["مرحبا بالعالم", "كِتَابٌ"]),
      (Paths.devanagari, ["हिन्दी", "क्षत्रिय"]),
    ]
    for (font, lines) in cases {
      let (plain, compact, drawable) = try drawings(lines, font: font, jobs: jobs)
      #expect(drawable)
      #expect(compact == plain, "\(font)")
    }
  }

  /// Other looks: no background, a translucent foreground, a wide margin, a small em.
  @Test func sameBytesWithOtherOptions() throws {
    var svg = SVGOptions()
    svg.background = nil
    svg.foreground = "#10203080"
    svg.margin = 40
    svg.pixelsPerEm = 17
    let (plain, compact, _) = try drawings(["Hamburgefonstiv", "office"], font: Paths.latin, svg: svg)
    #expect(compact == plain)
  }

  /// A paragraph broken to a width draws a line each, at each line's x (centered here).
  @Test func sameBytesForLinesOfAParagraph() throws {
    var options = ShapeOptions()
    options.paragraph = .leftToRight
    options.lineWidth = 6000
    options.alignment = .center
    let text = "The quick brown fox jumps over the lazy dog, again and again, until the end of the line."
    let (plain, compact, drawable) = try drawings([text], font: Paths.latin, options: options, jobs: 2)
    #expect(drawable)
    #expect(compact == plain)
    #expect(String(decoding: compact, as: UTF8.self).components(separatedBy: "<g fill").count > 3)
  }

  /// A glyph with no outline (the not-found glyph set past the font's glyphs) is drawn as its
  /// advance box, as in the plain drawing.
  @Test func sameBytesForGlyphsWithoutOutlines() throws {
    var options = ShapeOptions()
    options.notFoundGlyph = 60_000
    let (plain, compact, _) = try drawings(["a☃b"], font: Paths.latin, options: options)
    #expect(compact == plain)
    #expect(String(decoding: compact, as: UTF8.self).contains("<rect x="))
  }

  /// What cannot be drawn this way says so: vertical text, a color font, fallback runs.
  @Test func declinesWhatItCannotDraw() throws {
    let font = try ShapingFont(file: Paths.cjkCollection)
    var vertical = ShapeOptions()
    vertical.direction = .topToBottom
    #expect(!(try SVGRenderer(font: font).canDrawLines(shapedWith: vertical, options: SVGOptions())))
    let emoji = try ShapingFont(file: Paths.emoji)
    #expect(!(try SVGRenderer(font: emoji).canDrawLines(shapedWith: ShapeOptions(), options: SVGOptions())))
    var noColor = SVGOptions()
    noColor.color = false
    #expect(try SVGRenderer(font: emoji).canDrawLines(shapedWith: ShapeOptions(), options: noColor))
    var annotated = SVGOptions()
    annotated.annotate = true
    #expect(!(try SVGRenderer(font: font).canDrawLines(shapedWith: ShapeOptions(), options: annotated)))
    let verticalResult = try font.shape("日本", options: vertical)
    #expect(SVGRenderer.drawingLines(of: verticalResult) == nil)
  }

  /// The benchmark corpus's English and Persian texts, whole, on two threads (skipped without
  /// `../shared`).
  @Test func sameBytesForTheCorpus() throws {
    guard let shared = Paths.shared else {
      print("skipped: ../shared is absent (the benchmark corpus)")
      return
    }
    let corpus = "\(shared)/corpus/harfbuzz-6.0.0-perf"
    for (font, text) in [
      ("Roboto-Regular.ttf", "en-thelittleprince.txt"), ("Amiri-Regular.ttf", "fa-thelittleprince.txt"),
    ] {
      let lines = try String(contentsOfFile: "\(corpus)/texts/\(text)", encoding: .utf8)
        .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      let (plain, compact, drawable) = try drawings(lines, font: "\(corpus)/fonts/\(font)", jobs: 2)
      #expect(drawable)
      #expect(compact == plain, "\(text)")
    }
  }
}

/// A `COLR` version 1 graph costlier than `SVGOptions.paintLimit` is left out, with a note, in PNG
/// and SVG alike; within the limit it is painted.
@Suite("Costly color paint graphs")
struct PaintLimitTests {
  @Test func costlyGraphsAreLeftOutWithANote() throws {
    let font = try ShapingFont(file: "\(Paths.fixtures)/render/fonts/ColorPaints-Test.ttf")
    let result = try font.shape("a")
    var options = SVGOptions()
    options.pixelsPerEm = 32
    options.background = nil
    let painted = try SVGRenderer(font: font)
    let full = try painted.image([result], options: options)
    #expect(painted.notes.isEmpty)
    #expect(full.pixels.contains { $0 != 0 })
    options.paintLimit = 1
    let limited = try SVGRenderer(font: font)
    let empty = try limited.image([result], options: options)
    _ = limited.svg([result], options: options)
    #expect(!empty.pixels.contains { $0 != 0 })
    #expect(limited.notes.count == 1)
    #expect(limited.notes.first?.contains("too costly to paint") == true)
  }
}
