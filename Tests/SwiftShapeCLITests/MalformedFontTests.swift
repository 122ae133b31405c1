import Foundation
import TestFixtures
import Testing

/// Damaged fonts through `shape`, `render` and `info`: each either works or fails with the one-line
/// error and a documented status; never a crash, a hang or a stack trace.
@Suite("Malformed fonts")
struct MalformedFontTests {
  /// Damaged copies of the test fonts, made the same way every run.
  static func variants() throws -> [(name: String, bytes: [UInt8])] {
    var generator = SplitMix64(seed: 8)
    var variants: [(String, [UInt8])] = [
      ("empty", []), ("one byte", [0]), ("sfnt header only", [0, 1, 0, 0, 0, 9, 0, 0]),
    ]
    variants.append(("random", (0..<4096).map { _ in UInt8(truncatingIfNeeded: generator.next()) }))
    for font in [Paths.latin, Paths.arabic, Paths.devanagari, Paths.cjkCollection, Paths.variable] {
      let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: font)))
      let name = font.split(separator: "/").last.map(String.init) ?? font
      for fraction in [0.02, 0.1, 0.37, 0.75, 0.99] {
        variants.append(
          ("\(name) truncated to \(fraction)", Array(bytes.prefix(Int(Double(bytes.count) * fraction)))))
      }
      for round in 0..<6 {
        var flipped = bytes
        for _ in 0..<(1 + round * 20) {
          let index = Int(generator.next() % UInt64(flipped.count))
          flipped[index] ^= UInt8(truncatingIfNeeded: generator.next() | 1)
        }
        variants.append(("\(name) with flipped bytes \(round)", flipped))
      }
      // A table record pointing far outside the file, and one with an absurd length.
      var outside = bytes
      if outside.count > 32 {
        outside.replaceSubrange(20..<24, with: [0x7F, 0xFF, 0xFF, 0x00])
        variants.append(("\(name) table outside", outside))
        var long = bytes
        long.replaceSubrange(24..<28, with: [0xFF, 0xFF, 0xFF, 0xFF])
        variants.append(("\(name) absurd length", long))
      }
    }
    return variants
  }

  @Test func damagedFontsNeverCrash() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swiftshape-malformed-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var failures = 0
    var successes = 0
    for (index, variant) in try Self.variants().enumerated() {
      let path = folder.appendingPathComponent("font-\(index).ttf").path
      try Data(variant.bytes).write(to: URL(fileURLWithPath: path))
      for arguments in [
        ["shape", "-O", "text", "--font-file", path, "--text", "office سلام क्ष 日本"],
        ["render", "--font-file", path, "--text", "Ta"],
        ["info", path],
      ] {
        let result = try swiftshape(arguments)
        #expect(
          [0, 65, 66].contains(result.status), "\(variant.name): \(arguments[0]) exited with \(result.status)"
        )
        if result.status == 0 {
          successes += 1
        } else {
          failures += 1
          #expect(result.stdout.isEmpty, "\(variant.name): \(arguments[0]) wrote output and failed")
          #expect(result.err.hasPrefix("swiftshape: error: \(path)"), "\(variant.name): \(result.err)")
          #expect(
            result.err.split(separator: "\n").count == 1, "\(variant.name): not one line: \(result.err)")
        }
      }
    }
    #expect(failures > 20 && successes > 20, "both kinds happen (\(failures) refused, \(successes) shaped)")
  }
}

@Suite("Fuzz regressions")
struct FuzzRegressionTests {
  /// The fuzz target's replay driver, built beside swiftshape.
  static let replay = Repository.binary.deletingLastPathComponent().appendingPathComponent("SwiftShapeFuzz")

  @Test(
    .enabled(if: FileManager.default.isExecutableFile(atPath: replay.path), "SwiftShapeFuzz is not built"))
  func regressionInputsRunCleanly() throws {
    let root = Repository.fixtures.appendingPathComponent("fuzz")
    let targets = try FileManager.default.contentsOfDirectory(atPath: root.path).filter {
      !$0.hasSuffix(".md")
    }
    #expect(targets.contains("shaping"))
    for target in targets {
      let folder = root.appendingPathComponent(target)
      var inputs = try FileManager.default.contentsOfDirectory(atPath: folder.path).map {
        folder.appendingPathComponent($0).path
      }
      // And the fixture fonts as they are (a font of random options and no text).
      if target == "shaping" || target == "outlines" || target == "cache" {
        inputs += [Paths.latin, Paths.arabic, Paths.cjkCollection]
      }
      let result = try run(Self.replay, [target] + inputs)
      #expect(result.status == 0, "\(target): \(result.err)")
      #expect(result.out.split(separator: "\n").count == inputs.count, "\(target)")
    }
  }
}
