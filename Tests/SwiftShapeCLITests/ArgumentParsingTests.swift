import Foundation
import SwiftShape
import SwiftShapeCommandLine
import TestFixtures
import Testing

@testable import SwiftShapeCLI

/// The shaping commands' options are declared once (`OptionDeclaration`): their arguments are read
/// with the declarations and their help is written from them.
@Suite("Argument parsing")
struct ArgumentParsingTests {
  /// The option names a command's help lists.
  static func optionNames(inHelp help: String) -> Set<String> {
    let excluded: Set<String> = ["-h", "--help", "--version"]
    var names: Set<String> = []
    // Option lines start with their names: `  -u, --unicodes <list>   Code points …`.
    for line in help.split(separator: "\n") where line.hasPrefix("  -") {
      let words = line.split(separator: " ").map { $0.hasSuffix(",") ? String($0.dropLast()) : String($0) }
      for word in words {
        guard word.hasPrefix("-") else { break }
        if !excluded.contains(word) { names.insert(word) }
      }
    }
    return names
  }

  @Test func theHelpListsEveryDeclaredOption() throws {
    for (help, declared) in [
      (
        SwiftShapeCommand.Shape.helpMessage(columns: 400), ShapeSettings.options.declarations.flatMap(\.names)
      ),
      (
        SwiftShapeCommand.Render.helpMessage(columns: 400),
        RenderSettings.options.declarations.flatMap(\.names)
      ),
      (
        SwiftShapeCommand.Record.helpMessage(columns: 400),
        RecordSettings.options.declarations.flatMap(\.names)
      ),
    ] {
      #expect(Self.optionNames(inHelp: help) == Set(declared))
      #expect(declared.count == Set(declared).count, "a name declared twice")
    }
    #expect(ShapeSettings.options.declarations.count > 50)
    #expect(ShapeSettings.options.action("--annotate") == nil)
    #expect(RenderSettings.options.action("--output-format") != nil)
    #expect(RenderSettings.options.action("--batch") == nil)
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

  @Test(arguments: samples + shapeSamples)
  func shapeReadsItsOptions(_ arguments: [String]) throws {
    #expect(try ShapeSettings.options.parse(arguments) != ShapeSettings())
  }

  @Test(arguments: samples + renderSamples)
  func renderReadsItsOptions(_ arguments: [String]) throws {
    #expect(try RenderSettings.options.parse(arguments) != RenderSettings())
  }

  @Test func valuesAreReadIntoTypedSettings() throws {
    let settings = try ShapeSettings.options.parse([
      "--features=-liga,kern[1:2]", "--direction=rtl", "--font-size=12 24", "--cluster-level=2", "-u", "61",
      "--font-ppem=3", "--variations=wght=700", "-n", "3", "font.ttf",
    ])
    #expect(
      settings.shaping.options.features == [try Feature(parsing: "-liga"), try Feature(parsing: "kern[1:2]")])
    #expect(settings.shaping.options.direction == .rightToLeft)
    #expect(settings.shaping.options.clusterLevel == .characters)
    #expect(settings.font.fontSize == .scale(x: 12, y: 24))
    #expect(settings.font.options.ppem == (3, 3))
    #expect(settings.font.options.variations == [try Variation(parsing: "wght=700")])
    #expect(settings.output.iterations == 3)
    #expect(settings.text.unicodes == "61" && settings.first == "font.ttf")
    let hb = try ShapeSettings.options.parse(
      ["--features='-liga'", "--cluster-level=-1", "-n", "-1"], persona: .hbShape)
    #expect(hb.shaping.options.features == [try Feature(parsing: "-liga")])
    #expect(hb.shaping.options.clusterLevel.rawValue == -1)
    #expect(hb.output.iterations == 4_294_967_295)
  }

  @Test func otherSubcommandsAreTheConfiguredOnes() {
    let configured = Set(SwiftShapeCommand.configuration.subcommands.map { $0._commandName })
    #expect(
      Set(SwiftShapeCommand.otherSubcommands) == configured.subtracting(["shape", "render"]).union(["help"]))
  }

  @Test func onlyShapingAndDrawingTakeTheFastPath() {
    var shape = ShapeSettings()
    (shape.first, shape.second) = ("font.ttf", "text")
    #expect(SwiftShapeCommand.fastCommand(["font.ttf", "text"]) == .shape(shape))
    #expect(SwiftShapeCommand.fastCommand(["shape", "-O", "text", "--text", "a"]) != nil)
    #expect(
      SwiftShapeCommand.fastCommand(["render", "--annotate", "a"])
        == .render(RenderSettings(first: "a", annotate: true)))
    #expect(
      SwiftShapeCommand.fastCommand(["render", "--batch", "a"])
        == .refused(ShapingError(.invalidArgument, input: "--batch", reason: "unknown option")),
      "render has no --batch"
    )
    #expect(SwiftShapeCommand.fastCommand(["info", "font.ttf"]) == nil)
    #expect(SwiftShapeCommand.fastCommand(["conformance", "x.tests"]) == nil)
    #expect(SwiftShapeCommand.fastCommand(["shape", "--help"]) == nil)
    #expect(SwiftShapeCommand.fastCommand(["render", "-h"]) == nil)
    #expect(SwiftShapeCommand.fastCommand(["--version"]) == nil)
    #expect(
      SwiftShapeCommand.fastCommand(["--bogus"])
        == .refused(ShapingError(.invalidArgument, input: "--bogus", reason: "unknown option")))
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

  @Test func malformedArgumentsAreRefused() throws {
    for arguments in [
      ["--bogus"], ["--face-index=x"], ["--text"], ["--bot=1"], ["a", "b", "c"], ["--font-file=f", "a", "b"],
    ] {
      #expect(throws: (any Error).self) { try ShapeSettings.options.parse(arguments) }
      #expect(throws: (any Error).self) { try RenderSettings.options.parse(arguments) }
    }
    for arguments in [["--margin=wide"], ["--annotate=1"], ["--em-pixels"]] {
      #expect(throws: (any Error).self) { try RenderSettings.options.parse(arguments) }
    }
    #expect(throws: (any Error).self) { try RecordSettings.options.parse(["a", "b"]) }
  }
}

/// The examples at the end of each command's help run as written (those that need no file of the
/// reader's, and write none of the repository's), from a folder where `fonts/` is the test fonts.
@Suite("Help examples")
struct HelpExampleTests {
  /// Splits a command line as a shell would, for the simple quoting the examples use.
  static func words(_ line: String) -> [String] {
    var words: [String] = []
    var current = ""
    var quoted = false
    var started = false
    for character in line {
      if character == "\"" {
        quoted.toggle()
        started = true
      } else if character == " " && !quoted {
        if started { words.append(current) }
        current = ""
        started = false
      } else {
        current.append(character)
        started = true
      }
    }
    if started { words.append(current) }
    return words
  }

  @Test func examplesRun() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swiftshape-examples-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createSymbolicLink(
      at: folder.appendingPathComponent("fonts"),
      withDestinationURL: Repository.fixtures.appendingPathComponent("fonts"))
    let helps = [
      Examples.shape, Examples.render, Examples.check, Examples.record, Examples.info, Examples.conformance,
    ]
    var ran = 0
    for help in helps {
      #expect(help.hasPrefix("\n\nEXAMPLES:\n"))
      for line in help.split(separator: "\n") where line.hasPrefix("    $ swiftshape ") {
        let command = String(line.dropFirst("    $ ".count))
        // Those that need the reader's own files, or would write into the repository.
        let needsOwnFiles = ["MyFont", "fixtures/", "harfbuzz-6.0.0", "record "].contains {
          command.contains($0)
        }
        if needsOwnFiles { continue }
        let arguments = Array(Self.words(command).dropFirst())
        let result = try swiftshape(
          arguments, in: folder, environment: ["FONTCONFIG_FILE": Paths.fontconfigFile])
        #expect(result.status == 0, "\(command): \(result.err)")
        ran += 1
      }
    }
    #expect(ran >= 6)
  }
}

/// Shell completion: ArgumentParser's scripts, whose completion of `shape`, `render` and `record`
/// calls back for the options those commands declare themselves.
@Suite("Shell completion")
struct CompletionTests {
  @Test func bashCompletesSubcommandsOptionsAndFiles() throws {
    let script = try swiftshape(["--generate-completion-script", "bash"])
    #expect(script.status == 0 && script.out.contains("---completion shape"))
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swiftshape-completion-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("swiftshape.bash")
    try script.stdout.write(to: file)
    // Completes each line as bash would at its end, printing what it offers.
    func complete(_ words: [String]) throws -> String {
      let line = words.joined(separator: " ")
      let program = """
        source '\(file.path)'
        shopt -s extglob
        COMP_WORDS=(\(words.map { "'\($0)'" }.joined(separator: " ")))
        COMP_CWORD=\(words.count - 1)
        COMP_LINE='\(line)'
        COMP_POINT=${#COMP_LINE}
        _swiftshape swiftshape '\(words.last!)' '\(words[words.count - 2])'
        echo "${COMPREPLY[*]}"
        """
      let path = Repository.binary.deletingLastPathComponent().path
      let result = try run(
        URL(fileURLWithPath: "/bin/bash"), ["-c", program],
        environment: ["PATH": "\(path):/usr/bin:/bin"])
      return result.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    #expect(try complete(["swiftshape", "render", "--pal"]) == "--palette")
    #expect(try complete(["swiftshape", "shape", "--font-fi"]) == "--font-file")
    #expect(try complete(["swiftshape", "render", "fonts/NotoSans-L"]) == "fonts/NotoSans-Latin.ttf")
    #expect(try complete(["swiftshape", "che"]) == "check")
    for shell in ["zsh", "fish"] {
      let other = try swiftshape(["--generate-completion-script", shell])
      #expect(other.status == 0 && other.out.contains("swiftshape"), "\(shell)")
    }
  }
}

/// The manual page, made from the commands' own help.
@Suite("Manual page")
struct ManualTests {
  @Test func thePageHasEveryCommandItsExamplesAndTheExitStatuses() throws {
    let page = try swiftshape(["manual"])
    #expect(page.status == 0)
    for command in ["shape", "render", "record", "check", "info", "fonts", "conformance"] {
      #expect(page.out.contains("\n.SS \(command)\n"), "\(command)")
    }
    #expect(page.out.contains("EXAMPLES:") && page.out.contains(".SH EXIT STATUS\n"))
    // Options are written with minus signs (\-), so that a command copied from the page works.
    #expect(page.out.contains("\\-\\-font\\-file") && !page.out.contains(" --font-file"))
    let man = URL(fileURLWithPath: "/usr/bin/man")
    guard FileManager.default.isExecutableFile(atPath: man.path) else { return }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swiftshape-man-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("swiftshape.1")
    try page.stdout.write(to: file)
    let rendered = try run(
      man, ["-l", file.path], environment: ["MANWIDTH": "80", "MAN_KEEP_FORMATTING": ""])
    #expect(rendered.status == 0 && rendered.out.contains("EXIT STATUS"), "\(rendered.err)")
  }
}
