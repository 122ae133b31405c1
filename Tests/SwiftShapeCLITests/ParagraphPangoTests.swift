import Foundation
import TestFixtures
import Testing

/// `--paragraph --font sans` against Pango (`pango-view --serialize-to`, from pango1.0-tools), which
/// itemizes with the same fontconfig and shapes with the same HarfBuzz: with the fixture fonts'
/// fontconfig configuration, the same runs in the same visual order, with the same bidi levels,
/// fonts and glyph IDs, on the strings of `Fixtures/paragraph/pango-strings.txt`. The lines listed
/// in `pango-known-differences.txt` differ on purpose, each for the reason given there.
///
/// Compared as Pango and SwiftShape both cut runs: adjacent runs (in visual order) of the same
/// level and font are taken together, since the two cut at different script boundaries (Pango
/// pairs quotation marks such as « » for scripts; SwiftShape pairs Unicode's paired brackets,
/// whose Bidi_Paired_Bracket data UAX #24 names), which changes no glyph. A character no font has
/// is Pango's unknown-glyph box (its code point with bit 28 set) and SwiftShape's `.notdef` (0).
@Suite(
  "Paragraphs against Pango",
  .enabled(
    if: FileManager.default.isExecutableFile(atPath: "/usr/bin/pango-view"),
    "pango-view is absent (apt-get install pango1.0-tools)"))
struct ParagraphPangoTests {
  /// A run, compared: its span of the line in UTF-8 bytes, its level, its font's family, its
  /// glyph IDs in visual order.
  struct Run: Equatable, CustomStringConvertible {
    var range: Range<Int>
    var level: Int
    var family: String
    var glyphs: [UInt32]

    var description: String { "\(range) \(level) \(family) \(glyphs)" }
  }

  /// Adjacent runs of one level and font, taken together.
  static func merged(_ runs: [Run]) -> [Run] {
    var result: [Run] = []
    for run in runs {
      if var last = result.last, last.level == run.level, last.family == run.family,
        last.range.upperBound == run.range.lowerBound || last.range.lowerBound == run.range.upperBound
      {
        last.range =
          min(last.range.lowerBound, run.range.lowerBound)..<max(last.range.upperBound, run.range.upperBound)
        last.glyphs += run.glyphs
        result[result.count - 1] = last
      } else {
        result.append(run)
      }
    }
    return result
  }

  static let environment = ["FONTCONFIG_FILE": Paths.fontconfigFile]

  static func pango(_ text: String, markup: Bool = false) throws -> [Run] {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swiftshape-pango-\(getpid())-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: file) }
    let result = try run(
      URL(fileURLWithPath: "/usr/bin/pango-view"),
      ["-q", "--font=sans 12", "--language=en", "--serialize-to=\(file.path)"] + (markup ? ["--markup"] : [])
        + ["--text", text],
      environment: environment)
    #expect(result.status == 0, "\(result.err)")
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
    let lines = (json?["output"] as? [String: Any])?["lines"] as? [[String: Any]] ?? []
    return lines.flatMap { line in
      (line["runs"] as? [[String: Any]] ?? []).map { run in
        let offset = run["offset"] as? Int ?? 0
        let description = (run["font"] as? [String: Any])?["description"] as? String ?? ""
        let family = description.split(separator: " ").dropLast().joined(separator: " ")
        let glyphs = (run["glyphs"] as? [[String: Any]] ?? []).map { glyph in
          let id = glyph["glyph"] as? Int ?? 0
          return id & 0x1000_0000 != 0 ? 0 : UInt32(id)
        }
        return Run(
          range: offset..<offset + (run["length"] as? Int ?? 0), level: run["bidi-level"] as? Int ?? 0,
          family: family, glyphs: glyphs)
      }
    }
  }

  static func ours(_ text: String, markup: Bool = false) throws -> [Run] {
    let result = try swiftshape(
      [
        "-O", "jsonl", "--paragraph", "--font", "sans", "--language=en", "--utf8-clusters",
        "--no-glyph-names",
      ] + (markup ? ["--markup", "--size", "12"] : []) + [text],
      environment: environment)
    #expect(result.status == 0, "\(result.err)")
    let json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
    let entry = (json?["results"] as? [[String: Any]])?.first ?? json ?? [:]
    return (entry["runs"] as? [[String: Any]] ?? []).map { run in
      let range = run["range"] as? [Int] ?? [0, 0]
      return Run(
        range: range[0]..<range[1], level: run["level"] as? Int ?? 0,
        family: (run["font"] as? [String: Any])?["family"] as? String ?? "",
        glyphs: (run["glyphs"] as? [[String: Any]] ?? []).map { UInt32($0["id"] as? Int ?? 0) })
    }
  }

  @Test func runsLevelsFontsAndGlyphsArePangos() throws {
    let folder = Paths.fixtures + "/paragraph"
    let strings = try String(contentsOfFile: folder + "/pango-strings.txt", encoding: .utf8)
      .split(separator: "\n").map(String.init)
    let known = Set(
      try String(contentsOfFile: folder + "/pango-known-differences.txt", encoding: .utf8)
        .split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { Int($0.split(separator: " ")[0]) })
    #expect(strings.count >= 20)
    var checked = 0
    for (index, text) in strings.enumerated() {
      let theirs = Self.merged(try Self.pango(text))
      let ours = Self.merged(try Self.ours(text))
      if known.contains(index + 1) {
        #expect(theirs != ours, "line \(index + 1) is listed as differing from Pango, but is the same now")
      } else {
        #expect(theirs == ours, "line \(index + 1): \(text)\n  Pango: \(theirs)\n  ours:  \(ours)")
        checked += 1
      }
    }
    #expect(checked == strings.count - known.count)
  }

  /// Markup (`--markup`) as pango-view reads it: the spans' fonts, sizes, features and languages
  /// give the same runs, levels, fonts and glyph IDs, on the strings of
  /// `Fixtures/paragraph/pango-markup.txt` (mixed languages, fonts and sizes).
  @Test func markupRunsArePangos() throws {
    let strings = try String(contentsOfFile: Paths.fixtures + "/paragraph/pango-markup.txt", encoding: .utf8)
      .split(separator: "\n").map(String.init)
    #expect(strings.count >= 8)
    for (index, text) in strings.enumerated() {
      let theirs = Self.merged(try Self.pango(text, markup: true))
      let ours = Self.merged(try Self.ours(text, markup: true))
      #expect(theirs == ours, "markup line \(index + 1): \(text)\n  Pango: \(theirs)\n  ours:  \(ours)")
    }
  }
}
