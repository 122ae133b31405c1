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
      .parsed(
        "--features", valueName: "list",
        help: "Feature settings, separated by commas: 'kern,-liga,aalt=2,kern[3:5]'.",
        asHBShape: HBShapeSyntax.features, strictly: Feature.parseList
      ) { $0.shaping.options.features = $1 },
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
      .parsed(
        "--direction", valueName: "ltr|rtl|ttb|btt", help: "Text direction (default: from the script).",
        asHBShape: Direction.init(harfBuzzString:), strictly: Direction.init(parsing:)
      ) { $0.shaping.options.direction = $1 },
      .parsed(
        "--language", valueName: "tag", help: "BCP 47 language tag (default: from the locale, as hb-shape).",
        asHBShape: Language.init(harfBuzzString:), strictly: Language.init(parsing:)
      ) { $0.shaping.options.language = $1 },
      .parsed(
        "--script", valueName: "code",
        help: "ISO 15924 script code, e.g. Latn, Arab (default: guessed from the text).",
        asHBShape: Script.init(harfBuzzString:), strictly: Script.init(parsing:)
      ) { $0.shaping.options.script = $1 },
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
        .choice(
          "--cluster-unit", valueName: "unit",
          help: "What cluster values count: scalars (default, as hb-shape), utf8 or utf16.",
          named: "a cluster unit"
        ) { $0.shaping.clusterUnit = $1 },
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
          "--span", valueName: "start:end:key=value;…",
          help:
            "A range of the paragraph (in the cluster unit) with its own font-file, face-index, size (points), variations, language or features; repeatable; implies --paragraph."
        ) {
          $0.shaping.options.spans.append(try TextSpan(parsing: $1))
          $0.shaping.options.paragraph = $0.shaping.options.paragraph ?? .auto
        },
        .flag(
          "--markup",
          help:
            "Read each line as markup (<span font=… size=… font_features=… lang=…>, <b>, <i>, as Pango's); implies --paragraph."
        ) {
          $0.shaping.options.readsMarkup = true
          $0.shaping.options.paragraph = $0.shaping.options.paragraph ?? .auto
        },
        .choice(
          "--base-direction", valueName: "auto|ltr|rtl",
          help:
            "With --paragraph: the paragraph's direction (default: auto, from its first strong character).",
          named: "a base direction"
        ) { $0.shaping.options.paragraph = $1 },
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
        .choice(
          "--align", valueName: "start|end|center|justify",
          help:
            "With --width: where each line sits (start and end follow the paragraph's direction; justify fills every line but the last; default: start).",
          named: "an alignment"
        ) { $0.shaping.options.alignment = $1 },
        .flag(
          "--break-anywhere",
          help:
            "With --width: cut a word wider than the width between its characters rather than let it overflow."
        ) { $0.shaping.options.breaksAnywhere = true },
        .flag(
          "--hyphenate",
          help:
            "With --width and --language: hyphenate the word a line would end before (libhyphen, LibreOffice's dictionaries)."
        ) { $0.shaping.options.hyphenates = true },
        .choice(
          "--kashida", valueName: "auto|none",
          help:
            "With --align justify: stretch lines of Arabic script with tatweels where HarfBuzz allows them, then spaces (auto, the default), or spaces only (none).",
          named: "a kashida mode"
        ) { $0.shaping.options.kashida = $1 },
        .flag("--verify", help: "Check the result; fail naming the check that does not hold.") {
          $0.shaping.options.verify = true
        },
        .flag(
          "--no-cache",
          help:
            "Call HarfBuzz for every line whole instead of reusing shaped words (the same output, byte for byte)."
        ) { $0.shaping.options.usesCache = false },
      ]
  }
}
