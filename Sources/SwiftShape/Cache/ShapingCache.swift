import CThreadSlots
import HarfBuzz
import SwiftShapeUnicode

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
// the way (a line with pieces not found looks for them among other threads', SharedPieces.swift).
// See the README's "The shaping cache" for what it bought, measured.

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

  /// Whether a thread looks for the pieces it does not have among those other threads shaped
  /// with the same font and options, and offers the pieces it shapes to them (`SharedPieces`);
  /// true by default. Read as a thread first shapes with a font and options. The shared pieces
  /// keep to `limit` as each thread's tables do.
  public static var sharesBetweenThreads: Bool {
    get { sharesStorage.withLock { $0 } }
    set { sharesStorage.withLock { $0 = newValue } }
  }
  private static let sharesStorage = Protected(true)

  /// How many lines a thread shapes with a font before it uses the cache for it: a font shaped
  /// once (a command shaping one line) does not pay for reading its layout tables.
  public static let warmUpLines = 4

  /// What the caches of every thread did so far.
  public struct Statistics: Sendable, Hashable {
    /// Lines shaped through the cache.
    public var lines = 0
    /// Pieces looked up.
    public var pieces = 0
    /// Pieces found (in the thread's own tables or among those other threads shaped).
    public var hits = 0
    /// Of the pieces found, those another thread had shaped (`sharesBetweenThreads`).
    public var sharedHits = 0
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
        sharedHits: a.sharedHits + b.sharedHits,
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
    cache.kashidaTables = KashidaPieceTables()
    cache.rareSinglesFont = nil
    cache.bytes = 0
  }

  /// Makes the calling thread's counts so far readable by `statistics` (a thread's counts are
  /// made readable every 256 lines, and at its end): for a worker that has done its part.
  package static func publishOnThisThread() {
    ThreadCache.currentIfMade?.publish()
  }

  /// The statistics of every thread's cache, summed (those of threads that have ended included).
  public static var statistics: Statistics {
    ThreadCache.currentIfMade?.publish()
    return ThreadCache.registry.withLock { registry in
      registry.live.reduce(registry.ended) { $0 + $1.statistics }
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

  /// A table looked up lately, with its key's parts, read in place: a key copied out of an
  /// array of tuples for each comparison retained and released its options' arrays and strings
  /// (a table found cost 1,700 instructions a run of the mixed text's paragraphs, 600 so,
  /// callgrind).
  final class RecentTable {
    let font: UInt64
    let direction: Direction
    let script: Script
    let language: Language?
    /// (A variable only for `table(font:direction:script:language:options:)`, which gives it the
    /// text's edges of the options it compares it with, and takes them back after.)
    @exclusivity(unchecked) var options: ShapeOptions
    let table: Table

    init(key: TableKey, table: Table) {
      (font, direction, script, language, options) = (
        key.font, key.direction, key.script, key.language, key.options
      )
      self.table = table
    }
  }

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

  final class Table {
    @exclusivity(unchecked) var pieces = PieceTable()
    /// The pieces the other threads' tables of this key offer (nil when
    /// `ShapingCache.sharesBetweenThreads` was off as the table was made). Held by the font
    /// (`FontCacheState.sharedTables`): weak here, so that a font's shared pieces go with it, where
    /// a thread's tables stay (emptied at its limit) after the font is gone.
    weak var shared: SharedPieces?

    init(shared: SharedPieces?) {
      self.shared = shared
      lowRules.initialize(repeating: 0, count: 0x700)
    }
    /// What each character allows at a run of spaces (`allows`): bit 0 cut after the run when it
    /// follows, bit 1 cut before it when it precedes, bit 7 worked out; below U+0700 (the
    /// Arabic block's end) in memory of their own, since a class's array is checked for
    /// exclusive access at each read.
    let lowRules = UnsafeMutablePointer<UInt8>.allocate(capacity: 0x700)
    @exclusivity(unchecked) var rules: [UInt32: UInt8] = [:]

    deinit {
      lowRules.deallocate()
      timing.seenLines?.deallocate()
    }

    /// What `scalar` allows at a run of spaces shaped with `font`, whose joints are `joints`
    /// (see `lowRules`), worked out once a table.
    ///
    /// (A rule below U+0700 already worked out read inline, the rest in a call: called for each,
    /// 33 instructions a run of spaces of the English paragraphs, callgrind.)
    @inline(__always)
    func allows(_ scalar: Unicode.Scalar?, font: Font, joints: SpaceJoints) -> UInt8 {
      guard let scalar else { return 0 }
      let value = scalar.value
      if value < 0x700, lowRules[Int(value)] != 0 { return lowRules[Int(value)] }
      return allowsWorkedOut(scalar, font: font, joints: joints)
    }

    /// `allows` where the rule is not in `lowRules`.
    @inline(never)
    private func allowsWorkedOut(_ scalar: Unicode.Scalar, font: Font, joints: SpaceJoints) -> UInt8 {
      let value = scalar.value
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
    /// The timing's state (`CacheTiming.swift`).
    @exclusivity(unchecked) var timing = Timing()

    /// Whether lines are shaped plainly where that was faster (`ShapingCache.choosesByTime` when
    /// the table was made).
    let choosesByTime = ShapingCache.choosesByTime

    /// Lines of one piece looked up, and found.
    @exclusivity(unchecked) var singles = 0
    @exclusivity(unchecked) var singlesFound = 0

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
  @exclusivity(unchecked) var recent: [RecentTable] = []
  /// Where the last table looked up is in `recent`.
  @exclusivity(unchecked) var lastRecent = -1
  var lastTable: Table? { lastRecent >= 0 ? recent[lastRecent].table : nil }
  /// The last table's font, script and direction.
  var lastFont: UInt64? { lastRecent >= 0 ? recent[lastRecent].font : nil }
  var lastScript: Script? { lastRecent >= 0 ? recent[lastRecent].script : nil }
  var lastDirection: Direction? { lastRecent >= 0 ? recent[lastRecent].direction : nil }
  /// The font of the last table a line of one piece (no space) was looked up in, where such
  /// lines come back rarely (`Table.singlesComeBackRarely`), and lines without a space passed by
  /// since: they are shaped plainly, but one in sixteen, before a table is looked up.
  @exclusivity(unchecked) var rareSinglesFont: UInt64?
  @exclusivity(unchecked) var singlesPassed = 0
  /// The table the last kashida run's pieces were looked up in.
  @exclusivity(unchecked) var kashidaTables = KashidaPieceTables()
  /// The small arrays of kashida lines, lent to each line.
  let kashidaScratch = KashidaScratch()
  /// What a thread's paragraphs with spans reuse (`SpanStyles`, `shapeLanguageSpans`).
  let spanScratch = SpanScratch()
  @exclusivity(unchecked) var bytes = 0
  @exclusivity(unchecked) var limit = ShapingCache.limit
  @exclusivity(unchecked) var counts = ShapingCache.Statistics()
  /// Storage reused from line to line.
  @exclusivity(unchecked) var cuts: [Int] = []
  @exclusivity(unchecked) var beforeSpaces: [Bool] = []
  @exclusivity(unchecked) var keys: [UInt64] = []
  @exclusivity(unchecked) var found: [Unmanaged<Piece>?] = []
  @exclusivity(unchecked) var made: [Piece] = []
  /// The pieces a line shaped and kept, with their keys, to offer to other threads (`SharedPieces`).
  @exclusivity(unchecked) var offered: [Piece] = []
  @exclusivity(unchecked) var offeredKeys: [UInt64] = []
  @exclusivity(unchecked) var batch = Batch()
  @exclusivity(unchecked) var runResult = ShapeResult()
  /// The cuts required of the last text (`shapeCached(_:options:requiredCuts:into:)`) that could
  /// not be made.
  @exclusivity(unchecked) var missingCuts: [Int] = []
  /// The required cuts of the last text made inside its pieces (`cutPieces`).
  @exclusivity(unchecked) var insideCuts: [Int] = []
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

  /// Whether another thread has a cache too, so that pieces are worth looking for among those
  /// other threads shaped and worth offering to them (`SharedPieces`): read from the count of
  /// caches (`swiftshape_live_caches`, a load). When another thread comes, this one offers what
  /// it shaped alone at once. (A thread alone takes no lock for its misses: offering and looking
  /// for them cost one thread shaping the English text, eight copies, 4 M instructions of 733 M,
  /// callgrind.)
  var othersShare: Bool {
    @inline(__always) get {
      let others = swiftshape_live_caches_get() > 1
      if others != sharing { sharingChanged(others) }
      return others
    }
  }
  @exclusivity(unchecked) private var sharing = false

  @inline(never) private func sharingChanged(_ others: Bool) {
    sharing = others
    if others {
      for table in tables.values { table.shared?.insert(contentsOf: table.pieces) }
    }
  }

  /// Makes the counts readable by `ShapingCache.statistics`.
  func publish() {
    counts.bytes = bytes
    ThreadCache.registry.withLock { _ in statistics = counts }
  }

  /// The table of text shaped with `font` and these properties and options: `table(_:)`
  /// without a key made, where the table is one of the last few. (A key made copies the options,
  /// retaining their arrays and strings, a few times a line.)
  ///
  /// Text at the beginning or end of text (`ShapeOptions.bufferFlags`) takes the table of the
  /// same text in the middle of one: a piece's edges are in its key (`PieceHash`), and its glyphs
  /// are shaped with the flags its edges need (`shapePieces`). (A paragraph's first and last runs
  /// had tables of their own, and the mixed text, each line a paragraph in DejaVu Sans, found
  /// 62.1% of its pieces where it now finds 68.3%; 15% less time, `perf stat`.) Text broken into
  /// lines, justified or hyphenated takes the table of the same text shaped as a paragraph: the
  /// settings of paragraphs and lines are neither compared (`ShapeOptions.shapesRunsAlike`) nor
  /// kept in a key (`ShapeOptions.withoutLayout`).
  func table(
    font state: FontCacheState, direction: Direction, script: Script, language: Language?,
    options: ShapeOptions
  ) -> Table {
    let font = state.id
    // The keys' options have neither of the text's edges; those of `options` are given to the
    // key compared for the comparison and taken back after it. (Copied without them, the options
    // of a paragraph's first and last runs cost 260 instructions each, callgrind.)
    let edges = options.bufferFlags.intersection(Self.textEdges)
    func matches(_ index: Int) -> Bool {
      let key = recent[index]
      guard key.font == font && key.direction == direction && key.script == script && key.language == language
      else { return false }
      // (Compared in place, through a mutable access: read as a value, the key's options were
      // copied out of the class for the comparison, their arrays and strings retained and
      // released, 280 instructions a lookup, callgrind.)
      return ShapeOptions.shapeRunsAlike(&key.options, options, addingEdges: edges)
    }
    if lastRecent >= 0, matches(lastRecent) { return recent[lastRecent].table }
    for index in recent.indices where index != lastRecent && matches(index) {
      lastRecent = index
      return recent[index].table
    }
    var inside = options.withoutLayout
    inside.bufferFlags.subtract(Self.textEdges)
    return table(
      .init(font: font, direction: direction, script: script, language: language, options: inside),
      state: state)
  }

  private static let textEdges: Buffer.Flags = [.beginningOfText, .endOfText]

  /// Whether a recent table of `font`, `script` and `direction` (of any language and options) is
  /// in a timed window (`Table.isInTimedWindow`): the table a text of these is expected to take,
  /// as far as can be told without reading the text; nil where none is recent.
  ///
  /// (The tables read in place: bound in a loop, each was retained and released, 70 instructions
  /// a call, callgrind.)
  func recentTableIsTimed(font: UInt64, script: Script, direction: Direction?) -> Bool? {
    recent.withUnsafeBufferPointer { recent in
      for index in recent.indices where recent[index].font == font && recent[index].script == script {
        if let direction, direction != recent[index].direction { continue }
        return recent[index].table.isInTimedWindow
      }
      return nil
    }
  }

  /// The table for `key` (whose options have neither of the text's edges), made when new: one
  /// of the recent ones is looked for first (`table(font:direction:script:language:options:)`).
  private func table(_ key: TableKey, state: FontCacheState) -> Table {
    let table: Table
    if let found = tables[key] {
      table = found
    } else {
      table = Table(shared: ShapingCache.sharesBetweenThreads ? state.sharedPieces(key) : nil)
      tables[key] = table
    }
    if recent.count == 4 { recent.removeFirst() }
    recent.append(RecentTable(key: key, table: table))
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
      pieces.removeAllKeepingCapacity()
      texts.removeAllKeepingCapacity()
      edges.removeAllKeepingCapacity()
      bytes.removeAllKeepingCapacity()
      starts.removeAllKeepingCapacity()
      shaped.removeAllKeepingCapacity()
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
    swiftshape_thread_cache_get().map { Unmanaged<ThreadCache>.fromOpaque($0).takeUnretainedValue() }
  }

  /// The current thread's cache.
  ///
  /// Speed: read from a thread-local variable (`CThreadSlots`); the thread-specific slot, which
  /// releases the cache when the thread ends, is written once. Read through
  /// `pthread_getspecific` and the slot's lazily made key, it was 75 instructions a call, a call
  /// or two a line (callgrind).
  static var current: ThreadCache {
    @inline(__always) get {
      if let slot = swiftshape_thread_cache_get() {
        return Unmanaged<ThreadCache>.fromOpaque(slot).takeUnretainedValue()
      }
      return made()
    }
  }

  /// The current thread's cache, made (its first use on the thread).
  @inline(never) private static func made() -> ThreadCache {
    let cache = ThreadCache()
    let retained = Unmanaged.passRetained(cache).toOpaque()
    pthread_setspecific(ThreadCacheKey.shared.key, retained)
    swiftshape_thread_cache_set(retained)
    registry.withLock { registry in
      registry.live.append(cache)
      swiftshape_live_caches_set(registry.live.count)
    }
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
    // (Run on the ending thread: what it reads of its slot from here on is nothing.)
    swiftshape_thread_cache_set(nil)
    let ended = cache.takeRetainedValue()
    ended.publish()
    ThreadCache.registry.withLock { registry in
      var counts = ended.statistics
      counts.bytes = 0
      registry.ended = registry.ended + counts
      registry.live.removeAll { $0 === ended }
      swiftshape_live_caches_set(registry.live.count)
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
