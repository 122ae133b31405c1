import Foundation
import SwiftShape
import TestFixtures
import Testing

@testable import SwiftShapeFonts

/// fontconfig lookups, compared with what `fc-match` and `fc-list` print on this machine (the
/// test set-up installs fontconfig, DejaVu and Lohit Devanagari).
@Suite("Fonts by name", .enabled(if: Tools.fcMatch != nil, "fontconfig's fc-match is not installed"))
struct FontLocatorTests {
  @Test(arguments: [
    "DejaVu Sans:bold", "DejaVu Sans Mono", "monospace", "serif", ":lang=hi", "DejaVu Serif:italic",
  ])
  func matchPicksWhatFCMatchPicks(_ pattern: String) throws {
    let expected = try Tools.run(Tools.fcMatch!, ["-f", "%{file}|%{index}", pattern])
    let match = try FontLocator.match(pattern)
    let index = (match.namedInstance.map { ($0 + 1) << 16 } ?? 0) | match.faceIndex
    #expect("\(match.file)|\(index)" == expected)
    #expect(!match.isSubstitute)
  }

  @Test func missingFamilyIsASubstitute() throws {
    let match = try FontLocator.match("No Such Family Anywhere")
    #expect(match.isSubstitute)
    #expect(match.file == (try Tools.run(Tools.fcMatch!, ["-f", "%{file}", "No Such Family Anywhere"])))
  }

  @Test func malformedPatternIsAnError() {
    #expect {
      try FontLocator.match(":weight=heavy-ish=")
    } throws: { ($0 as? ShapingError)?.kind == .invalidArgument }
  }

  @Test(arguments: ["DejaVu Sans", ":lang=hi", ""])
  func listAgreesWithFCList(_ pattern: String) throws {
    let fcList = try #require(Tools.find("fc-list"))
    let listed = try Tools.run(fcList, ["-f", "%{file}|%{index}\n"] + (pattern.isEmpty ? [] : [pattern]))
    let expected = Set(listed.split(separator: "\n").map(String.init))
    let ours = try FontLocator.list(pattern)
    let listedByUs = Set(
      ours.map { "\($0.file)|\((($0.namedInstance.map { ($0 + 1) << 16 }) ?? 0) | $0.faceIndex)" })
    #expect(listedByUs.count == expected.count && listedByUs == expected, "the same faces as fc-list")
    #expect(!ours.isEmpty)
    let inOrder = zip(ours, ours.dropFirst()).allSatisfy {
      ($0.family, $0.style ?? "") <= ($1.family, $1.style ?? "")
    }
    #expect(inOrder, "sorted by family and style")
  }
}

enum Tools {
  static let fcMatch = find("fc-match")

  static func find(_ name: String) -> URL? {
    ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"].map { URL(fileURLWithPath: "\($0)/\(name)") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  static func run(_ executable: URL, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }
}
