import Foundation
import Testing

@testable import SwiftShapeCLI

/// The fast parser used for batch requests and conformance tests must read every option exactly
/// as ArgumentParser reads it for the command line.
@Suite("Argument parsing")
struct ArgumentParsingTests {
  @Test func everyOptionOfShapeIsKnownToTheFastParser() throws {
    let help = SwiftShapeCommand.Shape.helpMessage(columns: 400)
    let excluded: Set<String> = ["-h", "--help", "--version"]
    var names: [String] = []
    // Option lines start with their names: `  -u, --unicodes <list>   Code points …`.
    for line in help.split(separator: "\n") {
      let words = line.split(separator: " ").map { $0.hasSuffix(",") ? String($0.dropLast()) : String($0) }
      for word in words {
        guard word.hasPrefix("-") else { break }
        if !excluded.contains(word) { names.append(word) }
      }
    }
    #expect(names.count > 50)
    for name in Set(names) {
      #expect(ShapeArgumentParser.actions[name] != nil, "\(name) is missing from ShapeArgumentParser")
    }
  }

  static let samples: [[String]] = [
    ["font.ttf", "text"],
    [
      "--font-file=f.ttf", "--face-index", "2", "--font-size=12 24", "--size=9", "--font-ppem=3",
      "--font-ptem", "7.5",
    ],
    ["--font-slant=0.2", "--font-funcs", "ft", "--ft-load-flags=0", "--variations=wght=700,wdth=75"],
    [
      "--text=a;b", "--single-par", "--text-before=x", "--text-after", "y", "--unicodes-before=61",
      "--unicodes-after=62",
    ],
    [
      "-u", "61,62", "--features=-liga,kern[1:2]", "--shaper=ot", "--direction=rtl", "--language=ar",
      "--script=Arab",
    ],
    [
      "--bot", "--eot", "--preserve-default-ignorables", "--remove-default-ignorables", "--invisible-glyph=3",
    ],
    [
      "--not-found-glyph", "4", "--utf8-clusters", "--cluster-level=2", "--normalize-glyphs",
      "--unsafe-to-concat",
    ],
    ["--safe-to-insert-tatweel", "--verify", "-O", "hb-json", "-o", "out", "--show-text", "--show-unicode"],
    ["--show-line-num", "-v", "--no-glyph-names", "--no-positions", "--no-advances", "--no-clusters"],
    [
      "--show-extents", "--show-flags", "--ned", "-V", "-n", "3", "--cluster-unit=utf16", "--text-file=t.txt",
    ],
    ["--shapers=ot,fallback", "--list-shapers", "--", "-positional"],
  ]

  /// A command's option values, without the option groups' help titles (which ArgumentParser
  /// drops from the groups it decodes, and the fast parser keeps).
  static func values(_ command: SwiftShapeCommand.Shape) -> String {
    var text = String(reflecting: command)
    while let range = text.range(of: #", title: "[^"]*""#, options: .regularExpression) {
      text.removeSubrange(range)
    }
    return text
  }

  @Test func defaultsAreArgumentParsersDefaults() throws {
    #expect(Self.values(ShapeArgumentParser.defaults()) == Self.values(try SwiftShapeCommand.Shape.parse([])))
  }

  @Test(arguments: samples)
  func bothParsersAgree(_ arguments: [String]) throws {
    let slow = try SwiftShapeCommand.Shape.parse(arguments)
    let fast = try ShapeArgumentParser().parse(arguments)
    #expect(Self.values(fast) == Self.values(slow))
  }

  @Test func otherSubcommandsAreTheConfiguredOnes() {
    let configured = Set(SwiftShapeCommand.configuration.subcommands.map { $0._commandName })
    #expect(SwiftShapeCommand.otherSubcommands == configured.subtracting(["shape"]).union(["help"]))
  }

  @Test func onlyShapingRequestsTakeTheFastPath() {
    #expect(SwiftShapeCommand.fastShapeCommand(["font.ttf", "text"]) != nil)
    #expect(SwiftShapeCommand.fastShapeCommand(["shape", "-O", "text", "--text", "a"]) != nil)
    #expect(SwiftShapeCommand.fastShapeCommand(["info", "font.ttf"]) == nil)
    #expect(SwiftShapeCommand.fastShapeCommand(["conformance", "x.tests"]) == nil)
    #expect(SwiftShapeCommand.fastShapeCommand(["shape", "--help"]) == nil)
    #expect(SwiftShapeCommand.fastShapeCommand(["--version"]) == nil)
    #expect(SwiftShapeCommand.fastShapeCommand(["--bogus"]) == nil, "errors take ArgumentParser's messages")
  }

  @Test func fastParserRejectsWhatArgumentParserRejects() throws {
    let parser = ShapeArgumentParser()
    for arguments in [
      ["--bogus"], ["--face-index=x"], ["--text"], ["--bot=1"], ["a", "b", "c"], ["--font-file=f", "a", "b"],
    ] {
      #expect(throws: (any Error).self) { try SwiftShapeCommand.Shape.parse(arguments) }
      #expect(throws: (any Error).self) { try parser.parse(arguments) }
    }
  }
}
