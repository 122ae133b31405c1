import HarfBuzz

// The layout tables' lookups as `SpaceJoints` reads them: their flags, subtables, pairs,
// substitutions and coverage tables, straight from the table's bytes.

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
struct LookupList {
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
  /// contextual lookups (they substitute through the lookups they call). And the glyphs it
  /// deletes: a multiple substitution's to an empty sequence, or to one its offset 0 or its
  /// sequence count leaves out, which HarfBuzz reads as empty (the specification forbids empty
  /// sequences; HarfBuzz deletes the glyph, as Uniscribe does). Nil when a subtable cannot be read.
  func substitutions(in lookup: Lookup) -> (edges: [(from: UInt32, to: UInt32)], deleted: [UInt32])? {
    var edges: [(from: UInt32, to: UInt32)] = []
    var deleted: [UInt32] = []
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
        guard let setCount = data.u16(start + 4).map(Int.init) else { return nil }
        for (index, glyph) in coverage.enumerated() {
          // A set past the count or at offset 0 is HarfBuzz's empty one: a multiple
          // substitution deletes the glyph, an alternate one leaves it.
          guard index < setCount, let offset = data.u16(start + 6 + 2 * index), offset != 0 else {
            if type == 2 { deleted.append(glyph) }
            continue
          }
          let set = start + Int(offset)
          guard let count = data.u16(set) else { return nil }
          if type == 2, count == 0 { deleted.append(glyph) }
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
    return (edges, deleted)
  }

  /// Whether every coverage table of the lookup's subtables lists its glyphs in order (format 1)
  /// or has ranges that are ranges (format 2), and can be read: HarfBuzz collects a lookup's
  /// glyphs (`hb_ot_layout_lookup_collect_glyphs`) only up to the first glyph out of order, and
  /// leaves the subtable's other coverage tables out, while applying it finds every glyph (a
  /// binary search). Where a coverage is out of order, what the lookup reads is not known.
  func coveragesInOrder(of lookup: Lookup, in table: Face.LayoutTable) -> Bool {
    for (type, start) in zip(lookup.types, lookup.subtables) {
      guard let format = data.u16(start) else { return false }
      var offsets: [Int] = []
      /// Offsets to `count` coverage tables from `at`, relative to the subtable.
      func list(_ count: Int, at: Int) -> Bool {
        for index in 0..<count {
          guard let offset = data.u16(at + 2 * index) else { return false }
          offsets.append(start + Int(offset))
        }
        return true
      }
      let contextual = table == .gsub ? type == 5 : type == 7
      let chained = table == .gsub ? type == 6 : type == 8
      if (table == .gpos && (4...6).contains(type)) {
        guard list(2, at: start + 2) else { return false }
      } else if (contextual || chained) && format == 3 {
        guard let count = data.u16(start + 2) else { return false }
        if contextual {
          guard list(Int(count), at: start + 6) else { return false }
        } else {
          // Backtrack, input and lookahead coverage lists, one after the other.
          var at = start + 2
          for _ in 0..<3 {
            guard let count = data.u16(at), list(Int(count), at: at + 2) else { return false }
            at += 2 + 2 * Int(count)
          }
        }
      } else if table == .gsub && type == 8 {
        guard list(1, at: start + 2) else { return false }
        var at = start + 4
        for _ in 0..<2 {
          guard let count = data.u16(at), list(Int(count), at: at + 2) else { return false }
          at += 2 + 2 * Int(count)
        }
      } else {
        guard list(1, at: start + 2) else { return false }
      }
      for offset in offsets {
        guard let coverageFormat = data.u16(offset), let count = data.u16(offset + 2) else { return false }
        switch coverageFormat {
        case 1:
          var last: UInt16 = 0
          for index in 0..<Int(count) {
            guard let glyph = data.u16(offset + 4 + 2 * index), glyph >= last else { return false }
            last = glyph
          }
        case 2:
          for range in 0..<Int(count) {
            let record = offset + 4 + 6 * range
            guard let first = data.u16(record), let last = data.u16(record + 2), first <= last else {
              return false
            }
          }
        default: return false
        }
      }
    }
    return true
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
