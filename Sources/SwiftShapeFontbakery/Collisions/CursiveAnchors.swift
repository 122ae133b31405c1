import HarfBuzz

/// The entry and exit anchors of cursive attachment (`GPOS` lookup type 3, also inside extension
/// lookups, type 9), by glyph: what the `cursive` collision rule needs. HarfBuzz applies these
/// lookups but does not list their anchors, so they are read from the table here.
///
/// Everything is bounds-checked: a malformed table gives the anchors read before the damage.
enum CursiveAnchors {
  static func read(_ face: Face) -> [UInt32: [OutlinePoint]] {
    guard let table = face.table("GPOS") else { return [:] }
    var anchors: [UInt32: [OutlinePoint]] = [:]
    let reader = TableReader(bytes: table)
    guard let lookupList = reader.u16(8), let lookupCount = reader.u16(lookupList) else { return [:] }
    for lookupIndex in 0..<lookupCount {
      guard let offset = reader.u16(lookupList + 2 + 2 * lookupIndex) else { break }
      let lookup = lookupList + offset
      guard let type = reader.u16(lookup), let subtableCount = reader.u16(lookup + 4) else { continue }
      guard type == 3 || type == 9 else { continue }
      for subtableIndex in 0..<subtableCount {
        guard let subtableOffset = reader.u16(lookup + 6 + 2 * subtableIndex) else { break }
        var subtable = lookup + subtableOffset
        if type == 9 {
          guard reader.u16(subtable) == 1, reader.u16(subtable + 2) == 3,
            let extensionOffset = reader.u32(subtable + 4)
          else { continue }
          subtable += extensionOffset
        }
        read(subtable: subtable, reader, into: &anchors)
      }
    }
    return anchors
  }

  /// A CursivePosFormat1 subtable: a coverage and an entry/exit record per covered glyph.
  private static func read(subtable: Int, _ reader: TableReader, into anchors: inout [UInt32: [OutlinePoint]])
  {
    guard reader.u16(subtable) == 1, let coverageOffset = reader.u16(subtable + 2),
      let count = reader.u16(subtable + 4)
    else { return }
    let glyphs = coverage(at: subtable + coverageOffset, reader)
    for (index, glyph) in glyphs.enumerated() where index < count {
      var points: [OutlinePoint] = []
      for side in 0..<2 {
        guard let anchorOffset = reader.u16(subtable + 6 + 4 * index + 2 * side), anchorOffset != 0,
          let x = reader.i16(subtable + anchorOffset + 2), let y = reader.i16(subtable + anchorOffset + 4)
        else { continue }
        points.append(OutlinePoint(x: Double(x), y: Double(y)))
      }
      anchors[glyph, default: []] += points
    }
  }

  /// The glyphs of a coverage table, in coverage order.
  private static func coverage(at offset: Int, _ reader: TableReader) -> [UInt32] {
    guard let format = reader.u16(offset), let count = reader.u16(offset + 2) else { return [] }
    var glyphs: [UInt32] = []
    switch format {
    case 1:
      for index in 0..<count {
        guard let glyph = reader.u16(offset + 4 + 2 * index) else { break }
        glyphs.append(UInt32(glyph))
      }
    case 2:
      for index in 0..<count {
        let record = offset + 4 + 6 * index
        guard let start = reader.u16(record), let end = reader.u16(record + 2), start <= end else { break }
        glyphs += (start...end).map(UInt32.init)
      }
    default: break
    }
    return glyphs
  }

  /// Big-endian reads that give nil past the end.
  private struct TableReader {
    var bytes: [UInt8]

    func u16(_ offset: Int) -> Int? {
      guard offset >= 0, offset + 2 <= bytes.count else { return nil }
      return Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
    }

    func i16(_ offset: Int) -> Int16? { u16(offset).map { Int16(bitPattern: UInt16($0)) } }

    func u32(_ offset: Int) -> Int? {
      guard let high = u16(offset), let low = u16(offset + 2) else { return nil }
      return high << 16 | low
    }
  }
}
