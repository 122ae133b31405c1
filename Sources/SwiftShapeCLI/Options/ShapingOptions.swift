import ArgumentParser
import HarfBuzz
import SwiftShape

/// How to shape: hb-shape's shape and feature options.
struct ShapingOptions: ParsableArguments {
  @Option(
    name: .customLong("features"),
    help: ArgumentHelp(
      "Feature settings, separated by commas: 'kern,-liga,aalt=2,kern[3:5]'.", valueName: "list"))
  var features: String?

  @Flag(name: .customLong("list-shapers"), help: "List the available shapers and exit.")
  var listShapers = false

  @Option(
    name: [.customLong("shapers"), .customLong("shaper")],
    help: ArgumentHelp("The shapers to try, in order, separated by commas (ot, fallback).", valueName: "list")
  )
  var shapers: String?

  @Option(
    name: .customLong("direction"),
    help: ArgumentHelp("Text direction (default: from the script).", valueName: "ltr|rtl|ttb|btt"))
  var direction: String?

  @Option(
    name: .customLong("language"),
    help: ArgumentHelp("BCP 47 language tag (default: from the locale, as hb-shape).", valueName: "tag"))
  var language: String?

  @Option(
    name: .customLong("script"),
    help: ArgumentHelp(
      "ISO 15924 script code, e.g. Latn, Arab (default: guessed from the text).", valueName: "code"))
  var script: String?

  @Flag(name: .customLong("bot"), help: "Treat the text as the beginning of a paragraph.")
  var beginningOfText = false

  @Flag(name: .customLong("eot"), help: "Treat the text as the end of a paragraph.")
  var endOfText = false

  @Flag(name: .customLong("preserve-default-ignorables"), help: "Keep default-ignorable characters visible.")
  var preserveDefaultIgnorables = false

  @Flag(name: .customLong("remove-default-ignorables"), help: "Remove default-ignorable characters.")
  var removeDefaultIgnorables = false

  @Option(
    name: .customLong("invisible-glyph"),
    help: ArgumentHelp("The glyph that replaces default-ignorable characters.", valueName: "gid"))
  var invisibleGlyph: UInt32 = 0

  @Option(
    name: .customLong("not-found-glyph"),
    help: ArgumentHelp("The glyph for characters the font does not cover.", valueName: "gid"))
  var notFoundGlyph: UInt32 = 0

  @Flag(name: .customLong("utf8-clusters"), help: "Cluster values count UTF-8 bytes (as hb-shape's option).")
  var utf8Clusters = false

  @Option(
    name: .customLong("cluster-unit"),
    help: ArgumentHelp(
      "What cluster values count: scalars (default, as hb-shape), utf8 or utf16.", valueName: "unit"))
  var clusterUnit: String?

  @Option(
    name: .customLong("cluster-level"),
    help: ArgumentHelp(
      "Cluster level: 0 monotone graphemes (default), 1 monotone characters, 2 characters.",
      valueName: "0|1|2"))
  var clusterLevel: Int = 0

  @Flag(name: .customLong("normalize-glyphs"), help: "Put the glyphs of each cluster in a canonical order.")
  var normalizeGlyphs = false

  @Flag(name: .customLong("unsafe-to-concat"), help: "Produce the unsafe-to-concat glyph flag.")
  var unsafeToConcat = false

  @Flag(name: .customLong("safe-to-insert-tatweel"), help: "Produce the safe-to-insert-tatweel glyph flag.")
  var safeToInsertTatweel = false

  @Flag(name: .customLong("verify"), help: "Check the result; fail naming the check that does not hold.")
  var verify = false

  /// The values given.
  var settings: ShapingSettings {
    ShapingSettings(
      features: features, listShapers: listShapers, shapers: shapers, direction: direction,
      language: language, script: script, beginningOfText: beginningOfText, endOfText: endOfText,
      preserveDefaultIgnorables: preserveDefaultIgnorables, removeDefaultIgnorables: removeDefaultIgnorables,
      invisibleGlyph: invisibleGlyph, notFoundGlyph: notFoundGlyph, utf8Clusters: utf8Clusters,
      clusterUnit: clusterUnit, clusterLevel: clusterLevel, normalizeGlyphs: normalizeGlyphs,
      unsafeToConcat: unsafeToConcat, safeToInsertTatweel: safeToInsertTatweel, verify: verify)
  }
}

/// The shaping options' values as a plain value (see `FontSettings`).
struct ShapingSettings: Sendable, Equatable {
  var features: String?
  var listShapers = false
  var shapers: String?
  var direction: String?
  var language: String?
  var script: String?
  var beginningOfText = false
  var endOfText = false
  var preserveDefaultIgnorables = false
  var removeDefaultIgnorables = false
  var invisibleGlyph: UInt32 = 0
  var notFoundGlyph: UInt32 = 0
  var utf8Clusters = false
  var clusterUnit: String?
  var clusterLevel = 0
  var normalizeGlyphs = false
  var unsafeToConcat = false
  var safeToInsertTatweel = false
  var verify = false

  /// The shaping options, checked; values read as `persona` reads them (as hb-shape, a value
  /// HarfBuzz cannot read is skipped or means "guess", and any cluster level is passed on).
  func shapeOptions(persona: Persona = .swiftshape) throws -> ShapeOptions {
    if persona == .hbShape { return try hbShapeOptions() }
    var options = ShapeOptions()
    if let features {
      options.features = try ShapingError.parsing("--features") { try Feature.parseList(features) }
    }
    if let direction {
      options.direction = try ShapingError.parsing("--direction") { try Direction(parsing: direction) }
    }
    if let script { options.script = try ShapingError.parsing("--script") { try Script(parsing: script) } }
    if let language {
      options.language = try ShapingError.parsing("--language") { try Language(parsing: language) }
    }
    if let shapers {
      let list = shapers.split(separator: ",").map(String.init)
      let available = HarfBuzz.shapers
      guard !list.isEmpty else {
        throw ShapingError(.invalidArgument, input: "--shapers", reason: "no shaper named")
      }
      for shaper in list where !available.contains(shaper) {
        throw ShapingError(
          .invalidArgument, input: "--shapers '\(shaper)'",
          reason: "unknown or unavailable shaper (available: \(available.joined(separator: ", ")))")
      }
      options.shapers = list
    }
    guard let level = Buffer.ClusterLevel(defined: clusterLevel) else {
      throw ShapingError(
        .invalidArgument, input: "--cluster-level=\(clusterLevel)",
        reason: "the cluster level must be 0, 1 or 2")
    }
    options.clusterLevel = level
    try setClusterUnitAndFlags(of: &options)
    return options
  }

  /// The shaping options as hb-shape reads them.
  private func hbShapeOptions() throws -> ShapeOptions {
    var options = ShapeOptions()
    if let features { options.features = HBShapeSyntax.features(features) }
    options.direction = direction.flatMap(Direction.init(harfBuzzString:))
    options.script = script.flatMap(Script.init(harfBuzzString:))
    options.language = language.flatMap(Language.init(harfBuzzString:))
    if let shapers { options.shapers = try HBShapeSyntax.shapers(shapers) }
    options.clusterLevel = Buffer.ClusterLevel(rawValue: Int32(truncatingIfNeeded: clusterLevel))
    try setClusterUnitAndFlags(of: &options)
    return options
  }

  /// The options both readings share: the cluster unit, the buffer flags, the glyphs.
  private func setClusterUnitAndFlags(of options: inout ShapeOptions) throws {
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
    var flags: Buffer.Flags = []
    if beginningOfText { flags.insert(.beginningOfText) }
    if endOfText { flags.insert(.endOfText) }
    if preserveDefaultIgnorables { flags.insert(.preserveDefaultIgnorables) }
    if removeDefaultIgnorables { flags.insert(.removeDefaultIgnorables) }
    if unsafeToConcat { flags.insert(.produceUnsafeToConcat) }
    if safeToInsertTatweel { flags.insert(.produceSafeToInsertTatweel) }
    options.bufferFlags = flags
    options.invisibleGlyph = invisibleGlyph
    options.notFoundGlyph = notFoundGlyph
    options.normalizeGlyphs = normalizeGlyphs
    options.verify = verify
  }
}
