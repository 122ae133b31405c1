#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Speed: whether the shaping cache (see ShapingCache.swift) pays is timed, table by table, and
// lines go the way that took less time (`ShapingCache.choosesByTime`).

extension ThreadCache.Table {
  /// Where the table is in its cycle of lines, what the lines shaped plainly and through the
  /// cache took in this cycle's windows, and which was faster; the lines shaped plainly after
  /// plain shaping was chosen, marked in a table of a few bits of each (`seenLines`, made when
  /// first needed, freed with the table), how many of the last block of 16 came back, how many
  /// blocks in a row mostly came back, and how many will start a new cycle.
  struct Timing {
    var cycleLine = 0
    var plainNanoseconds = 0
    var plainBytes = 0
    var cachedNanoseconds = 0
    var cachedBytes = 0
    var plainIsFaster = false
    var seenLines: UnsafeMutablePointer<UInt32>?
    var blockLines = 0
    var blockLinesBack = 0
    var blocksBack = 0
    var blocksBackToRetime = 1
  }

  /// Where a cycle of 4,096 lines has its windows: 64 lines to fill the cache, 128 to time it
  /// (`cachedWindow`), 32 shaped plainly to time plain shaping (`plainWindow`); the rest go the
  /// way that took less time a byte. (With 64 lines shaped plainly, the English text's first
  /// pass took 4% longer than with every line through the cache; with 32, 3% less than with 64,
  /// perf stat. Keeping the pieces of the lines shaped plainly bought nothing measurable.)
  static let cachedWindow = 64..<192
  static let plainWindow = 192..<224

  /// Whether the next line is shaped without the cache: those of `plainWindow`, and after it,
  /// all of them where plain shaping was faster.
  func shapesPlainly() -> Bool {
    guard choosesByTime else { return false }
    let line = timing.cycleLine & 4095
    if line == Self.plainWindow.upperBound {
      timing.plainIsFaster =
        timing.plainBytes > 0 && timing.cachedBytes > 0
        && timing.plainNanoseconds * timing.cachedBytes < timing.cachedNanoseconds * timing.plainBytes
      (timing.plainNanoseconds, timing.plainBytes, timing.cachedNanoseconds, timing.cachedBytes) = (
        0, 0, 0, 0
      )
    }
    return Self.plainWindow.contains(line) || (line >= Self.plainWindow.upperBound && timing.plainIsFaster)
  }

  /// Whether the next line is in a window whose time is counted (`note`).
  var isInTimedWindow: Bool {
    let line = timing.cycleLine & 4095
    return line >= Self.cachedWindow.lowerBound && line < Self.plainWindow.upperBound
  }

  /// Counts a line shaped, plainly or through the cache, and its time in the windows (nil: the
  /// line was not timed).
  func note(plainly: Bool, nanoseconds: Int?, bytes: Int) {
    let line = timing.cycleLine & 4095
    if let nanoseconds, plainly, Self.plainWindow.contains(line) {
      timing.plainNanoseconds += nanoseconds
      timing.plainBytes += bytes
    } else if let nanoseconds, !plainly, Self.cachedWindow.contains(line) {
      timing.cachedNanoseconds += nanoseconds
      timing.cachedBytes += bytes
    }
    timing.cycleLine += 1
  }

  /// Notes a line shaped plainly after plain shaping was chosen: where most lines come back,
  /// the text repeats (a batch of the same documents), and the cache, which was timed on text it
  /// had not seen and keeps nothing from plain shaping, may pay now. When half or more of a
  /// block of 16 such lines came back, a new cycle starts, timing the cache again (then after
  /// two such blocks in a row, four, … while plain shaping stays faster). Lines under 16 bytes
  /// are left out: empty lines and short ones ("“No.”") come back in any prose, and counted they
  /// restarted the timing twice on one copy of the English text. A line is known by its length
  /// and its first and last eight bytes, marked in a table of 8,192: prose whose longer lines do
  /// not come back (the English text: a few of its 1,893 do) never reaches half a block.
  ///
  /// Speed: the English text four times over on HarfBuzz 15.0.0, whose lines are shaped faster
  /// than the cache shapes them cold: the command took 36.4 ms as the timing chose, 28.2 ms with
  /// every line through the cache, and takes 31.6–32.2 ms with this (perf stat).
  func noteLineBack(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard timing.plainIsFaster, timing.cycleLine >= Self.plainWindow.upperBound, bytes.count >= 16,
      let base = bytes.baseAddress
    else {
      return
    }
    let seen: UnsafeMutablePointer<UInt32>
    if let made = timing.seenLines {
      seen = made
    } else {
      seen = .allocate(capacity: 8192)
      seen.initialize(repeating: 0, count: 8192)
      timing.seenLines = seen
    }
    var first: UInt64 = 0
    var last: UInt64 = 0
    let count = bytes.count
    withUnsafeMutableBytes(of: &first) {
      $0.copyMemory(from: UnsafeRawBufferPointer(start: base, count: min(8, count)))
    }
    withUnsafeMutableBytes(of: &last) {
      $0.copyMemory(from: UnsafeRawBufferPointer(start: base + max(0, count - 8), count: min(8, count)))
    }
    let hash =
      (first &* 0x9E37_79B9_7F4A_7C15 ^ last &* 0xC2B2_AE3D_27D4_EB4F ^ UInt64(count))
      &* 0x1656_67B1_9E37_79F9
    let slot = Int(truncatingIfNeeded: hash >> 51)
    let mark = UInt32(truncatingIfNeeded: hash) | 1
    if seen[slot] == mark { timing.blockLinesBack += 1 } else { seen[slot] = mark }
    timing.blockLines += 1
    guard timing.blockLines == 16 else { return }
    timing.blocksBack = timing.blockLinesBack >= 8 ? timing.blocksBack + 1 : 0
    (timing.blockLines, timing.blockLinesBack) = (0, 0)
    guard timing.blocksBack >= timing.blocksBackToRetime else { return }
    timing.blocksBack = 0
    timing.blocksBackToRetime *= 2
    timing.cycleLine = 0
  }
}

/// A monotonic clock, in nanoseconds.
enum Clock {
  static func nanoseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return time.tv_sec * 1_000_000_000 + time.tv_nsec
  }
}
