#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Benchmarks {
  /// Drawing at scale, whole processes against hb-view, paired trials: the 20-line paragraph as PNG;
  /// the whole English text as SVG; and peak memory drawing four copies of it as SVG.
  func renderAtScale(_ corpus: Corpus, paragraph: String, hbView: String, fourCopies: String) -> [Figure] {
    func pair(_ ours: [String], _ theirs: [String], rounds: Int) -> (Double, Double, Double) {
      var mine: [Double] = []
      var other: [Double] = []
      for _ in 0..<rounds {
        mine.append(checked(ours).wall)
        other.append(checked(theirs).wall)
      }
      return (Measure.median(zip(other, mine).map { $0 / $1 }), Measure.median(mine), Measure.median(other))
    }
    let png = pair(
      [
        swiftshape, "render", "--font-file", corpus.font, "--text-file", paragraph, "-O", "png", "-o",
        "/dev/null",
      ],
      [hbView, "--font-file", corpus.font, "--text-file", paragraph, "-O", "png", "-o", "/dev/null"],
      rounds: trials * 10)
    let whole = pair(
      [swiftshape, "render", "--font-file", corpus.font, "--text-file", corpus.text, "-o", "/dev/null"],
      [hbView, "--font-file", corpus.font, "--text-file", corpus.text, "-O", "svg", "-o", "/dev/null"],
      rounds: trials)
    let wholeJobs = pair(
      [
        swiftshape, "render", "--jobs", "2", "--font-file", corpus.font, "--text-file", corpus.text, "-o",
        "/dev/null",
      ],
      [hbView, "--font-file", corpus.font, "--text-file", corpus.text, "-O", "svg", "-o", "/dev/null"],
      rounds: trials)
    let ourMemory = checked([
      swiftshape, "render", "--font-file", corpus.font, "--text-file", fourCopies, "-o", "/dev/null",
    ])
    .maxRSS
    let theirMemory = checked([
      hbView, "--font-file", corpus.font, "--text-file", fourCopies, "-O", "svg", "-o", "/dev/null",
    ]).maxRSS
    let memory = Double(ourMemory) / Double(max(1, theirMemory))
    return [
      Figure(
        name: "render 20 lines PNG", value: png.0, target: "≥ 1.5× hb-view", met: png.0 >= 1.5,
        detail: "swiftshape \(fixed(png.1 * 1e3)) ms, hb-view \(fixed(png.2 * 1e3)) ms"),
      Figure(
        name: "render whole text", value: whole.0, target: "≥ 2.5× hb-view", met: whole.0 >= 2.5,
        detail: "swiftshape \(fixed(whole.1 * 1e3)) ms, hb-view \(fixed(whole.2 * 1e3)) ms"),
      Figure(
        name: "render whole text --jobs 2", value: wholeJobs.0, target: "≥ 2.5× hb-view",
        met: wholeJobs.0 >= 2.5,
        detail: "swiftshape \(fixed(wholeJobs.1 * 1e3)) ms, hb-view \(fixed(wholeJobs.2 * 1e3)) ms"),
      Figure(
        name: "render memory 4× text", value: memory, target: "≤ 1.5× hb-view RSS", met: memory <= 1.5,
        detail: "swiftshape \(ourMemory / 1024) MiB, hb-view \(theirMemory / 1024) MiB"),
    ]
  }

  /// Drawing against the engine's newer drawing tools, where it has them (hb-vector for SVG and
  /// hb-raster for PNG, beside hb-shape in recent HarfBuzz releases), whole processes, paired
  /// trials: the 20-line paragraph and the whole text. Nothing when the engine has neither.
  func renderAgainstDrawingTools(_ corpus: Corpus, paragraph: String, tools: String) -> [Figure] {
    var figures: [Figure] = []
    for (tool, format) in [("hb-vector", "svg"), ("hb-raster", "png")] {
      let path = tools + tool
      guard access(path, X_OK) == 0 else { continue }
      for (label, text, rounds) in [
        ("20 lines", paragraph, trials * 10), ("whole text", corpus.text, trials),
      ] {
        // The whole text as PNG at 16 pixels an em (735 × 35,526 pixels): at the default 256 it is
        // past SwiftShape's picture limit, and hb-raster writes an empty file.
        let size = format == "png" && text == corpus.text ? ["16"] : []
        var mine: [Double] = []
        var other: [Double] = []
        for _ in 0..<rounds {
          mine.append(
            checked(
              [
                swiftshape, "render", "--font-file", corpus.font, "--text-file", text, "-O", format, "-o",
                "/dev/null",
              ] + size.flatMap { ["--em-pixels", $0] }
            ).wall)
          other.append(
            checked(
              [path, "--font-file", corpus.font, "--text-file", text, "-O", format, "-o", "/dev/null"]
                + size.flatMap { ["--font-size", $0] }
            ).wall)
        }
        let ratio = Measure.median(zip(other, mine).map { $0 / $1 })
        figures.append(
          Figure(
            name: "render \(label) \(format.uppercased())\(size.isEmpty ? "" : " at 16 px") against \(tool)",
            value: ratio,
            target: "> 1× \(tool) (faster)", met: ratio > 1,
            detail:
              "swiftshape \(fixed(Measure.median(mine) * 1e3)) ms, \(tool) \(fixed(Measure.median(other) * 1e3)) ms"
          ))
      }
    }
    return figures
  }
}
