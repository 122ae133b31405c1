import HarfBuzz
import SwiftShapeUnicode

/// Whether justified lines of Arabic script are filled with kashidas (`ShapeOptions.kashida`).
public enum KashidaMode: String, Sendable, Hashable, Codable, CaseIterable {
  /// Tatweels (U+0640) where HarfBuzz says one may go, then spaces for the rest.
  case auto
  /// Spaces only.
  case none
}

/// Kashida: a justified line of Arabic script stretched with tatweels (U+0640) before it is
/// stretched at its spaces.
///
/// - Where: only before a character HarfBuzz flags `HB_GLYPH_FLAG_SAFE_TO_INSERT_TATWEEL` (the
///   run shaped again with `HB_BUFFER_FLAG_PRODUCE_SAFE_TO_INSERT_TATWEEL`), inside a word (not
///   at its first character), one place a word: the place of the highest priority in the word, by
///   the order of W3C's Arabic and Persian layout requirements (alreq) and the common practice
///   it describes —
///   1. after Seen, Sheen, Sad or Dad (the long stroke of the seen family),
///   2. before Alef, Tah, Zah, Lam, Kaf, Keheh or Gaf (before a tall letter),
///   3. before Heh, Heh Goal, Teh Marbuta, Dal, Thal, Hah, Jeem or Khah,
///   4. before Reh, Zain, Jeh, Waw, Yeh, Farsi Yeh or Alef Maksura,
///   5. anywhere else it is safe; within a priority, the place nearest the word's end.
/// - How many: as many tatweels as fit in the free width (the tatweel glyph's advance each), over
///   the places by priority, then in the text's order, at most `maximumPerPlace` at one place;
///   the rest of the free width goes to the spaces (`justify`).
/// - What: the line's Arabic runs shaped again with the tatweels written at those places (with
///   the paragraph around them as context): the glyphs of that text, exactly. A tatweel's glyph
///   takes the cluster of the character it goes before.
/// - Not: with a font that has no tatweel (the line is filled with spaces), in scripts other than
///   Arabic, on the paragraph's last line or before a hard break.
enum Kashida {
  /// The most tatweels at one place.
  static let maximumPerPlace = 4

  static let arabic = Script(iso15924: "Arab")

  /// The priority of a tatweel between `previous` and `next` (1 first; 5 for any other place).
  static func priority(after previous: Unicode.Scalar, before next: Unicode.Scalar) -> Int {
    switch previous.value {
    case 0x633...0x636: return 1
    default: break
    }
    switch next.value {
    case 0x622, 0x623, 0x625, 0x627, 0x637, 0x638, 0x644, 0x643, 0x6A9, 0x6AF: return 2
    case 0x647, 0x6C1, 0x629, 0x62F, 0x630, 0x62C...0x62E: return 3
    case 0x631, 0x632, 0x698, 0x648, 0x64A, 0x6CC, 0x649: return 4
    default: return 5
    }
  }

  /// Whether the paragraph `text` is shaped with HarfBuzz's tatweel flag
  /// (`HB_BUFFER_FLAG_PRODUCE_SAFE_TO_INSERT_TATWEEL`) for kashida's places, the flag taken off
  /// the glyphs after: justified with kashida, with a character of the Arabic script's blocks,
  /// the flag not asked for.
  ///
  /// Exact: the flag changes nothing else HarfBuzz gives. It sets `SAFE_TO_INSERT_TATWEEL` where
  /// joining would otherwise set `UNSAFE_TO_BREAK` and `UNSAFE_TO_CONCAT`, and at the end of
  /// shaping adds those two to every glyph it left flagged, and leaves unflagged a glyph another
  /// step made unsafe to break (`hb-buffer.hh`, `hb-ot-shape.cc`, 6.0 through 15.0): taking the
  /// tatweel bit off gives the glyphs shaped without the flag, flags and all. (Checked with
  /// hb-shape 6.0.0 and 15.0.0 on the Persian corpus in four fonts, and by `KashidaTests` on the
  /// engine in use.)
  ///
  /// Speed: the places come with the paragraph's shaping; shaping the paragraph again with the
  /// flag for them cost the Persian text justified at 40 em as much as its lines.
  static func flagsPlaces(_ text: String, options: ShapeOptions) -> Bool {
    guard options.alignment == .justify, options.kashida != KashidaMode.none,
      !options.bufferFlags.contains(.produceSafeToInsertTatweel)
    else { return false }
    // Read from the UTF-8 as it stands: the lead bytes of U+0600–U+077F (D8–DD), and the first
    // two of U+0870–U+08FF (E0 A1 B0 to E0 A3 BF) and U+FB50–U+FEFF (EF AD 90 to EF BB BF). (It
    // takes the Syriac block, U+0700–U+074F, for Arabic too: the flag then changes nothing.)
    var text = text
    return text.withUTF8 { bytes in
      for index in bytes.indices {
        let byte = bytes[index]
        if byte >= 0xD8, byte <= 0xDD { return true }
        if byte == 0xE0 || byte == 0xEF, index + 2 < bytes.count {
          let (next, last) = (bytes[index + 1], bytes[index + 2])
          if byte == 0xE0
            ? (0xA1...0xA3).contains(next) && (next > 0xA1 || last >= 0xB0)
            : (0xAD...0xBB).contains(next) && (next > 0xAD || last >= 0x90)
          {
            return true
          }
        }
      }
      return false
    }
  }

  /// Takes HarfBuzz's tatweel flag off a result's glyphs (its runs' and its lines'): a result
  /// of `breakLines`, whose runs are its lines' runs.
  static func removeFlags(from result: inout ShapeResult) {
    // A broken paragraph's runs are its lines' (`breakLines`), the same glyphs: the lines'
    // are cleared alone, in place, and the runs made of them again.
    guard var lines = result.lines, !lines.isEmpty else {
      removeFlags(from: &result.runs)
      return
    }
    result.lines = nil
    result.runs = []
    for line in lines.indices { removeFlags(from: &lines[line].runs) }
    // (A closure, not a key path: a key path is read through the runtime's generic projection.)
    result.runs = lines.flatMap { $0.runs }
    result.lines = lines
  }

  /// Takes HarfBuzz's tatweel flag off `runs`' glyphs.
  static func removeFlags(from runs: inout [ShapedRun]) {
    // (Through buffer pointers, a run written only where it has the flag: a glyph at a time
    // through the arrays, 3,600 instructions a Persian paragraph, callgrind. The bit cleared
    // with a mask: through `OptionSet.remove`, which returns what it removed, clearing took
    // 0.8 M instructions a pass over the Persian lines.)
    for run in runs.indices { removeFlags(from: &runs[run]) }
  }

  /// Takes HarfBuzz's tatweel flag off a run's glyphs.
  static func removeFlags(from run: inout ShapedRun) {
    let flag = GlyphFlags.safeToInsertTatweel.rawValue
    let mask = ~flag
    let flagged = run.glyphs.withUnsafeBufferPointer { glyphs in
      glyphs.contains { $0.flags.rawValue & flag != 0 }
    }
    guard flagged else { return }
    run.glyphs.withUnsafeMutableBufferPointer { glyphs in
      for index in glyphs.indices {
        glyphs[index].flags = GlyphFlags(rawValue: glyphs[index].flags.rawValue & mask)
      }
    }
  }

  /// Whether a scalar is a letter of a word (not a space or punctuation), for the word a place is in.
  @inline(__always) static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
    isWordScalar(scalar, table: wordScalars)
  }

  /// `isWordScalar`, with the table read once by the caller. (Read for each scalar, the table's
  /// lazily made global was asked whether it was made each time, callgrind.)
  @inline(__always) static func isWordScalar(_ scalar: Unicode.Scalar, table: ScalarTable) -> Bool {
    // Speed: the scalars up to the Arabic block from a table; asked of Swift's properties each
    // time, they were 5% of the Persian text's kashida lines (callgrind).
    if let known = table[scalar] { return known }
    // (The joiners, frequent in Persian, without the property lookup.)
    if scalar.value == 0x200C || scalar.value == 0x200D { return true }
    return hasWordCategory(scalar)
  }

  private static func hasWordCategory(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .otherLetter, .modifierLetter, .nonspacingMark, .spacingMark, .enclosingMark, .format: true
    default: false
    }
  }

  static let wordScalars = ScalarTable(hasWordCategory)

  /// What each scalar below U+0700 is to the choice of places (`placeClass`), made from
  /// `isWordScalar` and `priority`: bit 0 whether it is a word's, bit 1 whether a tatweel after it
  /// has priority 1, bits 2 and up the priority of a tatweel before it after another letter.
  static let placeClasses: [UInt8] = (0..<0x700).map { value in
    guard let scalar = Unicode.Scalar(UInt32(value)) else { return 5 << 2 }
    let seen: UInt8 = priority(after: scalar, before: "\u{628}") == 1 ? 2 : 0
    return (isWordScalar(scalar) ? 1 : 0) | seen | UInt8(priority(after: "\u{628}", before: scalar)) << 2
  }

  /// `scalar`'s class for the choice of places (`placeClasses`, read once by the caller; above
  /// U+0700 no tatweel after has priority 1 and one before has priority 5).
  @inline(__always) static func placeClass(_ scalar: Unicode.Scalar, table: UnsafeBufferPointer<UInt8>)
    -> UInt8
  {
    if scalar.value < 0x700 { return table[Int(scalar.value)] }
    return isWordScalar(scalar) ? 1 | 5 << 2 : 5 << 2
  }
}

/// A place for tatweels in a kashida line (`insertKashidas`): before scalar `scalar` of run `run`,
/// of priority `priority`.
struct KashidaPlace {
  var run: Int
  var scalar: Int
  var priority: Int
}

/// Tatweels to write before a scalar (its index in the paragraph).
struct TatweelPlace {
  var scalar: Int
  var count: Int
}

extension ShapingFont {
  /// Puts tatweels in `line`'s Arabic runs for as much of `free` as they take (see `Kashida`);
  /// the scalar indices each went before, one entry a tatweel, in the text's order.
  ///
  /// - Parameters:
  ///   - options: the paragraph's options.
  ///   - hyphenatedEnd: the line's end where it ends with a hyphen (the run there is left alone).
  ///   - safePlaces: whether HarfBuzz flags each scalar of the paragraph safe to insert a tatweel before
  ///     (by the scalar its glyph's cluster starts at; read by `breakLines`).
  ///   - clearsTatweelFlags: whether the runs shaped again lose HarfBuzz's tatweel flag (the
  ///     paragraph was shaped with it for the places alone, `Kashida.flagsPlaces`).
  ///   - reshape: shapes a run's scalars `from..<to` again with the tatweels before scalars, as
  ///     `breakLines` shapes a line's edge (alone, without context, where the last argument says).
  func insertKashidas(
    _ line: inout ShapedLine, free: Int32, scalars: [Unicode.Scalar], scalarAt: [Int], offsets: [Int],
    options: ShapeOptions, hyphenatedEnd: Int?, safePlaces safe: [Bool], clearsTatweelFlags: Bool,
    runFont: (ShapedRun) -> ShapingFont,
    reshape: (ShapedRun, ShapingFont, Int, Int, [Int: Int], Bool) throws -> ShapedRun
  ) throws -> [Int] {
    guard free > 0 else { return [] }
    let arabic = Kashida.arabic
    typealias Place = KashidaPlace
    // (The arrays lent by the thread, `KashidaScratch`.)
    let scratch = ThreadCache.current.kashidaScratch
    var places = scratch.places
    var order = scratch.order
    var counts = scratch.counts
    var tatweelAdvance = scratch.advances
    var tatweels = scratch.tatweels
    (scratch.places, scratch.order, scratch.counts, scratch.advances, scratch.tatweels) = ([], [], [], [], [])
    defer {
      places.removeAllKeepingCapacity()
      order.removeAllKeepingCapacity()
      counts.removeAllKeepingCapacity()
      tatweelAdvance.removeAllKeepingCapacity()
      tatweels.removeAllKeepingCapacity()
      (scratch.places, scratch.order, scratch.counts, scratch.advances, scratch.tatweels) = (
        places, order, counts, tatweelAdvance, tatweels
      )
    }
    tatweelAdvance.append(contentsOf: repeatElement(nil, count: line.runs.count))
    let classes = Kashida.placeClasses
    // (The runs read in place, by index: taken one by one as values, each was copied, its font's
    // strings and its glyphs retained and released.)
    for index in line.runs.indices where line.runs[index].script == arabic && !line.runs[index].glyphs.isEmpty
    {
      // A run that ends with a hyphen keeps it: no tatweels there.
      guard let range = line.runs[index].range, range.lowerBound < range.upperBound,
        range.upperBound != hyphenatedEnd
      else {
        continue
      }
      let font = runFont(line.runs[index])
      guard let advance = try font.cacheState.tatweelAdvance(font) else { continue }
      tatweelAdvance[index] = advance
      let from = scalarAt[range.lowerBound]
      let to = scalarAt[range.upperBound]
      guard from >= 0, to > from else { continue }
      // One place a word: its best. (Each scalar's class read once from a table, the best
      // place kept without a branch: with `isWordScalar` and `priority` asked for each scalar,
      // choosing and ordering the places mispredicted 116,000 branches a pass over the Persian
      // lines, now 82,000, callgrind's branch simulation, and took 5.0 M instructions, now
      // 4.1 M. The paragraph's arrays read through buffer pointers, without a check of bounds
      // each.)
      precondition(to <= scalars.count && to <= safe.count)
      scalars.withUnsafeBufferPointer { scalars in
        safe.withUnsafeBufferPointer { safe in
          // (A flag read as its byte, 0 or 1, for the arithmetic below.)
          let safe = UnsafeRawBufferPointer(safe)
          classes.withUnsafeBufferPointer { classes in
            var (best, bestPriority) = (-1, 6)
            // The run's first scalar is no place.
            var previous = Kashida.placeClass(scalars[from], table: classes)
            for scalar in (from + 1)..<to {
              let current = Kashida.placeClass(scalars[scalar], table: classes)
              defer { previous = current }
              if current & 1 == 0 {
                if best >= 0 { places.append(Place(run: index, scalar: best, priority: bestPriority)) }
                (best, bestPriority) = (-1, 6)
                continue
              }
              // A place inside a word (after a word's scalar), flagged.
              let eligible = previous & safe[scalar]
              let priority = previous & 2 != 0 ? 1 : Int(current >> 2)
              let better = eligible & 1 != 0 && priority <= bestPriority
              best = better ? scalar : best
              bestPriority = better ? priority : bestPriority
            }
            if best >= 0 { places.append(Place(run: index, scalar: best, priority: bestPriority)) }
          }
        }
      }
    }
    guard !places.isEmpty else { return [] }
    // Tatweels, a round at a time over the places by priority, while they fit.
    // (The places ordered by priority, 1 to 5, by counting them and writing each at its
    // priority's next slot: sorting by priority and scalar was a tenth of placing, and five passes
    // over the places, one a priority, mispredicted most of their branches, callgrind's branch
    // simulation.)
    order.append(contentsOf: repeatElement(0, count: places.count))
    withUnsafeTemporaryAllocation(of: Int.self, capacity: 14) { counters in
      // Where each priority's places start in `order` (`bounds[priority]`, and where they end, at
      // the next's start), and where its next goes.
      let (bounds, next) = (counters.extracting(0..<7), counters.extracting(7..<14))
      next.initialize(repeating: 0)
      for place in places { next[place.priority + 1] += 1 }
      for priority in 1...6 { next[priority] += next[priority - 1] }
      _ = bounds.initialize(from: next)
      order.withUnsafeMutableBufferPointer { order in
        for (index, place) in places.enumerated() {
          order[next[place.priority]] = index
          next[place.priority] += 1
        }
      }
      for priority in 1...5 where bounds[priority + 1] - bounds[priority] > 1 {
        let stretch = bounds[priority]..<bounds[priority + 1]
        if stretch.dropFirst().contains(where: { places[order[$0 - 1]].scalar > places[order[$0]].scalar }) {
          order[stretch].sort { places[$0].scalar < places[$1].scalar }
        }
      }
    }
    counts.append(contentsOf: repeatElement(0, count: places.count))
    var left = Int64(free)
    var placed = true
    // Where the places' tatweels are one width (one font), the rounds give each place the same
    // count, and one more to the first in the order, as many as the free width takes: counted
    // at once, not a round at a time (see `SpliceWriter.writePiece` for what it bought).
    if let first = tatweelAdvance[places[order[0]].run], first > 0,
      places.allSatisfy({ tatweelAdvance[$0.run] == first })
    {
      let total = min(Int(left / Int64(first)), places.count * Kashida.maximumPerPlace)
      let (each, extra) = total.quotientAndRemainder(dividingBy: order.count)
      for (rank, place) in order.enumerated() { counts[place] = each + (rank < extra ? 1 : 0) }
      placed = false
    }
    while placed {
      placed = false
      for place in order where counts[place] < Kashida.maximumPerPlace {
        let advance = Int64(tatweelAdvance[places[place].run] ?? 0)
        guard advance > 0, advance <= left else { continue }
        counts[place] += 1
        left -= advance
        placed = true
      }
    }
    // The runs shaped again with the tatweels; fewer tatweels (the last placed first) while the
    // line comes out wider than it may (a tatweel's glyph in a word may be wider than alone).
    // (The runs shaped again kept apart, by index, and swapped into the line's places when the
    // line fits: a copy of the line's runs, written in, was copied whole again, its runs
    // retained, 0.22 M instructions a pass over the Persian lines; the tatweels' places, appended
    // as repeats and always sorted, 0.5 M more than now, callgrind.)
    var splicedRuns = scratch.runs
    var splicedAt = scratch.runIndices
    (scratch.runs, scratch.runIndices) = ([], [])
    defer {
      splicedRuns.removeAllKeepingCapacity()
      splicedAt.removeAllKeepingCapacity()
      (scratch.runs, scratch.runIndices) = (splicedRuns, splicedAt)
    }
    for _ in 0..<4 {
      splicedRuns.removeAll(keepingCapacity: true)
      splicedAt.removeAll(keepingCapacity: true)
      var added: Int32 = 0
      var kashidas: [Int] = []
      kashidas.reserveCapacity(places.count * Kashida.maximumPerPlace)
      for runIndex in line.runs.indices {
        // (In the text's order: a run's places were found so. The array is the thread's, emptied
        // for each run: made for each, it was a `malloc` and a `free` a run.)
        tatweels.removeAllKeepingCapacity()
        for (index, place) in places.enumerated() where place.run == runIndex && counts[index] > 0 {
          tatweels.append(TatweelPlace(scalar: place.scalar, count: counts[index]))
        }
        guard !tatweels.isEmpty, let range = line.runs[runIndex].range else { continue }
        let run = line.runs[runIndex]
        let font = runFont(run)
        let (from, to) = (scalarAt[range.lowerBound], scalarAt[range.upperBound])
        var shaped: ShapedRun
        if let spliced = try font.spliceTatweels(
          run, tatweels: tatweels, from: from, to: to, scalars: scalars, offsets: offsets, options: options,
          clearsTatweelFlags: clearsTatweelFlags,
          reshape: { start, end, tatweels, alone in try reshape(run, font, start, end, tatweels, alone) })
        {
          shaped = spliced
        } else {
          shaped = try reshape(
            run, font, from, to,
            Dictionary(uniqueKeysWithValues: tatweels.lazy.map { ($0.scalar, $0.count) }), false)
          if clearsTatweelFlags { Kashida.removeFlags(from: &shaped) }
        }
        added &+= shaped.advance.x &- run.advance.x
        splicedRuns.append(shaped)
        splicedAt.append(runIndex)
        for place in tatweels {
          for _ in 0..<place.count { kashidas.append(place.scalar) }
        }
      }
      if added <= free {
        // (Swapped in: assigned, each run was retained, and released with the scratch array.)
        for (spliced, runIndex) in splicedAt.enumerated() {
          swap(&line.runs[runIndex], &splicedRuns[spliced])
        }
        line.advance &+= added
        line.visibleAdvance &+= added
        // In the text's order: each run's are; runs in another order (right-to-left runs of a
        // line are in the visual order) are sorted.
        if zip(kashidas, kashidas.dropFirst()).contains(where: { $0 > $1 }) { kashidas.sort() }
        return kashidas
      }
      // Take back enough tatweels, from the last place in the order placed.
      var over = Int64(added - free)
      for place in order.reversed() where counts[place] > 0 && over > 0 {
        counts[place] -= 1
        over -= Int64(tatweelAdvance[places[place].run] ?? 1)
      }
      guard counts.contains(where: { $0 > 0 }) else { break }
    }
    return []
  }
}
