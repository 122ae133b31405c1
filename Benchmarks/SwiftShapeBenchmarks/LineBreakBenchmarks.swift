import HarfBuzz
import SwiftShape
import SwiftShapeHyphenation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Breaking paragraphs to a width (`ShapeOptions.lineWidth`, `--width`): what finding the breaks,
/// cutting the shaped runs and reshaping at unsafe edges cost over paragraph shaping alone.
extension Benchmarks {
  /// Library: each line of the corpus a paragraph, broken to about 40 ems, against the same
  /// paragraphs shaped without a width; CPU time, passes in alternation, the median of the paired
  /// ratios. The detail gives how many edges were reshaped against how many lines were made.
  func lineBreakLibrary(
    name: String, font path: String, lines: [String], target: Double, hyphenationLanguage: String? = nil
  ) throws -> [Figure] {
    let font = try ShapingFont(file: path)
    var paragraph = ShapeOptions()
    paragraph.includeGlyphNames = false
    paragraph.clusterUnit = .utf8
    paragraph.paragraph = .auto
    var broken = paragraph
    broken.lineWidth = Int32(40 * font.scale.x)
    func pass(_ options: ShapeOptions, rounds: Int) throws -> (time: Double, lines: Int, reshaped: Int) {
      let start = Measure.cpuTime()
      var result = ShapeResult()
      var made = 0
      var reshaped = 0
      for _ in 0..<rounds {
        for line in lines {
          try font.shape(line, options: options, into: &result)
          made += result.lines?.count ?? 0
          reshaped += result.reshapedEdges
        }
      }
      return (Measure.cpuTime() - start, made / rounds, reshaped / rounds)
    }
    let rounds = max(1, 2_000 / max(1, lines.count))
    // For profiling: SWIFTSHAPE_PROFILE_LINES=paragraph|broken|justified|kashida|hyphenated (on the
    // corpus whose name contains SWIFTSHAPE_PROFILE_CORPUS, the Persian text by default) runs those
    // lines alone, a few passes after the warm-up (SWIFTSHAPE_PROFILE_PASSES, 3 by default), and
    // exits: under callgrind, the instructions a kind costs over `broken` (or `broken` over
    // `paragraph`, unbroken). With a hyphenation language, `broken` and `hyphenated` set it.
    if let kind = getenv("SWIFTSHAPE_PROFILE_LINES").map({ String(cString: $0) }) {
      let corpus = getenv("SWIFTSHAPE_PROFILE_CORPUS").map { String(cString: $0) } ?? "fa-"
      guard name.contains(corpus) else { return [] }
      let passes = getenv("SWIFTSHAPE_PROFILE_PASSES").flatMap { Int(String(cString: $0)) } ?? 3
      var profiled = kind == "paragraph" ? paragraph : broken
      if kind == "justified" || kind == "kashida" { profiled.alignment = .justify }
      profiled.kashida = kind == "kashida" ? .auto : KashidaMode.none
      if let hyphenationLanguage, kind == "broken" || kind == "hyphenated" {
        profiled.language = Language(harfBuzzString: hyphenationLanguage)
        profiled.hyphenates = kind == "hyphenated"
      }
      _ = try pass(profiled, rounds: rounds)
      for _ in 0..<passes { _ = try pass(profiled, rounds: rounds) }
      print(ShapingCache.statistics)
      exit(0)
    }
    _ = try pass(paragraph, rounds: rounds)
    let counts = try pass(broken, rounds: rounds)
    /// Passes of `base` and `other` in alternating order: each pair's times, `base`'s first.
    func pairs(_ base: ShapeOptions, _ other: ShapeOptions) throws -> [(base: Double, other: Double)] {
      try (0..<(trials * 8)).map { pair in
        let a = try pass(pair % 2 == 0 ? base : other, rounds: rounds).time
        let b = try pass(pair % 2 == 0 ? other : base, rounds: rounds).time
        return pair % 2 == 0 ? (a, b) : (b, a)
      }
    }
    let timed = try pairs(paragraph, broken)
    let ratios = timed.map { $0.other / $0.base }
    let paragraphTimes = timed.map(\.base)
    let brokenTimes = timed.map(\.other)
    let ratio = Measure.median(ratios)
    let perLine = { (time: Double) in time / Double(rounds * lines.count) * 1e6 }
    // Justified against the same lines at the start: with spaces alone, and (text of Arabic
    // script) with kashida, which shapes each line again with its tatweels.
    var justified = broken
    justified.alignment = .justify
    justified.kashida = KashidaMode.none
    _ = try pass(justified, rounds: rounds)
    let justifyRatios = try pairs(broken, justified).map { $0.other / $0.base }
    let justifiedFigure = Figure(
      name: "justified lines library \(name) at 40 em", value: Measure.median(justifyRatios),
      target: "≤ 1.10× lines at the start", met: Measure.median(justifyRatios) <= 1.1, detail: "spaces only")
    var kashidaFigure: Figure?
    if lines.contains(where: { $0.unicodeScalars.contains { (0x620...0x64A).contains($0.value) } }) {
      var kashida = justified
      kashida.kashida = .auto
      _ = try pass(kashida, rounds: rounds)
      let kashidaRatios = try pairs(broken, kashida).map { $0.other / $0.base }
      kashidaFigure = Figure(
        name: "justified lines with kashida library \(name) at 40 em", value: Measure.median(kashidaRatios),
        target: "≤ 1.10× lines at the start", met: Measure.median(kashidaRatios) <= 1.1,
        detail: "each line shaped again with its tatweels")
    }
    let breakingFigure = Figure(
      name: "lines library \(name) at 40 em", value: ratio, target: "≤ \(fixed(target))× paragraph",
      met: ratio <= target,
      detail:
        "\(fixed(perLine(Measure.median(brokenTimes)))) µs a paragraph; unbroken \(fixed(perLine(Measure.median(paragraphTimes)))) µs; \(lines.count) paragraphs made \(counts.lines) lines, \(counts.reshaped) edges reshaped"
    )
    // Hyphenated (`--hyphenate`, the text's language) against the same lines unhyphenated.
    guard let hyphenationLanguage, Hyphenator.dictionaryPath(for: hyphenationLanguage) != nil else {
      return [breakingFigure, justifiedFigure] + (kashidaFigure.map { [$0] } ?? [])
    }
    var hyphenated = broken
    hyphenated.hyphenates = true
    hyphenated.language = Language(harfBuzzString: hyphenationLanguage)
    var unhyphenated = broken
    unhyphenated.language = hyphenated.language
    let hyphenatedCounts = try pass(hyphenated, rounds: rounds)
    let hyphenateRatios = try pairs(unhyphenated, hyphenated).map { $0.other / $0.base }
    let hyphenatedFigure = Figure(
      name: "hyphenated lines library \(name) at 40 em", value: Measure.median(hyphenateRatios),
      target: "≤ 1.30× lines unhyphenated", met: Measure.median(hyphenateRatios) <= 1.3,
      detail: "\(hyphenatedCounts.lines) lines (\(counts.lines) unhyphenated)")
    return [breakingFigure, justifiedFigure, hyphenatedFigure]
  }
}
