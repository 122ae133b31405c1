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
/// (`morx`, `mort`, `kerx`), or with a table these rules cannot read is not joined at all.
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
  func insertedDottedCircle(_ glyphs: [ShapedGlyph], text: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let dottedCircle, glyphs.contains(where: { $0.id == dottedCircle }) else { return false }
    // U+25CC in UTF-8: E2 97 8C.
    return !(0..<max(0, text.count - 2)).contains {
      text[$0] == 0xE2 && text[$0 + 1] == 0x97 && text[$0 + 2] == 0x8C
    }
  }

  /// Whether a piece whose first character has `glyph` as its nominal glyph may follow a space
  /// shaped apart from it.
  func mayFollowSpace(_ glyph: UInt32) -> Bool { isUsable && !unsafeAfter.contains(glyph) }

  /// Whether a piece whose last character has `glyph` as its nominal glyph may precede a space
  /// shaped apart from it.
  func mayPrecedeSpace(_ glyph: UInt32) -> Bool { isUsable && !unsafeBefore.contains(glyph) }

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
          if let edges = lookups.substitutions(in: lookup) {
            substitutions += edges
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
    return true
  }

  /// A lookup that reads the space with these flags looks past the classes they ignore.
  private mutating func notePastIgnored(_ flags: UInt16) {
    if flags & 0x0008 != 0 || flags & 0xFF00 != 0 || flags & 0x0010 != 0 { ignoresMarks = true }
    if flags & 0x0004 != 0 { ignoresLigatures = true }
  }
}

/// Big-endian reads from a table's bytes; nil past its end.
struct TableBytes {
  let bytes: [UInt8]

  func u16(_ at: Int) -> UInt16? {
    guard at >= 0, at + 2 <= bytes.count else { return nil }
    return UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])
  }

  func u32(_ at: Int) -> UInt32? {
    guard let high = u16(at), let low = u16(at + 2) else { return nil }
    return UInt32(high) << 16 | UInt32(low)
  }
}

/// A layout table's lookups: each one's flags and its subtables' types and offsets (extension
/// subtables resolved).
private struct LookupList {
  struct Lookup {
    var flags: UInt16
    var types: [UInt16]
    var subtables: [Int]

    /// Whether every subtable substitutes or positions one glyph at a time (single, multiple and
    /// alternate substitution; single positioning).
    func actsOnOneGlyph(_ table: Face.LayoutTable) -> Bool {
      types.allSatisfy { table == .gsub ? (1...3).contains($0) : $0 == 1 }
    }
  }

  let data: TableBytes
  var lookups: [Lookup] = []

  init?(face: Face, table: Face.LayoutTable) {
    data = TableBytes(bytes: face.table(OpenTypeTag(stringLiteral: table.rawValue)) ?? [])
    guard !data.bytes.isEmpty else { return }
    let extensionType: UInt16 = table == .gsub ? 7 : 9
    guard let listOffset = data.u16(8).map(Int.init), let count = data.u16(listOffset) else { return nil }
    for index in 0..<Int(count) {
      guard let offset = data.u16(listOffset + 2 + 2 * index).map({ listOffset + Int($0) }),
        let type = data.u16(offset), let flags = data.u16(offset + 2),
        let subtableCount = data.u16(offset + 4)
      else { return nil }
      var lookup = Lookup(flags: flags, types: [], subtables: [])
      for subtable in 0..<Int(subtableCount) {
        guard var start = data.u16(offset + 6 + 2 * subtable).map({ offset + Int($0) }) else { return nil }
        var subtableType = type
        if type == extensionType {
          guard let inner = data.u16(start + 2), let extensionOffset = data.u32(start + 4) else { return nil }
          subtableType = inner
          start += Int(extensionOffset)
        }
        lookup.types.append(subtableType)
        lookup.subtables.append(start)
      }
      lookups.append(lookup)
    }
    // HarfBuzz reads as many lookups as the list has; so does this.
    guard lookups.count == face.lookupCount(in: table) else { return nil }
  }

  /// A pair-positioning subtable's format, where its coverage is, and the sizes of its two value
  /// records; nil when it cannot be read.
  private func pairHeader(at start: Int) -> (format: UInt16, coverage: Int, size1: Int, size2: Int)? {
    guard let format = data.u16(start), let coverage = data.u16(start + 2), let format1 = data.u16(start + 4),
      let format2 = data.u16(start + 6)
    else { return nil }
    return (
      format, start + Int(coverage), 2 * (format1 & 0xFF).nonzeroBitCount,
      2 * (format2 & 0xFF).nonzeroBitCount
    )
  }

  /// Whether any of the `size` bytes of value records at `at` is not zero; nil past the table.
  private func nonZero(_ at: Int, _ size: Int) -> Bool? {
    var any = false
    for field in stride(from: 0, to: size, by: 2) {
      guard let value = data.u16(at + field) else { return nil }
      any = any || value != 0
    }
    return any
  }

  /// The second glyphs of `first`'s pairs with a value that is not zero, in a pair-positioning
  /// lookup; nil when a subtable cannot be read.
  func pairPartners(of first: UInt32, in lookup: Lookup, glyphCount: Int) -> [UInt32]? {
    var partners: [UInt32] = []
    for start in lookup.subtables {
      guard let (format, coverage, size1, size2) = pairHeader(at: start),
        let coverageIndex = self.coverageIndex(of: first, at: coverage)
      else { return nil }
      guard let index = coverageIndex else { continue }
      switch format {
      case 1:
        guard let setCount = data.u16(start + 8), index < Int(setCount),
          let set = data.u16(start + 10 + 2 * index).map({ start + Int($0) }), let pairCount = data.u16(set)
        else { return nil }
        let recordSize = 2 + size1 + size2
        for pair in 0..<Int(pairCount) {
          let record = set + 2 + pair * recordSize
          guard let second = data.u16(record), let hasValue = nonZero(record + 2, size1 + size2) else {
            return nil
          }
          if hasValue { partners.append(UInt32(second)) }
        }
      case 2:
        guard let classDef1 = data.u16(start + 8).map({ start + Int($0) }),
          let classDef2 = data.u16(start + 10).map({ start + Int($0) }),
          let class1Count = data.u16(start + 12).map(Int.init),
          let class2Count = data.u16(start + 14).map(Int.init),
          let class1 = self.glyphClass(of: first, at: classDef1), class1 < class1Count,
          let members = classMembers(at: classDef2)
        else { return nil }
        let recordSize = size1 + size2
        for class2 in 0..<class2Count {
          let record = start + 16 + (class1 * class2Count + class2) * recordSize
          guard let hasValue = nonZero(record, recordSize) else { return nil }
          guard hasValue else { continue }
          if class2 == 0 {
            // Class 0 is every glyph the class definition does not name.
            var named = GlyphBits(count: glyphCount)
            for glyphs in members.values { for glyph in glyphs { named.insert(glyph) } }
            partners += named.complement(count: glyphCount)
          } else {
            partners += members[class2] ?? []
          }
        }
      default: return nil
      }
    }
    return partners
  }

  /// The first glyphs of the pairs whose second is `second`, with a value that is not zero, in a
  /// pair-positioning lookup; nil when a subtable cannot be read.
  func pairFirsts(with second: UInt32, in lookup: Lookup, glyphCount: Int) -> [UInt32]? {
    var firsts: [UInt32] = []
    for start in lookup.subtables {
      guard let (format, coverageOffset, size1, size2) = pairHeader(at: start),
        let coverage = covered(at: coverageOffset)
      else { return nil }
      switch format {
      case 1:
        guard let setCount = data.u16(start + 8), Int(setCount) >= coverage.count else { return nil }
        let recordSize = 2 + size1 + size2
        for (index, first) in coverage.enumerated() {
          guard let set = data.u16(start + 10 + 2 * index).map({ start + Int($0) }),
            let pairCount = data.u16(set)
          else { return nil }
          for pair in 0..<Int(pairCount) {
            let record = set + 2 + pair * recordSize
            guard let glyph = data.u16(record) else { return nil }
            guard UInt32(glyph) == second else { continue }
            guard let hasValue = nonZero(record + 2, size1 + size2) else { return nil }
            if hasValue { firsts.append(first) }
          }
        }
      case 2:
        guard let classDef1 = data.u16(start + 8).map({ start + Int($0) }),
          let classDef2 = data.u16(start + 10).map({ start + Int($0) }),
          let class1Count = data.u16(start + 12).map(Int.init),
          let class2Count = data.u16(start + 14).map(Int.init),
          let class2 = glyphClass(of: second, at: classDef2), class2 < class2Count,
          let members = classMembers(at: classDef1)
        else { return nil }
        var classOf: [UInt32: Int] = [:]
        for (value, glyphs) in members { for glyph in glyphs { classOf[glyph] = value } }
        let recordSize = size1 + size2
        for class1 in 0..<class1Count {
          let record = start + 16 + (class1 * class2Count + class2) * recordSize
          guard let hasValue = nonZero(record, recordSize) else { return nil }
          guard hasValue else { continue }
          firsts += coverage.filter { (classOf[$0] ?? 0) == class1 }
        }
      default: return nil
      }
    }
    return firsts
  }

  /// What a substitution lookup turns into what, as (from, to) pairs: single, multiple, alternate,
  /// ligature (each component to the ligature) and reverse chaining substitution; none for
  /// contextual lookups (they substitute through the lookups they call). Nil when a subtable
  /// cannot be read.
  func substitutions(in lookup: Lookup) -> [(from: UInt32, to: UInt32)]? {
    var edges: [(from: UInt32, to: UInt32)] = []
    for (type, start) in zip(lookup.types, lookup.subtables) {
      guard let format = data.u16(start) else { return nil }
      if (5...7).contains(type) { continue }
      guard let coverage = data.u16(start + 2).flatMap({ covered(at: start + Int($0)) }) else { return nil }
      switch (type, format) {
      case (1, 1):
        guard let delta = data.u16(start + 4) else { return nil }
        for glyph in coverage { edges.append((glyph, UInt32((UInt16(truncatingIfNeeded: glyph) &+ delta)))) }
      case (1, 2):
        for (index, glyph) in coverage.enumerated() {
          guard let to = data.u16(start + 6 + 2 * index) else { return nil }
          edges.append((glyph, UInt32(to)))
        }
      case (2, 1), (3, 1):
        for (index, glyph) in coverage.enumerated() {
          guard let set = data.u16(start + 6 + 2 * index).map({ start + Int($0) }), let count = data.u16(set)
          else {
            return nil
          }
          for item in 0..<Int(count) {
            guard let to = data.u16(set + 2 + 2 * item) else { return nil }
            edges.append((glyph, UInt32(to)))
          }
        }
      case (4, 1):
        for (index, glyph) in coverage.enumerated() {
          guard let set = data.u16(start + 6 + 2 * index).map({ start + Int($0) }), let count = data.u16(set)
          else {
            return nil
          }
          for item in 0..<Int(count) {
            guard let ligature = data.u16(set + 2 + 2 * item).map({ set + Int($0) }),
              let to = data.u16(ligature), let components = data.u16(ligature + 2)
            else { return nil }
            edges.append((glyph, UInt32(to)))
            for component in 1..<max(1, Int(components)) {
              guard let from = data.u16(ligature + 2 + 2 * component) else { return nil }
              edges.append((UInt32(from), UInt32(to)))
            }
          }
        }
      case (8, 1):
        guard let backtrack = data.u16(start + 4).map(Int.init),
          let lookahead = data.u16(start + 6 + 2 * backtrack).map(Int.init),
          let count = data.u16(start + 8 + 2 * backtrack + 2 * lookahead).map(Int.init),
          count == coverage.count
        else { return nil }
        for (index, glyph) in coverage.enumerated() {
          guard let to = data.u16(start + 10 + 2 * backtrack + 2 * lookahead + 2 * index) else { return nil }
          edges.append((glyph, UInt32(to)))
        }
      default: return nil
      }
    }
    return edges
  }

  /// The glyphs a coverage table names, in coverage-index order; nil when it cannot be read.
  private func covered(at offset: Int) -> [UInt32]? {
    guard let format = data.u16(offset), let count = data.u16(offset + 2) else { return nil }
    var glyphs: [UInt32] = []
    switch format {
    case 1:
      for index in 0..<Int(count) {
        guard let glyph = data.u16(offset + 4 + 2 * index) else { return nil }
        glyphs.append(UInt32(glyph))
      }
    case 2:
      for range in 0..<Int(count) {
        let record = offset + 4 + 6 * range
        guard let first = data.u16(record), let last = data.u16(record + 2), first <= last else { return nil }
        glyphs += (UInt32(first)...UInt32(last)).map { $0 }
      }
    default: return nil
    }
    return glyphs
  }

  /// The coverage index of `glyph` (nil inside: not covered); nil when the table cannot be read.
  private func coverageIndex(of glyph: UInt32, at offset: Int) -> Int?? {
    guard let format = data.u16(offset), let count = data.u16(offset + 2) else { return nil }
    switch format {
    case 1:
      for index in 0..<Int(count) {
        guard let covered = data.u16(offset + 4 + 2 * index) else { return nil }
        if UInt32(covered) == glyph { return .some(index) }
      }
      return .some(nil)
    case 2:
      for range in 0..<Int(count) {
        let record = offset + 4 + 6 * range
        guard let first = data.u16(record), let last = data.u16(record + 2),
          let startIndex = data.u16(record + 4)
        else { return nil }
        if (UInt32(first)...UInt32(max(first, last))).contains(glyph) {
          return .some(Int(startIndex) + Int(glyph - UInt32(first)))
        }
      }
      return .some(nil)
    default: return nil
    }
  }

  /// The class of `glyph` in a class definition (0 when it names none); nil when unreadable.
  private func glyphClass(of glyph: UInt32, at offset: Int) -> Int? {
    guard let members = classMembers(at: offset) else { return nil }
    return members.first { $0.value.contains(glyph) }?.key ?? 0
  }

  /// The glyphs of each class a class definition names; nil when it cannot be read.
  private func classMembers(at offset: Int) -> [Int: [UInt32]]? {
    guard let format = data.u16(offset) else { return nil }
    var members: [Int: [UInt32]] = [:]
    switch format {
    case 1:
      guard let startGlyph = data.u16(offset + 2), let count = data.u16(offset + 4) else { return nil }
      for index in 0..<Int(count) {
        guard let value = data.u16(offset + 6 + 2 * index) else { return nil }
        if value != 0 { members[Int(value), default: []].append(UInt32(startGlyph) + UInt32(index)) }
      }
    case 2:
      guard let count = data.u16(offset + 2) else { return nil }
      for range in 0..<Int(count) {
        let record = offset + 4 + 6 * range
        guard let first = data.u16(record), let last = data.u16(record + 2), let value = data.u16(record + 4)
        else { return nil }
        if value != 0, first <= last {
          members[Int(value), default: []] += (UInt32(first)...UInt32(last)).map { $0 }
        }
      }
    default: return nil
    }
    return members
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
