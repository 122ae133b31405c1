import HarfBuzz
import SwiftShape

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Paragraph shaping (`ShapeOptions.paragraph`, `--paragraph`): what bidi, itemization and a
/// shaping a run cost over plain shaping, and against libraqm.
extension Benchmarks {
  /// Options as the library figures shape with: no glyph names, clusters in UTF-8 bytes; plain
  /// shaping without the shaping cache, paragraphs with it.
  private func libraryOptions(paragraph: Bool) -> ShapeOptions {
    var options = ShapeOptions()
    options.includeGlyphNames = false
    options.clusterUnit = .utf8
    if paragraph {
      options.paragraph = .auto
    } else {
      options.usesCache = false
    }
    return options
  }

  /// One pass over `lines`, `rounds` times, shaped into one reused result: CPU time and glyphs
  /// shaped. With `fresh`, the shaping cache is emptied before each round (not timed).
  private func pass(
    _ font: ShapingFont, _ lines: [String], _ options: ShapeOptions, rounds: Int, fresh: Bool = false
  ) throws -> (time: Double, glyphs: Int) {
    var time = 0.0
    var glyphs = 0
    var result = ShapeResult()
    for _ in 0..<rounds {
      if fresh { ShapingCache.removeAllOnThisThread() }
      let start = Measure.cpuTime()
      for line in lines {
        try font.shape(line, options: options, into: &result)
        for run in result.runs { glyphs += run.glyphs.count }
      }
      time += Measure.cpuTime() - start
    }
    return (time, glyphs)
  }

  /// Each line's runs as paragraph shaping cuts it, with their directions and scripts: shaped
  /// alone, without bidi, itemization or context, what HarfBuzz itself costs for a paragraph.
  private func runsAlone(_ lines: [String], _ options: ShapeOptions) throws -> [(
    text: String, options: ShapeOptions
  )] {
    var runs: [(text: String, options: ShapeOptions)] = []
    for line in lines {
      let scalars = Array(line.unicodeScalars)
      for run in try ItemizedParagraph(scalars, base: .auto).runs {
        var runOptions = options
        runOptions.direction = run.isRightToLeft ? .rightToLeft : .leftToRight
        runOptions.script = Script(harfBuzzString: run.script)
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars[run.range])
        runs.append((text, runOptions))
      }
    }
    return runs
  }

  /// Library: paragraph shaping (with the shaping cache, kept from pass to pass as a process
  /// keeps it) against plain shaping of the same lines without it, CPU time, passes in
  /// alternation and the median of the paired ratios (as `library(_:)`). The detail gives the
  /// same ratio with the cache emptied before each pass over the text, and for the paragraphs'
  /// runs shaped alone (`runsAlone`, without the cache): what of the cost is HarfBuzz's.
  func paragraphLibrary(name: String, font path: String, lines: [String], target: Double) throws -> Figure {
    let font = try ShapingFont(file: path)
    let plain = libraryOptions(paragraph: false)
    let paragraph = libraryOptions(paragraph: true)
    // For profiling: SWIFTSHAPE_PROFILE_PARAGRAPHS=plain|paragraph|fresh (on the corpus whose name
    // contains SWIFTSHAPE_PROFILE_CORPUS, the mixed text by default) runs that side alone, a
    // pass over the text to warm up and a few more (SWIFTSHAPE_PROFILE_PASSES, 3 by default), and
    // exits: under callgrind, what paragraph shaping costs over plain shaping.
    if let kind = getenv("SWIFTSHAPE_PROFILE_PARAGRAPHS").map({ String(cString: $0) }) {
      guard name.contains(getenv("SWIFTSHAPE_PROFILE_CORPUS").map { String(cString: $0) } ?? "mixed") else {
        return Figure(name: "paragraph library \(name)", value: 0, target: "", met: true, detail: "skipped")
      }
      let options = kind == "plain" ? plain : paragraph
      let passes = getenv("SWIFTSHAPE_PROFILE_PASSES").flatMap { Int(String(cString: $0)) } ?? 3
      _ = try pass(font, lines, options, rounds: 1)
      _ = try pass(font, lines, options, rounds: passes, fresh: kind == "fresh")
      exit(0)
    }
    // About 20 ms a pass.
    let rounds = max(1, 2_000 / max(1, lines.count))
    _ = try pass(font, lines, plain, rounds: rounds)
    _ = try pass(font, lines, paragraph, rounds: rounds)
    let runs = try runsAlone(lines, plain)
    func passRuns() throws -> Double {
      let start = Measure.cpuTime()
      var result = ShapeResult()
      for _ in 0..<rounds {
        for run in runs { try font.shape(run.text, options: run.options, into: &result) }
      }
      return Measure.cpuTime() - start
    }
    _ = try passRuns()
    var runRatios: [Double] = []
    var freshRatios: [Double] = []
    var ratios: [Double] = []
    var plainTimes: [Double] = []
    var paragraphTimes: [Double] = []
    for pair in 0..<(trials * 8) {
      let first = pair % 2 == 0 ? plain : paragraph
      let second = pair % 2 == 0 ? paragraph : plain
      let a = try pass(font, lines, first, rounds: rounds).time
      let b = try pass(font, lines, second, rounds: rounds).time
      let (plainTime, paragraphTime) = pair % 2 == 0 ? (a, b) : (b, a)
      runRatios.append(try passRuns() / plainTime)
      freshRatios.append(try pass(font, lines, paragraph, rounds: rounds, fresh: true).time / plainTime)
      ratios.append(paragraphTime / plainTime)
      plainTimes.append(plainTime)
      paragraphTimes.append(paragraphTime)
    }
    let ratio = Measure.median(ratios)
    let perLine = { (time: Double) in time / Double(rounds * lines.count) * 1e6 }
    return Figure(
      name: "paragraph library \(name)", value: ratio, target: "≤ \(fixed(target))× plain",
      met: ratio <= target,
      detail:
        "\(fixed(perLine(Measure.median(paragraphTimes)))) µs a line; plain \(fixed(perLine(Measure.median(plainTimes)))) µs; with an empty cache each pass \(fixed(Measure.median(freshRatios)))×; its \(runs.count) runs shaped alone: \(fixed(Measure.median(runRatios)))× plain"
    )
  }

  /// The command: `swiftshape shape -O jsonl --paragraph` against the same without `--paragraph`,
  /// CPU time, medians of the paired ratios. The paragraph form of the JSON is larger (each
  /// result's level, direction and runs with their fonts), and its writing is counted.
  func paragraphCommand(_ corpus: Corpus) -> Figure {
    let arguments = [
      swiftshape, "shape", "-O", "jsonl", "--font-file", corpus.font, "--text-file", corpus.text,
    ]
    var plain: [Double] = []
    var paragraph: [Double] = []
    // Twice the trials of the other command figures, and the two sides in alternating order:
    // the ratio is near 1, where the machine's noise matters most.
    for trial in 0..<(2 * trials) {
      if trial % 2 == 0 {
        plain.append(checked(arguments).cpu)
        paragraph.append(checked(arguments + ["--paragraph"]).cpu)
      } else {
        paragraph.append(checked(arguments + ["--paragraph"]).cpu)
        plain.append(checked(arguments).cpu)
      }
    }
    let ratio = Measure.median(zip(paragraph, plain).map { $0 / $1 })
    return Figure(
      name: "paragraph command \(corpus.name)", value: ratio, target: "≤ 1.15× plain", met: ratio <= 1.15,
      detail:
        "--paragraph \(fixed(Measure.median(paragraph) * 1e3, 0)) ms, plain \(fixed(Measure.median(plain) * 1e3, 0)) ms"
    )
  }

  /// Throughput against libraqm on the same lines and font: a pass of the library's paragraph
  /// shaping against `raqm-shape FONT TEXT 1` (a C loop of raqm_create, raqm_layout and
  /// raqm_destroy a line, which reports its own CPU time, without reading the file), in
  /// alternation; the median of the paired ratios.
  func paragraphAgainstRaqm(
    font path: String, text: String, lines: [String], raqmShape: String, scratch: String
  ) throws -> Figure {
    let font = try ShapingFont(file: path)
    let options = libraryOptions(paragraph: true)
    _ = try pass(font, lines, options, rounds: 1)
    func raqm() throws -> Double {
      let run = Measure.run([raqmShape, path, text, "1"], stdoutPath: scratch)
      let output = (try? Blob(contentsOfFile: scratch).bytes) ?? []
      let firstLine = String(decoding: output, as: UTF8.self).split(separator: "\n").first
      guard run.status == 0, let time = firstLine.flatMap({ Double($0) }) else {
        throw ShapingError(.internalFailure, input: raqmShape, reason: "exited with \(run.status)")
      }
      return time
    }
    var ratios: [Double] = []
    var ours: [Double] = []
    var theirs: [Double] = []
    for pair in 0..<(trials * 2) {
      let (swiftTime, raqmTime): (Double, Double)
      if pair % 2 == 0 {
        swiftTime = try pass(font, lines, options, rounds: 1).time
        raqmTime = try raqm()
      } else {
        raqmTime = try raqm()
        swiftTime = try pass(font, lines, options, rounds: 1).time
      }
      ratios.append(raqmTime / swiftTime)
      ours.append(swiftTime)
      theirs.append(raqmTime)
    }
    let ratio = Measure.median(ratios)
    return Figure(
      name: "paragraph mixed vs libraqm", value: ratio, target: "≥ 4× libraqm", met: ratio >= 4,
      detail:
        "\(lines.count) lines: \(fixed(Measure.median(ours) * 1e3, 1)) ms a pass, libraqm \(fixed(Measure.median(theirs) * 1e3, 1)) ms"
    )
  }
}
