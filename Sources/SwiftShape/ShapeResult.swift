import HarfBuzz

/// The glyphs one piece of text was shaped into.
///
/// A result holds one or more runs; text shaped with one font, direction and script (all of
/// `ShapingFont.shape`) gives one run. Positions are in `unit` of each run: font units at the
/// default size, 26.6 fixed point at a point size.
public struct ShapeResult: Sendable, Hashable {
  /// The text that was shaped (without its context).
  public var text: String
  /// What cluster values count.
  public var clusterUnit: ClusterUnit
  /// The runs, in logical order.
  public var runs: [ShapedRun]
  /// What HarfBuzz reported while shaping, in order, when `ShapeOptions.trace` was set.
  public var trace: [TraceEvent]?
  /// For a paragraph (`ShapeOptions.paragraph`): its bidi level, 0 left to right, 1 right to left;
  /// nil for text shaped as one run.
  public var baseLevel: UInt8?
  /// For a paragraph: the characters no font has (drawn as `.notdef`), in logical order; empty
  /// for text shaped as one run.
  public var missingCharacters: [MissingCharacter] = []
  /// For a paragraph broken to a width (`ShapeOptions.lineWidth`): its lines, top to bottom;
  /// `runs` then holds every line's runs, line after line. Nil for text not broken into lines.
  public var lines: [ShapedLine]?
  /// For a paragraph broken to a width: how many line edges fell where HarfBuzz says breaking is
  /// unsafe, so that the text on each side was shaped again.
  public var reshapedEdges = 0
  /// For a paragraph with spans: the spans it was shaped with (those of markup included), which
  /// the runs' `span` indices name.
  public var spans: [TextSpan] = []

  /// An empty result (no text, no runs), for `ShapingFont.shape(_:options:into:)` to fill.
  public init() {
    self.init(text: "", clusterUnit: .unicodeScalars, runs: [])
  }

  /// A result with each field given.
  public init(text: String, clusterUnit: ClusterUnit, runs: [ShapedRun], trace: [TraceEvent]? = nil) {
    self.text = text
    self.clusterUnit = clusterUnit
    self.runs = runs
    self.trace = trace
  }

  /// The text's Unicode scalars, each with its cluster value in `clusterUnit` (what hb-shape's
  /// `--show-unicode` prints).
  public var scalarsWithClusters: [(scalar: Unicode.Scalar, cluster: Int)] {
    var offset = 0
    return text.unicodeScalars.map { scalar in
      defer { offset += clusterUnit.width(of: scalar) }
      return (scalar, offset)
    }
  }

  /// Every glyph of every run, in the order HarfBuzz returned them (visual order for RTL).
  public var glyphs: [ShapedGlyph] { runs.flatMap(\.glyphs) }

  /// The range of `text` that a cluster value covers: from the cluster's start to the next
  /// cluster's start in the same run, or to the end of the text.
  ///
  /// - Returns: nil when `cluster` starts no cluster of the result.
  public func textRange(ofCluster cluster: Int) -> Range<String.Index>? {
    guard let run = runs.first(where: { $0.glyphs.contains { $0.cluster == cluster } }) else { return nil }
    let next = run.glyphs.lazy.map(\.cluster).filter { $0 > cluster }.min()
    guard let start = index(atOffset: cluster) else { return nil }
    let end = next.flatMap(index(atOffset:)) ?? text.endIndex
    return start..<end
  }

  /// The range of `text` the glyph at `glyphIndex` (an index into `glyphs`) was shaped from.
  public func textRange(ofGlyphAt glyphIndex: Int) -> Range<String.Index>? {
    let glyphs = self.glyphs
    guard glyphs.indices.contains(glyphIndex) else { return nil }
    return textRange(ofCluster: glyphs[glyphIndex].cluster)
  }

  /// The `String.Index` at a cluster offset of `clusterUnit`, or nil when it is not a boundary.
  private func index(atOffset offset: Int) -> String.Index? {
    switch clusterUnit {
    case .unicodeScalars:
      let view = text.unicodeScalars
      return view.index(view.startIndex, offsetBy: offset, limitedBy: view.endIndex)
    case .utf8:
      let view = text.utf8
      return view.index(view.startIndex, offsetBy: offset, limitedBy: view.endIndex)
    case .utf16:
      let view = text.utf16
      return view.index(view.startIndex, offsetBy: offset, limitedBy: view.endIndex)
    }
  }
}

/// One step of shaping as HarfBuzz reported it, with the buffer as it stood after the step.
public struct TraceEvent: Sendable, Hashable {
  /// HarfBuzz's message: `start table GSUB`, `start lookup 3 feature 'liga'`, `replaced glyph at
  /// 1 (single substitution)`, …
  public var message: String
  /// The glyphs at that moment, in buffer order (logical order until shaping ends).
  public var glyphs: [ShapedGlyph]
  /// Whether the glyphs have positions yet: false during substitution (GSUB), when their
  /// advances and offsets are zero and mean nothing.
  public var hasPositions: Bool
  /// Whether the buffer still held code points rather than glyphs (the first steps, such as
  /// `start reorder`): each item's `id` is then a code point, and it has no name.
  public var holdsCodePoints: Bool

  /// A trace event with each field given.
  public init(message: String, glyphs: [ShapedGlyph], hasPositions: Bool, holdsCodePoints: Bool = false) {
    self.message = message
    self.glyphs = glyphs
    self.hasPositions = hasPositions
    self.holdsCodePoints = holdsCodePoints
  }
}

/// Glyphs shaped with one font, direction, script and language.
public struct ShapedRun: Sendable, Hashable {
  /// The font the run was shaped with.
  public var font: FontIdentity
  /// The unit of every position in the run.
  public var unit: PositionUnit
  /// The font scale, x and y (positions are in 1/scale em).
  public var scale: Scale
  /// The direction used (given, or from the script).
  public var direction: Direction
  /// The script used (given, or guessed from the text).
  public var script: Script
  /// The language used (given, or the process's locale).
  public var language: Language?
  /// The glyphs, in the order HarfBuzz returned them: visual order, so right to left text comes
  /// last character first. (The runs of one result may share the glyphs' storage.)
  public var glyphs: ShapedGlyphs
  /// For a run of a paragraph (`ShapingFont.shapeParagraph`): its bidi level, even left to
  /// right, odd right to left; nil for text shaped as one run.
  public var level: UInt8?
  /// For a run of a paragraph: the span of the paragraph it holds, in the result's cluster unit,
  /// from the start of the paragraph; nil for text shaped as one run.
  public var range: Range<Int>?
  /// For a run of a paragraph: whether its font is one of the fallback fonts rather than the
  /// paragraph's own.
  public var isFallback = false
  /// For a run of a paragraph with spans (`ShapeOptions.spans`): the index of the span whose
  /// settings (font, size, variations, language) the run has; nil for the paragraph's own.
  public var span: Int?

  /// A run with each field given.
  public init(
    font: FontIdentity, unit: PositionUnit, scale: Scale, direction: Direction, script: Script,
    language: Language?, glyphs: ShapedGlyphs
  ) {
    (self.font, self.unit, self.scale, self.direction) = (font, unit, scale, direction)
    (self.script, self.language, self.glyphs) = (script, language, glyphs)
  }

  /// A run with each field given, its glyphs an array.
  public init(
    font: FontIdentity, unit: PositionUnit, scale: Scale, direction: Direction, script: Script,
    language: Language?, glyphs: [ShapedGlyph]
  ) {
    self.init(
      font: font, unit: unit, scale: scale, direction: direction, script: script, language: language,
      glyphs: ShapedGlyphs(glyphs))
  }

  /// The sum of the advances, in `unit`: the run's width (x) or height (y).
  public var advance: Scale {
    // Read in place: a glyph value is large, and copying each out costs more than the sum.
    glyphs.withUnsafeBufferPointer { glyphs in
      var total = Scale(x: 0, y: 0)
      for index in glyphs.indices {
        total.x &+= glyphs[index].xAdvance
        total.y &+= glyphs[index].yAdvance
      }
      return total
    }
  }
}

/// A pair of values in a run's unit (a scale, a total advance).
public struct Scale: Sendable, Hashable, Codable {
  /// Horizontally.
  public var x: Int32
  /// Vertically.
  public var y: Int32

  /// A vector of (`x`, `y`).
  public init(x: Int32, y: Int32) {
    self.x = x
    self.y = y
  }
}

/// One shaped glyph. Advances, offsets and extents are in the run's `unit`.
public struct ShapedGlyph: Sendable, Hashable, Codable, BitwiseCopyable {
  /// The glyph ID in the font.
  public var id: UInt32
  /// The glyph's name (`gidN` when the font has none), when names were asked for.
  ///
  /// Glyph names are kept once for the life of the process, as HarfBuzz keeps languages (a glyph
  /// holds a reference to its name that is never counted, which keeps copying glyphs cheap), and
  /// compared by their bytes.
  public var name: String? {
    get { internedName?.string }
    set { internedName = newValue.map(InternedName.init) }
  }
  /// The name, as the glyph holds it.
  var internedName: InternedName?
  /// The offset, in the result's `clusterUnit`, of the first character this glyph came from.
  public var cluster: Int
  /// How far the pen moves after this glyph, horizontally.
  public var xAdvance: Int32
  /// How far the pen moves after this glyph, vertically (vertical text; y grows upward).
  public var yAdvance: Int32
  /// How far the glyph is drawn from the pen position, horizontally, without moving the pen.
  public var xOffset: Int32
  /// How far the glyph is drawn from the pen position, vertically (y grows upward).
  public var yOffset: Int32
  /// What may be done at this glyph without reshaping.
  public var flags: GlyphFlags
  /// The glyph's ink box, when extents were asked for and the font has them.
  public var extents: GlyphExtents?

  /// A glyph with each field given.
  public init(
    id: UInt32, name: String? = nil, cluster: Int, xAdvance: Int32, yAdvance: Int32 = 0,
    xOffset: Int32 = 0, yOffset: Int32 = 0, flags: GlyphFlags = [], extents: GlyphExtents? = nil
  ) {
    self.id = id
    self.internedName = name.map(InternedName.init)
    (self.cluster, self.xAdvance, self.yAdvance, self.xOffset) = (cluster, xAdvance, yAdvance, xOffset)
    (self.yOffset, self.flags, self.extents) = (yOffset, flags, extents)
  }

  /// A glyph as HarfBuzz gives it: no name, no extents.
  @inline(__always)
  init(_ record: GlyphRecord) {
    self.init(
      id: record.glyph, cluster: Int(record.cluster), xAdvance: record.xAdvance, yAdvance: record.yAdvance,
      xOffset: record.xOffset, yOffset: record.yOffset, flags: record.flags)
  }

  // Coded as a glyph object of SwiftShape's JSON document: the name as its text, under the
  // document's keys; positions absent (as in a trace event before positioning) are 0. Only the
  // reader spells the keys here: writing is the document writer's.
  private enum CodingKeys: String, CodingKey {
    case id, name, cluster
    case xAdvance = "x_advance"
    case yAdvance = "y_advance"
    case xOffset = "x_offset"
    case yOffset = "y_offset"
    case flags, extents
  }

  /// Reads it from SwiftShape's JSON form.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      id: try container.decode(UInt32.self, forKey: .id),
      name: try container.decodeIfPresent(String.self, forKey: .name),
      cluster: try container.decode(Int.self, forKey: .cluster),
      xAdvance: try container.decodeIfPresent(Int32.self, forKey: .xAdvance) ?? 0,
      yAdvance: try container.decodeIfPresent(Int32.self, forKey: .yAdvance) ?? 0,
      xOffset: try container.decodeIfPresent(Int32.self, forKey: .xOffset) ?? 0,
      yOffset: try container.decodeIfPresent(Int32.self, forKey: .yOffset) ?? 0,
      flags: try container.decode(GlyphFlags.self, forKey: .flags),
      extents: try container.decodeIfPresent(GlyphExtents.self, forKey: .extents))
  }

  /// Writes the glyph object SwiftShape's JSON document holds, as its writer writes it.
  public func encode(to encoder: any Encoder) throws {
    var buffer = ByteBuffer(capacity: 512)
    withUnsafePointer(to: self) {
      ShapeDocument.appendGlyph($0, positions: true, index: 0, indent: nil, spaced: false, to: &buffer)
    }
    try SourceJSON.parse(buffer.finish()).encode(to: encoder)
  }
}

/// A line of a paragraph broken to a width (`ShapeOptions.lineWidth`). Positions are in the
/// result's unit; y grows downward from the top of the paragraph.
public struct ShapedLine: Sendable, Hashable {
  /// The span of the paragraph the line holds, in the result's cluster unit.
  public var range: Range<Int>
  /// The sum of its runs' advances, trailing whitespace included.
  public var advance: Int32
  /// The advance without the whitespace at its end (which hangs past the width): what fits.
  public var visibleAdvance: Int32
  /// The largest ascender of its fonts.
  public var ascent: Int32
  /// The largest descender of its fonts, as a distance below the baseline.
  public var descent: Int32
  /// Where its baseline is: the distance from the top of the paragraph.
  public var baseline: Int32
  /// Where its first glyph (in visual order) starts, from the left of the width, by the alignment.
  public var x: Int32
  /// Its runs in visual order (rule L2 for the line; trailing whitespace at the paragraph level,
  /// rule L1).
  public var runs: [ShapedRun]
  /// With `LineAlignment.justify`: how the line was filled to the width; nil for the other
  /// alignments.
  public var fill: LineFill?
  /// Whether the line ends in a hyphen it was given: it breaks after a soft hyphen (U+00AD), which
  /// is then shaped as a hyphen.
  public var hyphen = false

  /// A line with each field given.
  public init(
    range: Range<Int>, advance: Int32, visibleAdvance: Int32, ascent: Int32, descent: Int32, baseline: Int32,
    x: Int32, runs: [ShapedRun], fill: LineFill? = nil
  ) {
    (self.range, self.advance, self.visibleAdvance, self.ascent) = (range, advance, visibleAdvance, ascent)
    (self.descent, self.baseline, self.x, self.runs, self.fill) = (descent, baseline, x, runs, fill)
  }
}

extension ShapedRun {
  /// Sets every field of a run of this font, its glyphs by `write`, in place.
  mutating func fill(
    identity: FontIdentity, unit: PositionUnit, scale: Scale, properties: (Direction, Script, Language?),
    glyphs write: (inout [ShapedGlyph]) -> Void
  ) {
    if font != identity { font = identity }
    self.unit = unit
    self.scale = scale
    (direction, script, language) = properties
    level = nil
    range = nil
    glyphs.withArray(write)
  }
}
