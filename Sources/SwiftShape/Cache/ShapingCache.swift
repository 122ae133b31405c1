import HarfBuzz

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Speed: text that comes back (the words of prose) is shaped once. A line is cut after each run
// of spaces where the font makes the cut exact (`SpaceJoints`); each piece is looked up in the
// thread's table for the font, the options and the line's direction, script and language; the
// pieces not found are shaped together, in one call for each run of them, and kept; the line's
// glyphs are the pieces' glyphs joined. Each thread keeps its own tables, so no lock is taken on
// the way. See the README's "The shaping cache" for what it bought, measured.

/// The shaping cache's settings and statistics.
public enum ShapingCache {
  /// How many bytes each thread's tables may hold before they are emptied (glyphs, text and
  /// bookkeeping, counted approximately): 32 MiB.
  public static let defaultLimit = 32 << 20

  /// The limit every thread's tables keep to, in bytes (see `defaultLimit`).
  public static var limit: Int {
    get { limitStorage.withLock { $0 } }
    set { limitStorage.withLock { $0 = max(0, newValue) } }
  }
  private static let limitStorage = Protected(defaultLimit)

  /// Whether each table times the cache against plain shaping, and shapes plainly where that is
  /// faster (see `ShapingFont.shapeCached`); true by default. Tests that must go through the
  /// cache turn it off.
  public static var choosesByTime: Bool {
    get { choosesByTimeStorage.withLock { $0 } }
    set { choosesByTimeStorage.withLock { $0 = newValue } }
  }
  private static let choosesByTimeStorage = Protected(true)

  /// How many lines a thread shapes with a font before it uses the cache for it: a font shaped
  /// once (a command shaping one line) does not pay for reading its layout tables.
  public static let warmUpLines = 4

  /// What the caches of every thread did so far.
  public struct Statistics: Sendable, Hashable {
    /// Lines shaped through the cache.
    public var lines = 0
    /// Pieces looked up.
    public var pieces = 0
    /// Pieces found.
    public var hits = 0
    /// Cuts after spaces that the font made unsafe (the pieces on both sides shaped together).
    public var unsafeJoints = 0
    /// Calls to HarfBuzz for the pieces not found.
    public var shapedRuns = 0
    /// Lines shaped without the cache though it was on: options it does not take, a font it cannot
    /// join, vertical text.
    public var bypassed = 0
    /// Bytes held now.
    public var bytes = 0
    /// Times a thread's tables were emptied for the limit.
    public var evictions = 0

    static func + (a: Statistics, b: Statistics) -> Statistics {
      Statistics(
        lines: a.lines + b.lines, pieces: a.pieces + b.pieces, hits: a.hits + b.hits,
        unsafeJoints: a.unsafeJoints + b.unsafeJoints, shapedRuns: a.shapedRuns + b.shapedRuns,
        bypassed: a.bypassed + b.bypassed, bytes: a.bytes + b.bytes, evictions: a.evictions + b.evictions)
    }
  }

  /// Empties the calling thread's tables (for a measurement that starts from nothing, or to give
  /// back their memory at once); other threads' stay.
  public static func removeAllOnThisThread() {
    guard let cache = ThreadCache.currentIfMade else { return }
    cache.tables = [:]
    cache.recent = []
    cache.lastRecent = -1
    cache.bytes = 0
  }

  /// The statistics of every thread's cache, summed (those of threads that have ended included).
  public static var statistics: Statistics {
    ThreadCache.currentIfMade?.publish()
    return ThreadCache.registry.withLock { registry in
      registry.live.reduce(registry.ended) { $0 + $1.statistics }
    }
  }
}

/// What a font's caches share between threads: its identity for the tables, and how it joins.
final class FontCacheState: Sendable {
  /// Tells fonts apart in the threads' tables (an address could be reused by a later font).
  let id: UInt64
  private let joints = Protected<SpaceJoints?>(nil)
  /// The language systems chosen for a script and a language (`Face.languageSystems`), and
  /// whether the face has AAT's `morx`, which reads the language itself.
  private let languageSystems = Protected<[LanguageSystemKey: [UInt32]]>([:])
  private let hasMorx = Protected<Bool?>(nil)
  private let tatweel = Protected<Int32??>(nil)

  /// A tatweel's advance inside a word, between two Behs (its nominal glyph may have none, and
  /// fonts such as Amiri substitute it, or join several into one glyph); nil where the font has
  /// no tatweel or it has no advance. Shaped once a font: shaped for every line, its table's
  /// timing (three characters, faster plainly) sent the lines of the same script plainly too.
  func tatweelAdvance(_ font: ShapingFont) throws -> Int32? {
    if let known = tatweel.withLock({ $0 }) { return known }
    var advance: Int32?
    if font.font.nominalGlyph(for: "\u{640}") != nil {
      var alone = ShapeOptions(direction: .rightToLeft, script: Script(iso15924: "Arab"))
      alone.includeGlyphNames = false
      alone.usesCache = false
      let probe = try font.shape("\u{628}\u{640}\u{628}", options: alone).glyphs
      let total = probe.filter { $0.cluster == 1 }.reduce(Int32(0)) { $0 &+ $1.xAdvance }
      advance = total > 0 ? total : nil
    }
    tatweel.withLock { $0 = .some(advance) }
    return advance
  }

  struct LanguageSystemKey: Hashable {
    var script: Script
    var language: Language?
  }

  /// Whether text of `script` shapes alike in languages `a` and `b` with `font`: they select the
  /// same language systems, and the face has no `morx`.
  func shapesAlike(_ a: Language?, _ b: Language?, script: Script, font: Font) -> Bool {
    let (a, b) = (a ?? Language.processDefault, b ?? Language.processDefault)
    if a == b { return true }
    let morx = hasMorx.withLock { known in
      if let known { return known }
      let has = font.face.tableTags.contains("morx")
      known = has
      return has
    }
    guard !morx else { return false }
    func systems(_ language: Language?) -> [UInt32] {
      let key = LanguageSystemKey(script: script, language: language)
      if let known = languageSystems.withLock({ $0[key] }) { return known }
      let made = font.face.languageSystems(script: script, language: language)
      languageSystems.withLock { $0[key] = made }
      return made
    }
    return systems(a) == systems(b)
  }

  init() {
    id = FontCacheState.nextID.withLock {
      $0 += 1; return $0
    }
  }

  private static let nextID = Protected<UInt64>(0)

  /// How the font joins, read from its tables once.
  func spaceJoints(_ font: Font) -> SpaceJoints {
    joints.withLock { joints in
      if let joints { return joints }
      let made = SpaceJoints(font: font)
      joints = made
      return made
    }
  }
}

/// One thread's tables.
final class ThreadCache: @unchecked Sendable {
  // @unchecked: used only by its thread; `statistics` is read by others under `registry`'s lock,
  // and written by its thread under the same lock (`publish`).
  //
  // Speed: the stored properties its thread reads and writes on the way of each line (here and
  // in `Table`) are `@exclusivity(unchecked)`: no access to one of them overlaps another to the
  // same property (each is read or set in a statement, or lent for one call that does not reach
  // it again), and checked at run time they cost two calls into the runtime an access, about
  // 2,600 instructions a line of the English text's first pass (callgrind).
  struct TableKey: Hashable {
    // (The options last: keys are compared field by field in this order, and a paragraph's runs
    // go from one table to another mostly by script or language, found different before the
    // options' thirty fields are compared.)
    var font: UInt64
    var direction: Direction
    var script: Script
    var language: Language?
    var options: ShapeOptions
  }

  /// A piece's glyphs, clusters from the piece's start in the options' unit, then its text's
  /// UTF-8, in one allocation.
  ///
  /// Speed: a piece kept was three allocations (itself, its glyphs' array, its text's), and each
  /// piece found was retained and released for its glyphs' array; in one they cost the English
  /// text's first pass 4% fewer instructions and 5% less time (callgrind, perf).
  final class Piece: ManagedBuffer<PieceHeader, ShapedGlyph> {
    /// A piece of `text` shaped with `edges`, its `glyphCount` glyphs written (initialized) by
    /// `write`.
    static func make(
      text: UnsafeBufferPointer<UInt8>, edges: UInt8, glyphCount: Int,
      write: (UnsafeMutablePointer<ShapedGlyph>) -> Void
    ) -> Piece {
      let stride = MemoryLayout<ShapedGlyph>.stride
      let made = Piece.create(minimumCapacity: glyphCount + (text.count + stride - 1) / stride) { _ in
        PieceHeader(edges: edges, textCount: text.count, glyphCount: glyphCount)
      }
      made.withUnsafeMutablePointerToElements { elements in
        write(elements)
        if let bytes = text.baseAddress {
          UnsafeMutableRawPointer(elements + glyphCount).copyMemory(from: bytes, byteCount: text.count)
        }
      }
      // (Its elements need no deinitializing: glyphs are trivial values, the text bytes.)
      return unsafeDowncast(made, to: Piece.self)
    }

    /// A piece of `text` shaped with `edges` into `glyphs`.
    static func make(
      text: UnsafeBufferPointer<UInt8>, edges: UInt8, glyphs: UnsafeBufferPointer<ShapedGlyph>
    ) -> Piece {
      make(text: text, edges: edges, glyphCount: glyphs.count) { elements in
        if let source = glyphs.baseAddress { elements.initialize(from: source, count: glyphs.count) }
      }
    }

    // (The header read through its pointer: `header`, a class's stored property, is checked for
    // exclusive access at run time at each read.)
    var glyphCount: Int { withUnsafeMutablePointerToHeader { $0.pointee.glyphCount } }

    /// The bytes of its text.
    var textCount: Int { withUnsafeMutablePointerToHeader { $0.pointee.textCount } }

    /// Calls `body` with its glyphs, in place.
    func withGlyphs<Result>(_ body: (UnsafeBufferPointer<ShapedGlyph>) throws -> Result) rethrows -> Result {
      try withUnsafeMutablePointers { header, elements in
        try body(UnsafeBufferPointer(start: elements, count: header.pointee.glyphCount))
      }
    }

    /// Its glyphs in an array of their own.
    var glyphs: [ShapedGlyph] { withGlyphs { Array($0) } }

    /// Whether it is the piece of `text` shaped with `edges`.
    func holds(_ text: UnsafeBufferPointer<UInt8>, edges: UInt8) -> Bool {
      withUnsafeMutablePointers { header, elements in
        guard header.pointee.edges == edges, header.pointee.textCount == text.count else { return false }
        guard let bytes = text.baseAddress else { return true }
        return memcmp(elements + header.pointee.glyphCount, bytes, text.count) == 0
      }
    }
  }

  struct PieceHeader {
    let edges: UInt8
    let textCount: Int
    let glyphCount: Int
  }

  final class Table {
    @exclusivity(unchecked) var pieces = PieceTable()
    /// What each character allows at a run of spaces (`allows`): bit 0 cut after the run when it
    /// follows, bit 1 cut before it when it precedes, bit 7 worked out; below U+0700 (the
    /// Arabic block's end) in memory of their own, since a class's array is checked for
    /// exclusive access at each read.
    let lowRules = UnsafeMutablePointer<UInt8>.allocate(capacity: 0x700)
    @exclusivity(unchecked) var rules: [UInt32: UInt8] = [:]

    init() { lowRules.initialize(repeating: 0, count: 0x700) }
    deinit {
      lowRules.deallocate()
      seenLines?.deallocate()
    }

    /// What `scalar` allows at a run of spaces shaped with `font`, whose joints are `joints`
    /// (see `lowRules`), worked out once a table.
    func allows(_ scalar: Unicode.Scalar?, font: Font, joints: SpaceJoints) -> UInt8 {
      guard let scalar else { return 0 }
      let value = scalar.value
      if value < 0x700, lowRules[Int(value)] != 0 { return lowRules[Int(value)] }
      if value >= 0x700, let known = rules[value] { return known }
      let rule = 0x80 | joints.cutRule(for: scalar, font: font)
      if value < 0x700 {
        lowRules[Int(value)] = rule
      } else {
        rules[value] = rule
      }
      return rule
    }
    @exclusivity(unchecked) var joints: SpaceJoints?
    @exclusivity(unchecked) var linesSeen = 0
    /// Where the table is in its cycle of 4,096 lines, what the lines shaped plainly and through
    /// the cache took in this cycle's windows, and which was faster.
    @exclusivity(unchecked) var cycleLine = 0
    @exclusivity(unchecked) var plainNanoseconds = 0
    @exclusivity(unchecked) var plainBytes = 0
    @exclusivity(unchecked) var cachedNanoseconds = 0
    @exclusivity(unchecked) var cachedBytes = 0
    @exclusivity(unchecked) var plainIsFaster = false

    /// Whether lines are shaped plainly where that was faster (`ShapingCache.choosesByTime` when
    /// the table was made).
    let choosesByTime = ShapingCache.choosesByTime

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
      let line = cycleLine & 4095
      if line == Self.plainWindow.upperBound {
        plainIsFaster =
          plainBytes > 0 && cachedBytes > 0 && plainNanoseconds * cachedBytes < cachedNanoseconds * plainBytes
        (plainNanoseconds, plainBytes, cachedNanoseconds, cachedBytes) = (0, 0, 0, 0)
      }
      return Self.plainWindow.contains(line) || (line >= Self.plainWindow.upperBound && plainIsFaster)
    }

    /// Whether the next line is in a window whose time is counted (`note`).
    var isInTimedWindow: Bool {
      let line = cycleLine & 4095
      return line >= Self.cachedWindow.lowerBound && line < Self.plainWindow.upperBound
    }

    /// Counts a line shaped, plainly or through the cache, and its time in the windows (nil: the
    /// line was not timed).
    func note(plainly: Bool, nanoseconds: Int?, bytes: Int) {
      let line = cycleLine & 4095
      if let nanoseconds, plainly, Self.plainWindow.contains(line) {
        plainNanoseconds += nanoseconds
        plainBytes += bytes
      } else if let nanoseconds, !plainly, Self.cachedWindow.contains(line) {
        cachedNanoseconds += nanoseconds
        cachedBytes += bytes
      }
      cycleLine += 1
    }

    /// Lines shaped plainly after plain shaping was chosen, marked in a table of a few bits of
    /// each (`seenLines`, made when first needed); of the last block of 32 of them, how many came
    /// back; how many blocks in a row mostly came back, and how many will start a new cycle.
    @exclusivity(unchecked) var seenLines: UnsafeMutablePointer<UInt32>?
    @exclusivity(unchecked) var blockLines = 0
    @exclusivity(unchecked) var blockLinesBack = 0
    @exclusivity(unchecked) var blocksBack = 0
    @exclusivity(unchecked) var blocksBackToRetime = 1

    /// Notes a line shaped plainly after plain shaping was chosen: where most lines come back,
    /// the text repeats (a batch of the same documents), and the cache, which was timed on text it
    /// had not seen and keeps nothing from plain shaping, may pay now. When half or more of a
    /// block of 32 such lines came back, a new cycle starts, timing the cache again (then after
    /// two such blocks in a row, four, … while plain shaping stays faster). A line is known by
    /// its length and its first and last eight bytes, marked in a table of 8,192: prose whose
    /// lines do not come back (the English text: a few dozen of its 1,893 do) never reaches half
    /// a block.
    ///
    /// Speed: the English text four times over on HarfBuzz 15.0.0, whose lines are shaped faster
    /// than the cache shapes them cold: the command took 36.4 ms as the timing chose, 28.2 ms with
    /// every line through the cache (perf stat).
    func noteLineBack(_ bytes: UnsafeBufferPointer<UInt8>) {
      guard plainIsFaster, cycleLine >= Self.plainWindow.upperBound, let base = bytes.baseAddress else {
        return
      }
      let seen: UnsafeMutablePointer<UInt32>
      if let made = seenLines {
        seen = made
      } else {
        seen = .allocate(capacity: 8192)
        seen.initialize(repeating: 0, count: 8192)
        seenLines = seen
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
      if seen[slot] == mark { blockLinesBack += 1 } else { seen[slot] = mark }
      blockLines += 1
      guard blockLines == 32 else { return }
      blocksBack = blockLinesBack >= 16 ? blocksBack + 1 : 0
      (blockLines, blockLinesBack) = (0, 0)
      guard blocksBack >= blocksBackToRetime else { return }
      blocksBack = 0
      blocksBackToRetime *= 2
      cycleLine = 0
    }

    /// Lines of one piece looked up, found, and passed by since they stopped being looked up.
    @exclusivity(unchecked) var singles = 0
    @exclusivity(unchecked) var singlesFound = 0
    @exclusivity(unchecked) var singlesPassed = 0

    /// Whether lines of one piece (no space) have been found again in fewer than one in sixteen
    /// of 256 lookups or more: they are then shaped plainly (but one in sixteen).
    var singlesComeBackRarely: Bool { singles >= 256 && singlesFound * 16 < singles }
    /// Pieces kept and found so far, and misses since the last one kept.
    @exclusivity(unchecked) var kept = 0
    @exclusivity(unchecked) var found = 0
    @exclusivity(unchecked) var skipped = 0

    /// Whether to keep the next piece not found: always, until the table has kept 2,048 pieces
    /// and found fewer than one in sixteen of them again (text where words do not come back, such
    /// as word lists); then one miss in sixteen, so that a miss costs little more than its
    /// lookup, and words that do come back later are still learnt.
    func keeps() -> Bool {
      if kept >= 2048, found * 16 < kept {
        skipped += 1
        guard skipped >= 16 else { return false }
      }
      skipped = 0
      kept += 1
      return true
    }
  }

  @exclusivity(unchecked) var tables: [TableKey: Table] = [:]
  /// The last few tables looked up, compared before the dictionary is: a paragraph's runs go from
  /// one script's table to another's, and hashing the options took 4,200 instructions a run.
  @exclusivity(unchecked) var recent: [(key: TableKey, table: Table)] = []
  /// Where the last table looked up is in `recent`.
  @exclusivity(unchecked) var lastRecent = -1
  var lastTable: Table? { lastRecent >= 0 ? recent[lastRecent].table : nil }
  /// The last table's font, script and direction (read in place: a key copied out retains its
  /// options' storage).
  var lastFont: UInt64? { lastRecent >= 0 ? recent[lastRecent].key.font : nil }
  var lastScript: Script? { lastRecent >= 0 ? recent[lastRecent].key.script : nil }
  var lastDirection: Direction? { lastRecent >= 0 ? recent[lastRecent].key.direction : nil }
  @exclusivity(unchecked) var bytes = 0
  @exclusivity(unchecked) var limit = ShapingCache.limit
  @exclusivity(unchecked) var counts = ShapingCache.Statistics()
  /// Storage reused from line to line.
  @exclusivity(unchecked) var cuts: [Int] = []
  @exclusivity(unchecked) var beforeSpaces: [Bool] = []
  @exclusivity(unchecked) var keys: [UInt64] = []
  @exclusivity(unchecked) var found: [Unmanaged<Piece>?] = []
  @exclusivity(unchecked) var made: [Piece] = []
  @exclusivity(unchecked) var batch = Batch()
  @exclusivity(unchecked) var runResult = ShapeResult()
  /// The cuts required of the last text (`shapeCached(_:options:requiredCuts:into:)`) that could
  /// not be made.
  @exclusivity(unchecked) var missingCuts: [Int] = []
  /// The last feature of a span over a whole paragraph, and the features it gave the run
  /// (`SpanStyles.runFeatures`): lines styled alike share one array.
  @exclusivity(unchecked) var lastSpanFeature: (given: Feature, run: [Feature])?
  /// The counts as others may read them.
  var statistics = ShapingCache.Statistics()
  /// Whether the text shaped now is a piece of a line shaped again (kashida's): neither timed nor
  /// shaped plainly by its table's choice, which is made on whole lines. Timed with them, a
  /// justified Persian paragraph's pieces made its table choose plain shaping for the paragraphs.
  @exclusivity(unchecked) var shapingPieces = false

  struct Registry {
    var live: [ThreadCache] = []
    var ended = ShapingCache.Statistics()
  }
  static let registry = Protected(Registry())

  /// Makes the counts readable by `ShapingCache.statistics`.
  func publish() {
    counts.bytes = bytes
    ThreadCache.registry.withLock { _ in statistics = counts }
  }

  /// The table for `key`, made when new.
  /// The table of text shaped with `font` and these properties and options: `table(_:)`
  /// without a key made, where the table is one of the last few. (A key made copies the options,
  /// retaining their arrays and strings, a few times a line.)
  func table(
    font: UInt64, direction: Direction, script: Script, language: Language?, options: ShapeOptions
  ) -> Table {
    func matches(_ key: TableKey) -> Bool {
      key.font == font && key.direction == direction && key.script == script && key.language == language
        && key.options == options
    }
    if lastRecent >= 0, matches(recent[lastRecent].key) { return recent[lastRecent].table }
    for index in recent.indices where index != lastRecent && matches(recent[index].key) {
      lastRecent = index
      return recent[index].table
    }
    return table(
      .init(font: font, direction: direction, script: script, language: language, options: options))
  }

  func table(_ key: TableKey) -> Table {
    // (Compared in place, the last first: a key copied out retains and releases the options'
    // arrays and strings, and copying keys in and out was half of looking a table up for a
    // paragraph of a span a word, callgrind.)
    if lastRecent >= 0, recent[lastRecent].key == key { return recent[lastRecent].table }
    for index in recent.indices where index != lastRecent && recent[index].key == key {
      lastRecent = index
      return recent[index].table
    }
    let table: Table
    if let found = tables[key] {
      table = found
    } else {
      table = Table()
      tables[key] = table
    }
    if recent.count == 4 { recent.removeFirst() }
    recent.append((key, table))
    lastRecent = recent.count - 1
    return table
  }

  /// The pieces of a line shaped together (`shapeCached`): their indices in the line, texts and
  /// edges; their UTF-8 one after the other and where each starts; each made with its glyphs
  /// (`shapePieces`).
  struct Batch {
    var pieces: [Int] = []
    var texts: [UnsafeBufferPointer<UInt8>] = []
    var edges: [UInt8] = []
    var bytes: [UInt8] = []
    var starts: [Int] = []
    var shaped: [Piece] = []

    mutating func removeAll() {
      pieces.removeAll(keepingCapacity: true)
      texts.removeAll(keepingCapacity: true)
      edges.removeAll(keepingCapacity: true)
      bytes.removeAll(keepingCapacity: true)
      starts.removeAll(keepingCapacity: true)
      shaped.removeAll(keepingCapacity: true)
    }
  }

  /// Empties every table when they hold more than the limit.
  func keepToLimit() {
    // The limit is read under its lock every 256 lines, not at each.
    if counts.lines & 255 == 0 { limit = ShapingCache.limit }
    guard bytes > limit else { return }
    for table in tables.values { table.pieces = PieceTable() }
    bytes = 0
    counts.evictions += 1
  }

  /// The current thread's cache, if it has one.
  static var currentIfMade: ThreadCache? {
    pthread_getspecific(ThreadCacheKey.shared.key).map {
      Unmanaged<ThreadCache>.fromOpaque($0).takeUnretainedValue()
    }
  }

  /// The current thread's cache.
  static var current: ThreadCache {
    let key = ThreadCacheKey.shared.key
    if let slot = pthread_getspecific(key) {
      return Unmanaged<ThreadCache>.fromOpaque(slot).takeUnretainedValue()
    }
    let cache = ThreadCache()
    pthread_setspecific(key, Unmanaged.passRetained(cache).toOpaque())
    registry.withLock { $0.live.append(cache) }
    return cache
  }
}

/// The thread-specific slot of each thread's cache; at the thread's end its counts are kept and
/// its tables released.
private final class ThreadCacheKey: Sendable {
  static let shared = ThreadCacheKey()
  let key: pthread_key_t

  private init() {
    var key = pthread_key_t()
    #if canImport(Darwin)
      pthread_key_create(&key) { ThreadCacheKey.end(Unmanaged<ThreadCache>.fromOpaque($0)) }
    #else
      pthread_key_create(&key) { slot in
        if let slot { ThreadCacheKey.end(Unmanaged<ThreadCache>.fromOpaque(slot)) }
      }
    #endif
    self.key = key
  }

  private static func end(_ cache: Unmanaged<ThreadCache>) {
    let ended = cache.takeRetainedValue()
    ended.publish()
    ThreadCache.registry.withLock { registry in
      var counts = ended.statistics
      counts.bytes = 0
      registry.ended = registry.ended + counts
      registry.live.removeAll { $0 === ended }
    }
  }
}

extension ShapeOptions {
  /// Whether the cache can shape with these options: not when shaping is traced or verified, with
  /// features on part of the text (a range over all of it is whole: the pieces shaped with it are
  /// covered as the line is), or with glyph flags that would say where the text was cut. (A
  /// context is left out where it cannot change the glyphs, `withoutContext(script:)`.)
  var cacheable: Bool {
    usesCache && !trace && !verify
      && bufferFlags.isDisjoint(with: [.verify, .produceUnsafeToConcat])
      && features.allSatisfy(\.appliesToAll)
  }
}

/// The pieces of a table by their 64-bit hash (`PieceHash`): open addressing, linear probing,
/// half full at most. (A `Dictionary` hashed each key again with SipHash: a seventh of the time of a
/// line whose pieces were all found, counted with callgrind.)
///
/// Speed: its slots are memory of its own, each key beside its piece (one cache line read where
/// two arrays took two), and hold their pieces retained by hand: a piece is found, and kept for
/// the line, without its count of references touched (each retain and release is an atomic
/// operation). As two arrays of keys and pieces, the English text's first pass retained 48,000
/// times more a pass, and each piece found was retained and released again (callgrind).
final class PieceTable {
  private struct Slot {
    var key: UInt64
    var piece: Unmanaged<ThreadCache.Piece>?
  }

  @exclusivity(unchecked) private var slots: UnsafeMutablePointer<Slot>
  @exclusivity(unchecked) private var capacity: Int
  @exclusivity(unchecked) private var count = 0

  init(capacity: Int = 256) {
    self.capacity = capacity
    slots = Self.emptySlots(capacity)
  }

  deinit {
    for index in 0..<capacity { slots[index].piece?.release() }
    slots.deallocate()
  }

  private static func emptySlots(_ capacity: Int) -> UnsafeMutablePointer<Slot> {
    let slots = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
    slots.initialize(repeating: Slot(key: 0, piece: nil), count: capacity)
    return slots
  }

  /// The piece stored under `key` (0 is never a key: `PieceHash` sets the lowest bit), not
  /// retained: it lives while the table holds it (until the table is replaced, `keepToLimit`).
  func find(_ key: UInt64) -> Unmanaged<ThreadCache.Piece>? {
    let mask = capacity - 1
    var slot = Int(truncatingIfNeeded: key >> 7) & mask
    while slots[slot].key != 0 {
      if slots[slot].key == key { return slots[slot].piece }
      slot = (slot + 1) & mask
    }
    return nil
  }

  /// Stores `piece` under `key`, unless a piece is stored under it already (of another text
  /// whose hash is the same: the one stored may be in use by the line, not retained).
  func insert(_ key: UInt64, _ piece: ThreadCache.Piece) {
    if (count + 1) * 2 > capacity { grow() }
    let mask = capacity - 1
    var slot = Int(truncatingIfNeeded: key >> 7) & mask
    while slots[slot].key != 0 {
      if slots[slot].key == key { return }
      slot = (slot + 1) & mask
    }
    count += 1
    slots[slot] = Slot(key: key, piece: Unmanaged.passRetained(piece))
  }

  private func grow() {
    let (old, oldCapacity) = (slots, capacity)
    capacity = oldCapacity * 2
    slots = Self.emptySlots(capacity)
    let mask = capacity - 1
    for index in 0..<oldCapacity where old[index].key != 0 {
      var slot = Int(truncatingIfNeeded: old[index].key >> 7) & mask
      while slots[slot].key != 0 { slot = (slot + 1) & mask }
      slots[slot] = old[index]
    }
    old.deallocate()
  }
}
