import HarfBuzz

/// What a font lets reach across a space: which glyphs, first after a run of spaces, may be
/// shaped differently beside the space than alone. The shaping cache joins separately shaped
/// pieces of a line only at a space followed by a character whose glyph is not among them, so
/// that the joined glyphs are the ones HarfBuzz gives the whole line.
///
/// A lookup can act across a space only by reading the space's glyph (or by skipping base glyphs,
/// which would skip the space). So the glyphs that may interact with a preceding space are:
/// - those of every `GSUB` and `GPOS` lookup whose glyphs (as HarfBuzz collects them: before,
///   input, after, output) include the space's, except pair positioning, read pair by pair: the
///   second glyphs of the space's pairs with a value that is not zero;
/// - the second glyphs of the space's pairs in a `kern` table;
/// - any glyph that substitutions can turn into one of those (the inputs of each `GSUB` lookup
///   that can produce one, to a fixed point), since a glyph is seen by later lookups in the form
///   earlier ones gave it;
/// - where a lookup that reads the space ignores marks or ligatures: every glyph of those classes,
///   and what can turn into one, since such a lookup would look past it.
/// A font with a lookup that ignores base glyphs (other than one glyph at a time), with AAT tables
/// (`morx`, `mort`, `kerx`), with a coverage table out of order (which HarfBuzz applies but does
/// not collect whole), or with a table these rules cannot read is not joined at all.
struct SpaceJoints: Sendable {
  /// Whether pieces may be joined at all.
  let isUsable: Bool
  /// The glyphs that may interact with a space before them, and with a space after them (a bit
  /// a glyph).
  private let unsafeAfter: GlyphBits
  private let unsafeBefore: GlyphBits
  /// The glyph of U+25CC DOTTED CIRCLE, which HarfBuzz puts in for broken clusters.
  private let dottedCircle: UInt32?

  /// Whether `glyphs`, shaped from `text`, hold a dotted circle the text does not have.
  func insertedDottedCircle(_ glyphs: UnsafeBufferPointer<ShapedGlyph>, text: UnsafeBufferPointer<UInt8>)
    -> Bool
  {
    guard let dottedCircle, glyphs.contains(where: { $0.id == dottedCircle }) else { return false }
    return !Self.holdsDottedCircle(text)
  }

  /// Whether a piece's glyphs hold a dotted circle that its text does not.
  func insertedDottedCircle(_ glyphs: UnsafeBufferPointer<PieceGlyph>, text: UnsafeBufferPointer<UInt8>)
    -> Bool
  {
    guard let dottedCircle, glyphs.contains(where: { $0.id == dottedCircle }) else { return false }
    return !Self.holdsDottedCircle(text)
  }

  private static func holdsDottedCircle(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    // U+25CC in UTF-8: E2 97 8C.
    (0..<max(0, text.count - 2)).contains { text[$0] == 0xE2 && text[$0 + 1] == 0x97 && text[$0 + 2] == 0x8C }
  }

  /// Whether a piece whose first character has `glyph` as its nominal glyph may follow a space
  /// shaped apart from it.
  func mayFollowSpace(_ glyph: UInt32) -> Bool { isUsable && !unsafeAfter.contains(glyph) }

  /// Whether a piece whose last character has `glyph` as its nominal glyph may precede a space
  /// shaped apart from it.
  func mayPrecedeSpace(_ glyph: UInt32) -> Bool { isUsable && !unsafeBefore.contains(glyph) }

  /// What a character allows at a run of spaces with `font`: bit 0 a cut after the run when it
  /// follows it (it starts a cluster, and its glyph may follow a space shaped apart), bit 1 a cut
  /// before the run when it precedes it.
  func cutRule(for scalar: Unicode.Scalar, font: Font) -> UInt8 {
    let glyph = font.nominalGlyph(for: scalar) ?? 0
    return (ShapingFont.startsAlone(scalar) && mayFollowSpace(glyph) ? 1 : 0)
      | (ShapingFont.endsAlone(scalar) && mayPrecedeSpace(glyph) ? 2 : 0)
  }

  /// The joints of no font: never usable.
  static let unusable = SpaceJoints()

  private init() {
    (isUsable, dottedCircle) = (false, nil)
    (unsafeAfter, unsafeBefore) = (GlyphBits(count: 0), GlyphBits(count: 0))
  }

  init(font: Font) {
    let face = font.face
    dottedCircle = font.nominalGlyph(for: "\u{25CC}")
    let tags = Set(face.tableTags.map(\.description))
    guard tags.isDisjoint(with: ["morx", "mort", "kerx"]), let space = font.nominalGlyph(for: " ") else {
      self.isUsable = false
      (unsafeAfter, unsafeBefore) = (GlyphBits(count: 0), GlyphBits(count: 0))
      return
    }
    var analysis = Analysis(face: face, space: space)
    isUsable = analysis.run(hasKern: tags.contains("kern"))
    (unsafeAfter, unsafeBefore) = (analysis.after, analysis.before)
  }
}

/// A set of glyph IDs, a bit each.
struct GlyphBits: Sendable {
  private(set) var words: [UInt64]

  init(count: Int) { words = Array(repeating: 0, count: (count + 63) / 64) }

  func contains(_ glyph: UInt32) -> Bool {
    let word = Int(glyph >> 6)
    return word < words.count && words[word] & (1 << UInt64(glyph & 63)) != 0
  }

  /// Adds `glyph`; returns whether it was new.
  @discardableResult
  mutating func insert(_ glyph: UInt32) -> Bool {
    let word = Int(glyph >> 6)
    guard word < words.count else { return false }
    let bit: UInt64 = 1 << UInt64(glyph & 63)
    defer { words[word] |= bit }
    return words[word] & bit == 0
  }

  /// Every glyph below `count` that is not in the set.
  func complement(count: Int) -> [UInt32] { (0..<UInt32(count)).filter { !contains($0) } }
}

/// The reading of a face's layout tables for `SpaceJoints`.
private struct Analysis {
  let face: Face
  let space: UInt32
  let glyphCount: Int
  /// The glyphs unsafe after a space, and before one.
  var after: GlyphBits
  var before: GlyphBits
  /// What each substitution can turn into what: (from, to) pairs, for the closure.
  var substitutions: [(from: UInt32, to: UInt32)] = []
  /// The glyphs a multiple substitution deletes.
  var deleted: [UInt32] = []
  /// The GDEF classes lookups that read the space look past.
  var ignoresMarks = false
  var ignoresLigatures = false

  init(face: Face, space: UInt32) {
    self.face = face
    self.space = space
    glyphCount = face.glyphCount
    (after, before) = (GlyphBits(count: glyphCount), GlyphBits(count: glyphCount))
  }

  /// Marks a glyph unsafe on both sides of a space.
  private mutating func insertBoth(_ glyph: UInt32) {
    after.insert(glyph)
    before.insert(glyph)
  }

  /// Fills `unsafe`; false when the font cannot be joined at all.
  mutating func run(hasKern: Bool) -> Bool {
    for table in Face.LayoutTable.allCases {
      guard let lookups = LookupList(face: face, table: table) else { return false }
      for (index, lookup) in lookups.lookups.enumerated() {
        // A coverage out of order hides glyphs from HarfBuzz's collection (`coveragesInOrder`).
        guard lookups.coveragesInOrder(of: lookup, in: table) else { return false }
        // Skipping base glyphs skips the space: such a lookup (unless it acts on one glyph at a
        // time) could join glyphs on both sides of it without reading it.
        if lookup.flags & 0x0002 != 0, !lookup.actsOnOneGlyph(table) { return false }
        if table == .gpos, lookup.types.allSatisfy({ $0 == 2 }) {
          guard let seconds = lookups.pairPartners(of: space, in: lookup, glyphCount: glyphCount),
            let firsts = lookups.pairFirsts(with: space, in: lookup, glyphCount: glyphCount)
          else { return false }
          if !seconds.isEmpty || !firsts.isEmpty { notePastIgnored(lookup.flags) }
          for glyph in seconds { after.insert(glyph) }
          for glyph in firsts { before.insert(glyph) }
          continue
        }
        let glyphs = face.glyphs(ofLookup: index, in: table)
        if table == .gsub {
          // Contextual lookups substitute only through the lookups they call, which are read on
          // their own; a subtable that cannot be read counts as turning any input into any output.
          if let found = lookups.substitutions(in: lookup) {
            substitutions += found.edges
            deleted += found.deleted
          } else {
            for input in glyphs.input {
              for output in glyphs.output { substitutions.append((input, output)) }
            }
          }
        }
        guard glyphs.all.contains(space) else { continue }
        notePastIgnored(lookup.flags)
        for glyph in glyphs.all { insertBoth(glyph) }
      }
    }
    if hasKern {
      guard
        let pairs = KernTable.pairs(with: space, in: face.table(OpenTypeTag(rawValue: 0x6B65_726E)) ?? [])
      else { return false }
      for glyph in pairs.seconds { after.insert(glyph) }
      for glyph in pairs.firsts { before.insert(glyph) }
    }
    // A glyph HarfBuzz deletes gives its cluster to the glyph before it, or, first in the buffer,
    // to the glyph after it (`hb_buffer_t::delete_glyph`): first in a piece shaped apart, it
    // would give it to the glyph after. Such glyphs go on neither side of a cut, and a font
    // that deletes its space is not joined.
    for glyph in deleted { insertBoth(glyph) }
    if ignoresMarks || ignoresLigatures {
      for glyph in 0..<UInt32(glyphCount) {
        switch face.glyphClass(glyph) {
        case .mark where ignoresMarks, .ligature where ignoresLigatures: insertBoth(glyph)
        default: break
        }
      }
    }
    // What substitutions can turn into an unsafe glyph is unsafe too.
    var changed = true
    while changed {
      changed = false
      for (from, to) in substitutions {
        if after.contains(to), after.insert(from) { changed = true }
        if before.contains(to), before.insert(from) { changed = true }
      }
    }
    // (The space, or what it can become, deleted: runs of spaces start pieces' cuts.)
    if !deleted.isEmpty {
      var deletable = GlyphBits(count: glyphCount)
      for glyph in deleted { deletable.insert(glyph) }
      var grew = true
      while grew {
        grew = false
        for (from, to) in substitutions where deletable.contains(to) && deletable.insert(from) { grew = true }
      }
      if deletable.contains(space) { return false }
    }
    return true
  }

  /// A lookup that reads the space with these flags looks past the classes they ignore.
  private mutating func notePastIgnored(_ flags: UInt16) {
    if flags & 0x0008 != 0 || flags & 0xFF00 != 0 || flags & 0x0010 != 0 { ignoresMarks = true }
    if flags & 0x0004 != 0 { ignoresLigatures = true }
  }
}

/// The `kern` table's pairs (OpenType's version 0 and Apple's version 1, format 0 subtables).
private enum KernTable {
  /// The glyphs paired with `space` with a value that is not zero: the firsts of its pairs as the
  /// second glyph, the seconds of those as the first; nil when a subtable is not format 0 or
  /// cannot be read.
  static func pairs(with space: UInt32, in bytes: [UInt8]) -> (firsts: [UInt32], seconds: [UInt32])? {
    let data = TableBytes(bytes: bytes)
    guard let version = data.u16(0) else { return bytes.isEmpty ? ([], []) : nil }
    let apple = version == 1
    guard let count = apple ? data.u32(4).map(Int.init) : data.u16(2).map(Int.init) else { return nil }
    var offset = apple ? 8 : 4
    var firsts: [UInt32] = []
    var seconds: [UInt32] = []
    for _ in 0..<count {
      let length: Int
      let format: UInt16
      let body: Int
      if apple {
        guard let size = data.u32(offset), let coverage = data.u16(offset + 4) else { return nil }
        (length, format, body) = (Int(size), coverage & 0xFF, offset + 8)
      } else {
        guard let size = data.u16(offset + 2), let coverage = data.u16(offset + 4) else { return nil }
        (length, format, body) = (Int(size), coverage >> 8, offset + 6)
      }
      guard format == 0, let pairCount = data.u16(body) else { return nil }
      for pair in 0..<Int(pairCount) {
        let record = body + 8 + 6 * pair
        guard let left = data.u16(record), let right = data.u16(record + 2), let value = data.u16(record + 4)
        else { return nil }
        if value != 0, UInt32(left) == space { seconds.append(UInt32(right)) }
        if value != 0, UInt32(right) == space { firsts.append(UInt32(left)) }
      }
      // An OpenType subtable's 16-bit length can overflow; its pairs say where it ends.
      offset = apple ? offset + length : body + 8 + 6 * Int(pairCount)
    }
    return (firsts, seconds)
  }
}
