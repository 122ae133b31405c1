import ArgumentParser
import HarfBuzz
import SwiftShape

/// Which font, at which size and variation: hb-shape's font-face, font-instance and variation
/// options.
struct FontOptions: ParsableArguments {
  @Option(
    name: .customLong("font-file"),
    help: ArgumentHelp("The font file to shape with (default: the built-in DejaVu Sans).", valueName: "path"))
  var fontFile: String?

  @Option(
    name: .customLong("font"),
    help: ArgumentHelp(
      "An installed font by fontconfig pattern, as fc-match picks it: 'DejaVu Sans:bold', monospace, ':lang=hi'.",
      valueName: "pattern"))
  var pattern: String?

  @Flag(
    name: .customLong("strict"),
    help: "With --font: fail instead of using a substitute for a family that is not installed.")
  var strict = false

  @Option(
    name: .customLong("face-index"),
    help: ArgumentHelp("The face of a font collection (.ttc, .otc) to use.", valueName: "index"))
  var faceIndex: Int?

  @Option(
    name: .customLong("font-size"),
    help: ArgumentHelp(
      "The font scale, as hb-shape's: 'upem' (font units, the default), one number, or two for x and y.",
      valueName: "1/2 numbers or upem"))
  var fontSize: String?

  @Option(
    name: .customLong("size"),
    help: ArgumentHelp(
      "Shape at a point size: positions are 26.6 fixed point (64 to the point).", valueName: "points"))
  var points: Double?

  @Option(
    name: .customLong("font-ppem"),
    help: ArgumentHelp(
      "Pixels per em, x and y, for hinting and device tables (default: 0, none).", valueName: "1/2 integers"))
  var ppem: String?

  @Option(
    name: .customLong("font-ptem"),
    help: ArgumentHelp(
      "The font's point size for optical-size features (default: 0, none).", valueName: "points"))
  var pointSize: Double?

  @Option(
    name: .customLong("font-slant"),
    help: ArgumentHelp("Synthetic slant, as a ratio (0.2 leans about 11°; default: 0).", valueName: "ratio"))
  var slant: Double?

  @Option(
    name: .customLong("font-funcs"),
    help: ArgumentHelp(
      "The font functions: ot (HarfBuzz's own, default) or ft (FreeType).", valueName: "ot|ft"))
  var fontFuncs: String = "ot"

  @Option(
    name: .customLong("ft-load-flags"),
    help: ArgumentHelp(
      "FreeType load flags, with --font-funcs=ft (default: 2, no hinting).", valueName: "integer"))
  var freeTypeLoadFlags: Int32 = 2

  @Option(
    name: .customLong("variations"),
    help: ArgumentHelp(
      "Variation-axis settings, separated by commas, e.g. 'wght=700,wdth=75'.", valueName: "list"))
  var variations: String?

  /// The values given.
  var settings: FontSettings {
    FontSettings(
      fontFile: fontFile, pattern: pattern, strict: strict, faceIndex: faceIndex, fontSize: fontSize,
      points: points, ppem: ppem, pointSize: pointSize, slant: slant, fontFuncs: fontFuncs,
      freeTypeLoadFlags: freeTypeLoadFlags, variations: variations)
  }
}

/// The font options' values as a plain value, which the commands run on: filled by ArgumentParser
/// (through `FontOptions`) or by the fast parser, which skips ArgumentParser's start-up cost. The
/// defaults are the options' (a test checks that they agree).
struct FontSettings: Sendable, Equatable {
  var fontFile: String?
  var pattern: String?
  var strict = false
  var faceIndex: Int?
  var fontSize: String?
  var points: Double?
  var ppem: String?
  var pointSize: Double?
  var slant: Double?
  var fontFuncs = "ot"
  var freeTypeLoadFlags: Int32 = 2
  var variations: String?

  /// The font options, checked; values read as `persona` reads them.
  func shapingFontOptions(persona: Persona = .swiftshape) throws -> ShapingFont.Options {
    var options = ShapingFont.Options()
    if let points {
      guard fontSize == nil else {
        throw ShapingError(.invalidArgument, input: "--size", reason: "cannot be combined with --font-size")
      }
      options.size = try FontSize.checkedPoints(points, input: "--size=\(points)")
    } else if let fontSize, persona == .swiftshape {
      options.size = try FontSize(parsing: fontSize)
    }
    if persona == .hbShape { return try hbShapeFontOptions(options) }
    if let ppem {
      let values = try FontSettings.parseNumbers(ppem, option: "--font-ppem", range: 0...Double(UInt16.max))
      options.ppem = (UInt32(values.0), UInt32(values.1))
    }
    if let pointSize {
      guard pointSize.isFinite, pointSize >= 0 else {
        throw ShapingError(
          .invalidArgument, input: "--font-ptem=\(pointSize)", reason: "the point size must be 0 or more")
      }
      options.pointSize = Float(pointSize)
    }
    if let slant {
      guard slant.isFinite, abs(slant) <= 64 else {
        throw ShapingError(
          .invalidArgument, input: "--font-slant=\(slant)", reason: "the slant must be a ratio from -64 to 64"
        )
      }
      options.syntheticSlant = Float(slant)
    }
    guard let functions = Font.Functions(rawValue: fontFuncs) else {
      throw ShapingError(
        .invalidArgument, input: "--font-funcs=\(fontFuncs)", reason: "unknown font functions (ot or ft)")
    }
    options.functions = functions
    options.freeTypeLoadFlags = freeTypeLoadFlags
    if let variations {
      options.variations = try ShapingError.parsing("--variations") { try Variation.parseList(variations) }
    }
    return options
  }

  /// The font options as hb-shape reads them, `options` holding `--size` if given.
  private func hbShapeFontOptions(_ options: ShapingFont.Options) throws -> ShapingFont.Options {
    var options = options
    options.allowsAnyValue = true
    if points == nil, let fontSize {
      guard let size = HBShapeSyntax.fontSize(fontSize) else {
        throw ShapingError(
          .invalidArgument, input: "--font-size=\(fontSize)", reason: "not one or two numbers, or 'upem'")
      }
      options.size = size
    }
    if let ppem {
      guard let values = HBShapeSyntax.ppem(ppem) else {
        throw ShapingError(.invalidArgument, input: "--font-ppem=\(ppem)", reason: "not one or two integers")
      }
      options.ppem = values
    }
    if let pointSize { options.pointSize = Float(pointSize) }
    if let slant { options.syntheticSlant = Float(slant) }
    guard let functions = HBShapeSyntax.fontFunctions(fontFuncs) else {
      throw ShapingError(
        .invalidArgument, input: "--font-funcs=\(fontFuncs)", reason: "unknown font functions (ot or ft)")
    }
    options.functions = functions
    options.freeTypeLoadFlags = freeTypeLoadFlags
    if let variations { options.variations = HBShapeSyntax.variations(variations) }
    return options
  }

  /// Parses one or two numbers separated by a space or comma; one number stands for both.
  static func parseNumbers(_ text: String, option: String, range: ClosedRange<Double>) throws -> (
    Double, Double
  ) {
    let parts = text.split(whereSeparator: { $0 == " " || $0 == "," })
    let values = parts.compactMap { Double($0) }
    guard (1...2).contains(parts.count), values.count == parts.count,
      values.allSatisfy({ $0.isFinite && range.contains($0) })
    else {
      throw ShapingError(
        .invalidArgument, input: "\(option)=\(text)",
        reason:
          "not one or two numbers from \(Int64(range.lowerBound)) to \(Int64(range.upperBound))\(option == "--font-size" ? ", or 'upem'" : "")"
      )
    }
    return (values[0], values.count == 2 ? values[1] : values[0])
  }
}
