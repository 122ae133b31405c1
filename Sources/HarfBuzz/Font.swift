import CHarfBuzz

/// A face at a size, with variations and font functions: what HarfBuzz shapes with.
///
/// All settings are applied when the font is created, then it is made immutable, so one font may
/// be shared by any number of threads shaping at once.
///
/// The corresponding C type is `hb_font_t`.
public final class Font: @unchecked Sendable {
  // > Some objects are thread-safe after they have been constructed and set up. The general
  // > pattern is to create() the object, make a few set_*() calls to set up the object, and then
  // > use it without further modification.
  // https://harfbuzz.github.io/object-model-lifecycle.html
  // Every setting is made in init, then hb_font_make_immutable, before the font is published.
  // With FreeType functions, hb-ft's documentation warns:
  // > Note that FreeType is not thread-safe, therefore these functions are not thread-safe either.
  // https://harfbuzz.github.io/harfbuzz-hb-ft.html
  // That is about the hb_ft_* calls, made here once, in init, on one thread. The font functions
  // they install take a per-font lock around every use of the font's FT_Face (hb-ft.cc,
  // `hb_lock_t lock (ft_font->lock)`), so a finished font may still be shared.
  let pointer: OpaquePointer

  /// The face this font is an instance of.
  public let face: Face

  /// The settings the font was made with.
  public let configuration: Configuration

  /// Which implementation answers glyph queries (advances, extents, names, cmap).
  public enum Functions: String, Sendable, Hashable, CaseIterable, Codable {
    /// HarfBuzz's own OpenType implementation (`hb_ot_font_set_funcs`), the default.
    case openType = "ot"
    /// FreeType (`hb_ft_font_set_funcs`), which reads the same file through its own parser.
    case freeType = "ft"
  }

  /// A font's settings. The defaults are hb-shape's.
  public struct Configuration: Sendable, Hashable {
    /// The scale, x and y; nil for the face's units per em, which makes positions font units.
    public var scale: (x: Int32, y: Int32)? {
      get { scaleStorage.map { ($0[0], $0[1]) } }
      set { scaleStorage = newValue.map { [$0.x, $0.y] } }
    }
    private var scaleStorage: [Int32]?
    /// Pixels per em, x and y, for hinting and device tables; 0 for none.
    public var ppem: (x: UInt32, y: UInt32) {
      get { (ppemStorage[0], ppemStorage[1]) }
      set { ppemStorage = [newValue.x, newValue.y] }
    }
    private var ppemStorage: [UInt32] = [0, 0]
    /// The point size, for optical-size features (`trak`, `opsz`); 0 for none.
    public var pointSize: Float = 0
    /// Synthetic slant: the tangent of the angle text leans by (0.2 is about 11°).
    public var syntheticSlant: Float = 0
    /// Synthetic bold, or nil for none; applied only where the engine has it
    /// (`EngineFeature.syntheticBold`: HarfBuzz 7.0.0).
    public var syntheticBold: SyntheticBold?
    /// A named instance of a variable font (its index in `fvar`), set before `variations`, which
    /// apply over it; nil for the default instance.
    public var namedInstance: UInt32?
    /// Variation-axis settings in design coordinates.
    public var variations: [Variation] = []
    /// The font functions.
    public var functions: Functions = .openType
    /// FreeType load flags, used with `.freeType` functions only (hb-shape's default is 2,
    /// `FT_LOAD_NO_HINTING`).
    public var freeTypeLoadFlags: Int32 = 2

    /// hb-shape's defaults.
    public init() {}
  }

  /// Synthetic emboldening: outlines widened by `x` and `y`, in em units (0.02 is a little bolder);
  /// `inPlace` keeps the advances as they are (a grade), otherwise they grow with the outlines.
  public struct SyntheticBold: Sendable, Hashable {
    /// Horizontal strength, in em units.
    public var x: Float
    /// Vertical strength, in em units.
    public var y: Float
    /// Whether the advances stay as they are.
    public var inPlace: Bool

    /// Emboldening by `x` and `y`, in place or growing the advances.
    public init(x: Float, y: Float, inPlace: Bool = false) {
      self.x = x
      self.y = y
      self.inPlace = inPlace
    }
  }

  /// Makes a font of `face` with `configuration`.
  ///
  /// The corresponding C functions are `hb_font_create`, `hb_font_set_scale`, `hb_font_set_ppem`,
  /// `hb_font_set_ptem`, `hb_font_set_synthetic_bold`, `hb_font_set_synthetic_slant`,
  /// `hb_font_set_var_named_instance`, `hb_font_set_variations` and
  /// `hb_ot_font_set_funcs` or `hb_ft_font_set_funcs`, called in hb-shape's order.
  public init(face: Face, configuration: Configuration = Configuration()) {
    let font = hb_font_create(face.pointer)!  // never NULL: the empty font at worst
    let upem = Int32(clamping: face.unitsPerEm)
    let scale = configuration.scale ?? (upem, upem)
    hb_font_set_scale(font, scale.x, scale.y)
    hb_font_set_ppem(font, configuration.ppem.x, configuration.ppem.y)
    hb_font_set_ptem(font, configuration.pointSize)
    if let bold = configuration.syntheticBold {
      // False, and nothing done, when SwiftShape was built with a HarfBuzz before 7.0.0: callers
      // check `EngineFeature.syntheticBold` first.
      _ = swiftshape_hb_font_set_synthetic_bold(font, bold.x, bold.y, bold.inPlace)
    }
    hb_font_set_synthetic_slant(font, configuration.syntheticSlant)
    if let instance = configuration.namedInstance { hb_font_set_var_named_instance(font, instance) }
    let variations = configuration.variations.map(\.raw)
    hb_font_set_variations(font, variations, UInt32(variations.count))
    switch configuration.functions {
    case .openType:
      hb_ot_font_set_funcs(font)
    case .freeType:
      // Reads the design coordinates set above, so it must come after hb_font_set_variations.
      hb_ft_font_set_funcs(font)
      hb_ft_font_set_load_flags(font, configuration.freeTypeLoadFlags)
    }
    hb_font_make_immutable(font)
    self.pointer = font
    self.face = face
    self.configuration = configuration
    var extents = hb_font_extents_t()
    hb_font_get_extents_for_direction(font, HB_DIRECTION_LTR, &extents)
    horizontalExtents = FontExtents(
      ascender: extents.ascender, descender: extents.descender, lineGap: extents.line_gap)
  }

  /// The extents of horizontal text, read once: the font cannot change (line breaking asked
  /// HarfBuzz for them at each paragraph, 1 M instructions a pass over the English lines,
  /// callgrind).
  private let horizontalExtents: FontExtents

  deinit { hb_font_destroy(pointer) }

  /// The scale, x and y: positions are in units of 1/scale em.
  public var scale: (x: Int32, y: Int32) {
    var x: Int32 = 0
    var y: Int32 = 0
    hb_font_get_scale(pointer, &x, &y)
    return (x, y)
  }

  /// The glyph `cmap` maps a code point to, or nil when the font has none.
  ///
  /// The corresponding C function is `hb_font_get_nominal_glyph`.
  public func nominalGlyph(for scalar: Unicode.Scalar) -> UInt32? {
    var glyph: hb_codepoint_t = 0
    return hb_font_get_nominal_glyph(pointer, scalar.value, &glyph) != 0 ? glyph : nil
  }

  /// The glyph for a code point followed by a variation selector (format 14 `cmap`), or nil.
  ///
  /// The corresponding C function is `hb_font_get_variation_glyph`.
  public func variationGlyph(for scalar: Unicode.Scalar, selector: Unicode.Scalar) -> UInt32? {
    var glyph: hb_codepoint_t = 0
    return hb_font_get_variation_glyph(pointer, scalar.value, selector.value, &glyph) != 0 ? glyph : nil
  }

  /// A glyph's advance for a direction, in the font's scale.
  ///
  /// The corresponding C function is `hb_font_get_glyph_advance_for_direction`.
  public func advance(of glyph: UInt32, direction: Direction = .leftToRight) -> (x: Int32, y: Int32) {
    var x: hb_position_t = 0
    var y: hb_position_t = 0
    hb_font_get_glyph_advance_for_direction(pointer, glyph, direction.raw, &x, &y)
    return (x, y)
  }

  /// The glyph's name from the font (`post` or `CFF`), or nil when it has none.
  ///
  /// The corresponding C function is `hb_font_get_glyph_name`.
  public func glyphName(_ glyph: UInt32) -> String? {
    var chars = [CChar](repeating: 0, count: 128)
    guard hb_font_get_glyph_name(pointer, glyph, &chars, UInt32(chars.count)) != 0 else { return nil }
    return String(cChars: chars)
  }

  /// The glyph with a name (`f_f_i`), as the font's `post` or `CFF` table names it; `gidN` names
  /// glyph N. Nil when no glyph has the name.
  ///
  /// The corresponding C function is `hb_font_get_glyph_from_name`.
  public func glyph(named name: String) -> UInt32? {
    var glyph: hb_codepoint_t = 0
    if hb_font_get_glyph_from_name(pointer, name, Int32(clamping: name.utf8.count), &glyph) != 0 {
      return glyph
    }
    if name.hasPrefix("gid"), let id = UInt32(name.dropFirst(3)), Int(id) < face.glyphCount { return id }
    return nil
  }

  /// The glyph's name, or `gidN` when the font has none: what hb-shape prints.
  ///
  /// The corresponding C function is `hb_font_glyph_to_string`.
  public func glyphLabel(_ glyph: UInt32) -> String {
    glyphName(glyph) ?? "gid\(glyph)"
  }

  /// The glyph's ink box in the font's scale, or nil when the font cannot say (an unknown glyph).
  /// An empty glyph (a space) has a zero box.
  ///
  /// The corresponding C function is `hb_font_get_glyph_extents`.
  public func glyphExtents(_ glyph: UInt32) -> GlyphExtents? {
    var extents = hb_glyph_extents_t()
    guard hb_font_get_glyph_extents(pointer, glyph, &extents) != 0 else { return nil }
    return GlyphExtents(
      xBearing: extents.x_bearing, yBearing: extents.y_bearing, width: extents.width,
      height: extents.height)
  }

  /// The font's line metrics for a direction, in the font's scale.
  ///
  /// The corresponding C function is `hb_font_get_extents_for_direction`.
  public func extents(for direction: Direction = .leftToRight) -> FontExtents {
    if direction == .leftToRight || direction == .rightToLeft { return horizontalExtents }
    var extents = hb_font_extents_t()
    hb_font_get_extents_for_direction(pointer, direction.raw, &extents)
    return FontExtents(ascender: extents.ascender, descender: extents.descender, lineGap: extents.line_gap)
  }
}

/// A glyph's ink box: the top-left corner relative to the glyph origin, and the size (the height
/// is negative when y grows upward, as in fonts). The corresponding C type is `hb_glyph_extents_t`.
public struct GlyphExtents: Hashable, Sendable, Codable, BitwiseCopyable {
  /// From the glyph's origin to the ink's left edge.
  public var xBearing: Int32
  /// From the glyph's origin to the ink's top edge (y up).
  public var yBearing: Int32
  /// The ink's width.
  public var width: Int32
  /// The ink's height (negative: it extends downward).
  public var height: Int32

  /// Extents with each field given.
  public init(xBearing: Int32, yBearing: Int32, width: Int32, height: Int32) {
    self.xBearing = xBearing
    self.yBearing = yBearing
    self.width = width
    self.height = height
  }

  // The keys of `extents` in SwiftShape's JSON document.
  private enum CodingKeys: String, CodingKey {
    case xBearing = "x_bearing"
    case yBearing = "y_bearing"
    case width, height
  }
}

/// A font's line metrics. The corresponding C type is `hb_font_extents_t`.
public struct FontExtents: Hashable, Sendable, Codable {
  /// Distance from the baseline to the top of the line (positive upward).
  public var ascender: Int32
  /// Distance from the baseline to the bottom of the line (usually negative).
  public var descender: Int32
  /// Extra space between lines.
  public var lineGap: Int32

  /// Metrics with each field given.
  public init(ascender: Int32, descender: Int32, lineGap: Int32) {
    self.ascender = ascender
    self.descender = descender
    self.lineGap = lineGap
  }
}

extension String {
  /// A string from a NUL-terminated C character buffer that may be full.
  init(cChars: [CChar]) {
    self = String(decoding: cChars.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

extension Font.Functions {
  /// The names of the font functions this HarfBuzz was built with, its default first (`ot`, `ft`,
  /// and `fontations` in builds with it, from HarfBuzz 11.0.0; `ot` and `ft` before).
  ///
  /// The corresponding C function is `hb_font_list_funcs`.
  public static let listed: [String] = cStrings(swiftshape_hb_font_list_funcs())
}

/// The strings of a NULL-terminated list HarfBuzz owns.
func cStrings(_ list: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> [String] {
  guard let list else { return [] }
  var result: [String] = []
  var index = 0
  while let name = list[index] {
    result.append(String(cString: name))
    index += 1
  }
  return result
}
