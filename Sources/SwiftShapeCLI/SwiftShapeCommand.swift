import ArgumentParser
import HarfBuzz
import SwiftShape
import SwiftShapeCommandLine
import SwiftShapeFonts
import SwiftShapeRender

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@main
struct SwiftShapeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "swiftshape",
    abstract: "Shape text with HarfBuzz and print the glyphs.",
    discussion: """
      Exit status: 0 success; 1 a check failed (check, conformance, --verify); 64 usage error \
      (unknown option, malformed or out-of-range value); 65 unusable input (not a font, damaged \
      font, face index out of range, invalid UTF-8, a malformed fixture); 66 a file cannot be \
      opened, read or written; 70 internal failure.

      The JSON format (-O json, -O jsonl, --requests) is documented in the README's "The JSON \
      format" and described by the JSON Schema Sources/SwiftShape/Schemas/shape-document.schema.json.
      """,
    version: "swiftshape \(swiftShapeVersion)",
    subcommands: [
      Shape.self, Render.self, Record.self, Check.self, Info.self, Fonts.self, Conformance.self, Manual.self,
    ],
    defaultSubcommand: Shape.self
  )

  /// `swiftshape 0.2.0 (HarfBuzz 6.0.0, FreeType 2.12.1, fontconfig 2.14.1)`: the libraries it runs
  /// with (fontconfig when it can be loaded). `--version` prints it; the parser's configuration has
  /// the short form, so that other commands do not start FreeType and load fontconfig for it.
  static var versionString: String {
    let libraries =
      ["HarfBuzz \(harfBuzzVersion)"]
      + [FreeTypeFace.libraryVersion.map { "FreeType \($0)" }]
      .compactMap { $0 } + [FontLocator.fontconfigVersion.map { "fontconfig \($0)" }].compactMap { $0 }
    return "swiftshape \(swiftShapeVersion) (\(libraries.joined(separator: ", ")))"
  }

  /// Parses, runs, and turns every error into one line on standard error and an exit status.
  static func main() {
    // The language defaults to the locale's, as hb-shape's does; only LC_CTYPE is read, so number
    // formatting in C functions stays in the C locale. Loading a locale costs a tenth of a
    // millisecond, and the C locales, whose language HarfBuzz reads as "c" anyway, need none.
    if !usesCLocale({ getenv($0).map { UnsafePointer($0) } }) { setlocale(LC_CTYPE, "") }
    // The cache's choice between itself and plain shaping by their times makes profiles under
    // callgrind (whose clock is slowed unevenly) differ from run to run: off, it always looks up.
    if let timing = getenv("SWIFTSHAPE_CACHE_TIMING"), String(cString: timing) == "off" {
      ShapingCache.choosesByTime = false
    }
    // Read from argv directly: CommandLine.arguments repairs and copies every argument first.
    let arguments = (1..<Int(CommandLine.argc)).map { String(cString: CommandLine.unsafeArgv[$0]!) }
    // The common cases, shaping and drawing, skip ArgumentParser's start-up cost (milliseconds of
    // reflection on the options); anything else, and any error, takes the full parser and its
    // messages.
    if arguments == ["--version"] {
      // Installed as hb-shape, the version lines of the hb-shape of the HarfBuzz it runs with.
      print(Persona.current == .hbShape ? HBShapeRelease.linked.versionText : versionString)
      return
    }
    switch fastCommand(arguments) {
    case .shape(let settings)?:
      do { try settings.run() } catch { Diagnostics.exit(with: error, command: Shape.self) }
      return
    case .render(let settings)?:
      do { try settings.run() } catch { Diagnostics.exit(with: error, command: Render.self) }
      return
    case .refused(let error)?:
      Diagnostics.exit(with: error, command: arguments.first == "render" ? Render.self : Shape.self)
    case nil:
      break
    }
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch {
      Diagnostics.exit(with: error, command: self)
    }
  }

  /// Whether the environment picks a C locale for LC_CTYPE (the first of LC_ALL, LC_CTYPE and
  /// LANG that is set and not empty: none, `C`, `POSIX` or `C.<codeset>`), whose name HarfBuzz
  /// reads as the language "c" whether or not it is loaded.
  static func usesCLocale(_ lookup: (UnsafePointer<CChar>) -> UnsafePointer<CChar>?) -> Bool {
    // C strings throughout: this runs at every start, before anything else.
    func value(_ variable: UnsafePointer<CChar>) -> UnsafePointer<CChar>? {
      guard let value = lookup(variable), value.pointee != 0 else { return nil }
      return value
    }
    guard let name = value("LC_ALL") ?? value("LC_CTYPE") ?? value("LANG") else { return true }
    return strcmp(name, "C") == 0 || strcmp(name, "POSIX") == 0 || strncmp(name, "C.", 2) == 0
  }

  /// The subcommands that always take ArgumentParser, and `help`. Spelled out rather than read
  /// from the configuration, which costs reflection at start-up; a test checks the two agree.
  static let otherSubcommands = ["record", "check", "info", "fonts", "conformance", "manual", "help"]

  /// A shaping or drawing command, read without ArgumentParser.
  enum FastCommand: Equatable {
    case shape(ShapeSettings)
    case render(RenderSettings)
    /// Arguments the command refuses, with the error.
    case refused(ShapingError)
  }

  /// The command for arguments that ask to shape or draw, read by the options' declarations
  /// (the same reading ArgumentParser's dispatch would end in, without its start-up cost); nil
  /// for other subcommands and for help and version requests.
  static func fastCommand(_ arguments: [String]) -> FastCommand? {
    var arguments = arguments
    var subcommand = "shape"
    if let first = arguments.first {
      if otherSubcommands.contains(first) { return nil }
      if first == "shape" || first == "render" {
        subcommand = first
        arguments.removeFirst()
      }
    }
    for argument in arguments {
      switch argument {
      case "-h", "--help", "-help", "--version", "--experimental-dump-help", "--generate-completion-script",
        "---completion":
        return nil
      default: continue
      }
    }
    do {
      if subcommand == "render" { return .render(try RenderSettings.options.parse(arguments)) }
      return .shape(try ShapeSettings.options.parse(arguments, persona: Persona.current))
    } catch let error as ShapingError {
      return .refused(error)
    } catch {
      // A check worded by ArgumentParser (a font given twice): its message.
      return nil
    }
  }
}
