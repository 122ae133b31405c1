import Foundation
import TestFixtures
import Testing

/// Debian's DejaVu Sans (fonts-dejavu-core, installed by the README's test command), which covers
/// Latin and Arabic script.
let dejaVuSans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

/// `--paragraph` against libraqm (`raqm-shape`, a C driver in Benchmarks/): with one font, the same
/// glyphs in the same visual order, line by line, on the mixed-direction corpus of `../shared`.
@Suite(
  "Paragraphs against libraqm",
  .enabled(
    if: Paths.shared != nil && FileManager.default.fileExists(atPath: dejaVuSans),
    "../shared or DejaVu Sans (fonts-dejavu-core) is absent"))
struct ParagraphPeerTests {
  static let dejaVu = dejaVuSans

  /// The glyph IDs of hb-shape's text format without names, clusters and positions, run groups
  /// and all, one list a line.
  static func ids(_ text: String) -> [[String]] {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.split(whereSeparator: { "[]| ".contains($0) }).filter { !$0.hasPrefix("<") && !$0.hasSuffix(">") }
        .map(String.init)
    }
  }

  @Test func theVisualGlyphStreamIsLibraqms() throws {
    let corpus = Paths.shared! + "/corpus/mixed/mixed-thelittleprince.txt"
    let raqm = Repository.binary.deletingLastPathComponent().appendingPathComponent("raqm-shape")
    try #require(FileManager.default.isExecutableFile(atPath: raqm.path), "raqm-shape is not built")
    let theirs = try run(raqm, [Self.dejaVu, corpus])
    let ours = try swiftshape([
      "--font-file", Self.dejaVu, "--paragraph", "-O", "text", "--no-glyph-names", "--no-clusters",
      "--no-positions", "--text-file", corpus,
    ])
    #expect(theirs.status == 0 && ours.status == 0, "\(theirs.err)\(ours.err)")
    let a = Self.ids(theirs.out)
    let b = Self.ids(ours.out)
    #expect(a.count > 900 && a.count == b.count)
    let differing = zip(a, b).enumerated().filter { $0.element.0 != $0.element.1 }.map { $0.offset + 1 }
    #expect(differing.isEmpty, "lines that differ: \(differing.prefix(10))")
  }
}
