import ArgumentParser
import HarfBuzz
import SwiftShape
import SwiftShapeCommandLine
import SwiftShapeFixtures
import SwiftShapeRender
import SwiftShapeRequests

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension SwiftShapeCommand {
  struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Shape text and draw it as SVG or PNG, with the font's outlines.",
      usage: "swiftshape render [<font-file>] [<text>] [<options>]",
      discussion: """
        Takes the shape command's font, text and shaping options; each input line is drawn below \
        the previous one (vertical text: in columns from right to left). --expect draws an \
        expected glyph run under the result, in hb-shape's text syntax ('[T=0+556|a=1+561]') or as \
        a case of a fixture file ('fixture.json#3'), so a failing expectation can be seen. PNG \
        (-O png, or an -o path ending in .png) is drawn with FreeType's antialiasing at \
        --em-pixels. On a terminal with no -o, the picture is shown in place (kitty's or iTerm2's \
        image protocol where the terminal says it has one, else colored half blocks) unless -O svg \
        asks for the SVG text.
        """ + RenderSettings.options.help() + Examples.render
    )

    /// The arguments, read by the options' declarations (see `OptionDeclaration`).
    @Argument(declaredBy: { RenderSettings.options.declarations.flatMap(\.names) })
    var arguments: [String] = []

    func run() throws { try RenderSettings.options.parse(arguments).run() }
  }
}

/// The `render` command's values.
struct RenderSettings: ShapingCommandSettings {
  var first: String?
  var second: String?
  var font = FontSettings()
  var text = TextSettings()
  var shaping = ShapingSettings()
  /// Always `swiftshape`: hb-view's syntax is not read.
  var persona = Persona.swiftshape
  var outputFile: String?
  var margin: Double = 16
  var emPixels: Double = 256
  var foreground = "000000"
  var background = "FFFFFF"
  var annotate = false
  var textLayer = true
  var trace = false
  var expect: String?
  var format: String?
  var terminal = "auto"
  var color = true
  var palette = 0
  var jobs = 1

  /// The command's options, each declared once.
  static let options = CommandOptions<RenderSettings>(
    OptionSection.shapingSections + [
      OptionSection(
        title: "Drawing options",
        options: [
          .value("-o", "--output-file", valueName: "path", help: "Write the picture to a file (atomically).")
          {
            $0.outputFile = $1
          },
          .value(
            "-O", "--output-format", valueName: "svg|png",
            help: "What to write (default: png for an -o path ending in .png, else svg)."
          ) {
            $0.format = $1
          },
          .value(
            "--jobs", valueName: "N",
            help: "Shape this many lines at once (a long text); the drawing is the same."
          ) { $0.jobs = try number($1, "--jobs") },
          .flag(
            "--no-color",
            help: "Draw color glyphs (emoji, COLR) in the foreground color, from their outlines."
          ) {
            $0.color = false
          },
          .value("--palette", valueName: "index", help: "The CPAL palette of COLR glyphs (default: 0).") {
            guard let index = Int($1), index >= 0 else {
              throw ShapingError(
                .invalidArgument, input: "--palette=\($1)", reason: "must be a whole number from 0")
            }
            $0.palette = index
          },
          .value(
            "--terminal", valueName: "auto|kitty|iterm2|blocks",
            help: "How a picture is shown on a terminal (default: auto, from TERM and the like)."
          ) {
            $0.terminal = $1
          },
          .value("--margin", valueName: "pixels", help: "Space around the drawing, in pixels (default: 16).")
          {
            $0.margin = try number($1, "--margin")
          },
          .value("--em-pixels", valueName: "pixels", help: "Pixels per em for the SVG's size (default: 256).")
          {
            $0.emPixels = try number($1, "--em-pixels")
          },
          .value("--foreground", valueName: "rrggbb[aa]", help: "Glyph color (default: 000000).") {
            $0.foreground = $1
          },
          .value(
            "--background", valueName: "rrggbb[aa]|none", help: "Background color, or none (default: FFFFFF)."
          ) {
            $0.background = $1
          },
          .flag(
            "--annotate", help: "Overlay baseline, glyph origins, advance and ink boxes, cluster boundaries."
          ) {
            $0.annotate = true
          },
          .flag(
            "--trace",
            help:
              "Write the trace page (HTML): each step of shaping that changed the glyphs, drawn; one line of text."
          ) {
            $0.trace = true
          },
          .flag(
            "--no-text-layer",
            help:
              "Leave out the SVG's text: each cluster's characters as transparent text over its glyphs, and the title."
          ) {
            $0.textLayer = false
          },
          .value(
            "--expect", valueName: "glyphs|fixture#case",
            help: "An expected glyph run to draw under the result."
          ) { $0.expect = $1 },
        ])
    ])

  func run() throws {
    var svgOptions = SVGOptions()
    guard margin.isFinite, margin >= 0, margin <= 10_000 else {
      throw ShapingError(
        .invalidArgument, input: "--margin=\(margin)", reason: "must be from 0 to 10000 pixels")
    }
    guard (1...256).contains(jobs) else {
      throw ShapingError(.invalidArgument, input: "--jobs=\(jobs)", reason: "must be from 1 to 256")
    }
    guard emPixels.isFinite, emPixels > 0, emPixels <= 100_000 else {
      throw ShapingError(.invalidArgument, input: "--em-pixels=\(emPixels)", reason: "must be more than 0")
    }
    svgOptions.margin = margin
    svgOptions.pixelsPerEm = emPixels
    svgOptions.annotate = annotate
    svgOptions.textLayer = textLayer
    guard let foregroundColor = parseColor(foreground) else {
      throw ShapingError(
        .invalidArgument, input: "--foreground=\(foreground)", reason: "not a color (rrggbb or rrggbbaa)")
    }
    svgOptions.foreground = foregroundColor
    if background == "none" {
      svgOptions.background = nil
    } else {
      guard let color = parseColor(background) else {
        throw ShapingError(
          .invalidArgument, input: "--background=\(background)",
          reason: "not a color (rrggbb, rrggbbaa or none)")
      }
      svgOptions.background = color
    }
    try validate()
    let output = try output
    if annotate && output != .svg {
      throw ShapingError(
        .invalidArgument, input: "--annotate", reason: "annotations are drawn in SVG only (-O svg)")
    }
    if !textLayer && output != .svg {
      throw ShapingError(
        .invalidArgument, input: "--no-text-layer", reason: "the text layer is SVG's (-O svg)")
    }
    var request = try shapingRequest()
    let resolved = try request.resolveFont(cache: nil)
    for note in resolved.notes { Diagnostics.printNote(note) }
    let font = resolved.font
    if let pixels = request.options.lineWidth {
      // --width is in pixels at --em-pixels: the result's unit is 1/scale em.
      let units = (Double(pixels) * Double(font.scale.x) / emPixels).rounded()
      request.options.lineWidth = Int32(clamping: Int64(max(1, min(units, Double(Int32.max)))))
    }
    let lines = try text.input(positionalText: positionals().text)
    svgOptions.color = color
    svgOptions.palette = palette
    if output == .html {
      guard expect == nil, !annotate else {
        throw ShapingError(
          .invalidArgument, input: expect != nil ? "--expect" : "--annotate",
          reason: "the trace page draws the result annotated, without an expected run")
      }
      try writeTracePage(lines, font: font, request: request, options: svgOptions)
      return
    }
    if output == .svg, expect == nil, palette == 0 {
      // Speed: the common case is drawn from compact lines (see `SVGRenderer.DrawingLine`).
      let renderer = try SVGRenderer(font: font)
      if renderer.canDrawLines(shapedWith: request.options, options: svgOptions),
        try drawLines(
          lines, font: font, shapeOptions: request.options, renderer: renderer, options: svgOptions)
      {
        return
      }
    }
    let shaper = LineShaper(
      font: font, options: request.options, format: .jsonLines, jobs: jobs, maximumLength: text.maximumLength)
    let results = try shaper.document(lines).entries.map(\.result)
    let expected = try expect.map { try expectedGlyphs($0, font: font) }
    let renderer = try SVGRenderer(font: font)
    renderer.spanOptions = request.options
    if palette > 0 {
      let count = renderer.paletteCount
      guard palette < count else {
        throw ShapingError(
          .invalidArgument, input: "--palette=\(palette)",
          reason: count == 0
            ? "the font has no palettes"
            : "the font has \(count) palette\(count == 1 ? "" : "s") (0 to \(count - 1))")
      }
    }
    let out = try outputFile.map(Output.file) ?? .standardOutput()
    defer { for note in renderer.notes { Diagnostics.printNote(note) } }
    switch output {
    case .svg, .html:
      renderer.writeSVG(consume results, expected: expected, options: svgOptions) { out.write($0) }
    case .png:
      out.write(try renderer.image(results, expected: expected, options: svgOptions).pngBytes())
    case .terminal(let preview):
      let image = try renderer.image(results, expected: expected, options: svgOptions)
      let png = preview == .blocks ? [] : try image.pngBytes()
      let colorTerm = TerminalPreview.environment("COLORTERM") ?? ""
      out.write(
        preview.bytes(
          for: image, png: png, columns: TerminalPreview.columns(),
          trueColor: colorTerm == "truecolor" || colorTerm == "24bit"))
    }
    try out.commit()
  }

  /// Shapes the one line of text with a trace and writes its trace page.
  private func writeTracePage(
    _ lines: LineSource, font: ShapingFont, request: ShapingRequest, options: SVGOptions
  ) throws {
    var shapeOptions = request.options
    shapeOptions.trace = true
    let shaper = LineShaper(
      font: font, options: shapeOptions, format: .jsonLines, maximumLength: text.maximumLength)
    var results = try shaper.document(lines).entries.map(\.result)
    // No line at all (an empty text): an empty result, whose page says so.
    if results.isEmpty { results = [ShapeResult()] }
    guard results.count == 1, let result = results.first else {
      throw ShapingError(
        .invalidArgument, input: "--trace",
        reason: "the trace page draws one line of text (\(results.count) given)")
    }
    let renderer = try SVGRenderer(font: font)
    renderer.spanOptions = request.options
    let sections = result.baseLevel == nil ? [] : try traceSections(result, font: font, options: shapeOptions)
    let out = try outputFile.map(Output.file) ?? .standardOutput()
    out.write(renderer.tracePage(result, sections: sections, options: options))
    try out.commit()
  }

  /// A paragraph's runs in the text's order, each shaped again alone with a trace — with its font,
  /// direction, script and language, and the rest of the paragraph as context, as the paragraph
  /// shaped it — its clusters counted from the paragraph's start.
  private func traceSections(_ result: ShapeResult, font: ShapingFont, options: ShapeOptions) throws
    -> [TraceSection]
  {
    let scalars = Array(result.text.unicodeScalars)
    var offsets = [0]
    for scalar in scalars { offsets.append(offsets.last! + result.clusterUnit.width(of: scalar)) }
    func string(_ range: Range<Int>) -> String {
      let low = offsets.firstIndex { $0 >= range.lowerBound } ?? scalars.count
      let high = offsets.firstIndex { $0 >= range.upperBound } ?? scalars.count
      return String(String.UnicodeScalarView(scalars[low..<max(low, high)]))
    }
    let spanFont = font.spanFonts(of: result, options: options)
    let runs = result.runs.sorted { ($0.range?.lowerBound ?? 0) < ($1.range?.lowerBound ?? 0) }
    return try runs.enumerated().compactMap { index, run in
      guard let range = run.range else { return nil }
      let runFont =
        run.isFallback
        ? font.fallback?.font(file: run.font.file, faceIndex: run.font.faceIndex, for: font) ?? font
        : spanFont(run) ?? font
      var runOptions = options
      runOptions.paragraph = nil
      runOptions.lineWidth = nil
      runOptions.alignment = .start
      runOptions.spans = []
      runOptions.direction = run.direction
      runOptions.script = run.script
      runOptions.language = run.language
      runOptions.trace = true
      runOptions.textBefore = options.textBefore + string(0..<range.lowerBound)
      runOptions.textAfter = string(range.upperBound..<(offsets.last ?? 0)) + options.textAfter
      if range.lowerBound == 0 { runOptions.bufferFlags.insert(.beginningOfText) }
      if range.upperBound == offsets.last { runOptions.bufferFlags.insert(.endOfText) }
      var events = try runFont.shape(string(range), options: runOptions).trace ?? []
      for event in events.indices {
        for glyph in events[event].glyphs.indices { events[event].glyphs[glyph].cluster += range.lowerBound }
      }
      let family = runFont.identity.family ?? runFont.identity.file
      return TraceSection(
        title: "Run \(index + 1): \(family), level \(run.level ?? 0), \(run.script), \(run.direction)",
        events: events, renderer: try SVGRenderer(font: runFont))
    }
  }

  /// Shapes the lines and draws them with `SVGRenderer.writeSVG(lines:options:jobs:to:)`; false
  /// (nothing written) when a line cannot be drawn that way.
  private func drawLines(
    _ lines: LineSource, font: ShapingFont, shapeOptions: ShapeOptions, renderer: SVGRenderer,
    options: SVGOptions
  ) throws -> Bool {
    var shapeOptions = shapeOptions
    // The renderer names glyphs by ID, once each.
    shapeOptions.includeGlyphNames = false
    let shaper = LineShaper(
      font: font, options: shapeOptions, format: .jsonLines, jobs: jobs,
      maximumLength: text.maximumLength)
    var drawn: [SVGRenderer.DrawingLine] = []
    var drawable = true
    try shaper.forEachShaped(lines, transform: SVGRenderer.drawingLines(of:)) { batch, _ in
      for lines in batch {
        guard let lines else {
          drawable = false
          return
        }
        drawn += lines
      }
    }
    guard drawable else { return false }
    let out = try outputFile.map(Output.file) ?? .standardOutput()
    renderer.writeSVG(lines: drawn, options: options, jobs: jobs) { out.write($0) }
    try out.commit()
    return true
  }

  /// What to write, and where.
  private enum Destination: Equatable {
    case svg
    case png
    /// The trace page (`--trace`).
    case html
    /// No file and no format asked for, on a terminal: the picture, shown in place.
    case terminal(TerminalPreview)
  }

  private var output: Destination {
    get throws {
      let preview: TerminalPreview
      if terminal == "auto" {
        preview = TerminalPreview.detect()
      } else if let chosen = TerminalPreview(rawValue: terminal) {
        preview = chosen
      } else {
        throw ShapingError(
          .invalidArgument, input: "--terminal=\(terminal)", reason: "must be auto, kitty, iterm2 or blocks")
      }
      if trace {
        guard format == nil || format == "html" else {
          throw ShapingError(
            .invalidArgument, input: "--output-format=\(format!)", reason: "the trace page is HTML (-O html)")
        }
        return .html
      }
      switch format {
      case "html":
        throw ShapingError(
          .invalidArgument, input: "--output-format=html", reason: "HTML is the trace page's (--trace)")
      case "svg": return .svg
      case "png": return outputFile == nil && isatty(1) != 0 ? .terminal(preview) : .png
      case nil:
        if let outputFile { return outputFile.lowercased().hasSuffix(".png") ? .png : .svg }
        // Annotations are SVG's: an annotated drawing on a terminal is its SVG text.
        return isatty(1) != 0 && !annotate ? .terminal(preview) : .svg
      case let other?:
        throw ShapingError(
          .invalidArgument, input: "--output-format=\(other)",
          reason: "must be svg or png (html with --trace)")
      }
    }
  }

  /// The expected run: hb-shape's text syntax, or a fixture's case (`file.json#3` or `#name`).
  private func expectedGlyphs(_ text: String, font: ShapingFont) throws -> [ShapedGlyph] {
    var wanted: [ExpectedGlyph]
    if let hash = text.lastIndex(of: "#"), text[..<hash].hasSuffix(".json") {
      let fixture = try Fixture.load(String(text[..<hash]))
      let key = String(text[text.index(after: hash)...])
      guard
        let testCase = fixture.cases.first(where: { String($0.index) == key || $0.name == key })
      else {
        throw ShapingError(
          .invalidArgument, input: "--expect=\(text)", reason: "the fixture has no such case")
      }
      switch testCase.expectation {
      case .glyphs(let glyphs): wanted = glyphs
      case .hbText(let hb): wanted = try ExpectedGlyph.parseHBText(hb)
      case .none:
        throw ShapingError(.invalidArgument, input: "--expect=\(text)", reason: "the case has no expectation")
      case .perFont(let entries):
        wanted = try ExpectedGlyph.parseHBText(entries.first { $0.font == "default" }?.text ?? "")
      }
    } else {
      do {
        wanted = try ExpectedGlyph.parseHBText(text)
      } catch let error as ShapingError {
        throw ShapingError(.invalidArgument, input: "--expect", reason: error.description)
      }
    }
    return try wanted.shapedGlyphs(font: font, option: "--expect")
  }
}
