import HarfBuzz
import SwiftShape

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// swiftshape-benchmarks CORPUS-FOLDER DEVANAGARI-FONT SWIFTSHAPE SHAPE-BASELINE HB-SHAPE [TRIALS]
// (hb-view is looked for beside hb-shape, raqm-shape beside shape-baseline, the mixed-direction
// corpus in CORPUS-FOLDER/../mixed, and DejaVu Sans, to shape it with, where Debian puts it)
// Prints every ratio the performance targets name, measured in this one run, and a Markdown table
// for the README. `.ci/benchmark` builds and runs it.
let arguments = CommandLine.arguments
guard arguments.count >= 6 else {
  printError(
    "usage: swiftshape-benchmarks CORPUS DEVANAGARI-FONT SWIFTSHAPE SHAPE-BASELINE HB-SHAPE [TRIALS]")
  exit(64)
}
let corpusFolder = arguments[1]

func lines(_ path: String) -> [String] {
  guard let blob = try? Blob(contentsOfFile: path) else {
    printError("swiftshape-benchmarks: cannot read \(path)")
    exit(66)
  }
  return String(decoding: blob.bytes, as: UTF8.self).split(separator: "\n").map(String.init)
}

func corpus(_ name: String, font: String, text: String) -> Corpus {
  let path = "\(corpusFolder)/texts/\(text)"
  return Corpus(name: name, font: font, text: path, lines: lines(path))
}

let corpora = [
  corpus(
    "Roboto en-thelittleprince", font: "\(corpusFolder)/fonts/Roboto-Regular.ttf",
    text: "en-thelittleprince.txt"),
  corpus(
    "Amiri fa-thelittleprince", font: "\(corpusFolder)/fonts/Amiri-Regular.ttf",
    text: "fa-thelittleprince.txt"),
  corpus(
    "NotoNastaliqUrdu fa-words", font: "\(corpusFolder)/fonts/NotoNastaliqUrdu-Regular.ttf",
    text: "fa-words.txt"),
  corpus("NotoSansDevanagari hi-words", font: arguments[2], text: "hi-words.txt"),
]
let hbView = String(arguments[5].dropLast("hb-shape".count)) + "hb-view"
let raqmShape = String(arguments[4].dropLast("shape-baseline".count)) + "raqm-shape"
let mixedText = "\(corpusFolder)/../mixed/mixed-thelittleprince.txt"
let dejaVuSans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
let benchmarks = Benchmarks(
  swiftshape: arguments[3], baseline: arguments[4], hbShape: arguments[5], corpora: corpora,
  trials: arguments.count > 6 ? Int(arguments[6]) ?? 5 : 5)

/// The scratch file named `name` of this run: removed at exit, however the run ends (profiling
/// runs exit from inside a measurement).
func scratchFile(_ name: String) -> String {
  "/tmp/swiftshape-benchmark-\(name)-\(getpid()).txt"
}
atexit {
  unlink(scratchFile("20-lines"))
  unlink(scratchFile("8x"))
  unlink(scratchFile("4x"))
  unlink(scratchFile("4x-command"))
  unlink(scratchFile("raqm"))
  unlink(scratchFile("mixed-8x"))
}

// A 20-line paragraph for the render figure.
let paragraph = scratchFile("20-lines")
if let file = fopen(paragraph, "wb") {
  for line in corpora[0].lines.filter({ !$0.isEmpty }).prefix(20) {
    let bytes = Array((line + "\n").utf8)
    bytes.withUnsafeBytes { _ = fwrite($0.baseAddress, 1, $0.count, file) }
  }
  fclose(file)
}

// A large input for the parallel and memory figures: 8 copies of the English text.
let large = scratchFile("8x")
let english = (try? Blob(contentsOfFile: corpora[0].text).bytes) ?? []
if let file = fopen(large, "wb") {
  for _ in 0..<8 { english.withUnsafeBytes { _ = fwrite($0.baseAddress, 1, $0.count, file) } }
  fclose(file)
}

/// Measures every figure, printing each as it comes.
func measureAll() throws -> [Figure] {
  var figures: [Figure] = []
  func report(_ figure: Figure) {
    figures.append(figure)
    let detail = figure.detail.isEmpty ? "" : "; \(figure.detail)"
    print(
      "\(figure.met ? "ok  " : "MISS") \(figure.name): \(fixed(figure.value)) (target \(figure.target))\(detail)"
    )
  }
  // SWIFTSHAPE_BENCHMARK_ONLY=library,start-up (for example) measures only those kinds of figure
  // (library, command, document, start-up, parallel, memory, render, paragraph, lines, spans,
  // collisions).
  let only = getenv("SWIFTSHAPE_BENCHMARK_ONLY").map {
    String(cString: $0).split(separator: ",").map(String.init)
  }
  func wanted(_ kind: String) -> Bool { only?.contains(kind) ?? true }
  // For profiles, as the command takes it: SWIFTSHAPE_CACHE_TIMING=off sends every line through
  // the cache (its choice by time differs from run to run under callgrind).
  if let timing = getenv("SWIFTSHAPE_CACHE_TIMING"), String(cString: timing) == "off" {
    ShapingCache.choosesByTime = false
  }
  if wanted("library") {
    for corpus in corpora { report(try benchmarks.library(corpus)) }
  }
  if wanted("command") {
    for corpus in corpora {
      for figure in benchmarks.command(corpus) { report(figure) }
    }
    // Four copies of the English text, as the shaping cache's targets are set.
    let copies = scratchFile("4x-command")
    if let file = fopen(copies, "wb") {
      for _ in 0..<4 { english.withUnsafeBytes { _ = fwrite($0.baseAddress, 1, $0.count, file) } }
      fclose(file)
      for figure in benchmarks.commandCopies(corpora[0], file: copies, copies: 4) { report(figure) }
    }
  }
  if wanted("document") { report(benchmarks.document(corpora[0])) }
  if wanted("start-up") { report(benchmarks.startUp(font: corpora[0].font)) }
  if wanted("parallel") { report(try benchmarks.parallel(corpora[0], large: large)) }
  if wanted("memory") { report(benchmarks.memory(corpora[0], large: large)) }
  if wanted("render") {
    report(benchmarks.render(corpora[0], paragraph: paragraph, hbView: hbView))
    let fourCopies = scratchFile("4x")
    if let file = fopen(fourCopies, "wb") {
      for _ in 0..<4 { english.withUnsafeBytes { _ = fwrite($0.baseAddress, 1, $0.count, file) } }
      fclose(file)
    }
    for figure in benchmarks.renderAtScale(
      corpora[0], paragraph: paragraph, hbView: hbView, fourCopies: fourCopies)
    {
      report(figure)
    }
    for figure in benchmarks.renderAgainstDrawingTools(
      corpora[0], paragraph: paragraph, tools: String(arguments[5].dropLast("hb-shape".count)))
    {
      report(figure)
    }
  }
  if wanted("paragraph") {
    for corpus in corpora {
      report(
        try benchmarks.paragraphLibrary(
          name: corpus.name, font: corpus.font, lines: corpus.lines, target: 1.15))
    }
    // (Profiling the library's paragraphs, SWIFTSHAPE_PROFILE_PARAGRAPHS, runs no command.)
    if getenv("SWIFTSHAPE_PROFILE_PARAGRAPHS") == nil {
      for corpus in corpora { report(benchmarks.paragraphCommand(corpus)) }
    }
    if access(mixedText, R_OK) == 0, access(dejaVuSans, R_OK) == 0 {
      let mixed = lines(mixedText)
      report(
        try benchmarks.paragraphLibrary(
          name: "DejaVuSans mixed-thelittleprince", font: dejaVuSans, lines: mixed, target: 1.1))
      // Streaming and threads in paragraph mode, on 8 copies of the mixed text.
      let mixedCorpus = Corpus(name: "DejaVuSans mixed", font: dejaVuSans, text: mixedText, lines: mixed)
      let mixedLarge = scratchFile("mixed-8x")
      let mixedBytes = (try? Blob(contentsOfFile: mixedText).bytes) ?? []
      if let file = fopen(mixedLarge, "wb") {
        for _ in 0..<8 { mixedBytes.withUnsafeBytes { _ = fwrite($0.baseAddress, 1, $0.count, file) } }
        fclose(file)
      }
      report(benchmarks.memory(mixedCorpus, large: mixedLarge, extra: ["--paragraph"]))
      report(try benchmarks.parallel(mixedCorpus, large: mixedLarge, extra: ["--paragraph"]))
      report(
        try benchmarks.paragraphAgainstRaqm(
          font: dejaVuSans, text: mixedText, lines: mixed, raqmShape: raqmShape, scratch: scratchFile("raqm"))
      )
    } else {
      printError("swiftshape-benchmarks: \(mixedText) or \(dejaVuSans) is absent: no figure for mixed text")
    }
  }
  if wanted("spans") {
    for corpus in corpora where corpus.name.contains("thelittleprince") {
      for figure in try benchmarks.spanLibrary(name: corpus.name, font: corpus.font, lines: corpus.lines) {
        report(figure)
      }
    }
  }
  if wanted("collisions") {
    // fontbakery's collision check of the Latin marks benchmark file (about 30,000 strings), from
    // the repository, the folder `.ci/benchmark` runs in.
    let repository = WorkingFolder.path
    if let figure = benchmarks.collisionCheck(
      file: "\(repository)/Fixtures/fontbakery/benchmark/marks.json",
      font: "\(repository)/Fixtures/fontbakery/fonts/NotoSans-Marks.ttf", scratch: scratchFile("fontbakery"))
    {
      report(figure)
    }
  }
  if wanted("lines") {
    // The English and Persian texts, each line a paragraph.
    for corpus in corpora where corpus.name.contains("thelittleprince") {
      for figure in try benchmarks.lineBreakLibrary(
        name: corpus.name, font: corpus.font, lines: corpus.lines, target: 1.3,
        hyphenationLanguage: corpus.name.contains(" en-") ? "en-US" : nil)
      {
        report(figure)
      }
    }
  }
  return figures
}

let figures: [Figure]
do {
  figures = try measureAll()
} catch {
  printError("swiftshape-benchmarks: \(error)")
  exit(70)
}

print("\n| figure | value | target | met | detail |\n| --- | --- | --- | --- | --- |")
for figure in figures {
  print(
    "| \(figure.name) | \(fixed(figure.value)) | \(figure.target) | \(figure.met ? "yes" : "no") | \(figure.detail) |"
  )
}
print("\(figures.filter(\.met).count) of \(figures.count) targets met")
