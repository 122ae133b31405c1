import Foundation
import Testing

/// One golden case of `Fixtures/golden/cases.json`.
struct GoldenCase: Decodable, CustomTestStringConvertible, Sendable {
  var name: String
  /// `swiftshape shape` arguments, relative to `Fixtures/`.
  var args: [String]
  /// The equivalent hb-shape arguments, when they differ (options hb-shape does not have).
  var hb_args: [String]?

  var hbArguments: [String] { hb_args ?? args }
  var testDescription: String { name }

  static let all: [GoldenCase] = {
    let url = Repository.fixtures.appendingPathComponent("golden/cases.json")
    guard let data = try? Data(contentsOf: url),
      let cases = try? JSONDecoder().decode([GoldenCase].self, from: data)
    else { return [] }
    return cases
  }()

  var goldenURL: URL { Repository.fixtures.appendingPathComponent("golden/\(name).json") }
}

/// Set `SWIFTSHAPE_RECORD_GOLDEN=1` to rewrite the golden files (see Fixtures/README.md).
let recordingGolden = ProcessInfo.processInfo.environment["SWIFTSHAPE_RECORD_GOLDEN"] == "1"

@Suite("Golden JSON")
struct GoldenTests {
  @Test func casesAreListed() {
    #expect(GoldenCase.all.count >= 20)
  }

  @Test(arguments: GoldenCase.all)
  func outputMatchesGoldenFile(_ golden: GoldenCase) throws {
    let result = try swiftshape(["shape", "-O", "json"] + golden.args)
    #expect(result.status == 0, "\(result.err)")
    #expect(result.stderr.isEmpty)
    if recordingGolden {
      // A golden file is only written when it agrees with hb-shape.
      let hbShape = try #require(HarfBuzzTools.hbShape, "recording needs hb-shape to cross-check")
      try expectSameGlyphs(ours: result.stdout, hbShape: hbShape, golden)
      try result.stdout.write(to: golden.goldenURL, options: .atomic)
      return
    }
    let expected = try Data(contentsOf: golden.goldenURL)
    #expect(
      result.out == String(decoding: expected, as: UTF8.self),
      "\(golden.name): output differs from golden/\(golden.name).json; re-record with SWIFTSHAPE_RECORD_GOLDEN=1"
    )
  }

  @Test(.enabled(if: HarfBuzzTools.hbShape != nil, "hb-shape is not installed"), arguments: GoldenCase.all)
  func goldenFileAgreesWithHBShape(_ golden: GoldenCase) throws {
    let expected = try Data(contentsOf: golden.goldenURL)
    try expectSameGlyphs(ours: expected, hbShape: HarfBuzzTools.hbShape!, golden)
  }

  @Test(.enabled(if: HarfBuzzTools.hbShape != nil, "hb-shape is not installed"), arguments: GoldenCase.all)
  func textOutputIsHBShapesBytes(_ golden: GoldenCase) throws {
    let ours = try swiftshape(["shape", "-O", "text"] + golden.args)
    let theirs = try run(HarfBuzzTools.hbShape!, golden.hbArguments)
    #expect(ours.status == 0 && theirs.status == 0)
    #expect(ours.out == theirs.out, "\(golden.name)")
  }

  /// Compares every glyph field of a SwiftShape JSON document with hb-shape's `-O json` output for
  /// the same case: glyph names, clusters, offsets and advances.
  func expectSameGlyphs(ours: Data, hbShape: URL, _ golden: GoldenCase) throws {
    let theirs = try run(hbShape, ["-O", "json"] + golden.hbArguments)
    try #require(theirs.status == 0, "hb-shape failed: \(theirs.err)")
    let theirLines = theirs.out.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    let document = try #require(try JSONSerialization.jsonObject(with: ours) as? [String: Any])
    let results = try #require(document["results"] as? [[String: Any]])
    try #require(results.count == theirLines.count, "\(golden.name): line count differs from hb-shape")
    for (result, theirLine) in zip(results, theirLines) {
      let glyphs = try #require(result["glyphs"] as? [[String: Any]])
      let theirGlyphs =
        theirLine.isEmpty
        ? [] : try #require(try JSONSerialization.jsonObject(with: Data(theirLine.utf8)) as? [[String: Any]])
      try #require(glyphs.count == theirGlyphs.count, "\(golden.name): glyph count differs from hb-shape")
      for (glyph, theirGlyph) in zip(glyphs, theirGlyphs) {
        #expect(glyph["name"] as? String == theirGlyph["g"] as? String, "\(golden.name)")
        for (key, theirKey) in [
          ("cluster", "cl"), ("x_offset", "dx"), ("y_offset", "dy"), ("x_advance", "ax"), ("y_advance", "ay"),
        ] {
          #expect(glyph[key] as? Int == theirGlyph[theirKey] as? Int, "\(golden.name): \(key)")
        }
      }
    }
  }
}
