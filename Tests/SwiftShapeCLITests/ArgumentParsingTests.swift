import Foundation
import Testing

@testable import SwiftShapeCLI

/// The fast parser, which reads the shaping commands' arguments (and batch requests and
/// conformance tests), must read every option exactly as ArgumentParser reads it.
@Suite("Argument parsing")
struct ArgumentParsingTests {
  /// The option names a command's help lists.
  static func optionNames(inHelp help: String) -> Set<String> {
    let excluded: Set<String> = ["-h", "--help", "--version"]
    var names: Set<String> = []
    // Option lines start with their names: `  -u, --unicodes <list>   Code points …`.
    for line in help.split(separator: "\n") {
      let words = line.split(separator: " ").map { $0.hasSuffix(",") ? String($0.dropLast()) : String($0) }
      for word in words {
        guard word.hasPrefix("-") else { break }
        if !excluded.contains(word) { names.insert(word) }
      }
    }
    return names
  }

  @Test func everyOptionOfShapeIsKnownToTheFastParser() throws {
    let names = Self.optionNames(inHelp: SwiftShapeCommand.Shape.helpMessage(columns: 400))
    #expect(names.count > 50)
    for name in names { #expect(FastParsers.shape.action(name) != nil, "shape \(name)") }
    #expect(FastParsers.shape.action("--annotate") == nil)
  }

  @Test func everyOptionOfRenderIsKnownToTheFastParser() throws {
    let names = Self.optionNames(inHelp: SwiftShapeCommand.Render.helpMessage(columns: 400))
    #expect(names.count > 40)
    for name in names { #expect(FastParsers.render.action(name) != nil, "render \(name)") }
    #expect(FastParsers.render.action("--output-format") == nil)
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
      "--unicodes-after=62", "--max-text-length=9",
    ],
    [
      "-u", "61,62", "--features=-liga,kern[1:2]", "--shaper=ot", "--direction=rtl", "--language=ar",
      "--script=Arab", "--font=serif", "--strict",
    ],
    [
      "--bot", "--eot", "--preserve-default-ignorables", "--remove-default-ignorables", "--invisible-glyph=3",
    ],
    [
      "--not-found-glyph", "4", "--utf8-clusters", "--cluster-level=2", "--normalize-glyphs",
      "--unsafe-to-concat",
    ],
    ["--shapers=ot,fallback", "--list-shapers", "--safe-to-insert-tatweel", "--verify", "--", "-positional"],
  ]

  static let shapeSamples: [[String]] = [
    ["-O", "hb-json", "-o", "out", "--show-text", "--show-unicode"],
    ["--show-line-num", "-v", "--no-glyph-names", "--no-positions", "--no-advances", "--no-clusters"],
    [
      "--show-extents", "--show-flags", "--ned", "-V", "-n", "3", "--cluster-unit=utf16", "--text-file=t.txt",
    ],
    ["--jobs=2", "--batch"],
    ["--requests", "r.jsonl"],
  ]

  static let renderSamples: [[String]] = [
    ["-o", "out.svg", "--margin=0", "--em-pixels", "64", "--foreground=ff0000", "--background", "none"],
    ["--annotate", "--expect", "[a=0+500]", "--output-file=x.svg"],
  ]

  @Test func defaultsAreArgumentParsersDefaults() throws {
    #expect(ShapeSettings() == (try SwiftShapeCommand.Shape.parse([])).settings)
    #expect(RenderSettings() == (try SwiftShapeCommand.Render.parse([])).settings)
  }

  @Test(arguments: samples + shapeSamples)
  func bothParsersAgreeOnShape(_ arguments: [String]) throws {
    let slow = try SwiftShapeCommand.Shape.parse(arguments)
    #expect(try FastParsers.shape.parse(arguments) == slow.settings)
  }

  @Test(arguments: samples + renderSamples)
  func bothParsersAgreeOnRender(_ arguments: [String]) throws {
    let slow = try SwiftShapeCommand.Render.parse(arguments)
    #expect(try FastParsers.render.parse(arguments) == slow.settings)
  }

  @Test func otherSubcommandsAreTheConfiguredOnes() {
    let configured = Set(SwiftShapeCommand.configuration.subcommands.map { $0._commandName })
    #expect(
      Set(SwiftShapeCommand.otherSubcommands) == configured.subtracting(["shape", "render"]).union(["help"]))
  }

  @Test func onlyShapingAndDrawingTakeTheFastPath() {
    #expect(
      SwiftShapeCommand.fastCommand(["font.ttf", "text"])
        == .shape(ShapeSettings(first: "font.ttf", second: "text")))
    #expect(SwiftShapeCommand.fastCommand(["shape", "-O", "text", "--text", "a"]) != nil)
    #expect(
      SwiftShapeCommand.fastCommand(["render", "--annotate", "a"])
        == .render(RenderSettings(first: "a", annotate: true)))
    #expect(SwiftShapeCommand.fastCommand(["render", "-O", "text", "a"]) == nil, "render has no -O")
    #expect(SwiftShapeCommand.fastCommand(["info", "font.ttf"]) == nil)
    #expect(SwiftShapeCommand.fastCommand(["conformance", "x.tests"]) == nil)
    #expect(SwiftShapeCommand.fastCommand(["shape", "--help"]) == nil)
    #expect(SwiftShapeCommand.fastCommand(["render", "-h"]) == nil)
    #expect(SwiftShapeCommand.fastCommand(["--version"]) == nil)
    #expect(SwiftShapeCommand.fastCommand(["--bogus"]) == nil, "errors take ArgumentParser's messages")
  }

  /// The locale is loaded only when the environment names one that is not a C locale; every C
  /// locale gives HarfBuzz the language "c" whether it is loaded or not.
  @Test(arguments: [
    ([:], true), (["LANG": "C.UTF-8"], true), (["LANG": "POSIX"], true), (["LC_ALL": "C"], true),
    (["LANG": "en_US.UTF-8"], false), (["LC_CTYPE": "tr_TR.UTF-8", "LANG": "C"], false),
    (["LC_ALL": "C.utf8", "LC_CTYPE": "tr_TR.UTF-8"], true), (["LC_ALL": "", "LANG": "de_DE"], false),
    (["LANG": "Catalan"], false),
  ])
  func cLocalesAreNotLoaded(environment: [String: String], isC: Bool) {
    let values = environment.mapValues { strdup($0)! }
    defer { values.values.forEach { free($0) } }
    #expect(SwiftShapeCommand.usesCLocale { values[String(cString: $0)].map { UnsafePointer($0) } } == isC)
  }

  @Test func fastParserRejectsWhatArgumentParserRejects() throws {
    for arguments in [
      ["--bogus"], ["--face-index=x"], ["--text"], ["--bot=1"], ["a", "b", "c"], ["--font-file=f", "a", "b"],
    ] {
      #expect(throws: (any Error).self) { try SwiftShapeCommand.Shape.parse(arguments) }
      #expect(throws: (any Error).self) { try FastParsers.shape.parse(arguments) }
      #expect(throws: (any Error).self) { try SwiftShapeCommand.Render.parse(arguments) }
      #expect(throws: (any Error).self) { try FastParsers.render.parse(arguments) }
    }
    for arguments in [["--margin=wide"], ["--annotate=1"], ["--em-pixels"]] {
      #expect(throws: (any Error).self) { try SwiftShapeCommand.Render.parse(arguments) }
      #expect(throws: (any Error).self) { try FastParsers.render.parse(arguments) }
    }
  }
}
