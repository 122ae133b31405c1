import SwiftShape

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which font, at which size and variation: hb-shape's font-face, font-instance and variation
/// options, read into typed values.
package struct FontSettings: Sendable, Equatable {
  /// Every option at its default.
  package init() {}

  package var fontFile: String?
  package var pattern: String?
  package var strict = false
  package var faceIndex: Int?
  /// `--font-size`, as read.
  package var fontSize: FontSize?
  /// `--size`, as read.
  package var points: FontSize?
  /// `--fallback-font-file`, in order.
  package var fallbackFiles: [String] = []
  /// `--no-fallback`.
  package var noFallback = false
  /// Whether `--font-funcs` was given.
  package var fontFunctionsGiven = false
  /// `--list-font-funcs`, `--list-face-loaders`.
  package var listFontFunctions = false
  package var listFaceLoaders = false
  /// The rest of the font's settings: ppem, ptem, slant, font functions, load flags, variations.
  package var options = ShapingFont.Options()

  /// The font's settings, checked against each other.
  package func shapingFontOptions(persona: Persona = .swiftshape) throws -> ShapingFont.Options {
    guard points == nil || fontSize == nil else {
      throw ShapingError(.invalidArgument, input: "--size", reason: "cannot be combined with --font-size")
    }
    var options = self.options
    options.size = points ?? fontSize ?? .unitsPerEm
    if persona == .hbShape, !fontFunctionsGiven, HBShapeRelease.linked.fontFunctionsByExactName,
      let name = getenv("HB_FONT_FUNCS").map({ String(cString: $0) }), Font.Functions.listed.contains(name),
      let functions = Font.Functions(rawValue: name)
    {
      // As hb-shape from HarfBuzz 11.0.0, which leaves the font functions to the library's default
      // when --font-funcs is not given: the environment's HB_FONT_FUNCS, where it names one.
      options.functions = functions
    }
    // As hb-shape: any scale, slant and point size goes to HarfBuzz as it is.
    options.allowsAnyValue = persona == .hbShape
    return options
  }

  /// The options, each declared once (see `OptionDeclaration`).
  package static func declarations<S: ShapingCommandSettings>() -> [OptionDeclaration<S>] {
    [
      .value(
        "--font-file", valueName: "path",
        help: "The font file to shape with (default: the built-in DejaVu Sans)."
      ) { $0.font.fontFile = $1 },
      .value(
        "--font", valueName: "pattern",
        help:
          "An installed font by fontconfig pattern, as fc-match picks it: 'DejaVu Sans:bold', monospace, ':lang=hi' (or a font file's path)."
      ) { $0.font.pattern = $1 },
      .flag(
        "--strict",
        help: "With --font: fail instead of using a substitute for a family that is not installed."
      ) { $0.font.strict = true },
      .value(
        "--fallback-font-file", valueName: "path",
        help:
          "With --paragraph: a font for the characters the font lacks, tried in the order given (repeatable; default with --font: fontconfig's sorted list for the pattern)."
      ) { $0.font.fallbackFiles.append($1) },
      .flag(
        "--no-fallback",
        help:
          "With --paragraph: use the one font, even for characters it lacks (they are listed in the JSON)."
      ) { $0.font.noFallback = true },
      .value(
        "-y", "--face-index", valueName: "index", help: "The face of a font collection (.ttc, .otc) to use."
      ) {
        $0.font.faceIndex = try integer($1, "--face-index", $0.persona, wrapsToUnsigned: true)
      },
      .value(
        "--font-size", valueName: "1/2 numbers or upem",
        help:
          "The font scale, as hb-shape's: 'upem' (font units, the default), one number, or two for x and y."
      ) { settings, value in
        if settings.persona == .hbShape {
          guard let size = HBShapeSyntax.fontSize(value) else {
            throw ShapingError(
              .invalidArgument, input: "--font-size=\(value)", reason: "not one or two numbers, or 'upem'")
          }
          settings.font.fontSize = size
        } else {
          settings.font.fontSize = try FontSize(parsing: value)
        }
      },
      .value(
        "--size", valueName: "points",
        help: "Shape at a point size: positions are 26.6 fixed point (64 to the point)."
      ) {
        let points: Double = try number($1, "--size")
        $0.font.points = try FontSize.checkedPoints(points, input: "--size=\(points)")
      },
      .value(
        "--font-ppem", valueName: "1/2 integers",
        help: "Pixels per em, x and y, for hinting and device tables (default: 0, none)."
      ) { settings, value in
        if settings.persona == .hbShape {
          guard let ppem = HBShapeSyntax.ppem(value) else {
            throw ShapingError(
              .invalidArgument, input: "--font-ppem=\(value)", reason: "not one or two integers")
          }
          settings.font.options.ppem = ppem
        } else {
          let values = try parseNumbers(value, option: "--font-ppem", range: 0...Double(UInt16.max))
          settings.font.options.ppem = (UInt32(values.0), UInt32(values.1))
        }
      },
      .value(
        "--font-ptem", valueName: "points",
        help: "The font's point size for optical-size features (default: 0, none)."
      ) {
        let points = try decimal($1, "--font-ptem", $0.persona)
        guard $0.persona == .hbShape || (points.isFinite && points >= 0) else {
          throw ShapingError(
            .invalidArgument, input: "--font-ptem=\(points)", reason: "the point size must be 0 or more")
        }
        $0.font.options.pointSize = Float(points)
      },
      .value(
        "--font-slant", valueName: "ratio",
        help: "Synthetic slant, as a ratio (0.2 leans about 11°; default: 0)."
      ) {
        let slant = try decimal($1, "--font-slant", $0.persona)
        guard $0.persona == .hbShape || (slant.isFinite && abs(slant) <= 64) else {
          throw ShapingError(
            .invalidArgument, input: "--font-slant=\(slant)",
            reason: "the slant must be a ratio from -64 to 64")
        }
        $0.font.options.syntheticSlant = Float(slant)
      },
    ] + newerEngineDeclarations() + [
      .value(
        "--font-funcs", valueName: "ot|ft",
        help: "The font functions: ot (HarfBuzz's own, default) or ft (FreeType)."
      ) { settings, value in
        let functions =
          settings.persona == .hbShape ? HBShapeSyntax.fontFunctions(value) : Font.Functions(rawValue: value)
        guard let functions else {
          throw ShapingError(
            .invalidArgument, input: "--font-funcs=\(value)", reason: "unknown font functions (ot or ft)")
        }
        settings.font.options.functions = functions
        settings.font.fontFunctionsGiven = true
      },
      .value(
        "--ft-load-flags", valueName: "integer",
        help: "FreeType load flags, with --font-funcs=ft (default: 2, no hinting)."
      ) {
        $0.font.options.freeTypeLoadFlags = try integer(
          $1, "--ft-load-flags", $0.persona, wrapsToUnsigned: false)
      },
      .parsed(
        "--variations", valueName: "list",
        help: "Variation-axis settings, separated by commas, e.g. 'wght=700,wdth=75'.",
        asHBShape: HBShapeSyntax.variations, strictly: Variation.parseList
      ) { $0.font.options.variations = $1 },
    ]
  }

  /// The options of what newer engines offer, each declared only where SwiftShape was built with
  /// an engine that has it (so `--help` lists only what the engine in use supports), and, under
  /// the name hb-shape, taken only where the linked release's hb-shape has the option.
  static func newerEngineDeclarations<S: ShapingCommandSettings>() -> [OptionDeclaration<S>] {
    var declarations: [OptionDeclaration<S>] = []
    if EngineFeature.syntheticBold.isAvailable {
      for (name, inPlace) in [("--font-bold", false), ("--font-grade", true)] as [(StaticString, Bool)] {
        declarations.append(
          .value(
            name, valueName: "1/2 numbers",
            help: inPlace
              ? "Synthetic grade: outlines widened by x (and y) em units, advances kept (e.g. 0.02)."
              : "Synthetic bold: outlines widened by x (and y) em units, advances grown (e.g. 0.02)."
          ) { settings, value in
            try requireHBShape(settings.persona, has: HBShapeRelease.linked.hasFontBoldAndNamedInstance, name)
            let strength: (Double, Double)
            if settings.persona == .hbShape {
              guard let pair = HBShapeSyntax.numberPair(value) else {
                throw ShapingError(
                  .invalidArgument, input: "\(name)=\(value)", reason: "not one or two numbers")
              }
              strength = pair
            } else {
              strength = try parseNumbers(value, option: name.description, range: -1...1)
            }
            settings.font.options.syntheticBold = Font.SyntheticBold(
              x: Float(strength.0), y: Float(strength.1), inPlace: inPlace)
          })
      }
    }
    declarations.append(
      .value(
        "--named-instance", valueName: "index",
        help:
          "A named instance of a variable font, by its index (0 is the first); --variations apply over it."
      ) { settings, value in
        try requireHBShape(
          settings.persona, has: HBShapeRelease.linked.hasFontBoldAndNamedInstance, "--named-instance")
        settings.font.options.namedInstance = try integer(
          value, "--named-instance", settings.persona, wrapsToUnsigned: true)
      })
    declarations.append(
      .value(
        "--face-loader", valueName: "ot",
        help: "How faces are loaded: ot, HarfBuzz's own (the only one SwiftShape uses)."
      ) { settings, value in
        try requireHBShape(settings.persona, has: HBShapeRelease.linked.hasFaceLoader, "--face-loader")
        let loaders = Face.loaders
        guard value == "ot" else {
          throw ShapingError(
            .invalidArgument, input: "--face-loader=\(value)",
            reason: loaders.contains(value)
              ? "SwiftShape loads faces with HarfBuzz's own loader, ot"
              : "unknown face loader (\(loaders.joined(separator: ", ")))")
        }
      })
    declarations.append(
      .flag("--list-font-funcs", help: "List the font functions this HarfBuzz has, and exit.") {
        $0.font.listFontFunctions = true
      })
    declarations.append(
      .flag("--list-face-loaders", help: "List the face loaders this HarfBuzz has, and exit.") {
        $0.font.listFaceLoaders = true
      })
    return declarations
  }

  /// Parses one or two numbers separated by a space or comma; one number stands for both.
  package static func parseNumbers(_ text: String, option: String, range: ClosedRange<Double>) throws -> (
    Double, Double
  ) {
    let parts = text.split(whereSeparator: { $0 == " " || $0 == "," })
    let values = parts.compactMap { Double($0) }
    guard (1...2).contains(parts.count), values.count == parts.count,
      values.allSatisfy({ $0.isFinite && range.contains($0) })
    else {
      throw ShapingError(
        .invalidArgument, input: "\(option)=\(text)",
        reason: "not one or two numbers from \(Int64(range.lowerBound)) to \(Int64(range.upperBound))")
    }
    return (values[0], values.count == 2 ? values[1] : values[0])
  }
}

/// Under the name hb-shape, an option the linked release's hb-shape does not have is unknown, as
/// it is to that hb-shape.
func requireHBShape(_ persona: Persona, has option: Bool, _ name: StaticString) throws {
  guard persona == .hbShape, !option else { return }
  throw ShapingError(.invalidArgument, input: name.description, reason: "unknown option")
}
