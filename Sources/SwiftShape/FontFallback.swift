import HarfBuzz
import SwiftShapeUnicode

/// The fonts a paragraph falls back on, in priority order, for the characters its own font
/// lacks: the fonts given after the first (`--fallback-font-file`), or the rest of fontconfig's
/// sorted list for a pattern. A `ShapingFont` made `withFallback(_:)` shapes paragraphs with its
/// own font first and these after it.
///
/// Each grapheme cluster of a paragraph takes the first font that has all its characters
/// (default ignorables — joiners, variation selectors, bidi controls — need no font); a cluster
/// drawn as an emoji tries the color fonts first; a space or a punctuation mark stays in the font
/// of the text before it when that font has it and the two are at the same bidi level. A cluster no
/// one font has whole is cut between fonts, each character in the font of the one before it when
/// that font has it, else in the first font that has it; a character no font has is drawn with the
/// font of the one before it (the paragraph's own at a cluster's start, its `.notdef`) and listed
/// in the result's `missingCharacters`.
///
/// Fonts are loaded when a cluster first needs them and kept: share one fallback between lines
/// and requests. Safe to use from several threads.
public final class FontFallback: Sendable {
  /// A font of the list before it is loaded.
  public struct Candidate: Sendable, Hashable {
    /// The font file.
    public var file: String
    /// The face in the file.
    public var faceIndex: Int
    /// Its family name, when known.
    public var family: String?
    /// Whether it draws emoji in color (bitmaps or color layers).
    public var isColor: Bool
    /// The characters it has, when known without loading it (fontconfig's charset); nil to load
    /// it and ask its `cmap`.
    public var coverage: CharacterCoverage?

    /// A fallback of candidate fonts, loaded when a character first needs one.
    public init(
      file: String, faceIndex: Int = 0, family: String? = nil, isColor: Bool = false,
      coverage: CharacterCoverage? = nil
    ) {
      (self.file, self.faceIndex, self.family, self.isColor) = (file, faceIndex, family, isColor)
      self.coverage = coverage
    }
  }

  private enum Entry: Sendable {
    case font(ShapingFont, isColor: Bool)
    case candidate(Candidate)

    var isColor: Bool {
      switch self {
      case .font(_, let isColor): isColor
      case .candidate(let candidate): candidate.isColor
      }
    }
  }

  private let entries: [Entry]
  /// The options candidates are loaded with (the size is made the paragraph font's scale).
  private let options: ShapingFont.Options
  private let cache: FontCache
  /// Loaded candidates, by entry and scale: `.some(nil)` for one that could not be loaded.
  private let loaded = Protected<[LoadKey: ShapingFont?]>([:])

  private struct LoadKey: Hashable {
    var entry: Int
    var scale: Scale
  }

  /// Fonts already loaded, used as they are (their size should be the paragraph font's, so that
  /// the runs' positions share a unit).
  public init(fonts: [ShapingFont]) {
    self.entries = fonts.map { .font($0, isColor: $0.isColorFont) }
    self.options = ShapingFont.Options()
    self.cache = FontCache()
  }

  /// Fonts loaded when first needed, each through `cache` with `options` at the scale of the
  /// paragraph's own font.
  public init(candidates: [Candidate], options: ShapingFont.Options = .init(), cache: FontCache = FontCache())
  {
    self.entries = candidates.map { .candidate($0) }
    self.options = options
    self.cache = cache
  }

  /// How many fonts the list has.
  public var count: Int { entries.count }

  /// Whether the list is empty.
  public var isEmpty: Bool { entries.isEmpty }

  /// The font of entry `index` for a paragraph whose own font is `primary`: loaded, at
  /// `primary`'s scale, on first use; nil when it cannot be loaded.
  func font(_ index: Int, for primary: ShapingFont) -> ShapingFont? {
    switch entries[index] {
    case .font(let font, _): return font
    case .candidate(let candidate):
      let key = LoadKey(entry: index, scale: primary.scale)
      if let font = loaded.withLock({ $0[key] }) { return font }
      var options = self.options
      options.size =
        primary.options.size == .unitsPerEm
        ? .scale(x: primary.scale.x, y: primary.scale.y) : primary.options.size
      options.variations = primary.options.variations
      let font = try? cache.font(file: candidate.file, faceIndex: candidate.faceIndex, options: options)
      loaded.withLock { $0[key] = .some(font) }
      return font
    }
  }

  /// The font of the list with this file and face, as paragraphs shaped with `primary` use it
  /// (loaded on first use); nil when the list has no such font or it cannot be loaded.
  public func font(file: String, faceIndex: Int, for primary: ShapingFont) -> ShapingFont? {
    let index = entries.firstIndex { entry in
      switch entry {
      case .font(let font, _): font.identity.file == file && font.identity.faceIndex == faceIndex
      case .candidate(let candidate): candidate.file == file && candidate.faceIndex == faceIndex
      }
    }
    return index.flatMap { self.font($0, for: primary) }
  }

  /// Whether entry `index` has `scalar`.
  func covers(_ index: Int, _ scalar: Unicode.Scalar, for primary: ShapingFont) -> Bool {
    if case .candidate(let candidate) = entries[index], let coverage = candidate.coverage {
      return coverage.contains(scalar)
    }
    return font(index, for: primary)?.font.nominalGlyph(for: scalar) != nil
  }

  /// Whether entry `index` is a color font.
  func isColor(_ index: Int) -> Bool { entries[index].isColor }

  /// Whether any entry is a color font.
  var hasColorFont: Bool { entries.contains(where: \.isColor) }
}

/// A set of Unicode scalars kept as 256-bit pages, as fontconfig keeps a font's charset.
public struct CharacterCoverage: Sendable, Hashable {
  private var pages: [UInt32: Int] = [:]
  private var words: [UInt64] = []

  /// An empty set.
  public init() {}

  /// The set of the given pages: for each, the page number (scalar value >> 8) and the 256 bits
  /// of its characters, as eight 32-bit words, lowest characters first.
  public init(pages given: some Sequence<(page: UInt32, bits: [UInt32])>) {
    for (page, bits) in given where bits.count == 8 {
      pages[page] = words.count
      for pair in stride(from: 0, to: 8, by: 2) {
        words.append(UInt64(bits[pair]) | UInt64(bits[pair + 1]) << 32)
      }
    }
  }

  /// Whether the set has `scalar`.
  public func contains(_ scalar: Unicode.Scalar) -> Bool {
    guard let start = pages[scalar.value >> 8] else { return false }
    let bit = Int(scalar.value & 0xFF)
    return words[start + bit >> 6] & (1 << UInt64(bit & 63)) != 0
  }
}

extension ShapingFont {
  /// Whether the font draws glyphs in color: it has color bitmaps (`CBDT`, `sbix`), color layers
  /// (`COLR`) or SVG glyphs (`SVG `).
  public var isColorFont: Bool {
    let color: Set<OpenTypeTag> = ["CBDT", "sbix", "COLR", "SVG "]
    return font.face.tableTags.contains(where: color.contains)
  }
}

/// A character of a paragraph that no font has: it is drawn as the `.notdef` glyph of the font
/// of its run.
public struct MissingCharacter: Sendable, Hashable, Codable {
  /// The character.
  public var scalar: Unicode.Scalar
  /// Where it is, in the result's cluster unit, from the start of the paragraph.
  public var offset: Int

  /// A character at an offset of the text.
  public init(scalar: Unicode.Scalar, offset: Int) {
    self.scalar = scalar
    self.offset = offset
  }

  private enum CodingKeys: String, CodingKey {
    case scalar = "code_point"
    case offset = "cluster"
  }

  /// Reads it from SwiftShape's JSON form.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let value = try container.decode(UInt32.self, forKey: .scalar)
    guard let scalar = Unicode.Scalar(value) else {
      throw DecodingError.dataCorruptedError(
        forKey: .scalar, in: container, debugDescription: "not a Unicode scalar value")
    }
    self.scalar = scalar
    self.offset = try container.decode(Int.self, forKey: .offset)
  }

  /// Writes it in SwiftShape's JSON form.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(scalar.value, forKey: .scalar)
    try container.encode(offset, forKey: .offset)
  }
}

extension FontFallback {
  /// The font of each scalar of a paragraph (0 for `primary`, i + 1 for entry i of the list), or
  /// nil when `primary` has every character (and no cluster is an emoji the list has a color font
  /// for): the rules are those of the type's description, the text before or after a space being
  /// that of the same bidi level (`runs`, the paragraph's runs of one level and script).
  /// Whether `primary` takes every one of `scalars` (`fonts(for:runs:primary:styles:)` is then
  /// nil): it has each but the default ignorables, and none asks for an emoji where this list has
  /// color fonts and `primary` is not one.
  func primaryHasAll(_ scalars: [Unicode.Scalar], primary: ShapingFont) throws -> Bool {
    try primaryHasAll(scalars, traits: FallbackTraits.of(scalars), primary: primary)
  }

  private func primaryHasAll(_ scalars: [Unicode.Scalar], traits: [FallbackTraits], primary: ShapingFont)
    -> Bool
  {
    let emoji = hasColorFont && !primary.isColorFont
    return scalars.indices.allSatisfy { index in
      let trait = traits[index]
      if trait.contains(.ignorable) { return true }
      if emoji, !trait.isDisjoint(with: [.emojiPresentation, .selectsEmoji]) { return false }
      return primary.font.nominalGlyph(for: scalars[index]) != nil
    }
  }

  func fonts(for scalars: [Unicode.Scalar], runs: [TextRun], primary: ShapingFont, styles: [Int]? = nil)
    throws
    -> [Int]?
  {
    let traits = try FallbackTraits.of(scalars)
    let emoji = hasColorFont && !primary.isColorFont
    if primaryHasAll(scalars, traits: traits, primary: primary) { return nil }

    func covers(_ font: Int, _ cluster: Range<Int>) -> Bool {
      cluster.allSatisfy { index in
        traits[index].contains(.ignorable)
          || (font == 0
            ? primary.font.nominalGlyph(for: scalars[index]) != nil
            : self.covers(font - 1, scalars[index], for: primary))
      }
    }
    let all = Array(0...count)
    let colorFirst = all.filter { $0 > 0 && isColor($0 - 1) } + all.filter { $0 == 0 || !isColor($0 - 1) }
    /// The first font that has the whole cluster; nil when none has.
    func firstCovering(_ cluster: Range<Int>) -> Int? {
      let order = emoji && FallbackTraits.isEmojiCluster(cluster.map { traits[$0] }) ? colorFirst : all
      return order.first { covers($0, cluster) }
    }

    let clusters = try GraphemeClusters.ranges(scalars)
    var levels = [UInt8](filledWith: 0, count: scalars.count)
    for run in runs {
      for index in run.range { levels[index] = run.level }
    }
    // A cluster of spaces, punctuation and ignorables takes the font before it when that font
    // has it and the two are at the same bidi level (in one of Pango's items: at a level's
    // edge, a space takes the first font that has it, as Pango has it).
    var chosen = [Int](filledWith: 0, count: clusters.count)
    for (index, cluster) in clusters.enumerated() {
      let follows = cluster.allSatisfy { !traits[$0].isDisjoint(with: [.spaceOrPunctuation, .ignorable]) }
      // (Nor across the edge of a span's style: Pango's items end there too.)
      let sameStyle =
        index > 0 && (styles.map { $0[clusters[index - 1].lowerBound] == $0[cluster.lowerBound] } ?? true)
      if follows, index > 0, chosen[index - 1] >= 0, sameStyle,
        levels[clusters[index - 1].lowerBound] == levels[cluster.lowerBound],
        covers(chosen[index - 1], cluster)
      {
        chosen[index] = chosen[index - 1]
      } else {
        // -1: no font has the whole cluster, which is cut between fonts below.
        chosen[index] = firstCovering(cluster) ?? -1
      }
    }
    var fonts = [Int](filledWith: 0, count: scalars.count)
    for (index, cluster) in clusters.enumerated() {
      guard chosen[index] < 0 else {
        for scalar in cluster { fonts[scalar] = chosen[index] }
        continue
      }
      // A cluster no one font has whole (a Hebrew point on an Arabic letter, a keycap the color
      // font lacks for that digit) is cut as Pango cuts it: each character in the font of the one
      // before it when that font has it, else in the first font that has it, else in the font of
      // the character before (the base in the paragraph's own font when none has it).
      var previous: Int?
      for scalar in cluster {
        if let previous, covers(previous, scalar..<(scalar + 1)) {
          fonts[scalar] = previous
        } else {
          fonts[scalar] = all.first { covers($0, scalar..<(scalar + 1)) } ?? previous ?? 0
        }
        previous = fonts[scalar]
      }
    }
    return fonts
  }
}
