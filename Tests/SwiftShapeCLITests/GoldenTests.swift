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

  /// The golden file of an engine whose glyphs differ from the base file's (recorded with the
  /// engine the base file names): `golden/harfbuzz-X.Y.Z/NAME.json`.
  var engineGoldenURL: URL {
    Repository.fixtures.appendingPathComponent("golden/harfbuzz-\(HarfBuzzTools.engine)/\(name).json")
  }

  /// What the running engine must print: its own golden file where there is one, else the base
  /// file; either with the document's `harfbuzz` member naming the running engine (the glyphs are
  /// what is compared; the member names who shaped them).
  func expected() throws -> String {
    let url = FileManager.default.fileExists(atPath: engineGoldenURL.path) ? engineGoldenURL : goldenURL
    return Self.naming(HarfBuzzTools.engine, in: String(decoding: try Data(contentsOf: url), as: UTF8.self))
  }

  /// The document with its first `"harfbuzz": "…"` member naming `engine`.
  static func naming(_ engine: String, in document: String) -> String {
    guard let range = document.range(of: #""harfbuzz": "[0-9.]+""#, options: .regularExpression) else {
      return document
    }
    return document.replacingCharacters(in: range, with: "\"harfbuzz\": \"\(engine)\"")
  }

  /// The engine the base file was recorded with.
  func baseEngine() throws -> String? {
    let text = String(decoding: try Data(contentsOf: goldenURL), as: UTF8.self)
    guard let range = text.range(of: #""harfbuzz": "[0-9.]+""#, options: .regularExpression) else {
      return nil
    }
    return String(text[range].dropFirst(13).dropLast())
  }
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
      // The base files are recorded with the engine they name; another engine records a file of
      // its own only where its output differs from the base file's.
      let base = try? golden.baseEngine()
      if base == nil || base == HarfBuzzTools.engine {
        try result.stdout.write(to: golden.goldenURL, options: .atomic)
      } else if try result.out
        == GoldenCase.naming(HarfBuzzTools.engine, in: String(contentsOf: golden.goldenURL, encoding: .utf8))
      {
        try? FileManager.default.removeItem(at: golden.engineGoldenURL)
      } else {
        try FileManager.default.createDirectory(
          at: golden.engineGoldenURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try result.stdout.write(to: golden.engineGoldenURL, options: .atomic)
      }
      return
    }
    #expect(
      result.out == (try golden.expected()),
      "\(golden.name): output differs from the golden file (\(golden.name).json, or harfbuzz-\(HarfBuzzTools.engine)/\(golden.name).json); re-record with SWIFTSHAPE_RECORD_GOLDEN=1"
    )
  }

  @Test(
    .enabled(if: HarfBuzzTools.hbShape != nil, HarfBuzzTools.absence("hb-shape")), arguments: GoldenCase.all)
  func goldenFileAgreesWithHBShape(_ golden: GoldenCase) throws {
    let expected = Data(try golden.expected().utf8)
    try expectSameGlyphs(ours: expected, hbShape: HarfBuzzTools.hbShape!, golden)
  }

  @Test(
    .enabled(if: HarfBuzzTools.hbShape != nil, HarfBuzzTools.absence("hb-shape")), arguments: GoldenCase.all)
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
