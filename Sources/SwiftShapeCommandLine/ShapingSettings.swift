import SwiftShape

/// How to shape: hb-shape's shape and feature options, read into typed values.
package struct ShapingSettings: Sendable, Equatable {
  /// Every option at its default.
  package init() {}

  /// The options as read, but for the cluster unit (see `shapeOptions()`).
  package var options = ShapeOptions()
  package var listShapers = false
  package var utf8Clusters = false
  package var clusterUnit: ClusterUnit?

  /// The shaping options, checked against each other.
  package func shapeOptions() throws -> ShapeOptions {
    var options = self.options
    if let clusterUnit {
      guard !utf8Clusters || clusterUnit == .utf8 else {
        throw ShapingError(
          .invalidArgument, input: "--utf8-clusters",
          reason: "contradicts --cluster-unit=\(clusterUnit.rawValue)")
      }
      options.clusterUnit = clusterUnit
    } else if utf8Clusters {
      options.clusterUnit = .utf8
    }
    return options
  }

  /// The options, each declared once (see `OptionDeclaration`). As hb-shape, a value HarfBuzz
  /// cannot read is skipped or means "guess", and any cluster level is passed on.
  package static func declarations<S: ShapingCommandSettings>() -> [OptionDeclaration<S>] {
    [
      .value(
        "--features", valueName: "list",
        help: "Feature settings, separated by commas: 'kern,-liga,aalt=2,kern[3:5]'."
      ) { settings, value in
        settings.shaping.options.features =
          settings.persona == .hbShape
          ? HBShapeSyntax.features(value)
          : try ShapingError.parsing("--features") { try Feature.parseList(value) }
      },
      .flag("--list-shapers", help: "List the available shapers and exit.") { $0.shaping.listShapers = true },
      .value(
        "--shaper", "--shapers", valueName: "list",
        help: "The shapers to try, in order, separated by commas (ot, fallback)."
      ) { settings, value in
        if settings.persona == .hbShape {
          settings.shaping.options.shapers = try HBShapeSyntax.shapers(value)
          return
        }
        let list = value.split(separator: ",").map(String.init)
        guard !list.isEmpty else {
          throw ShapingError(.invalidArgument, input: "--shapers", reason: "no shaper named")
        }
        settings.shaping.options.shapers = list
      },
      .value("--direction", valueName: "ltr|rtl|ttb|btt", help: "Text direction (default: from the script).")
      {
        settings, value in
        settings.shaping.options.direction =
          settings.persona == .hbShape
          ? Direction(harfBuzzString: value)
          : try ShapingError.parsing("--direction") { try Direction(parsing: value) }
      },
      .value(
        "--language", valueName: "tag", help: "BCP 47 language tag (default: from the locale, as hb-shape)."
      ) {
        settings, value in
        settings.shaping.options.language =
          settings.persona == .hbShape
          ? Language(harfBuzzString: value)
          : try ShapingError.parsing("--language") { try Language(parsing: value) }
      },
      .value(
        "--script", valueName: "code",
        help: "ISO 15924 script code, e.g. Latn, Arab (default: guessed from the text)."
      ) { settings, value in
        settings.shaping.options.script =
          settings.persona == .hbShape
          ? Script(harfBuzzString: value)
          : try ShapingError.parsing("--script") { try Script(parsing: value) }
      },
      .flag("--bot", help: "Treat the text as the beginning of a paragraph.") {
        $0.shaping.options.bufferFlags.insert(.beginningOfText)
      },
      .flag("--eot", help: "Treat the text as the end of a paragraph.") {
        $0.shaping.options.bufferFlags.insert(.endOfText)
      },
      .flag("--preserve-default-ignorables", help: "Keep default-ignorable characters visible.") {
        $0.shaping.options.bufferFlags.insert(.preserveDefaultIgnorables)
      },
      .flag("--remove-default-ignorables", help: "Remove default-ignorable characters.") {
        $0.shaping.options.bufferFlags.insert(.removeDefaultIgnorables)
      },
      .value(
        "--invisible-glyph", valueName: "gid", help: "The glyph that replaces default-ignorable characters."
      ) {
        $0.shaping.options.invisibleGlyph = try integer(
          $1, "--invisible-glyph", $0.persona, wrapsToUnsigned: true)
      },
      .value("--not-found-glyph", valueName: "gid", help: "The glyph for characters the font does not cover.")
      {
        $0.shaping.options.notFoundGlyph = try integer(
          $1, "--not-found-glyph", $0.persona, wrapsToUnsigned: true)
      },
    ]
      + (EngineFeature.notFoundVariationSelectorGlyph.isAvailable
        ? [
          .value(
            "--not-found-variation-selector-glyph", valueName: "gid",
            help: "The glyph a variation selector the font does not map becomes (default: removed)."
          ) {
            try requireHBShape(
              $0.persona, has: HBShapeRelease.linked.hasNotFoundVariationSelectorGlyph,
              "--not-found-variation-selector-glyph")
            $0.shaping.options.notFoundVariationSelectorGlyph = try integer(
              $1, "--not-found-variation-selector-glyph", $0.persona, wrapsToUnsigned: true)
          }
        ] : [])
      + [

        .flag("--utf8-clusters", help: "Cluster values count UTF-8 bytes (as hb-shape's option).") {
          $0.shaping.utf8Clusters = true
        },
        .value(
          "--cluster-unit", valueName: "unit",
          help: "What cluster values count: scalars (default, as hb-shape), utf8 or utf16."
        ) {
          guard let unit = ClusterUnit(rawValue: $1) else {
            throw ShapingError(
              .invalidArgument, input: "--cluster-unit=\($1)",
              reason: "unknown cluster unit (scalars, utf8 or utf16)")
          }
          $0.shaping.clusterUnit = unit
        },
        .value(
          "--cluster-level", valueName: EngineFeature.clusterLevelGraphemes.isAvailable ? "0|1|2|3" : "0|1|2",
          help: "Cluster level: 0 monotone graphemes (default), 1 monotone characters, 2 characters"
            + (EngineFeature.clusterLevelGraphemes.isAvailable ? ", 3 graphemes." : ".")
        ) { settings, value in
          // Which levels this HarfBuzz has is checked with the request (`ShapingRequest.validate`).
          settings.shaping.options.clusterLevel = Buffer.ClusterLevel(
            rawValue: try integer(value, "--cluster-level", settings.persona, wrapsToUnsigned: false))
        },
        .flag("--normalize-glyphs", help: "Put the glyphs of each cluster in a canonical order.") {
          $0.shaping.options.normalizeGlyphs = true
        },
        .flag("--unsafe-to-concat", help: "Produce the unsafe-to-concat glyph flag.") {
          $0.shaping.options.bufferFlags.insert(.produceUnsafeToConcat)
        },
        .flag("--safe-to-insert-tatweel", help: "Produce the safe-to-insert-tatweel glyph flag.") {
          $0.shaping.options.bufferFlags.insert(.produceSafeToInsertTatweel)
        },
        .flag(
          "--paragraph",
          help:
            "Shape each line as a paragraph: bidi levels, runs of one script and direction, in visual order (SwiftShape's, not hb-shape's)."
        ) { $0.shaping.options.paragraph = $0.shaping.options.paragraph ?? .auto },
        .value(
          "--base-direction", valueName: "auto|ltr|rtl",
          help:
            "With --paragraph: the paragraph's direction (default: auto, from its first strong character)."
        ) {
          guard let base = BaseDirection(rawValue: $1) else {
            throw ShapingError(
              .invalidArgument, input: "--base-direction=\($1)",
              reason: "not a base direction (auto, ltr or rtl)")
          }
          $0.shaping.options.paragraph = base
        },
        .value(
          "--width", valueName: "width",
          help:
            "With --paragraph: break each paragraph into lines of at most this width, in the output's unit (render: pixels at --em-pixels)."
        ) {
          let width: Double = try number($1, "--width")
          guard width.isFinite, width > 0, width <= Double(Int32.max) else {
            throw ShapingError(
              .invalidArgument, input: "--width=\($1)",
              reason: "not a width (a number above 0, up to 2147483647)")
          }
          $0.shaping.options.lineWidth = Int32(width.rounded())
        },
        .value(
          "--align", valueName: "start|end|center",
          help:
            "With --width: where each line sits (start and end follow the paragraph's direction; default: start)."
        ) {
          guard let alignment = LineAlignment(rawValue: $1) else {
            throw ShapingError(
              .invalidArgument, input: "--align=\($1)", reason: "not an alignment (start, end or center)")
          }
          $0.shaping.options.alignment = alignment
        },
        .flag(
          "--break-anywhere",
          help:
            "With --width: cut a word wider than the width between its characters rather than let it overflow."
        ) { $0.shaping.options.breaksAnywhere = true },
        .flag("--verify", help: "Check the result; fail naming the check that does not hold.") {
          $0.shaping.options.verify = true
        },
      ]
  }
}
