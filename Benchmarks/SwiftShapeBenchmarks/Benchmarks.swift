import CShapeBaseline
import HarfBuzz
import SwiftShape

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A corpus of HarfBuzz's benchmark texts with the font to shape it with.
struct Corpus {
  var name: String
  var font: String
  var text: String
  var lines: [String]

  /// The library's target against the C loop, one pass with an empty shaping cache: on prose,
  /// where words come back, faster than HarfBuzz itself (English 1.6×, Persian 1.3×); on word
  /// lists, where every line is new, a miss costs almost nothing (0.95×).
  var libraryTarget: Double {
    name.contains("words") ? 0.95 : name.contains("en-") ? 1.6 : 1.3
  }
}

/// One measured ratio with its target.
struct Figure {
  var name: String
  var value: Double
  var target: String
  var met: Bool
  var detail: String
}

/// Runs a program and stops the benchmarks when it fails: a figure of a failing run means nothing.
func checked(_ arguments: [String]) -> Measure.Run {
  let run = Measure.run(arguments)
  if run.status != 0 {
    printError("swiftshape-benchmarks: \(arguments.joined(separator: " ")) exited with \(run.status)")
    exit(70)
  }
  return run
}

/// Benchmarks of SwiftShape against the C limit and hb-shape, all measured in one run, medians of
/// interleaved trials (the machine is noisy; ratios measured side by side hold better than times).
struct Benchmarks {
  var swiftshape: String
  var baseline: String
  var hbShape: String
  var corpora: [Corpus]
  var trials: Int

  /// Library throughput: `ShapingFont.shape(_:options:into:)`, each line shaped into one reused
  /// result as the C loop reuses its buffer, against a C loop around `hb_shape`, CPU time. The two
  /// run in alternation, a pass over the corpus each, and the figure is the median of the paired
  /// ratios, so that the machine's drifts touch both sides of each pair alike. Each Swift pass
  /// starts with an empty shaping cache (`ShapingCache.removeAllOnThisThread`). The detail gives
  /// the same ratio over four copies of the corpus (the cache warm after the first), without the
  /// cache, and for `shape(_:options:)`, which makes a new result each call.
  func library(_ corpus: Corpus) throws -> Figure {
    guard let c = swiftshape_baseline_open(corpus.font) else {
      throw ShapingError(.unreadableFile, input: corpus.font, reason: "cannot open")
    }
    defer { swiftshape_baseline_close(c) }
    let font = try ShapingFont(file: corpus.font)
    // What the C loop gets: no glyph names, and clusters as hb_buffer_add_utf8 numbers them (byte
    // offsets; by default SwiftShape numbers them by character, as hb-shape does, a pass more).
    var options = ShapeOptions()
    options.includeGlyphNames = false
    options.clusterUnit = .utf8
    let cLines = corpus.lines.map { strdup($0) }
    defer { cLines.forEach { free($0) } }
    let pointers: [UnsafePointer<CChar>?] = cLines.map { UnsafePointer($0) }
    let lengths = corpus.lines.map { Int32($0.utf8.count) }
    // About 20 ms a pass.
    let rounds = max(1, 2_000 / max(1, corpus.lines.count))
    func passC(copies: Int = 1) -> (Double, Int) {
      let start = Measure.cpuTime()
      let glyphs = Int(
        swiftshape_baseline_shape(c, pointers, lengths, Int32(pointers.count), Int32(rounds * copies)))
      return (Measure.cpuTime() - start, glyphs / copies)
    }
    func passSwift(copies: Int = 1, cache: Bool = true) throws -> (Double, Int) {
      ShapingCache.removeAllOnThisThread()
      var options = options
      options.usesCache = cache
      let start = Measure.cpuTime()
      var glyphs = 0
      var result = ShapeResult()
      for _ in 0..<(rounds * copies) {
        for line in corpus.lines {
          try font.shape(line, options: options, into: &result)
          glyphs += result.runs[0].glyphs.count
        }
      }
      return (Measure.cpuTime() - start, glyphs / copies)
    }
    func passSwiftNewResults() throws -> (Double, Int) {
      ShapingCache.removeAllOnThisThread()
      let start = Measure.cpuTime()
      var glyphs = 0
      for _ in 0..<rounds {
        for line in corpus.lines { glyphs += try font.shape(line, options: options).runs[0].glyphs.count }
      }
      return (Measure.cpuTime() - start, glyphs)
    }
    _ = passC()
    _ = try passSwift()
    _ = try passSwiftNewResults()
    // For profiling: SWIFTSHAPE_PROFILE_LIBRARY=NAME runs only the Swift side (the C loop with
    // SWIFTSHAPE_PROFILE_SIDE=c) on the corpus whose name contains NAME, for a few seconds (or
    // SWIFTSHAPE_PROFILE_PASSES passes, a few for an instruction count under callgrind), and exits.
    if let name = getenv("SWIFTSHAPE_PROFILE_LIBRARY").map({ String(cString: $0) }) {
      guard corpus.name.contains(name) else {
        return Figure(name: corpus.name, value: 0, target: "", met: true, detail: "")
      }
      let cSide = getenv("SWIFTSHAPE_PROFILE_SIDE").map { String(cString: $0) } == "c"
      let passes = getenv("SWIFTSHAPE_PROFILE_PASSES").flatMap { Int(String(cString: $0)) } ?? 150
      // SWIFTSHAPE_PROFILE_COPIES=N: each pass shapes N copies, the cache warm after the first;
      // SWIFTSHAPE_PROFILE_CACHE=off: without the cache.
      let copies = getenv("SWIFTSHAPE_PROFILE_COPIES").flatMap { Int(String(cString: $0)) } ?? 1
      let cache = getenv("SWIFTSHAPE_PROFILE_CACHE").map { String(cString: $0) } != "off"
      for _ in 0..<passes {
        if cSide { _ = passC(copies: copies) } else { _ = try passSwift(copies: copies, cache: cache) }
      }
      exit(0)
    }
    var ratios: [Double] = []
    var newResultRatios: [Double] = []
    var copiesRatios: [Double] = []
    var uncachedRatios: [Double] = []
    var cTimes: [Double] = []
    var swiftTimes: [Double] = []
    for pair in 0..<(trials * 8) {
      // Alternate which side goes first.
      let (cTime, cGlyphs): (Double, Int)
      let (swiftTime, swiftGlyphs): (Double, Int)
      let (newResultTime, newResultGlyphs): (Double, Int)
      if pair % 2 == 0 {
        (cTime, cGlyphs) = passC()
        (swiftTime, swiftGlyphs) = try passSwift()
        (newResultTime, newResultGlyphs) = try passSwiftNewResults()
      } else {
        (newResultTime, newResultGlyphs) = try passSwiftNewResults()
        (swiftTime, swiftGlyphs) = try passSwift()
        (cTime, cGlyphs) = passC()
      }
      guard cGlyphs == swiftGlyphs, cGlyphs == newResultGlyphs else {
        throw ShapingError(
          .internalFailure, input: corpus.name,
          reason: "C shaped \(cGlyphs) glyphs, Swift \(swiftGlyphs) and \(newResultGlyphs)")
      }
      ratios.append(cTime / swiftTime)
      newResultRatios.append(cTime / newResultTime)
      if pair < trials * 2 {
        let (cCopies, _) = passC(copies: 4)
        let (swiftCopies, copiesGlyphs) = try passSwift(copies: 4)
        let (uncached, uncachedGlyphs) = try passSwift(cache: false)
        guard copiesGlyphs == cGlyphs, uncachedGlyphs == cGlyphs else {
          throw ShapingError(
            .internalFailure, input: corpus.name, reason: "the passes shaped different glyphs")
        }
        copiesRatios.append(cCopies / swiftCopies)
        uncachedRatios.append(cTime / uncached)
      }
      cTimes.append(cTime)
      swiftTimes.append(swiftTime)
    }
    let ratio = Measure.median(ratios)
    let perLine = { (time: Double) in time / Double(rounds * corpus.lines.count) * 1e6 }
    let target = corpus.libraryTarget
    return Figure(
      name: "library \(corpus.name)", value: ratio, target: "≥ \(fixed(target))× C", met: ratio >= target,
      detail:
        "\(fixed(perLine(Measure.median(swiftTimes)))) µs a line; C \(fixed(perLine(Measure.median(cTimes)))) µs; four copies \(fixed(Measure.median(copiesRatios)))× C; without the cache \(fixed(Measure.median(uncachedRatios)))×; a new result each call: \(fixed(Measure.median(newResultRatios)))× C"
    )
  }

  /// `swiftshape shape -O jsonl` on `file` with `font` against the C writer and `hb-shape -O json`,
  /// CPU time, `runs` trials: the medians of the ratios of each trial's three runs, made one after
  /// the other (a drift of the machine's speed then touches both sides of a ratio alike), and the
  /// median times.
  private func commandRatios(font: String, file: String, runs: Int) -> (
    toLimit: Double, toHB: Double, detail: String
  ) {
    var ours: [Double] = []
    var limit: [Double] = []
    var theirs: [Double] = []
    for _ in 0..<runs {
      ours.append(
        checked([swiftshape, "shape", "-O", "jsonl", "--font-file", font, "--text-file", file]).cpu)
      limit.append(checked([baseline, font, file]).cpu)
      theirs.append(checked([hbShape, "-O", "json", "--font-file", font, "--text-file", file]).cpu)
    }
    return (
      Measure.median(zip(ours, limit).map { $0 / $1 }), Measure.median(zip(theirs, ours).map { $0 / $1 }),
      "swiftshape \(fixed(Measure.median(ours) * 1e3, 0)) ms, C \(fixed(Measure.median(limit) * 1e3, 0)) ms, hb-shape \(fixed(Measure.median(theirs) * 1e3, 0)) ms"
    )
  }

  /// The command: `swiftshape shape -O jsonl --text-file` against the C writer and `hb-shape -O json`, CPU time.
  func command(_ corpus: Corpus) -> [Figure] {
    let (toLimit, toHB, detail) = commandRatios(font: corpus.font, file: corpus.text, runs: trials)
    return [
      Figure(
        name: "command \(corpus.name) vs C", value: toLimit, target: "≤ 1.2× C", met: toLimit <= 1.2,
        detail: detail),
      Figure(
        name: "command \(corpus.name) vs hb-shape", value: toHB, target: "> 1× (faster)", met: toHB > 1,
        detail: ""),
    ]
  }

  /// The command on `copies` copies of the corpus's text in one file (`file`), where the shaping
  /// cache finds the words it kept (the shaping cache's targets: at most half the C writer's CPU
  /// time, at least 2.5 times hb-shape's speed), as `command(_:)` measures it, twice the trials.
  func commandCopies(_ corpus: Corpus, file: String, copies: Int) -> [Figure] {
    let (toLimit, toHB, detail) = commandRatios(font: corpus.font, file: file, runs: 2 * trials)
    return [
      Figure(
        name: "command \(corpus.name) \(copies) copies vs C", value: toLimit, target: "≤ 0.5× C",
        met: toLimit <= 0.5, detail: detail),
      Figure(
        name: "command \(corpus.name) \(copies) copies vs hb-shape", value: toHB, target: "≥ 2.5× hb-shape",
        met: toHB >= 2.5, detail: ""),
    ]
  }

  /// The JSON document (`shape`'s default output, pretty and whole) against `hb-shape -O json`,
  /// CPU time, paired runs.
  func document(_ corpus: Corpus) -> Figure {
    var ours: [Double] = []
    var theirs: [Double] = []
    for _ in 0..<trials {
      ours.append(checked([swiftshape, "shape", "--font-file", corpus.font, "--text-file", corpus.text]).cpu)
      theirs.append(
        checked([hbShape, "-O", "json", "--font-file", corpus.font, "--text-file", corpus.text]).cpu)
    }
    let ratio = Measure.median(zip(theirs, ours).map { $0 / $1 })
    return Figure(
      name: "document \(corpus.name) vs hb-shape", value: ratio, target: "> 1× (faster)", met: ratio > 1,
      detail:
        "swiftshape \(fixed(Measure.median(ours) * 1e3, 0)) ms, hb-shape \(fixed(Measure.median(theirs) * 1e3, 0)) ms"
    )
  }

  /// Start-up: shaping one word, whole process, wall time.
  func startUp(font: String) -> Figure {
    var ours: [Double] = []
    var theirs: [Double] = []
    for _ in 0..<(trials * 10) {
      ours.append(
        checked([swiftshape, "shape", "-O", "text", "--font-file", font, "--text", "Hello"]).wall)
      theirs.append(checked([hbShape, "--font-file", font, "--text", "Hello"]).wall)
    }
    let ratio = Measure.median(zip(ours, theirs).map { $0 / $1 })
    return Figure(
      name: "start-up", value: ratio, target: "≤ 1.3× hb-shape", met: ratio <= 1.3,
      detail:
        "swiftshape \(fixed(Measure.median(ours) * 1e3)) ms, hb-shape \(fixed(Measure.median(theirs) * 1e3)) ms"
    )
  }

  /// `--jobs 2` against `--jobs 1` on a large input, wall time.
  func parallel(_ corpus: Corpus, large: String, extra: [String] = []) throws -> Figure {
    var one: [Double] = []
    var two: [Double] = []
    for _ in 0..<trials {
      one.append(
        checked(
          [
            swiftshape, "shape", "-O", "jsonl", "--jobs", "1", "--font-file", corpus.font, "--text-file",
            large,
          ] + extra
        ).wall)
      two.append(
        checked(
          [
            swiftshape, "shape", "-O", "jsonl", "--jobs", "2", "--font-file", corpus.font, "--text-file",
            large,
          ] + extra
        ).wall)
    }
    let ratio = Measure.median(zip(one, two).map { $0 / $1 })
    // How far HarfBuzz itself goes with two threads here: the C loop on one thread, then on two.
    guard let c = swiftshape_baseline_open(corpus.font) else {
      throw ShapingError(.unreadableFile, input: corpus.font, reason: "cannot open")
    }
    defer { swiftshape_baseline_close(c) }
    let cLines = corpus.lines.map { strdup($0) }
    defer { cLines.forEach { free($0) } }
    let pointers: [UnsafePointer<CChar>?] = cLines.map { UnsafePointer($0) }
    let lengths = corpus.lines.map { Int32($0.utf8.count) }
    let cRatios = (0..<trials).map { _ in
      swiftshape_baseline_shape_threads(c, pointers, lengths, Int32(pointers.count), 4, 1)
        / swiftshape_baseline_shape_threads(c, pointers, lengths, Int32(pointers.count), 4, 2)
    }
    return Figure(
      name: (["--jobs 2"] + extra).joined(separator: " "), value: ratio, target: "≥ 1.7× --jobs 1",
      met: ratio >= 1.7,
      detail:
        "\(fixed(Measure.median(one) * 1e3, 0)) ms with 1 job, \(fixed(Measure.median(two) * 1e3, 0)) ms with 2; C loop on 2 threads: \(fixed(Measure.median(cRatios)))×"
    )
  }

  /// Rendering a 20-line paragraph as SVG against `hb-view -O svg`, whole process, wall time.
  func render(_ corpus: Corpus, paragraph: String, hbView: String) -> Figure {
    var ours: [Double] = []
    var theirs: [Double] = []
    // Short runs, as for start-up: ten pairs a trial.
    for _ in 0..<(trials * 10) {
      ours.append(
        checked([
          swiftshape, "render", "--font-file", corpus.font, "--text-file", paragraph, "-o", "/dev/null",
        ]).wall)
      theirs.append(
        checked([
          hbView, "--font-file", corpus.font, "--text-file", paragraph, "-O", "svg", "-o", "/dev/null",
        ]).wall)
    }
    let ratio = Measure.median(zip(theirs, ours).map { $0 / $1 })
    return Figure(
      name: "render 20 lines", value: ratio, target: "≥ 2× hb-view", met: ratio >= 2,
      detail:
        "swiftshape \(fixed(Measure.median(ours) * 1e3)) ms, hb-view \(fixed(Measure.median(theirs) * 1e3)) ms"
    )
  }

  /// Peak memory of streaming 8× the input against 1×.
  func memory(_ corpus: Corpus, large: String, extra: [String] = []) -> Figure {
    let small = checked(
      [swiftshape, "shape", "-O", "jsonl", "--font-file", corpus.font, "--text-file", corpus.text] + extra
    ).maxRSS
    let big = checked(
      [swiftshape, "shape", "-O", "jsonl", "--font-file", corpus.font, "--text-file", large] + extra
    ).maxRSS
    let ratio = Double(big) / Double(max(1, small))
    return Figure(
      name: (["memory 8× input"] + extra).joined(separator: " "), value: ratio, target: "≤ 1.2× RSS",
      met: ratio <= 1.2,
      detail: "\(small / 1024) MiB for 1×, \(big / 1024) MiB for 8×")
  }
}
