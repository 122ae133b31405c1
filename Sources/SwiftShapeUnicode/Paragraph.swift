import CUnicodeAlgorithms

/// A maximal span of a paragraph with one bidi level, one script and one font: the unit HarfBuzz
/// shapes.
public struct TextRun: Sendable, Hashable {
  /// The span, in indices of the paragraph's Unicode scalars.
  public var range: Range<Int>
  /// The resolved bidi level: even left to right, odd right to left.
  public var level: UInt8
  /// The script's ISO 15924 code.
  public var script: String
  /// The font the run is drawn with, as an index into the caller's list of fonts (0 when the
  /// paragraph was itemized without fonts).
  public var font: Int

  /// A run with each field given.
  public init(range: Range<Int>, level: UInt8, script: String, font: Int = 0) {
    self.range = range
    self.level = level
    self.script = script
    self.font = font
  }

  /// Whether the run goes right to left.
  public var isRightToLeft: Bool { level & 1 == 1 }
}

/// A range of a paragraph resolved as a bidi isolate (UAX #9's FSI, LRI or RLI … PDI around it),
/// in indices of its Unicode scalars; isolates nest, and do not otherwise overlap.
public struct Isolate: Sendable, Hashable {
  /// The isolated range.
  public var range: Range<Int>
  /// Its base direction: from its first strong character, left to right or right to left.
  public var base: BaseDirection

  /// An isolate of `range` with `base`.
  public init(_ range: Range<Int>, base: BaseDirection) { (self.range, self.base) = (range, base) }
}

/// A paragraph cut into runs of one level, one script (bidi, UAX #9, and script itemization,
/// UAX #24) and one font, with their visual order.
public struct ItemizedParagraph: Sendable {
  /// The paragraph's level: 0 left to right, 1 right to left.
  public var baseLevel: UInt8
  /// The runs in logical order, covering the paragraph.
  public var runs: [TextRun]
  /// The runs' indices in visual order (rule L2, the paragraph being one line).
  public var visualOrder: [Int]

  /// Itemizes `scalars` as one paragraph.
  ///
  /// - Throws: `UnicodeAlgorithmError` when ICU fails.
  public init(_ scalars: [Unicode.Scalar], base: BaseDirection, isolates: [Isolate] = []) throws {
    let (utf16, unitOfScalar) =
      isolates.isEmpty ? Self.utf16(scalars) : Self.utf16(scalars, isolates: isolates)
    let bidi = try BidiParagraph(utf16: utf16, base: base)
    // Each scalar's level: the level of its first UTF-16 unit.
    let levels = unitOfScalar.map { units in units.dropLast().map { bidi.levels[$0] } } ?? bidi.levels
    let scripts = try ScriptItemizer.runs(scalars)
    var runs: [TextRun] = []
    // (Read through a buffer pointer: a level read through the array, or through a closure that
    // chose between the two arrays, cost about 40 instructions a scalar, callgrind.)
    levels.withUnsafeBufferPointer { levels in
      // (Room for a few runs more than the script runs: reserved for those alone, the array
      // grew again in two paragraphs of the mixed text in three, a `malloc` and a `free` each;
      // counted first, the pass over the levels cost more than the allocations, callgrind.)
      runs.reserveCapacity(scripts.count + 8)
      for scriptRun in scripts {
        var start = scriptRun.range.lowerBound
        var level = levels[start]
        for index in (start + 1)..<scriptRun.range.upperBound where levels[index] != level {
          runs.append(TextRun(range: start..<index, level: level, script: scriptRun.script))
          (start, level) = (index, levels[index])
        }
        runs.append(
          TextRun(range: start..<scriptRun.range.upperBound, level: level, script: scriptRun.script))
      }
    }
    self.baseLevel = bidi.baseLevel
    self.runs = runs
    self.visualOrder = runs.count == 1 ? [0] : bidiVisualOrder(runs.map(\.level))
  }

  /// `scalars` in UTF-16, and where each scalar's units start (with the end of the text last),
  /// nil where each scalar is one unit.
  /// (Written through a buffer pointer: appended, each unit cost a uniqueness check.)
  private static func utf16(_ scalars: [Unicode.Scalar]) -> (units: [UInt16], unitOfScalar: [Int]?) {
    let units = [UInt16](capacity: 2 * scalars.count) { units in
      scalars.withUnsafeBufferPointer { scalars in
        var at = 0
        for scalar in scalars {
          let value = scalar.value
          if value < 0x1_0000 {
            units[at] = UInt16(truncatingIfNeeded: value)
            at += 1
          } else {
            units[at] = UTF16.leadSurrogate(scalar)
            units[at + 1] = UTF16.trailSurrogate(scalar)
            at += 2
          }
        }
        return at
      }
    }
    guard units.count != scalars.count else { return (units, nil) }
    return (
      units,
      scalars.indices.reduce(into: [0]) { starts, index in
        starts.append(starts[index] + UTF16.width(scalars[index]))
      }
    )
  }

  /// `scalars` in UTF-16 with the initiators and PDIs of `isolates` around their ranges, and
  /// where each scalar's units start (the end of the text last).
  private static func utf16(_ scalars: [Unicode.Scalar], isolates: [Isolate]) -> (
    units: [UInt16], unitOfScalar: [Int]?
  ) {
    var utf16: [UInt16] = []
    utf16.reserveCapacity(scalars.count + 2 * isolates.count)
    // Isolates are resolved as if their initiator (FSI, LRI or RLI) and PDI were in the text
    // around them; they take no scalar's place.
    var opening = [Int: [UInt16]]()
    var closing = [Int: Int]()
    for isolate in isolates {
      let initiator: UInt16 =
        switch isolate.base {
        case .auto: 0x2068
        case .leftToRight: 0x2066
        case .rightToLeft: 0x2067
        }
      opening[isolate.range.lowerBound, default: []].append(initiator)
      closing[isolate.range.upperBound, default: 0] += 1
    }
    var unitOfScalar: [Int] = []
    unitOfScalar.reserveCapacity(scalars.count + 1)
    for (index, scalar) in scalars.enumerated() {
      // Those that end here close before those that open here.
      if let count = closing[index] { utf16 += repeatElement(0x2069, count: count) }
      if let initiators = opening[index] { utf16 += initiators }
      unitOfScalar.append(utf16.count)
      utf16.append(contentsOf: UTF16.encode(scalar)!)
    }
    unitOfScalar.append(utf16.count)
    if let count = closing[scalars.count] { utf16 += repeatElement(0x2069, count: count) }
    return (utf16, unitOfScalar)
  }

  /// A paragraph of the given runs (logical order, covering it) at `baseLevel`.
  public init(baseLevel: UInt8, runs: [TextRun]) {
    self.baseLevel = baseLevel
    self.runs = runs
    self.visualOrder = runs.count == 1 ? [0] : bidiVisualOrder(runs.map(\.level))
  }

  /// The paragraph with its runs cut where the font changes too.
  ///
  /// - Parameter fonts: the font of each scalar, an index into the caller's list of fonts; each
  ///   run gets its characters' font.
  public func splittingRuns(byFonts fonts: [Int]) -> ItemizedParagraph {
    var split = self
    split.runs = []
    // (Counted first: a span a word cuts a line into thirty runs, and the array grew five times.)
    // (The fonts read through a buffer pointer: through the array, each read checked for its
    // bounds, splitting took 3.6 M instructions a pass over the English text with a span a word,
    // now 3.0 M, callgrind.)
    fonts.withUnsafeBufferPointer { fonts in
      var count = runs.count
      for run in runs {
        // (Each run's first scalar is read: in the text, as the array's checks had it.)
        precondition(run.range.lowerBound >= 0 && run.range.lowerBound < fonts.count)
        precondition(run.range.upperBound <= fonts.count)
        for index in run.range.dropFirst() where fonts[index] != fonts[index - 1] { count += 1 }
      }
      split.runs.reserveCapacity(count)
      for run in runs {
        var start = run.range.lowerBound
        for index in run.range.dropFirst() where fonts[index] != fonts[index - 1] {
          split.runs.append(
            TextRun(range: start..<index, level: run.level, script: run.script, font: fonts[start]))
          start = index
        }
        split.runs.append(
          TextRun(
            range: start..<run.range.upperBound, level: run.level, script: run.script, font: fonts[start])
        )
      }
    }
    if let first = runs.first, runs.allSatisfy({ $0.level == first.level }) {
      // Runs split from runs of one level: without an array of their levels.
      split.visualOrder = oneLevelVisualOrder(first.level, count: split.runs.count)
    } else {
      split.visualOrder = split.runs.count == 1 ? [0] : bidiVisualOrder(split.runs.map(\.level))
    }
    return split
  }

  /// For a paragraph that is one run — level 0 throughout and one script — that script's ISO
  /// 15924 code as four bytes in a tag (`Latn` is 0x4C61_746E) and the number of its Unicode
  /// scalars; nil for any other paragraph (and for empty text), which `init(_:base:)` itemizes.
  /// The same run `init(_:base:)` gives, found in one pass without its arrays: a word of Hindi
  /// is itemized in a quarter of the time.
  ///
  /// - Throws: `UnicodeAlgorithmError` when ICU cannot be loaded.
  public static func singleRun(_ text: String, base: BaseDirection) throws -> (
    scriptTag: UInt32, scalars: Int
  )? {
    var text = text
    var tag: UInt32 = 0
    var count: Int32 = 0
    let status = text.withUTF8 { bytes in
      swiftshape_simple_paragraph(bytes.baseAddress, Int32(bytes.count), base.icuLevel, &tag, &count)
    }
    guard status >= 0 else { throw UnicodeAlgorithmError(Int32(SWIFTSHAPE_ICU_UNAVAILABLE), "itemizing") }
    guard status == 1, count > 0 else { return nil }
    return (tag, Int(count))
  }

  /// The visual order (rule L2) of runs of the given levels, `order[visual] = logical`: for the
  /// runs of a line.
  public static func visualOrder(levels: [UInt8]) -> [Int] { bidiVisualOrder(levels) }
}
