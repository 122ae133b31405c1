import Foundation
import TestFixtures
import Testing

/// `--paragraph --width` against Pango (`pango-view --width --wrap=word-char --serialize-to`), which breaks lines
/// with its own UAX #14 and shapes with the same HarfBuzz and fontconfig (the fixture fonts'
/// configuration): the same line starts, on the paragraphs of
/// `Fixtures/paragraph/pango-lines.txt` (Latin, Hebrew, Arabic, mixed directions, CJK, long words
/// and soft hyphens, which both end lines with a hyphen Pango keeps room for) at four
/// widths. Pango is run at 72 dpi with a 1000-point font, so that a pixel is a unit of the
/// fixture fonts (1000 units per em) and its rounding of positions to whole pixels changes
/// nothing; SwiftShape cuts words wider than the width (`--break-anywhere`), as Pango does. The
/// pairs in `pango-lines-known-differences.txt` differ on purpose, for the reason given there.
@Suite(
  "Line breaks against Pango",
  .enabled(
    if: FileManager.default.isExecutableFile(atPath: "/usr/bin/pango-view"),
    "pango-view is absent (apt-get install pango1.0-tools)"))
struct LineBreakPangoTests {
  static let environment = ["FONTCONFIG_FILE": Paths.fontconfigFile]
  static let widths = [1500, 3000, 5000, 8000]

  static func pango(_ text: String, width: Int) throws -> [Int] {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swiftshape-pango-lines-\(getpid()).json")
    defer { try? FileManager.default.removeItem(at: file) }
    let result = try run(
      URL(fileURLWithPath: "/usr/bin/pango-view"),
      [
        "-q", "--dpi=72", "--font=sans 1000", "--language=en", "--hinting=none", "--hint-metrics=off",
        "--wrap=word-char",
        "--width=\(width)", "--serialize-to=\(file.path)", "--text", text,
      ], environment: environment)
    #expect(result.status == 0, "\(result.err)")
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
    let lines = (json?["output"] as? [String: Any])?["lines"] as? [[String: Any]] ?? []
    return lines.map { $0["start-index"] as? Int ?? -1 }
  }

  static func ours(_ text: String, width: Int) throws -> [Int] {
    let result = try swiftshape(
      [
        "-O", "jsonl", "--paragraph", "--font", "sans", "--language=en", "--utf8-clusters",
        "--no-glyph-names",
        "--width", "\(width)", "--break-anywhere", text,
      ], environment: environment)
    #expect(result.status == 0, "\(result.err)")
    let json = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
    let entry = (json?["results"] as? [[String: Any]])?.first ?? [:]
    return (entry["lines"] as? [[String: Any]] ?? []).map { ($0["range"] as? [Int])?.first ?? -1 }
  }

  @Test func lineStartsArePangos() throws {
    let folder = Paths.fixtures + "/paragraph"
    let paragraphs = try String(contentsOfFile: folder + "/pango-lines.txt", encoding: .utf8)
      .split(separator: "\n").map(String.init)
    let known = Set(
      try String(contentsOfFile: folder + "/pango-lines-known-differences.txt", encoding: .utf8)
        .split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
          $0.split(separator: " ").prefix(2).joined(separator: " ")
        })
    var same = 0
    for (index, text) in paragraphs.enumerated() {
      for width in Self.widths {
        let theirs = try Self.pango(text, width: width)
        let ours = try Self.ours(text, width: width)
        #expect(theirs.count > 1 || width == 8000)
        if known.contains("\(index + 1) \(width)") {
          #expect(
            theirs != ours, "paragraph \(index + 1) at \(width) is listed as differing, but is the same now")
        } else {
          #expect(theirs == ours, "paragraph \(index + 1) at \(width):\n  Pango: \(theirs)\n  ours:  \(ours)")
          same += 1
        }
      }
    }
    #expect(same == paragraphs.count * Self.widths.count - known.count)
  }
}
