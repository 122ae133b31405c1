import ArgumentParser
import SwiftShape

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
      Exit status: 0 success; 64 usage error (unknown option, malformed or out-of-range value); \
      65 unusable input (not a font, damaged font, face index out of range, invalid UTF-8); \
      66 a file cannot be opened, read or written; 70 internal failure.
      """,
    version: SwiftShapeCommand.versionString,
    subcommands: [Shape.self, Render.self, Record.self, Check.self, Info.self, Fonts.self, Conformance.self],
    defaultSubcommand: Shape.self
  )

  static var versionString: String { "swiftshape \(swiftShapeVersion) (HarfBuzz \(harfBuzzVersion))" }

  /// Parses, runs, and turns every error into one line on standard error and an exit status.
  static func main() {
    // The language defaults to the locale's, as hb-shape's does; only LC_CTYPE is read, so number
    // formatting in C functions stays in the C locale.
    setlocale(LC_CTYPE, "")
    let arguments = Array(CommandLine.arguments.dropFirst())
    // The common case, shaping, skips ArgumentParser's start-up cost (milliseconds of reflection
    // on the options); anything else, and any error, takes the full parser and its messages.
    if let command = fastShapeCommand(arguments) {
      do {
        try command.run()
        return
      } catch {
        Diagnostics.exit(with: error, command: Shape.self)
      }
    }
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch {
      Diagnostics.exit(with: error, command: self)
    }
  }

  /// The subcommands other than `shape`, and `help`. Spelled out rather than read from the
  /// configuration, which costs reflection at start-up; a test checks the two agree.
  static let otherSubcommands: Set<String> = [
    "render", "record", "check", "info", "fonts", "conformance", "help",
  ]

  /// The `shape` command for arguments that are a shaping request, parsed by the fast parser;
  /// nil for other subcommands, help and version requests, and arguments it does not accept.
  static func fastShapeCommand(_ arguments: [String]) -> Shape? {
    var arguments = arguments
    if let first = arguments.first {
      if otherSubcommands.contains(first) { return nil }
      if first == "shape" { arguments.removeFirst() }
    }
    let informational: Set<String> = [
      "-h", "--help", "-help", "--version", "--experimental-dump-help", "--generate-completion-script",
    ]
    guard !arguments.contains(where: { informational.contains($0) }) else { return nil }
    return try? ShapeArgumentParser().parse(arguments)
  }
}
