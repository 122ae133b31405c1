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

  /// Spans of a second font and of languages against libraqm's font and language ranges
  /// (`raqm-shape --ranges`, `raqm_set_freetype_face_range`, `raqm_set_language`): the same
  /// visual glyph stream, with the fixture fonts (Noto Sans with Hebrew or Arabic ranges).
  @Test(arguments: [
    (Paths.hebrew, ["abc שלום def": ["שלום"], "שלום abc עולם": ["שלום", "עולם"], "a שָׁלוֹם b": ["שָׁלוֹם"]]),
    (
      Paths.arabic,
      [
        "office مرحبا office": ["مرحبا"], "سلام 123 abc": ["سلام 123"],
        "a مرحبا b سلام c": ["مرحبا", "سلام"],
      ]
    ),
  ])
  func spansAreLibraqmsRanges(second: String, cases: [String: [String]]) throws {
    let raqm = Repository.binary.deletingLastPathComponent().appendingPathComponent("raqm-shape")
    try #require(FileManager.default.isExecutableFile(atPath: raqm.path), "raqm-shape is not built")
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swiftshape-ranges-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: file) }
    let language = second == Paths.arabic ? "ar" : "he"
    var lines: [String] = []
    var ours: [[String]] = []
    for (text, pieces) in cases.sorted(by: { $0.key < $1.key }) {
      var ranges: [String] = []
      var arguments = [
        "-O", "text", "--no-glyph-names", "--no-clusters", "--no-positions", "--utf8-clusters", "--font-file",
        Paths.latin,
      ]
      for (index, piece) in pieces.enumerated() {
        let start =
          text.utf8.count
          - text.components(separatedBy: piece).dropFirst().joined(separator: piece).utf8.count
          - piece.utf8.count
        let end = start + piece.utf8.count
        // Every other range sets the language too.
        ranges.append(index % 2 == 0 ? "\(start):\(end):f" : "\(start):\(end):f:l=\(language)")
        arguments += [
          "--span", "\(start):\(end):font-file=\(second)" + (index % 2 == 0 ? "" : ";language=\(language)"),
        ]
      }
      lines.append(text + "\t" + ranges.joined(separator: " "))
      let result = try swiftshape(arguments + [text])
      #expect(result.status == 0, "\(result.err)")
      ours += Self.ids(result.out).filter { !$0.isEmpty }
    }
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
    let theirs = try run(raqm, ["--ranges", Paths.latin, second, file.path])
    #expect(theirs.status == 0, "\(theirs.err)")
    let expected = Self.ids(theirs.out).filter { !$0.isEmpty }
    #expect(expected.count == cases.count)
    #expect(ours == expected, "\(lines)\n  libraqm: \(expected)\n  ours:    \(ours)")
  }
}
