import HarfBuzz
import SwiftShapeDefaultFont

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A font ready to shape with: a face from a file (or the embedded default font) at a size, with
/// variations. Immutable and `Sendable`: one instance may shape on many threads at once.
///
/// ```swift
/// let font = try ShapingFont(file: "NotoSans-Regular.ttf")
/// let result = try font.shape("office")
/// for glyph in result.glyphs { print(glyph.name ?? "", glyph.cluster, glyph.xAdvance) }
/// ```
public final class ShapingFont: Sendable {
  /// Settings that apply to the font as a whole (as opposed to one piece of text).
  public struct Options: Sendable, Hashable {
    /// The size, which decides the unit of positions; by default the font's own units.
    public var size: FontSize = .unitsPerEm
    /// Variation-axis settings in design coordinates (`wght=700`).
    public var variations: [Variation] = []
    /// Synthetic slant (0.2 leans about 11°).
    public var syntheticSlant: Float = 0
    /// Synthetic bold or grade (HarfBuzz 7.0.0 and later: `EngineFeature.syntheticBold`); nil for
    /// none. On an older engine a font with it is refused.
    public var syntheticBold: Font.SyntheticBold?
    /// A named instance of a variable font, by its index in `fvar`; `variations` apply over it.
    public var namedInstance: UInt32?
    /// Pixels per em, x and y, for hinting and device tables; 0 for none.
    public var ppem: (x: UInt32, y: UInt32) {
      get { (ppemStorage[0], ppemStorage[1]) }
      set { ppemStorage = [newValue.x, newValue.y] }
    }
    private var ppemStorage: [UInt32] = [0, 0]
    /// The point size for optical-size features when `size` is not `.points`; 0 for none.
    public var pointSize: Float = 0
    /// The font functions: HarfBuzz's own (`ot`, default) or FreeType's (`ft`).
    public var functions: Font.Functions = .openType
    /// FreeType load flags for `.freeType` functions (hb-shape's default, 2, is no hinting).
    public var freeTypeLoadFlags: Int32 = 2
    /// Whether any scale, slant and point size is handed to HarfBuzz as it is, as hb-shape hands
    /// them (a scale of 0 makes every position 0, a negative one mirrors, a point size may be
    /// negative); by default a scale of 0, a slant past ±64 and a negative or infinite point size
    /// are refused.
    public var allowsAnyValue = false

    /// A size and variations.
    public init(size: FontSize = .unitsPerEm, variations: [Variation] = []) {
      self.size = size
      self.variations = variations
    }
  }

  /// Which font this is: the file, the face index, units per em and names.
  public let identity: FontIdentity
  /// The settings it was made with.
  public let options: Options
  /// The unit of every position this font returns.
  public let unit: PositionUnit
  /// The HarfBuzz font, for what the shaping API does not cover.
  public let font: Font

  /// The font scale, x and y.
  public let scale: Scale

  /// Glyph names looked up so far, by glyph ID; names never change, so each is looked up once.
  let names: GlyphNames

  /// The fonts paragraphs fall back on for characters this font lacks (`withFallback(_:)`); nil
  /// for none.
  public let fallback: FontFallback?

  /// What the shaping cache knows of this font, shared by its threads' tables.
  let cacheState: FontCacheState

  /// This font, shaping paragraphs (`ShapeOptions.paragraph`, `shapeParagraph`) with `fallback`
  /// after it; text shaped as one run uses this font alone, as before. The two share the font.
  public func withFallback(_ fallback: FontFallback?) -> ShapingFont {
    ShapingFont(sharing: self, fallback: fallback.flatMap { $0.isEmpty ? nil : $0 })
  }

  private init(sharing other: ShapingFont, fallback: FontFallback?) {
    (self.identity, self.options, self.unit, self.font) = (
      other.identity, other.options, other.unit, other.font
    )
    (self.scale, self.names, self.fallback, self.cacheState) = (
      other.scale, other.names, fallback, other.cacheState
    )
  }

  /// Loads face `faceIndex` of the font file at `path`.
  ///
  /// - Throws: `ShapingError` of kind `.badFont` when the file cannot be read, is not a font, is
  ///   damaged, or has no face `faceIndex`; `.invalidArgument` for options out of range.
  ///
  /// With `allowingMissingFace`, a face index past the last face gives HarfBuzz's empty face (every
  /// character becomes glyph 0), as hb-shape does, instead of an error.
  public convenience init(
    file path: String, faceIndex: Int = 0, options: Options = Options(), allowingMissingFace: Bool = false
  ) throws {
    try self.init(
      face: ShapingFont.loadFace(file: path, faceIndex: faceIndex, allowingMissingFace: allowingMissingFace),
      file: path, options: options)
  }

  /// Reads face `faceIndex` of a font file, with the checks `init(file:faceIndex:options:)` makes.
  static func loadFace(file path: String, faceIndex: Int, allowingMissingFace: Bool = false) throws -> Face {
    do {
      return try Face(
        blob: Blob(contentsOfFile: path), index: faceIndex, name: path,
        allowingMissingFace: allowingMissingFace)
    } catch let error as HarfBuzzError {
      throw ShapingError(error)
    }
  }

  /// Loads face `faceIndex` of a font from bytes in memory (copied).
  ///
  /// - Parameters:
  ///   - bytes: the font file's bytes.
  ///   - faceIndex: the face of a collection (0 for a single font).
  ///   - name: how the font is named in errors and in `identity.file`.
  ///   - options: the size, variations and font functions.
  public convenience init(
    bytes: some Collection<UInt8>, faceIndex: Int = 0, name: String = "<memory>", options: Options = Options()
  ) throws {
    let blob: Blob
    do {
      blob = try Blob(copying: bytes)
    } catch let error as HarfBuzzError {
      throw ShapingError(error)
    }
    try self.init(blob: blob, faceIndex: faceIndex, file: name, options: options)
  }

  /// The font SwiftShape uses when none is given: DejaVu Sans (Latin, Greek, Cyrillic, Hebrew,
  /// Arabic), built into the library, so it works on a machine with no fonts and shapes the same
  /// everywhere. Its file name in `identity` is `<default>`.
  public static func defaultFont(options: Options = Options()) throws -> ShapingFont {
    let bytes = UnsafeRawBufferPointer(
      start: swiftshape_default_font_data(), count: swiftshape_default_font_size())
    let blob: Blob
    do {
      // The bytes are static data of the process: nothing to free.
      blob = try Blob(bytesNoCopy: bytes, deallocator: {})
    } catch let error as HarfBuzzError {
      throw ShapingError(error)
    }
    return try ShapingFont(blob: blob, faceIndex: 0, file: ShapingFont.defaultFontName, options: options)
  }

  /// The name the embedded default font goes by in `identity.file` and on the command line.
  public static let defaultFontName = "<default>"

  convenience init(blob: Blob, faceIndex: Int, file: String, options: Options) throws {
    let face: Face
    do {
      face = try Face(blob: blob, index: faceIndex, name: file)
    } catch let error as HarfBuzzError {
      throw ShapingError(error)
    }
    try self.init(face: face, file: file, options: options)
  }

  /// A font of a face already loaded, shared with other fonts (see `FontCache`).
  ///
  /// - Parameters:
  ///   - face: the face.
  ///   - file: the name `identity` gives the font, normally the face's file.
  ///   - options: the size, variations and font functions.
  public init(face: Face, file: String, options: Options = Options()) throws {
    try ShapingFont.check(options)
    if let instance = options.namedInstance, !options.allowsAnyValue {
      let count = face.namedInstances.count
      guard instance < count else {
        throw ShapingError(
          .invalidArgument, input: "named instance \(instance)",
          reason: count == 0
            ? "\(file) has no named instances" : "\(file) has \(count) named instances (0 to \(count - 1))")
      }
    }
    var configuration = Font.Configuration()
    let scale = options.size.scale(unitsPerEm: face.unitsPerEm)
    configuration.scale = scale
    configuration.ppem = options.ppem
    if case .points(let points) = options.size {
      configuration.pointSize = Float(points)
    } else {
      configuration.pointSize = options.pointSize
    }
    configuration.syntheticSlant = options.syntheticSlant
    configuration.syntheticBold = options.syntheticBold
    configuration.namedInstance = options.namedInstance
    configuration.variations = options.variations
    configuration.functions = options.functions
    configuration.freeTypeLoadFlags = options.freeTypeLoadFlags
    self.font = Font(face: face, configuration: configuration)
    self.scale = Scale(x: scale.x, y: scale.y)
    self.options = options
    self.unit = options.size.unit(unitsPerEm: face.unitsPerEm)
    self.identity = FontIdentity(face: face, file: file, font: font)
    self.names = GlyphNames(glyphCount: identity.glyphCount)
    self.fallback = nil
    self.cacheState = FontCacheState()
  }

  private static func check(_ options: Options) throws {
    if options.syntheticBold != nil, !EngineFeature.syntheticBold.isAvailable {
      throw ShapingError(
        .invalidArgument, input: "synthetic bold", reason: EngineFeature.syntheticBold.unavailableReason)
    }
    if options.allowsAnyValue, !isPoints(options.size) { return }
    switch options.size {
    case .unitsPerEm: break
    case .points(let points):
      guard points.isFinite, points > 0, points * 64 <= Double(Int32.max) else {
        throw ShapingError(
          .invalidArgument, input: "\(points)",
          reason: "the point size must be more than 0 and at most 33554431")
      }
    case .scale(let x, let y):
      guard x != 0, y != 0 else {
        throw ShapingError(.invalidArgument, input: "\(x) \(y)", reason: "the font scale must not be 0")
      }
    }
    guard options.syntheticSlant.isFinite, abs(options.syntheticSlant) <= 64 else {
      throw ShapingError(
        .invalidArgument, input: "\(options.syntheticSlant)",
        reason: "the slant must be a finite ratio (e.g. 0.2)")
    }
    guard options.pointSize.isFinite, options.pointSize >= 0 else {
      throw ShapingError(
        .invalidArgument, input: "\(options.pointSize)", reason: "the point size must be 0 or more")
    }
  }

  private static func isPoints(_ size: FontSize) -> Bool {
    if case .points = size { return true }
    return false
  }
}

/// Which font a result came from.
public struct FontIdentity: Sendable, Hashable, Codable {
  /// The file's path as given, `<default>` for the embedded default font, or the name given to
  /// bytes in memory.
  public var file: String {
    get { fields.values.file }
    set { change { $0.file = newValue } }
  }
  /// The face's index in its file.
  public var faceIndex: Int {
    get { fields.values.faceIndex }
    set { change { $0.faceIndex = newValue } }
  }
  /// Units per em.
  public var unitsPerEm: Int {
    get { fields.values.unitsPerEm }
    set { change { $0.unitsPerEm = newValue } }
  }
  /// The number of glyphs.
  public var glyphCount: Int {
    get { fields.values.glyphCount }
    set { change { $0.glyphCount = newValue } }
  }
  /// The family name (name ID 16, else 1), when the font has one.
  public var family: String? {
    get { fields.values.family }
    set { change { $0.family = newValue } }
  }
  /// The subfamily (style) name (name ID 17, else 2), when the font has one.
  public var style: String? {
    get { fields.values.style }
    set { change { $0.style = newValue } }
  }
  /// The PostScript name (name ID 6), when the font has one.
  public var postScriptName: String? {
    get { fields.values.postScriptName }
    set { change { $0.postScriptName = newValue } }
  }

  // Speed: the fields are kept in one box that copies share, so that a run copied (a paragraph's
  // runs, a line's, the pieces of a reshaped line) retains one reference rather than the file's
  // and the names' strings, and two identities of one font compare by the box.
  private struct Values: Sendable, Hashable, Codable {
    var file: String
    var faceIndex: Int
    var unitsPerEm: Int
    var glyphCount: Int
    var family: String?
    var style: String?
    var postScriptName: String?

    // The keys of the `font` object of SwiftShape's JSON document.
    enum CodingKeys: String, CodingKey {
      case file
      case faceIndex = "face_index"
      case unitsPerEm = "upem"
      case glyphCount = "glyph_count"
      case family, style
      case postScriptName = "postscript_name"
    }
  }

  private final class Fields: Sendable {
    let values: Values
    init(_ values: Values) { self.values = values }
  }

  private var fields: Fields

  private mutating func change(_ body: (inout Values) -> Void) {
    var values = fields.values
    body(&values)
    fields = Fields(values)
  }

  /// A font's identity with each field given.
  public init(
    file: String, faceIndex: Int, unitsPerEm: Int, glyphCount: Int, family: String? = nil,
    style: String? = nil, postScriptName: String? = nil
  ) {
    fields = Fields(
      Values(
        file: file, faceIndex: faceIndex, unitsPerEm: unitsPerEm, glyphCount: glyphCount, family: family,
        style: style, postScriptName: postScriptName))
  }

  /// Whether the two name the same font: every field equal.
  public static func == (lhs: FontIdentity, rhs: FontIdentity) -> Bool {
    lhs.fields === rhs.fields || lhs.fields.values == rhs.fields.values
  }

  /// Hashes every field.
  public func hash(into hasher: inout Hasher) { fields.values.hash(into: &hasher) }

  /// Reads the `font` object of SwiftShape's JSON document.
  public init(from decoder: any Decoder) throws { fields = Fields(try Values(from: decoder)) }

  /// Writes the `font` object of SwiftShape's JSON document.
  public func encode(to encoder: any Encoder) throws { try fields.values.encode(to: encoder) }

  init(face: Face, file: String, font: Font) {
    self.init(
      file: file, faceIndex: face.index, unitsPerEm: face.unitsPerEm, glyphCount: face.glyphCount,
      family: face.name(.typographicFamily) ?? face.name(.family),
      style: face.name(.typographicSubfamily) ?? face.name(.subfamily),
      postScriptName: face.name(.postScriptName))
  }
}
