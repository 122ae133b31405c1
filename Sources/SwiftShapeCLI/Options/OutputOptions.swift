import ArgumentParser
import SwiftShape

/// What to print.
struct OutputOptions: ParsableArguments {
  enum Format: String, ExpressibleByArgument, CaseIterable {
    /// One SwiftShape JSON document for all lines.
    case json
    /// One compact SwiftShape JSON document per input line.
    case jsonl
    /// hb-shape's text format, one line per input line.
    case text
  }

  @Option(
    name: [.customShort("O"), .customLong("output-format")],
    help: "Output format: json (default), jsonl or text.")
  var format: Format = .json

  @Flag(name: .customLong("no-glyph-names"), help: "Print glyph IDs instead of names.")
  var noGlyphNames = false

  @Flag(name: .customLong("show-extents"), help: "Include glyph ink extents.")
  var showExtents = false

  @Flag(
    name: .customLong("show-flags"), help: "Include glyph flags in text output (they are always in JSON).")
  var showFlags = false
}
