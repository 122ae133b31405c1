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
      66 an input file cannot be opened or read; 70 internal failure.
      """,
    version: SwiftShapeCommand.versionString,
    subcommands: [Shape.self, Record.self, Check.self, Info.self, Fonts.self, Conformance.self],
    defaultSubcommand: Shape.self
  )

  static var versionString: String { "swiftshape \(swiftShapeVersion) (HarfBuzz \(harfBuzzVersion))" }

  /// Parses, runs, and turns every error into one line on standard error and an exit status.
  static func main() {
    // The language defaults to the locale's, as hb-shape's does; only LC_CTYPE is read, so number
    // formatting in C functions stays in the C locale.
    setlocale(LC_CTYPE, "")
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch {
      Diagnostics.exit(with: error, command: self)
    }
  }
}
