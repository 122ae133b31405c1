import HarfBuzz
@_spi(Writers) import SwiftShape

// Speed: drawing a long text as SVG from compact lines, on several threads. This file exists for
// speed; the plain path (`SVGRenderer.writeSVG(_:expected:options:to:)`) draws anything, this one
// the common case — horizontal text in one font without color glyphs, no expected run, no
// annotations — and writes the same bytes (tested against the plain path).
//
// What it bought, measured on the English text of HarfBuzz's benchmark corpus (1,893 lines,
// Roboto), whole process: see the README's drawing figures. The plain path keeps every placed
// glyph as a 120-byte record holding a shaped glyph (a name reference among its fields), gathers
// each line's glyphs into a new array with their font and hashes the line's fonts; here a glyph
// is 24 bytes of plain numbers made on the thread that shaped it, its name is looked up once per
// glyph ID, and the elements are written in pieces of lines on `jobs` threads.

extension SVGRenderer {
  /// A shaped line kept for drawing: its glyphs' IDs, clusters, advances and offsets (24 bytes a
  /// glyph) and its origin's x. Made from a result with `drawingLines(of:)`, on any thread.
  ///
  /// Speed: a class, so that the lines gathered from the shaping threads' batches are each one
  /// reference counted, not its seven arrays and strings (copied and destroyed as a structure,
  /// the lines were about 6% of the samples drawing the English text, `perf record`; as a class,
  /// 303.5 M → 301.4 M instructions, callgrind, and the time within the machine's noise).
  public final class DrawingLine: Sendable {
    struct Glyph {
      var id, cluster: UInt32
      var xAdvance, yAdvance, xOffset, yOffset: Int32
    }

    let glyphs: [Glyph]
    let x: Int32
    /// The text layer's source: the result's text in its cluster unit, and the line's range in it.
    let units: TextUnits
    let range: Range<Int>
    /// The result's text, on the first of its lines (the document's title).
    let title: String?
    /// The text layer's styles: the runs', each glyph's (empty when all are the first), and the
    /// line's.
    let styles: [TextLayer.Style]
    let glyphStyles: [Int]
    let base: TextLayer.Style

    init(
      glyphs: [Glyph], x: Int32, units: TextUnits, range: Range<Int>, title: String?,
      styles: [TextLayer.Style],
      glyphStyles: [Int], base: TextLayer.Style
    ) {
      (self.glyphs, self.x, self.units, self.range, self.title) = (glyphs, x, units, range, title)
      (self.styles, self.glyphStyles, self.base) = (styles, glyphStyles, base)
    }

    /// Places the glyphs on a baseline at `originY` as the plain path does (the same arithmetic,
    /// so the same coordinates): `body` gets each glyph, the pen's x before and after it, and its
    /// origin. Returns the pen's x after the last glyph.
    @inline(__always)
    @discardableResult
    func place(
      originY: Double,
      _ body: (_ glyph: Glyph, _ penBefore: Double, _ penAfter: Double, _ x: Double, _ y: Double) -> Void
    ) -> Double {
      let originX = Double(x)
      var penX = 0.0
      var penY = 0.0
      for glyph in glyphs {
        let before = (originX + penX, originY - penY)
        penX += Double(glyph.xAdvance)
        penY += Double(glyph.yAdvance)
        body(
          glyph, before.0, originX + penX, originX + (before.0 - originX) + Double(glyph.xOffset),
          before.1 - Double(glyph.yOffset))
      }
      return penX
    }
  }

  /// The lines `writeSVG(_:expected:options:to:)` draws for `result` — one, or one per line of a
  /// paragraph broken to a width — or nil when `writeSVG(lines:options:jobs:to:)` cannot draw
  /// them: a run of a fallback font or of a span, a vertical run, or a cluster past 2³² − 1.
  public static func drawingLines(of result: ShapeResult) -> [DrawingLine]? {
    let units = TextUnits(result.text, unit: result.clusterUnit)
    func line(_ runs: [ShapedRun], x: Int32, range: Range<Int>, first: Bool) -> DrawingLine? {
      var glyphs: [DrawingLine.Glyph] = []
      glyphs.reserveCapacity(runs.reduce(0) { $0 + $1.glyphs.count })
      for run in runs {
        guard !run.isFallback, run.span == nil, run.direction.isHorizontal else { return nil }
        for glyph in run.glyphs {
          guard let cluster = UInt32(exactly: glyph.cluster) else { return nil }
          glyphs.append(
            DrawingLine.Glyph(
              id: glyph.id, cluster: cluster, xAdvance: glyph.xAdvance, yAdvance: glyph.yAdvance,
              xOffset: glyph.xOffset, yOffset: glyph.yOffset))
        }
      }
      let (styles, glyphStyles) = TextLayer.styles(of: runs)
      return DrawingLine(
        glyphs: glyphs, x: x, units: units, range: range, title: first ? result.text : nil, styles: styles,
        glyphStyles: styles.count > 1 ? glyphStyles : [],
        base: TextLayer.base(of: result, runs: runs, styles: styles))
    }
    guard let lines = result.lines else {
      return line(result.runs, x: 0, range: 0..<units.count, first: true).map { [$0] }
    }
    var drawn: [DrawingLine] = []
    for (index, shaped) in lines.enumerated() {
      guard let next = line(shaped.runs, x: shaped.x, range: shaped.range, first: index == 0) else {
        return nil
      }
      drawn.append(next)
    }
    return drawn
  }

  /// Whether text shaped with `shapeOptions` can be drawn with `writeSVG(lines:options:jobs:to:)`
  /// into the same bytes `writeSVG(_:expected:options:to:)` writes: horizontal text with no
  /// fallback fonts, in a font without color tables (or with color off), with no annotations,
  /// highlights or overlays.
  public func canDrawLines(shapedWith shapeOptions: ShapeOptions, options: SVGOptions) -> Bool {
    guard shapeOptions.direction?.isVertical != true, font.fallback == nil, !options.annotate,
      options.highlightedGlyphs.isEmpty, options.overlays.isEmpty
    else { return false }
    guard options.color else { return true }
    let tags = Set(font.font.face.tableTags)
    return (["COLR", "CBDT", "sbix", "SVG "] as [OpenTypeTag]).allSatisfy { !tags.contains($0) }
  }

  /// The SVG of `writeSVG(_:expected:options:to:)` for the results the lines were made from, in
  /// order, written on `jobs` threads and handed to `sink` a piece at a time, in order.
  ///
  /// Call it only when `canDrawLines(shapedWith:options:)` says so, with lines made by
  /// `drawingLines(of:)` from results shaped with this renderer's font.
  public func writeSVG(
    lines: [DrawingLine], options: SVGOptions, jobs: Int = 1, to sink: (UnsafeBufferPointer<UInt8>) -> Void
  ) {
    let face = faces[0]
    face.colorSettings = (options.color, options.palette)
    let extents = font.font.extents(for: .leftToRight)
    let (ascender, descender) = (Double(extents.ascender), Double(extents.descender))
    let lineGap = Double(max(0, extents.lineGap))
    let glyphCount = Int(font.identity.glyphCount)

    // One pass on this thread: each line's baseline, the view, and each glyph ID's pieces in
    // order of first appearance (the FreeType face and the outline cache are this thread's).
    var baselines: [Double] = []
    baselines.reserveCapacity(lines.count)
    var pieces = GlyphPieces(glyphCount: glyphCount)
    var defined: [(face: Int, glyph: UInt32)] = []
    var view: Box?
    var top = 0.0
    // (Lines read by index, here and below: a line is one reference, `DrawingLine`.)
    for index in lines.indices {
      let line = lines[index]
      let originX = Double(line.x)
      let originY = top + ascender
      baselines.append(originY)
      let penX = line.place(originY: originY) { glyph, _, _, x, y in
        if !pieces.has(glyph.id) {
          let outline = face.entry(glyph.id).outline
          if let outline, !outline.commands.isEmpty { defined.append((0, glyph.id)) }
          pieces.add(glyph.id, outline: outline, inFont: Int(glyph.id) < glyphCount, renderer: self)
        }
        if let bounds = face.entry(glyph.id).bounds {
          let ink = Box(
            minX: x + bounds.minX * face.scaleX, minY: y + bounds.minY * face.scaleY,
            maxX: x + bounds.maxX * face.scaleX, maxY: y + bounds.maxY * face.scaleY)
          if view == nil { view = ink } else { view!.formUnion(ink) }
        }
      }
      let box = Box(
        minX: min(originX, originX + penX), minY: originY - ascender, maxX: max(originX, originX + penX),
        maxY: originY - descender)
      if view == nil { view = box } else { view!.formUnion(box) }
      top += ascender - descender + lineGap
    }
    let scene = Scene(
      lines: [], view: view ?? Box(minX: 0, minY: 0, maxX: 0, maxY: 0),
      unitsPerPixel: Double(font.identity.unitsPerEm) * face.scaleX / options.pixelsPerEm, options: options)

    var start = SVGText()
    appendStart(scene, options: options, to: &start)
    let title = lines.compactMap(\.title).joined(separator: "\n")
    if options.textLayer, !title.isEmpty { start.appendTitle(title) }
    appendDefinitions(color: [], outlines: defined, to: &start)
    start.flush(to: sink)

    // The lines, in pieces of about 1,024 glyphs, written on `jobs` threads a few pieces each at a
    // time, and handed on in order.
    let writer = LineWriter(
      pieces: pieces, lineStart: Array("<g\(fill(options.foreground))>\n".utf8),
      foreground: options.foreground,
      unitsPerPixel: scene.unitsPerPixel, ascender: ascender, descender: descender,
      textLayer: options.textLayer, fontSize: options.pixelsPerEm * scene.unitsPerPixel)
    var ranges: [Range<Int>] = []
    var first = 0
    var glyphs = 0
    for index in lines.indices {
      glyphs += lines[index].glyphs.count + 1
      if glyphs >= 1024 || index == lines.count - 1 {
        ranges.append(first..<index + 1)
        first = index + 1
        glyphs = 0
      }
    }
    // Written pieces' buffers go back to a pool for later pieces: a new buffer each (half a
    // megabyte then) had the kernel fault in fresh pages for every piece, 3,000 faults for the English
    // text.
    let window = max(1, 4 * jobs)
    let baselineList = baselines
    let pool = Protected<[SVGText]>([])
    for windowStart in stride(from: 0, to: ranges.count, by: window) {
      let written = ParallelMap.run(
        Array(ranges[windowStart..<min(windowStart + window, ranges.count)]), jobs: jobs
      ) { range in
        var svg = pool.withLock { $0.popLast() } ?? SVGText()
        writer.write(lines[range], baselines: baselineList[range], to: &svg)
        return svg
      }
      for var svg in written {
        svg.flush(to: sink)
        pool.withLock { $0.append(svg) }
      }
    }
    var end = SVGText()
    end += "</svg>\n"
    end.flush(to: sink)
  }

  /// Each glyph ID's fixed pieces of its element, made once: the bytes before its x and between
  /// its y and its cluster, and how it is drawn. Read by every writing thread.
  struct GlyphPieces: Sendable {
    enum Kind: UInt8 {
      /// Not met yet.
      case none
      /// `<use …>` of its definition: an outline with ink.
      case use
      /// An outline with no ink (a space): `<g data-… transform="translate(x,y)"/>`.
      case empty
      /// No outline FreeType can read: the advance box, stroked.
      case box
      /// An outline, but an ID past the font's glyphs (set as the invisible or not-found glyph):
      /// `<use …>` in red, as the plain path draws it.
      case outside
    }

    private(set) var bytes: [UInt8] = []
    /// By glyph ID in the font: the kind, then where its pieces start, split and end in `bytes`.
    private var inFont: [(kind: Kind, start: Int32, split: Int32, end: Int32)]
    /// The same for IDs past the font's.
    private var outside: [UInt32: (kind: Kind, start: Int32, split: Int32, end: Int32)] = [:]

    init(glyphCount: Int) {
      inFont = Array(repeating: (.none, 0, 0, 0), count: glyphCount)
    }

    func has(_ glyph: UInt32) -> Bool {
      Int(glyph) < inFont.count ? inFont[Int(glyph)].kind != .none : outside[glyph] != nil
    }

    func entry(_ glyph: UInt32) -> (kind: Kind, start: Int32, split: Int32, end: Int32) {
      Int(glyph) < inFont.count ? inFont[Int(glyph)] : outside[glyph] ?? (.none, 0, 0, 0)
    }

    /// Makes the glyph's pieces: the first ends before the x (or the cluster); the second, from
    /// the y's closing quote to the cluster, is the data attributes every kind ends with.
    mutating func add(_ glyph: UInt32, outline: GlyphOutline?, inFont isInFont: Bool, renderer: SVGRenderer) {
      let face = renderer.faces[0]
      let kind: Kind
      var text = SVGText()
      switch (outline, isInFont) {
      case (let outline?, _) where outline.commands.isEmpty:
        kind = .empty
        text.append(literal: "<g")
      case (.some, true):
        kind = .use
        text.append(literal: "<use xlink:href=\"#")
        text.append(face.prefix)
        text.append(glyph)
        text.append(literal: "\" href=\"#")
        text.append(face.prefix)
        text.append(glyph)
        text.append(literal: "\" x=\"")
      case (.some, false):
        kind = .outside
      case (nil, _):
        kind = .box
      }
      let split = text.count
      if kind == .use { text.append(UInt8(ascii: "\"")) }
      text.append(literal: " data-gid=\"")
      text.append(glyph)
      text.append(literal: "\" data-name=\"")
      text.appendEscaped(face.font.font.glyphLabel(glyph))
      text.append(literal: "\" data-cluster=\"")
      let start = Int32(bytes.count)
      bytes += text.finish()
      let entry = (kind, start, start + Int32(split), Int32(bytes.count))
      if isInFont { inFont[Int(glyph)] = entry } else { outside[glyph] = entry }
    }
  }

  /// Writes lines' elements from the glyphs' pieces; it holds no FreeType or HarfBuzz object, so
  /// that threads can share it.
  struct LineWriter: Sendable {
    let pieces: GlyphPieces
    /// `<g fill="…">` and its line break.
    let lineStart: [UInt8]
    let foreground: String
    let unitsPerPixel: Double
    let ascender: Double
    let descender: Double
    /// Whether each line's text layer follows it (`SVGOptions.textLayer`), at this em.
    let textLayer: Bool
    let fontSize: Double

    /// Appends the elements of `lines`, whose baselines are `baselines`.
    func write(_ lines: ArraySlice<DrawingLine>, baselines: ArraySlice<Double>, to svg: inout SVGText) {
      svg.reserveCapacity(svg.count + lines.reduce(0) { $0 + 128 * $1.glyphs.count + 16 })
      // The baseline's y as text, for the glyphs on it (most of a horizontal line's): written once
      // a line rather than once a glyph.
      let baselineRoom = UnsafeMutablePointer<UInt8>.allocate(capacity: ByteBuffer.Cursor.longestCoordinate)
      defer { baselineRoom.deallocate() }
      pieces.bytes.withUnsafeBufferPointer { bytes in
        for index in lines.indices {
          let (line, originY) = (lines[index], baselines[index])
          lineStart.withUnsafeBufferPointer { svg.append($0) }
          var baselineCursor = ByteBuffer.Cursor(baselineRoom)
          baselineCursor.coordinate(originY)
          let baselineText = UnsafeBufferPointer(
            start: baselineRoom, count: baselineCursor.position - baselineRoom)
          line.place(originY: originY) { glyph, penBefore, penAfter, x, y in
            let entry = pieces.entry(glyph.id)
            let (start, split, end) = (Int(entry.start), Int(entry.split), Int(entry.end))
            let data = UnsafeBufferPointer(rebasing: bytes[split..<end])
            // The common kinds are written through one cursor, with one capacity check: a
            // dozen appends, each checking, took twice the instructions.
            let fixed = end - start + 2 * ByteBuffer.Cursor.longestCoordinate + 40
            switch entry.kind {
            case .use:
              svg.write(upTo: fixed) { cursor in
                cursor.bytes(UnsafeBufferPointer(rebasing: bytes[start..<split]))
                cursor.coordinate(x)
                cursor.literal("\" y=\"")
                if y == originY {
                  cursor.bytes(baselineText)
                } else {
                  cursor.coordinate(y)
                }
                cursor.bytes(data)
                cursor.digits(UInt(glyph.cluster))
                cursor.literal("\"/>\n")
              }
              return
            case .empty:
              svg.write(upTo: fixed) { cursor in
                cursor.bytes(UnsafeBufferPointer(rebasing: bytes[start..<split]))
                cursor.bytes(data)
                cursor.digits(UInt(glyph.cluster))
                cursor.literal("\" transform=\"translate(")
                cursor.coordinate(x)
                cursor.byte(UInt8(ascii: ","))
                cursor.coordinate(y)
                cursor.literal(")\"/>\n")
              }
              return
            case .outside:
              svg.append(literal: "<use xlink:href=\"#g")
              svg.append(glyph.id)
              svg.append(literal: "\" href=\"#g")
              svg.append(glyph.id)
              svg.append(literal: "\" x=\"")
              svg.append(x)
              svg.append(literal: "\" y=\"")
              svg.append(y)
              svg.append(literal: "\" fill=\"#D00000\"")
            case .box, .none:
              // The advance box across the line's height.
              let (minX, maxX) = (min(penBefore, penAfter), max(penBefore, penAfter))
              let (minY, maxY) = (originY - ascender, originY - descender)
              svg.append(literal: "<rect x=\"")
              svg.append(minX)
              svg.append(literal: "\" y=\"")
              svg.append(minY)
              svg.append(literal: "\" width=\"")
              svg.append(maxX - minX)
              svg.append(literal: "\" height=\"")
              svg.append(maxY - minY)
              svg.append(literal: "\" fill=\"none\" stroke=\"")
              svg.append(foreground)
              svg.append(literal: "\" stroke-width=\"")
              svg.append(unitsPerPixel)
              svg.append(UInt8(ascii: "\""))
            }
            svg.append(data)
            svg.append(glyph.cluster)
            svg.append(literal: "\"/>\n")
          }
          svg.append(literal: "</g>\n")
          if textLayer {
            var placed: [(cluster: Int, pen: Double, next: Double, style: Int)] = []
            placed.reserveCapacity(line.glyphs.count)
            // (The styles read through a buffer pointer: read through the line, their array was
            // retained and released for each glyph.)
            line.glyphStyles.withUnsafeBufferPointer { glyphStyles in
              _ = line.place(originY: originY) { glyph, penBefore, penAfter, _, _ in
                let style = glyphStyles.isEmpty ? 0 : glyphStyles[placed.count]
                placed.append((Int(glyph.cluster), penBefore, penAfter, style))
              }
            }
            svg.appendTextLayer(
              TextLayer.clusters(
                placed, start: line.range.lowerBound, end: line.range.upperBound, units: line.units),
              styles: line.styles, base: line.base, units: line.units, baseline: originY, fontSize: fontSize)
          }
        }
      }
    }
  }
}
