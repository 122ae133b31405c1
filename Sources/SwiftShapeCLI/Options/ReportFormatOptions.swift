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
    try Self.isJSON(format, option: "--output-format", noun: "output format")
  }

  /// Whether `format` (given as `option`, a kind of `noun`) is json rather than text.
  ///
  /// - Throws: `ShapingError` of kind `.invalidArgument` for another format.
  static func isJSON(_ format: String, option: String, noun: String) throws -> Bool {
    guard ["text", "json"].contains(format) else {
      throw ShapingError(
        .invalidArgument, input: "\(option)=\(format)", reason: "unknown \(noun) (text or json)")
    }
    return format == "json"
  }
}
