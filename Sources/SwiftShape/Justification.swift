import HarfBuzz

/// How a line of a paragraph broken with `LineAlignment.justify` was filled to the width.
public struct LineFill: Sendable, Hashable, Codable {
  /// Where the space went.
  public enum Kind: String, Sendable, Hashable, Codable {
    /// Between words: added to the advance of each word separator inside the line (U+0020,
    /// U+00A0, U+1680, U+2000–U+200A, U+202F, U+205F, U+3000).
    case spaces
    /// Between characters, for a line without word separators (CJK, Thai): added after each
    /// grapheme cluster but the last.
    case characters
    /// Nowhere: the paragraph's last line, a line before a hard break, a line that already fills
    /// the width, one with no place to add space, or one that would need more than an em at each
    /// place (`ShapeOptions` documents the limit). It sits at the paragraph's start.
    case none
  }

  /// Where the space went.
  public var kind: Kind
  /// The space added, in the result's unit.
  public var added: Int32
  /// How many places took it.
  public var places: Int
  /// Where tatweels went first (`ShapeOptions.kashida`): the offset, in the cluster unit, of the
  /// character each goes before, one entry a tatweel, in the text's order; their width is not in
  /// `added`, which is what the spaces took after them.
  public var kashidas: [Int] = []

  /// A fill of each field given.
  public init(kind: Kind, added: Int32, places: Int, kashidas: [Int] = []) {
    (self.kind, self.added, self.places, self.kashidas) = (kind, added, places, kashidas)
  }

  private enum CodingKeys: String, CodingKey { case kind, added, places, kashidas }

  /// Reads a fill; `kashidas` may be absent (none).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    kind = try container.decode(Kind.self, forKey: .kind)
    added = try container.decode(Int32.self, forKey: .added)
    places = try container.decode(Int.self, forKey: .places)
    kashidas = try container.decodeIfPresent([Int].self, forKey: .kashidas) ?? []
  }

  /// Writes a fill; `kashidas` only when there are some.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(kind, forKey: .kind)
    try container.encode(added, forKey: .added)
    try container.encode(places, forKey: .places)
    if !kashidas.isEmpty { try container.encode(kashidas, forKey: .kashidas) }
  }
}

extension ShapingFont {
  /// Fills `line` (not the paragraph's last, `isLast`) to `width` as `LineAlignment.justify`
  /// asks: the free width split over the line's word separators before its trailing whitespace,
  /// else between its grapheme clusters, the remainder one unit each to the first places in the
  /// text's order, at most an em a place; else left ragged at the paragraph's start.
  ///
  /// - Parameters:
  ///   - scalarAt: the scalar at each offset of the cluster unit (-1 inside one); `scalars` the
  ///     paragraph's; `hanging`, the offset where the line's trailing whitespace starts;
  ///     `clusterStarts`, the offsets where grapheme clusters start, asked for only for a line
  ///     without word separators.
  func justify(
    _ line: inout ShapedLine, width: Int32, isLast: Bool, scalars: [Unicode.Scalar], scalarAt: [Int],
    hanging: Int, clusterStarts: () throws -> Set<Int>, baseLevel: UInt8
  ) rethrows {
    func ragged() {
      line.fill = LineFill(kind: .none, added: 0, places: 0)
      line.x = baseLevel & 1 == 1 ? width &- line.visibleAdvance : 0
    }
    let lastScalar = line.range.upperBound > 0 ? scalarAt[line.range.upperBound - 1] : -1
    let hardBreak: Bool
    switch lastScalar >= 0 ? scalars[lastScalar].value : 0 {
    case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: hardBreak = true
    default: hardBreak = false
    }
    let free = width &- line.visibleAdvance
    guard !isLast, !hardBreak, free > 0, !(line.runs.first?.direction.isVertical ?? true) else {
      ragged()
      return
    }
    // The places: the first glyph of each separator's cluster, else of each cluster but the
    // line's last visible one; in the text's order.
    // (The clusters are gathered only for a line without separators: gathering both for every
    // line cost justifying a tenth more on the English text, counted with callgrind. The glyphs
    // are read through buffer pointers, and the places are a struct's, not a tuple's, whose
    // arrays look their type up at run time: a third of justifying a Persian line. They are
    // gathered by a function of its own: by nested functions, which captured the line and the
    // arrays, each append was checked for exclusive access at run time, 15,000 checks a pass over
    // the Persian lines.)
    var separators: [JustificationPlace] = []
    separators.reserveCapacity(32)
    Self.gatherPlaces(
      line.runs, separators: true, hanging: hanging, scalarAt: scalarAt, scalars: scalars, into: &separators)
    var clusters: [JustificationPlace] = []
    if separators.isEmpty {
      Self.gatherPlaces(
        line.runs, separators: false, hanging: hanging, scalarAt: scalarAt, scalars: scalars, into: &clusters)
    }
    if separators.isEmpty {
      let starts = try clusterStarts()
      clusters.removeAll { !starts.contains($0.cluster) }
    }
    JustificationPlace.sortByCluster(&clusters)
    JustificationPlace.sortByCluster(&separators)
    let kind: LineFill.Kind = separators.isEmpty ? .characters : .spaces
    // Between clusters: after each but the last in the text's order (before it, for glyphs
    // drawn right to left, which is the same gap).
    let places = separators.isEmpty ? Array(clusters.dropLast()) : separators
    let em = Int64(line.runs.first?.scale.x ?? scale.x)
    guard !places.isEmpty, Int64(free) <= em * Int64(places.count) else {
      ragged()
      return
    }
    let each = free / Int32(places.count)
    let remainder = Int(free % Int32(places.count))
    // (A run's glyphs widened through one buffer pointer: a glyph at a time through the line's
    // runs, each write asked whether the run's storage was its own, 1 M instructions a pass over
    // the Persian lines, callgrind.)
    for run in line.runs.indices where places.contains(where: { $0.run == run }) {
      line.runs[run].glyphs.withUnsafeMutableBufferPointer { glyphs in
        for (index, place) in places.enumerated() where place.run == run {
          glyphs[place.glyph].xAdvance &+= each &+ (index < remainder ? 1 : 0)
        }
      }
    }
    line.advance &+= free
    line.visibleAdvance &+= free
    line.x = 0
    line.fill = LineFill(kind: kind, added: free, places: places.count)
  }

  /// The places of `runs` before `hanging`, in the runs' order: the first glyph of each word
  /// separator's cluster (`wantsSeparators`), or of each other cluster.
  private static func gatherPlaces(
    _ runs: [ShapedRun], separators wantsSeparators: Bool, hanging: Int, scalarAt: [Int],
    scalars: [Unicode.Scalar], into places: inout [JustificationPlace]
  ) {
    // (The paragraph's tables read through buffer pointers: bounds checked for each glyph, they
    // were a tenth of justifying a Persian line, callgrind.)
    scalarAt.withUnsafeBufferPointer { scalarAt in
      scalars.withUnsafeBufferPointer { scalars in
        for runIndex in runs.indices {
          runs[runIndex].glyphs.withUnsafeBufferPointer { glyphs in
            // A cluster's glyphs come together in a run: each is taken at its first glyph.
            var previous = -1
            for glyphIndex in glyphs.indices {
              let cluster = glyphs[glyphIndex].cluster
              guard cluster < hanging, cluster != previous else { continue }
              previous = cluster
              let scalar = cluster < scalarAt.count ? scalarAt[cluster] : -1
              let isSeparator = scalar >= 0 && isWordSeparator(scalars[scalar])
              if isSeparator == wantsSeparators {
                places.append(JustificationPlace(cluster: cluster, run: runIndex, glyph: glyphIndex))
              }
            }
          }
        }
      }
    }
  }

  /// A place justification widens: the first glyph (`glyph` of run `run`) of a cluster.
  struct JustificationPlace {
    var cluster: Int
    var run: Int
    var glyph: Int

    /// Sorts `places` by their clusters: reversed where they are in descending order (a line
    /// of one right-to-left run), else sorted.
    static func sortByCluster(_ places: inout [JustificationPlace]) {
      if places.indices.dropFirst().allSatisfy({ places[$0 - 1].cluster <= places[$0].cluster }) { return }
      if places.indices.dropFirst().allSatisfy({ places[$0 - 1].cluster > places[$0].cluster }) {
        places.reverse()
        return
      }
      places.sort { $0.cluster < $1.cluster }
    }
  }

  /// Whether justification may widen the character: a word separator (CSS Text's, as browsers
  /// take them: the space, the no-break space, Ogham's space mark, the fixed-width spaces but the
  /// figure and punctuation spaces, the narrow no-break space, the medium mathematical space, the
  /// ideographic space).
  static func isWordSeparator(_ scalar: Unicode.Scalar) -> Bool {
    // (Below Ogham's space mark, two compares: Latin, Arabic and most text are there.)
    if scalar.value < 0x1680 { return scalar.value == 0x20 || scalar.value == 0xA0 }
    return switch scalar.value {
    case 0x20, 0xA0, 0x1680, 0x2000...0x2006, 0x2009, 0x200A, 0x202F, 0x205F, 0x3000: true
    default: false
    }
  }
}
