import HarfBuzz
import SwiftShape

// The trace page: one self-contained HTML file (inline SVG, a small inline script, no network)
// that draws each step of HarfBuzz's shaping that changed the buffer.

extension SVGRenderer {
  /// The trace page of `result`, shaped with `ShapeOptions.trace` by this renderer's font: the
  /// input and its clusters; a row per step that changed the glyphs (its message — stage, lookup,
  /// feature — and the glyphs drawn at that step's positions, those added or changed since the
  /// step before marked), the steps that changed nothing folded between them; the final result
  /// drawn with `--annotate`'s boxes. Selecting a glyph shows its ID, name, cluster, advances,
  /// offsets and flags, and marks its characters in the input.
  ///
  /// With `sections` (a paragraph's runs, each shaped with its own font), a section each, titled,
  /// its steps drawn with its renderer's font; without, one section of `result`'s trace.
  ///
  /// A result without trace events (or without glyphs) gives a page that says so.
  public func tracePage(
    _ result: ShapeResult, sections: [TraceSection] = [], options: SVGOptions = SVGOptions()
  ) -> [UInt8] {
    var page = SVGText()
    let face = faces[0]
    page.append(literal: "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
    page.appendTitle(result.text, prefix: "Shaping trace: ")
    page.append(literal: "<style>\n")
    page.append(
      """
      body { font-family: sans-serif; margin: 1.5em; }
      .input span { border: 1px solid #ccc; padding: 0 2px; margin-right: 1px; }
      .input span.marked { background: #ffd54f; }
      .step { display: flex; align-items: center; border-top: 1px solid #eee; padding: 4px 0; }
      .step .label { width: 26em; font-family: monospace; font-size: 12px; }
      .step .label .lookup { color: #555; }
      .step svg { height: 64px; }
      g[data-glyph] { cursor: pointer; }
      g[data-glyph].changed { fill: #c62828; }
      g[data-glyph].selected { fill: #1565c0; }
      #details { font-family: monospace; white-space: pre; background: #f5f5f5; padding: 6px; min-height: 1.2em; }
      details { margin: 2px 0 2px 1em; font-size: 12px; color: #666; }
      .notice { background: #fff3e0; border-left: 4px solid #ef6c00; padding: 4px 8px; }

      """)
    page.append(literal: "</style>\n</head>\n<body>\n<h1>Shaping trace</h1>\n")
    page.append(literal: "<p>Font: ")
    page.appendEscaped(face.font.identity.file)
    page.append(literal: "</p>\n<p class=\"input\" data-layer=\"input\">")
    // The input, a span a character, each with the offset it starts at in the cluster unit.
    var offset = 0
    for scalar in result.text.unicodeScalars {
      page.append(literal: "<span data-offset=\"")
      page.append(offset)
      page.append(literal: "\">")
      page.appendXMLText(String(scalar))
      page.append(literal: "</span>")
      offset += result.clusterUnit.width(of: scalar)
    }
    page.append(literal: "</p>\n<div id=\"details\" data-layer=\"details\"></div>\n")
    let events = sections.isEmpty ? result.trace ?? [] : sections.flatMap(\.events)
    if events.isEmpty || result.glyphs.isEmpty {
      page.append(
        literal:
          "<p class=\"empty\">No shaping steps to show: the text is empty, or the result was shaped without a trace.</p>\n"
      )
    }
    if !result.missingCharacters.isEmpty {
      // Characters no font has: shaped (and drawn) as each font's .notdef.
      page.append(literal: "<p class=\"notice\" data-notice=\"missing\">Not in any font, shaped as .notdef: ")
      for (index, missing) in result.missingCharacters.enumerated() {
        if index > 0 { page.append(literal: ", ") }
        page.append(literal: "U+")
        let hex = String(missing.scalar.value, radix: 16, uppercase: true)
        page.appendXMLText(String(repeating: "0", count: max(0, 4 - hex.count)) + hex)
        page.append(literal: " at ")
        page.append(missing.offset)
      }
      page.append(literal: ".</p>\n")
    }
    // A section a run: the run's own steps, drawn with its font.
    let runs =
      sections.isEmpty ? [TraceSection(title: nil, events: result.trace ?? [], renderer: self)] : sections
    for (index, section) in runs.enumerated() {
      let (definitions, rows, withoutOutline) = section.renderer.traceSteps(
        section.events, prefix: "t\(index)-")
      page.append(literal: "<section class=\"steps\" data-layer=\"steps\" data-run=\"")
      page.append(index)
      page.append(literal: "\">\n")
      if let title = section.title {
        page.append(literal: "<h2>")
        page.appendXMLText(title)
        page.append(literal: "</h2>\n")
      }
      page.append(literal: "<svg width=\"0\" height=\"0\" style=\"position:absolute\"><defs>\n")
      page += definitions
      page.append(literal: "</defs></svg>\n")
      if !withoutOutline.isEmpty {
        page.append(literal: "<p class=\"notice\" data-notice=\"no-outline\">")
        page.append(withoutOutline.count)
        page.append(
          literal: withoutOutline.count == 1
            ? " glyph has no outline in this font (bitmaps or color only): drawn as a dashed box.</p>\n"
            : " glyphs have no outline in this font (bitmaps or color only): drawn as dashed boxes.</p>\n")
      }
      page += rows
      page.append(literal: "</section>\n")
    }
    if !result.glyphs.isEmpty {
      page.append(literal: "<h2>Result</h2>\n<div class=\"result\">")
      var annotated = options
      annotated.annotate = true
      annotated.textLayer = false
      var final = result
      final.trace = nil
      var svg = svgBytes([final], options: annotated)
      // The drawing's own definitions are named apart from the steps' (`g12`, not `t12`); its XML
      // declaration has no place in HTML.
      if let start = svg.firstIndex(of: UInt8(ascii: "\n")) { svg.removeSubrange(...start) }
      svg.withUnsafeBufferPointer { page.append($0) }
      page.append(literal: "</div>\n")
    }
    page.append(literal: "<script>\n")
    page.append(
      """
      for (const glyph of document.querySelectorAll("g[data-glyph]")) {
        glyph.addEventListener("click", () => {
          for (const other of document.querySelectorAll("g[data-glyph].selected")) other.classList.remove("selected");
          glyph.classList.add("selected");
          const cluster = Number(glyph.dataset.cluster);
          const step = glyph.closest("[data-step]");
          const glyphs = [...step.querySelectorAll("g[data-glyph]")].map(g => Number(g.dataset.cluster));
          const next = Math.min(...glyphs.filter(c => c > cluster), Infinity);
          for (const span of document.querySelectorAll(".input span")) {
            const offset = Number(span.dataset.offset);
            span.classList.toggle("marked", offset >= cluster && offset < next);
          }
          document.getElementById("details").textContent =
            "id " + glyph.dataset.id + "  name " + glyph.dataset.name + "  cluster " + cluster +
            "  advance " + glyph.dataset.advance + "  offset " + glyph.dataset.offset + "  flags " + glyph.dataset.flags;
        });
      }

      """)
    page.append(literal: "</script>\n</body>\n</html>\n")
    return page.finish()
  }

  /// The rows of a trace's steps (a row for each step that changed the glyphs, the others
  /// folded), and the definitions of the outlines they use, named `prefix` and the glyph ID.
  ///
  /// A glyph the font has no outline for (a bitmap or color-only font's) is drawn as a dashed box
  /// over its advance, and listed in `withoutOutline`.
  func traceSteps(_ events: [TraceEvent], prefix: String) -> (
    definitions: SVGText, rows: SVGText, withoutOutline: Set<UInt32>
  ) {
    let face = faces[0]
    // The glyphs' outlines, once each, for every step's drawing.
    var defined = Set<UInt32>()
    var withoutOutline = Set<UInt32>()
    // Glyphs whose outline is empty (a space): drawn as nothing.
    var blank = Set<UInt32>()
    var definitions = SVGText()
    func define(_ glyph: UInt32) {
      guard defined.insert(glyph).inserted else { return }
      guard let outline = face.entry(glyph).outline else {
        withoutOutline.insert(glyph)
        return
      }
      guard !outline.commands.isEmpty else {
        blank.insert(glyph)
        return
      }
      definitions.append(literal: "<path id=\"")
      definitions.append(prefix)
      definitions.append(glyph)
      definitions.append(literal: "\" d=\"")
      appendPathData(outline, face: face, to: &definitions)
      definitions.append(literal: "\"/>\n")
    }
    let extents = face.font.font.extents(for: .leftToRight)
    let (ascender, descender) = (Double(extents.ascender), Double(extents.descender))
    var rows = SVGText()
    var previous: TraceEvent?
    var lookup: String?
    var table = ""
    let names = TracePage.lookupNames(face.font.font.face)
    var unchanged: [String] = []
    func flushUnchanged() {
      guard !unchanged.isEmpty else { return }
      rows.append(literal: "<details data-folded=\"")
      rows.append(unchanged.count)
      rows.append(literal: "\"><summary>")
      rows.append(unchanged.count)
      rows.append(
        literal: unchanged.count == 1 ? " step that changed nothing" : " steps that changed nothing")
      rows.append(literal: "</summary>")
      for message in unchanged {
        rows.append(literal: "<div>")
        rows.appendXMLText(message)
        rows.append(literal: "</div>")
      }
      rows.append(literal: "</details>\n")
      unchanged = []
    }
    for (index, event) in events.enumerated() {
      defer { previous = event }
      if event.message.hasPrefix("start table ") {
        // (`start table GSUB`, or in later releases, such as 15.0.0, `start table GSUB script tag 'latn'`.)
        table = String(event.message.dropFirst("start table ".count).prefix { $0 != " " })
      }
      // The stage or lookup a step is in: the last one started (`start table GSUB`, `start lookup
      // 3 feature 'liga'`, `start reordering indic final`).
      if event.message.hasPrefix("start ") {
        lookup = event.message
        // With the lookup's name where the font has one.
        if let index = TracePage.lookupIndex(event.message), let name = names[table]?[index] {
          lookup! += " (" + name + ")"
        }
      }
      guard TracePage.changes(event, since: previous) else {
        unchanged.append(event.message)
        continue
      }
      let changed = TracePage.changedGlyphs(event, since: previous)
      flushUnchanged()
      rows.append(literal: "<div class=\"step\" data-step=\"")
      rows.append(index)
      rows.append(literal: "\"><div class=\"label\">")
      // The lookup (or stage) the step is in, then what it did.
      if let lookup, lookup != event.message {
        rows.append(literal: "<span class=\"lookup\">")
        rows.appendXMLText(lookup)
        rows.append(literal: "</span><br>")
      }
      rows.appendXMLText(event.message)
      rows.append(literal: "</div>")
      // The glyphs at this step: their positions, or (before positioning) their advances in the
      // font, left to right in buffer order; code points are drawn as text.
      var x = 0.0
      var drawn = SVGText()
      for (position, glyph) in event.glyphs.enumerated() {
        let advance =
          event.hasPositions
          ? Double(glyph.xAdvance)
          : event.holdsCodePoints
            ? Double(
              face.font.font.advance(
                of: face.font.font.nominalGlyph(for: Unicode.Scalar(glyph.id) ?? " ") ?? 0
              ).x)
              * face.scaleX
            : Double(face.font.font.advance(of: glyph.id).x) * face.scaleX
        drawn.append(literal: "<g data-glyph=\"")
        drawn.append(position)
        drawn.append(literal: "\" data-id=\"")
        drawn.append(glyph.id)
        drawn.append(literal: "\" data-name=\"")
        drawn.appendEscaped(
          event.holdsCodePoints
            ? "U+" + String(glyph.id, radix: 16, uppercase: true)
            : glyph.name ?? face.font.font.glyphLabel(glyph.id))
        drawn.append(literal: "\" data-cluster=\"")
        drawn.append(glyph.cluster)
        drawn.append(literal: "\" data-advance=\"")
        drawn.append(Double(glyph.xAdvance))
        drawn.append(literal: ",")
        drawn.append(Double(glyph.yAdvance))
        drawn.append(literal: "\" data-offset=\"")
        drawn.append(Double(glyph.xOffset))
        drawn.append(literal: ",")
        drawn.append(Double(glyph.yOffset))
        drawn.append(literal: "\" data-flags=\"")
        drawn.append(Int(glyph.flags.rawValue))
        drawn.append(UInt8(ascii: "\""))
        if changed.contains(position) { drawn.append(literal: " class=\"changed\"") }
        drawn.append(literal: ">")
        let (gx, gy) = (
          x + Double(event.hasPositions ? glyph.xOffset : 0), -Double(event.hasPositions ? glyph.yOffset : 0)
        )
        if event.holdsCodePoints {
          drawn.append(literal: "<text x=\"")
          drawn.append(gx)
          drawn.append(literal: "\" y=\"0\" font-size=\"")
          drawn.append(Double(face.font.identity.unitsPerEm) * face.scaleX)
          drawn.append(literal: "\">")
          drawn.appendXMLText(Unicode.Scalar(glyph.id).map { String($0) } ?? "?")
          drawn.append(literal: "</text>")
        } else {
          define(glyph.id)
          // A box over the advance to click on, and the glyph (or a dashed box where it has no
          // outline).
          drawn +=
            "<rect x=\"\(gx)\" y=\"\(-ascender)\" width=\"\(max(advance, 1))\" height=\"\(ascender - descender)\" fill=\"transparent\"/>"
          if withoutOutline.contains(glyph.id) {
            let inset = 0.05 * (ascender - descender)
            drawn +=
              "<rect class=\"no-outline\" x=\"\(gx + inset)\" y=\"\(-ascender + inset)\" width=\"\(max(advance - 2 * inset, 1))\" height=\"\(ascender - descender - 2 * inset)\" fill=\"none\" stroke=\"currentColor\" stroke-dasharray=\"\(inset)\" stroke-width=\"\(inset / 2)\"/>"
          } else if !blank.contains(glyph.id) {
            drawn += "<use href=\"#\(prefix)\(glyph.id)\" x=\"\(gx)\" y=\"\(gy)\"/>"
          }
        }
        drawn.append(literal: "</g>")
        x += advance
      }
      let width = max(x, 1)
      rows.append(literal: "<svg viewBox=\"")
      rows.append(-0.05 * width)
      rows.append(UInt8(ascii: " "))
      rows.append(-ascender)
      rows.append(UInt8(ascii: " "))
      rows.append(width * 1.1)
      rows.append(UInt8(ascii: " "))
      rows.append(ascender - descender)
      rows.append(literal: "\">")
      rows += drawn
      rows.append(literal: "</svg></div>\n")
    }
    flushUnchanged()
    return (definitions, rows, withoutOutline)
  }
}

/// A section of the trace page: a run's steps, drawn with the font of `renderer`.
public struct TraceSection {
  /// The section's heading (the run's font, level and script), or nil for none.
  public var title: String?
  /// The run's trace events, their clusters counted from the start of the paragraph.
  public var events: [TraceEvent]
  /// A renderer for the run's font.
  public var renderer: SVGRenderer

  /// A section of each field given.
  public init(title: String?, events: [TraceEvent], renderer: SVGRenderer) {
    (self.title, self.events, self.renderer) = (title, events, renderer)
  }
}

/// What the trace page compares between steps, and the names it gives lookups.
enum TracePage {
  /// The names of the font's lookups from its `Debg` table (fontTools' feaLib writes one when
  /// built with `FONTTOOLS_LOOKUP_DEBUGGING`): by table (`GSUB`, `GPOS`), by lookup index. Empty
  /// without the table, or where it is not the JSON feaLib writes.
  static func lookupNames(_ face: Face) -> [String: [Int: String]] {
    guard let data = face.table("Debg"), let json = try? SourceJSON.parse(data),
      let tables = json["com.github.fonttools.feaLib"]?.members
    else { return [:] }
    var names: [String: [Int: String]] = [:]
    for (table, lookups) in tables {
      for (index, entry) in lookups.members ?? [] {
        guard let index = Int(index), let name = entry.array?.dropFirst().first?.string else { continue }
        names[table, default: [:]][index] = name
      }
    }
    return names
  }

  /// The lookup index of a `start lookup N …` message.
  static func lookupIndex(_ message: String) -> Int? {
    guard message.hasPrefix("start lookup ") else { return nil }
    return Int(message.dropFirst("start lookup ".count).prefix { $0.isNumber })
  }

  /// The positions of the glyphs of `event` whose cluster holds other glyphs than in `previous`
  /// (other IDs, or other advances and offsets once there are positions), so that a ligature marks
  /// its own cluster, not the glyphs after it; every position for the first event, and every one
  /// when positions appear.
  static func changedGlyphs(_ event: TraceEvent, since previous: TraceEvent?) -> [Int] {
    guard let previous, previous.hasPositions == event.hasPositions,
      previous.holdsCodePoints == event.holdsCodePoints
    else { return Array(event.glyphs.indices) }
    func byCluster(_ glyphs: [ShapedGlyph], positions: Bool) -> [Int: [[Int64]]] {
      var clusters: [Int: [[Int64]]] = [:]
      for glyph in glyphs {
        var key = [Int64(glyph.id)]
        if positions {
          key += [glyph.xAdvance, glyph.yAdvance, glyph.xOffset, glyph.yOffset].map { Int64($0) }
        }
        clusters[glyph.cluster, default: []].append(key)
      }
      return clusters
    }
    let before = byCluster(previous.glyphs, positions: event.hasPositions)
    let after = byCluster(event.glyphs, positions: event.hasPositions)
    return event.glyphs.indices.filter { before[event.glyphs[$0].cluster] != after[event.glyphs[$0].cluster] }
  }

  /// Whether `event` changed the glyphs since `previous`: another count, or a cluster changed.
  static func changes(_ event: TraceEvent, since previous: TraceEvent?) -> Bool {
    guard let previous else { return true }
    return event.glyphs.count != previous.glyphs.count || !changedGlyphs(event, since: previous).isEmpty
      || previous.hasPositions != event.hasPositions
  }
}
