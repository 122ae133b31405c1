import Foundation
import HarfBuzz
import TestFixtures
import Testing

/// Random texts and random option combinations, shaped by `swiftshape shape --batch` and by
/// `hb-shape --batch`: the text and hb-json outputs must be identical, byte for byte.
///
/// The generator is seeded (`SWIFTSHAPE_DIFFERENTIAL_SEED`, default 2026) so a failure can be
/// replayed; `SWIFTSHAPE_DIFFERENTIAL_CASES` sets the number of cases per font (default 1000).
@Suite(
  "Differential against hb-shape",
  .enabled(if: HarfBuzzTools.hbShape != nil, HarfBuzzTools.absence("hb-shape")))
struct DifferentialTests {
  struct Subject: Sendable, CustomTestStringConvertible {
    var font: String
    var corpus: String?
    var variations: Bool = false
    var testDescription: String { font }
  }

  static let subjects = [
    Subject(font: Paths.latin, corpus: "en-thelittleprince.txt"),
    Subject(font: Paths.arabic, corpus: "fa-thelittleprince.txt"),
    Subject(font: Paths.devanagari, corpus: "hi-words.txt"),
    Subject(font: Paths.thai),
    Subject(font: Paths.variable, variations: true),
  ]

  static let environment = ProcessInfo.processInfo.environment
  static let seed = UInt64(environment["SWIFTSHAPE_DIFFERENTIAL_SEED"] ?? "") ?? 2026
  static let casesPerFont = Int(environment["SWIFTSHAPE_DIFFERENTIAL_CASES"] ?? "") ?? 1000

  @Test(arguments: subjects)
  func randomRequestsMatch(_ subject: Subject) throws {
    var generator = SplitMix64(seed: Self.seed &+ UInt64(subject.font.utf8.count))
    let face = try Face(blob: Blob(contentsOfFile: subject.font))
    let cmap = face.unicodes
    let marks = cmap.filter {
      $0.properties.generalCategory == .nonspacingMark || $0.properties.generalCategory == .spacingMark
    }
    let corpus = try subject.corpus.flatMap(Self.corpusLines) ?? []

    var requests: [[String]] = []
    for index in 0..<Self.casesPerFont {
      var text: [Unicode.Scalar]
      if !corpus.isEmpty && index % 3 == 0 {
        text = Array(corpus[Int(generator.next() % UInt64(corpus.count))].unicodeScalars.prefix(60))
      } else {
        text = (0..<(1 + Int(generator.next() % 16))).map { _ in
          switch generator.next() % 10 {
          case 0 where !marks.isEmpty: marks[Int(generator.next() % UInt64(marks.count))]
          case 1: ["\u{200C}", "\u{200D}", "\u{25CC}", " "][Int(generator.next() % 4)]
          default: cmap[Int(generator.next() % UInt64(cmap.count))]
          }
        }
      }
      guard !text.isEmpty else { continue }
      let unicodes = text.map { String($0.value, radix: 16, uppercase: true) }.joined(separator: ",")
      requests.append(
        [subject.font, "-u", unicodes] + Self.randomOptions(&generator, variations: subject.variations))
    }

    for (ours, theirs) in [("text", nil), ("hb-json", "json")] as [(String, String?)] {
      let ourOutput = try batch(Repository.binary, requests.map { $0 + ["-O", ours] })
      let theirOutput = try batch(
        HarfBuzzTools.hbShape!, requests.map { $0 + (theirs.map { ["-O", $0] } ?? []) })
      let ourLines = ourOutput.split(separator: "\n", omittingEmptySubsequences: false)
      let theirLines = theirOutput.split(separator: "\n", omittingEmptySubsequences: false)
      #expect(ourLines.count == theirLines.count, "\(ours): line counts differ")
      var mismatches = 0
      for (line, (a, b)) in zip(ourLines, theirLines).enumerated() where a != b {
        mismatches += 1
        if mismatches <= 5 {
          Issue.record("\(ours) line \(line + 1):\n  swiftshape: \(a)\n  hb-shape:   \(b)")
        }
      }
      #expect(mismatches == 0, "\(mismatches) lines differ (seed \(Self.seed))")
    }
    #expect(requests.count >= Self.casesPerFont * 9 / 10)
  }

  /// Lines of a benchmark text in `../shared/corpus`, when it is there.
  static func corpusLines(_ name: String) throws -> [String]? {
    guard let shared = Paths.shared else { return nil }
    let url = URL(fileURLWithPath: "\(shared)/corpus/harfbuzz-6.0.0-perf/texts/\(name)")
    guard let data = try? Data(contentsOf: url) else { return nil }
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init).filter {
      !$0.contains(";")
    }
  }

  /// A random set of hb-shape options, each kept valid so that hb-shape's batch never stops.
  static func randomOptions(_ generator: inout SplitMix64, variations: Bool) -> [String] {
    let pool: [[String]] = [
      ["--features=-liga"], ["--features=-kern"], ["--features=+smcp,onum"], ["--features=liga[1:3]=0"],
      ["--features=-calt,-ccmp"], ["--features=kern[2:]"], ["--features=aalt=2"],
      ["--direction=ltr"], ["--direction=rtl"], ["--direction=ttb"],
      ["--script=Latn"], ["--script=Arab"], ["--script=Deva"], ["--script=Thai"], ["--script=Zyyy"],
      ["--language=en"], ["--language=ar"], ["--language=hi"], ["--language=th"], ["--language=ur"],
      ["--language=tr"],
      ["--cluster-level=1"], ["--cluster-level=2"], ["--utf8-clusters"],
      ["--font-size=16"], ["--font-size=2000 1000"], ["--font-ppem=12"], ["--font-ptem=9"],
      ["--font-slant=0.2"],
      ["--font-funcs=ft"], ["--font-funcs=ft"], ["--bot"], ["--eot"],
      ["--preserve-default-ignorables"], ["--remove-default-ignorables"],
      ["--invisible-glyph=3"], ["--not-found-glyph=5"],
      ["--no-glyph-names"], ["--no-positions"], ["--no-advances"], ["--no-clusters"], ["--ned"],
      ["--show-extents"], ["--show-flags"], ["--unsafe-to-concat"], ["--safe-to-insert-tatweel"],
      ["--normalize-glyphs"], ["--show-text"], ["--show-unicode"], ["--show-line-num"], ["-v"],
      ["--unicodes-before=628"], ["--unicodes-after=20,628"], ["--shapers=fallback"],
    ]
    var options: [String] = []
    for _ in 0..<Int(generator.next() % 4) {
      // An option given twice is an error for hb-shape's text context options; give each once.
      let picked = pool[Int(generator.next() % UInt64(pool.count))]
      if !options.contains(picked[0]) { options += picked }
    }
    if variations && generator.next() % 2 == 0 {
      options.append("--variations=wght=\(100 + Int(generator.next() % 801))")
    }
    if generator.next() % 100 == 0 { options.append("-V") }
    return options
  }

  /// Runs a program's `--batch` over requests (`;`-separated arguments, one per line).
  func batch(_ executable: URL, _ requests: [[String]]) throws -> String {
    let input = requests.map { $0.joined(separator: ";") + "\n" }.joined()
    let result = try run(executable, ["--batch"], stdin: Data(input.utf8))
    #expect(result.status == 0, "\(executable.lastPathComponent) --batch: \(result.err.prefix(500))")
    return result.out
  }
}
