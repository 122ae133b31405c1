import ArgumentParser
import HarfBuzz
import SwiftShape

/// How to shape: hb-shape's shaping options.
struct ShapingOptions: ParsableArguments {
  @Option(
    name: .customLong("features"),
    help: ArgumentHelp(
      "Feature settings, separated by commas: 'kern,-liga,aalt=2,kern[3:5]'.", valueName: "list"))
  var features: String?

  @Option(
    name: .customLong("direction"),
    help: ArgumentHelp("Text direction (default: from the script).", valueName: "ltr|rtl|ttb|btt"))
  var direction: String?

  @Option(
    name: .customLong("script"),
    help: ArgumentHelp(
      "ISO 15924 script code, e.g. Latn, Arab (default: guessed from the text).", valueName: "code"))
  var script: String?

  @Option(
    name: .customLong("language"),
    help: ArgumentHelp("BCP 47 language tag (default: from the locale, as hb-shape).", valueName: "tag"))
  var language: String?

  @Option(
    name: .customLong("cluster-level"),
    help: ArgumentHelp(
      "Cluster level: 0 monotone graphemes (default), 1 monotone characters, 2 characters.",
      valueName: "0|1|2"))
  var clusterLevel: Int = 0

  @Option(
    name: .customLong("cluster-unit"),
    help: ArgumentHelp(
      "What cluster values count: scalars (default, as hb-shape), utf8 or utf16.", valueName: "unit"))
  var clusterUnit: String?

  @Flag(name: .customLong("utf8-clusters"), help: "Cluster values count UTF-8 bytes (as hb-shape's option).")
  var utf8Clusters = false

  /// The shaping options, checked.
  func shapeOptions() throws -> ShapeOptions {
    var options = ShapeOptions()
    if let features { options.features = try checked("--features") { try Feature.parseList(features) } }
    if let direction { options.direction = try checked("--direction") { try Direction(parsing: direction) } }
    if let script { options.script = try checked("--script") { try Script(parsing: script) } }
    if let language { options.language = try checked("--language") { try Language(parsing: language) } }
    guard let level = Buffer.ClusterLevel(rawValue: clusterLevel) else {
      throw ShapingError(
        .invalidArgument, input: "--cluster-level=\(clusterLevel)",
        reason: "the cluster level must be 0, 1 or 2")
    }
    options.clusterLevel = level
    if let clusterUnit {
      guard let unit = ClusterUnit(rawValue: clusterUnit) else {
        throw ShapingError(
          .invalidArgument, input: "--cluster-unit=\(clusterUnit)",
          reason: "unknown cluster unit (scalars, utf8 or utf16)")
      }
      guard !utf8Clusters || unit == .utf8 else {
        throw ShapingError(
          .invalidArgument, input: "--utf8-clusters", reason: "contradicts --cluster-unit=\(clusterUnit)")
      }
      options.clusterUnit = unit
    } else if utf8Clusters {
      options.clusterUnit = .utf8
    }
    return options
  }
}
