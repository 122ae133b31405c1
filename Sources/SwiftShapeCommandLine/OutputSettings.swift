import SwiftShape

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What to print, and where: hb-shape's output options, and SwiftShape's JSON formats.
package struct OutputSettings: Sendable, Equatable {
  /// Every option at its default.
  package init() {}

  package enum Format: String, CaseIterable, Sendable {
    /// One SwiftShape JSON document for all lines.
    case json
    /// One compact SwiftShape JSON document per input line.
    case jsonl
    /// hb-shape's text format, one line per input line.
    case text
    /// hb-shape's JSON format, one line per input line.
    case hbJSON = "hb-json"
  }

  package var format: String?
  package var outputFile: String?
  package var showText = false
  package var showUnicode = false
  package var showLineNumber = false
  package var verbose = false
  package var noGlyphNames = false
  package var noPositions = false
  package var noAdvances = false
  package var noClusters = false
  package var showExtents = false
  package var showFlags = false
  package var noExtraData = false
  package var trace = false
  package var cacheStatistics = false
  package var jobs = 1
  package var iterations = 1
  package var maximumIterations = OutputSettings.defaultMaximumIterations

  /// How many times a batch request may shape its text by default: a request cannot take the
  /// batch for longer than this many shapings of a text of `--max-text-length`.
  package static let defaultMaximumIterations = 1000

  /// The options, each declared once (see `OptionDeclaration`).
  package static func declarations() -> [OptionDeclaration<ShapeSettings>] {
    [
      .value(
        "-O", "--output-format", valueName: "format",
        help: "Output format: json (SwiftShape's, the default), jsonl, text or hb-json (hb-shape's)."
      ) { $0.output.format = $1 },
      .value(
        "-o", "--output-file", valueName: "path",
        help: "Write the output to a file (replaced atomically) instead of standard output."
      ) { $0.output.outputFile = $1 },
      .flag("--show-text", help: "hb formats: print each input line, in parentheses, before its glyphs.") {
        $0.output.showText = true
      },
      .flag("--show-unicode", help: "hb formats: print each input line's code points before its glyphs.") {
        $0.output.showUnicode = true
      },
      .flag("--show-line-num", help: "hb formats: prefix each output line with its input line number.") {
        $0.output.showLineNumber = true
      },
      .flag("-v", "--verbose", help: "hb formats: all three above; like hb-shape, this also means --ned.") {
        $0.output.verbose = true
      },
      .flag("--no-glyph-names", help: "Print glyph IDs instead of names.") { $0.output.noGlyphNames = true },
      .flag("--no-positions", help: "hb formats: do not print offsets and advances.") {
        $0.output.noPositions = true
      },
      .flag("--no-advances", help: "hb formats: print absolute positions instead of advances.") {
        $0.output.noAdvances = true
      },
      .flag("--no-clusters", help: "hb formats: do not print clusters.") { $0.output.noClusters = true },
      .flag("--show-extents", help: "Include glyph ink extents.") { $0.output.showExtents = true },
      .flag("--show-flags", help: "hb formats: include glyph flags (they are always in SwiftShape's JSON).") {
        $0.output.showFlags = true
      },
      .flag("--ned", help: "hb formats: no extra data, i.e. no clusters and no advances.") {
        $0.output.noExtraData = true
      },
      .flag("-V", "--trace", help: "Print every step of shaping (a list of events in SwiftShape's JSON).") {
        $0.output.trace = true
      },
      .value(
        "--jobs", valueName: "N",
        help:
          "Shape this many lines at once (text files and standard input, --requests); output stays in input order."
      ) { $0.output.jobs = try number($1, "--jobs") },
      .value(
        "-n", "--num-iterations", valueName: "N",
        help: "Shape each line this many times (for timing); print the result once."
      ) { $0.output.iterations = try integer($1, "--num-iterations", $0.persona, wrapsToUnsigned: true) },
      .flag("--cache-stats", help: "At the end, print what the shaping cache did on standard error.") {
        $0.output.cacheStatistics = true
      },
      .value(
        "--max-iterations", valueName: "N",
        help: "With --batch: the most --num-iterations a request may ask for (default: 1000)."
      ) { $0.output.maximumIterations = try number($1, "--max-iterations") },
    ]
  }

  /// The output format, with hb-shape's defaults when the program runs as `hb-shape`.
  package func resolvedFormat(persona: Persona) throws -> Format {
    guard let format else { return persona == .hbShape ? .text : .json }
    if persona == .hbShape && format == "json" { return .hbJSON }
    guard let resolved = Format(rawValue: format) else {
      throw ShapingError(
        .invalidArgument, input: "--output-format=\(format)",
        reason: "unknown output format (json, jsonl, text or hb-json)")
    }
    return resolved
  }

  /// The hb-shape serialization these options ask for.
  package func hbFormat(_ syntax: HBFormat.Syntax) -> HBFormat {
    var format = HBFormat(syntax)
    format.glyphNames = !noGlyphNames
    format.clusters = !(noClusters || noExtraData || verbose)
    format.positions = !noPositions
    format.advances = !(noAdvances || noExtraData || verbose)
    format.glyphFlags = showFlags
    format.extents = showExtents
    format.restartsAbsolutePositions = HBShapeRelease.linked.restartsAbsolutePositions
    return format
  }

  package var showsText: Bool { showText || verbose }
  package var showsUnicode: Bool { showUnicode || verbose }
  package var showsLineNumber: Bool { showLineNumber || verbose }

  /// Checks the values; as hb-shape, any number of iterations from 0 (which prints nothing for a
  /// line) is taken.
  package func check(persona: Persona = .swiftshape) throws {
    guard (1...256).contains(jobs) else {
      throw ShapingError(.invalidArgument, input: "--jobs=\(jobs)", reason: "must be from 1 to 256")
    }
    guard maximumIterations >= 1 else {
      throw ShapingError(
        .invalidArgument, input: "--max-iterations=\(maximumIterations)", reason: "must be 1 or more")
    }
    guard iterations >= 1 || persona == .hbShape else {
      throw ShapingError(
        .invalidArgument, input: "--num-iterations=\(iterations)", reason: "must be 1 or more")
    }
  }
}

/// What the program behaves as: itself, or a drop-in `hb-shape` (when run through a link of that
/// name), whose option values are read as hb-shape reads them, whose output format defaults to
/// text and whose `-O json` is hb-shape's JSON.
package enum Persona: Sendable {
  case swiftshape
  case hbShape
}
