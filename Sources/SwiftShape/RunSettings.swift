import HarfBuzz

// A paragraph's settings cut to its runs: the features each run is shaped with, its script from
// its ISO 15924 code, the paragraph's options with the spans' features added.

extension Feature {
  /// The end of a range that covers every cluster of a buffer without being global
  /// (`globalEnd` is): what a run's feature whose range covers the whole run gets, so that it is
  /// the same setting from run to run.
  static let coversAll: UInt32 = .max - 1

  /// Whether the setting is global, or its range covers every cluster (`coversAll`).
  var appliesToAll: Bool { start == 0 && (end == Feature.globalEnd || end == Feature.coversAll) }

  /// The setting for the run `run` of the paragraph (in the cluster unit), whose clusters
  /// HarfBuzz numbers from `base`: as `forRun(startingAt:clustersFrom:)`, but a setting whose
  /// range covers the whole run gets the range `0..<coversAll`, the same for every run (still a
  /// range: HarfBuzz's shapers treat a ranged setting and a global one differently, the Indic
  /// shaper's `half` for one), so that the shaping cache can take it.
  ///
  /// Speed: a span of features over each line of the English text cost 7× the lines without it
  /// before, past the cache.
  func forRun(_ run: Range<Int>, clustersFrom base: Int) -> Feature? {
    guard !(self.start == 0 && end == Feature.globalEnd) else { return self }
    if Int(self.start) <= run.lowerBound, end == Feature.globalEnd || Int(end) >= run.upperBound {
      var covering = self
      (covering.start, covering.end) = (0, Feature.coversAll)
      return covering
    }
    return forRun(startingAt: run.lowerBound, clustersFrom: base)
  }

  /// The setting for a run that starts `start` clusters into the paragraph, whose clusters
  /// HarfBuzz numbers from `base`: its range cut to start no earlier than the run and moved by
  /// `base`; nil when it ends before the run. Global settings stay as they are.
  func forRun(startingAt start: Int, clustersFrom base: Int) -> Feature? {
    guard !(self.start == 0 && end == Feature.globalEnd) else { return self }
    let start = UInt32(clamping: start)
    let base = UInt32(clamping: base)
    if start > 0, end != Feature.globalEnd, end <= start { return nil }
    /// `value` + `base`, short of the end that means "to the end of the text".
    func plusBase(_ value: UInt32) -> UInt32 {
      let (sum, overflow) = value.addingReportingOverflow(base)
      return overflow || sum == Feature.globalEnd ? Feature.globalEnd - 1 : sum
    }
    var moved = self
    moved.start = plusBase(Swift.max(self.start, start))
    if end != Feature.globalEnd { moved.end = plusBase(end) }
    return moved
  }
}

extension Script {
  /// The script of an ISO 15924 code as itemization names it (four ASCII letters): what
  /// `init?(harfBuzzString:)` gives, without a C string made for it (600 instructions a run).
  init(iso15924 code: String) {
    // (Read in place: through the view's generic `prefix`, about 200 instructions a run more,
    // callgrind.)
    func tag(_ bytes: some Sequence<UInt8>) -> UInt32 {
      var tag: UInt32 = 0
      for byte in bytes.prefix(4) { tag = tag << 8 | UInt32(byte) }
      return tag
    }
    self.init(
      tag: OpenTypeTag(rawValue: code.utf8.withContiguousStorageIfAvailable { tag($0) } ?? tag(code.utf8)))
  }
}

extension ShapeOptions {
  /// These options with `features` after their own.
  func addingFeatures(_ features: [Feature]) -> ShapeOptions {
    var options = self
    options.features += features
    return options
  }
}
