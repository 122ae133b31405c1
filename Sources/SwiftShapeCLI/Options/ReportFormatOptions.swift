import ArgumentParser
import SwiftShape

/// `-O text|json` for the commands that report on fonts.
struct ReportFormatOptions: ParsableArguments {
  @Option(
    name: [.customShort("O"), .customLong("output-format")],
    help: ArgumentHelp("Output format: text (default) or json.", valueName: "format"))
  var format: String = "text"

  /// Whether JSON was asked for.
  ///
  /// - Throws: `ShapingError` of kind `.invalidArgument` for another format.
  func isJSON() throws -> Bool {
    guard ["text", "json"].contains(format) else {
      throw ShapingError(
        .invalidArgument, input: "--output-format=\(format)", reason: "unknown output format (text or json)")
    }
    return format == "json"
  }
}
