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
    var unitOfScalar: [Int]? = isolates.isEmpty ? nil : []
    for (index, scalar) in scalars.enumerated() {
      // Those that end here close before those that open here.
      if let count = closing[index] { utf16 += repeatElement(0x2069, count: count) }
      if let initiators = opening[index] { utf16 += initiators }
      unitOfScalar?.append(utf16.count)
      if scalar.value < 0x1_0000 {
        utf16.append(UInt16(scalar.value))
      } else {
        utf16.append(contentsOf: UTF16.encode(scalar)!)
      }
    }
    if let count = closing[scalars.count] { utf16 += repeatElement(0x2069, count: count) }
    // Where each scalar's UTF-16 starts: at its own index when the text has no surrogate pair.
    if unitOfScalar == nil, utf16.count != scalars.count {
      unitOfScalar = scalars.indices.reduce(into: [0]) { units, index in
        units.append(units[index] + UTF16.width(scalars[index]))
      }
    }
    let bidi = try BidiParagraph(utf16: utf16, base: base)
    func level(_ scalar: Int) -> UInt8 { bidi.levels[unitOfScalar?[scalar] ?? scalar] }
    let scripts = try ScriptItemizer.runs(scalars)
    var runs: [TextRun] = []
    for scriptRun in scripts {
      var start = scriptRun.range.lowerBound
      for index in scriptRun.range where index > start && level(index) != level(start) {
        runs.append(TextRun(range: start..<index, level: level(start), script: scriptRun.script))
        start = index
      }
      if start < scriptRun.range.upperBound {
        runs.append(
          TextRun(range: start..<scriptRun.range.upperBound, level: level(start), script: scriptRun.script))
      }
    }
    self.baseLevel = bidi.baseLevel
    self.runs = runs
    self.visualOrder = runs.count == 1 ? [0] : bidiVisualOrder(runs.map(\.level))
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
    var count = runs.count
    for run in runs {
      for index in run.range.dropFirst() where fonts[index] != fonts[index - 1] { count += 1 }
    }
    split.runs.reserveCapacity(count)
    for run in runs {
      var start = run.range.lowerBound
      for index in run.range where index > start && fonts[index] != fonts[start] {
        split.runs.append(
          TextRun(range: start..<index, level: run.level, script: run.script, font: fonts[start]))
        start = index
      }
      split.runs.append(
        TextRun(range: start..<run.range.upperBound, level: run.level, script: run.script, font: fonts[start])
      )
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
