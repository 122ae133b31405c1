import HarfBuzz

/// Settings for shaping one piece of text. The defaults are hb-shape's.
public struct ShapeOptions: Sendable, Hashable, Codable {
  /// Feature settings over the shaper's defaults (`-liga`, `ss01`, `kern[3:5]=0`).
  public var features: [Feature] = []
  /// The direction; nil to take it from the script.
  public var direction: Direction?
  /// The script; nil to guess it from the text.
  public var script: Script?
  /// The language; nil for the process's locale, as hb-shape does (pin it for reproducible output).
  public var language: Language?
  /// How characters are grouped into clusters.
  public var clusterLevel: Buffer.ClusterLevel = .monotoneGraphemes
  /// What a cluster value counts.
  public var clusterUnit: ClusterUnit = .unicodeScalars
  /// Text before the shaped text that shaping may look at (for joining, contextual forms).
  public var textBefore: String = ""
  /// Text after the shaped text that shaping may look at.
  public var textAfter: String = ""
  /// Buffer flags: beginning/end of text, default ignorables, dotted circle, glyph-flag production.
  public var bufferFlags: Buffer.Flags = []
  /// The glyph that replaces default-ignorable characters; 0 hides them.
  public var invisibleGlyph: UInt32 = 0
  /// The glyph for characters the font does not cover; 0 is `.notdef`.
  public var notFoundGlyph: UInt32 = 0
  /// The glyph a variation selector becomes when the font does not map it with its base; nil
  /// removes it (HarfBuzz's default). Needs HarfBuzz 10.0.0 (`EngineFeature`), else shaping with
  /// it fails.
  public var notFoundVariationSelectorGlyph: UInt32?
  /// The shapers to try in order (`ot`, `fallback`); nil for HarfBuzz's default list.
  public var shapers: [String]?
  /// Whether each glyph carries its name (`gidN` when the font has none).
  public var includeGlyphNames: Bool = true
  /// Whether each glyph carries its ink extents.
  public var includeExtents: Bool = false
  /// Reorder each cluster's glyphs into a canonical order after shaping (hb-shape's
  /// `--normalize-glyphs`).
  public var normalizeGlyphs: Bool = false
  /// Check the result as HarfBuzz does for `--verify`: clusters monotone where they must be, and
  /// the same glyphs when the text is shaped again in pieces cut where the result says it is safe
  /// to break or to concatenate. A failed check throws `ShapingError` of kind
  /// `.verificationFailed` naming it.
  public var verify: Bool = false
  /// Record every step HarfBuzz reports while shaping (`ShapeResult.trace`).
  public var trace: Bool = false
  /// Shape the text as a paragraph from this base direction (bidi, script runs, runs in visual
  /// order: `ShapingFont.shapeParagraph`); nil to shape it as one run, as hb-shape does.
  public var paragraph: BaseDirection?
  /// With `paragraph`: break the paragraph into lines of at most this width, in the unit of the
  /// result's positions (`ShapeResult.lines`); nil for one line however long.
  public var lineWidth: Int32?
  /// With `lineWidth`: where each line sits in the width.
  public var alignment: LineAlignment = .start
  /// With `lineWidth`: cut a word wider than the width between its grapheme clusters, rather than
  /// giving it a line of its own that overflows.
  public var breaksAnywhere: Bool = false
  /// With `lineWidth`: hyphenate the word a line would end before, at the last point where the
  /// line and a hyphen still fit (libhyphen with the dictionary of `language`, or of a span's
  /// language where it has one: `Hyphenator`); the hyphen (U+2010, else `-`) is shaped with its
  /// word and the line says so (`ShapedLine.hyphen`). Needs `language`.
  public var hyphenates: Bool = false
  /// With `alignment` `.justify`: whether lines of Arabic script are stretched with tatweels
  /// first (`Kashida`); nil for `.auto`.
  public var kashida: KashidaMode?
  /// Shape through the shaping cache (`ShapingCache`), which gives the same glyphs, byte for byte,
  /// faster where text comes back; false to call HarfBuzz for the whole text every time.
  public var usesCache: Bool = true
  /// Ranges of the paragraph with a style of their own (font, size, variations, language,
  /// features: `TextSpan`); text with spans is shaped as a paragraph (`paragraph`, `.auto` when
  /// nil).
  public var spans: [TextSpan] = []
  /// Read the text as markup (`MarkupText`: `<span>`, `<b>`, `<i>`): its elements become spans and
  /// the result's text is the text without them.
  public var readsMarkup: Bool = false

  /// Options with each setting given; the defaults are hb-shape's.
  public init(
    features: [Feature] = [], direction: Direction? = nil, script: Script? = nil, language: Language? = nil
  ) {
    self.features = features
    self.direction = direction
    self.script = script
    self.language = language
  }
}

/// What a cluster value counts, from the start of the shaped text.
public enum ClusterUnit: String, Sendable, Hashable, CaseIterable, Codable {
  /// Unicode scalars (code points), as hb-shape counts by default.
  case unicodeScalars = "scalars"
  /// UTF-8 bytes, as hb-shape's `--utf8-clusters`.
  case utf8
  /// UTF-16 code units, as platforms built on UTF-16 count.
  case utf16
}

extension ClusterUnit {
  /// How many of this unit a scalar takes: 1, or its UTF-8 or UTF-16 length.
  public func width(of scalar: Unicode.Scalar) -> Int {
    switch self {
    case .unicodeScalars: 1
    case .utf8: UTF8.width(scalar)
    case .utf16: UTF16.width(scalar)
    }
  }

  /// How many of this unit `text` takes.
  func length(of text: String) -> Int {
    switch self {
    case .unicodeScalars: text.unicodeScalars.count
    case .utf8: text.utf8.count
    case .utf16: text.utf16.count
    }
  }
}

/// Where a line sits in the width it is broken to.
public enum LineAlignment: String, Sendable, Hashable, CaseIterable, Codable {
  /// At the paragraph's start: the left for a left-to-right paragraph, the right for right to left.
  case start
  /// At the paragraph's end.
  case end
  /// In the middle.
  case center
  /// Filling the width: every line but the paragraph's last (and those before a hard break) gets
  /// space between its words, or between its characters when it has no word separator, at most
  /// an em at each place; a line that would need more stays at the start (`ShapedLine.fill` says
  /// how each was filled).
  case justify
}

extension ShapeOptions {
  /// Whether a run is shaped alike with these options and `other`: every setting compared but
  /// those of paragraphs and lines (the base direction, width, alignment, breaking anywhere,
  /// hyphenation, kashida, spans, markup), which decide what text is shaped as a run, not how a
  /// run is shaped. The shaping cache's tables are found by it (`ThreadCache.table`): text broken
  /// into lines, justified or hyphenated finds the pieces of the same text shaped as paragraphs.
  /// (`ShapingCacheTests` checks that each setting is either compared here or in `laidOutFields`.)
  func shapesRunsAlike(_ other: ShapeOptions) -> Bool {
    features == other.features && direction == other.direction && script == other.script
      && language == other.language && clusterLevel == other.clusterLevel && clusterUnit == other.clusterUnit
      && textBefore == other.textBefore && textAfter == other.textAfter && bufferFlags == other.bufferFlags
      && invisibleGlyph == other.invisibleGlyph && notFoundGlyph == other.notFoundGlyph
      && notFoundVariationSelectorGlyph == other.notFoundVariationSelectorGlyph && shapers == other.shapers
      && includeGlyphNames == other.includeGlyphNames && includeExtents == other.includeExtents
      && normalizeGlyphs == other.normalizeGlyphs && verify == other.verify && trace == other.trace
      && usesCache == other.usesCache
  }

  /// `stored.shapesRunsAlike(other)` with `edges` (buffer flags) added to `stored`'s for the
  /// comparison and taken back after; `stored` read in place (see `ThreadCache.table`).
  static func shapeRunsAlike(
    _ stored: inout ShapeOptions, _ other: ShapeOptions, addingEdges edges: Buffer.Flags
  )
    -> Bool
  {
    if edges.isEmpty { return stored.shapesRunsAlike(other) }
    stored.bufferFlags.formUnion(edges)
    defer { stored.bufferFlags.subtract(edges) }
    return stored.shapesRunsAlike(other)
  }

  /// The settings `shapesRunsAlike` does not compare: those of paragraphs and lines.
  static let laidOutFields: Set<String> = [
    "paragraph", "lineWidth", "alignment", "breaksAnywhere", "hyphenates", "kashida", "spans", "readsMarkup",
  ]

  /// These options with the settings of paragraphs and lines (`laidOutFields`) as they are by
  /// default.
  var withoutLayout: ShapeOptions {
    var options = self
    (options.paragraph, options.lineWidth, options.alignment) = (nil, nil, .start)
    (options.breaksAnywhere, options.hyphenates, options.kashida) = (false, false, nil)
    (options.spans, options.readsMarkup) = ([], false)
    return options
  }
}
