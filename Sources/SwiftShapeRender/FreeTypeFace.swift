import CFreeType
import HarfBuzz
import SwiftShape

/// A FreeType library instance. Each face keeps its library alive.
///
/// FreeType's objects are not thread-safe: a library, and the faces made from it, must be used by
/// one thread at a time (FreeType's API reference, on FT_Library and FT_Face). Hence neither this
/// nor `FreeTypeFace` is `Sendable`; a renderer opens its own.
final class FreeTypeLibrary {
  let pointer: FT_Library

  init() throws {
    var library: FT_Library?
    guard FT_Init_FreeType(&library) == 0, let library else {
      throw ShapingError(.internalFailure, input: "FreeType", reason: "cannot start the library")
    }
    pointer = library
  }

  deinit { FT_Done_FreeType(pointer) }

  /// The FreeType library's version (`2.12.1`), or nil when it cannot start.
  static var version: String? {
    guard let library = try? FreeTypeLibrary() else { return nil }
    var (major, minor, patch): (FT_Int, FT_Int, FT_Int) = (0, 0, 0)
    FT_Library_Version(library.pointer, &major, &minor, &patch)
    return "\(major).\(minor).\(patch)"
  }
}

@available(*, unavailable, message: "FreeType libraries are not thread-safe")
extension FreeTypeLibrary: Sendable {}

/// A font face opened with FreeType, for glyph outlines: the same file and face index as the
/// HarfBuzz font, with the same variations.
public final class FreeTypeFace {
  /// The version of the FreeType library drawing runs with (`2.12.1`), or nil when it cannot start.
  public static var libraryVersion: String? { FreeTypeLibrary.version }

  private let library: FreeTypeLibrary
  let face: FT_Face
  /// The font's bytes, when the face owns a copy of them (FreeType reads them in place).
  private let owned: UnsafeMutableRawBufferPointer?
  /// Units per em.
  public let unitsPerEm: Int

  /// Opens face `index` of `path` and applies `variations` (design coordinates by axis tag; axes
  /// not named keep their defaults).
  ///
  /// - Throws: `ShapingError` of kind `.badFont` when FreeType cannot open the face.
  public convenience init(file path: String, faceIndex: Int, variations: [Variation] = []) throws {
    try self.init(name: path, faceIndex: faceIndex, variations: variations, owned: nil) { library, face in
      FT_New_Face(library, path, FT_Long(faceIndex), &face)
    }
  }

  /// Opens bytes in memory (the built-in font); FreeType reads them in place, so they must outlive
  /// the face (static data does).
  convenience init(staticBytes: UnsafeRawBufferPointer, variations: [Variation]) throws {
    try self.init(
      memory: staticBytes, owned: nil, faceIndex: 0, name: ShapingFont.defaultFontName, variations: variations
    )
  }

  /// Opens face `faceIndex` of a font's bytes (a copy is kept for the face's lifetime); `name`
  /// names the input in errors.
  ///
  /// - Throws: `ShapingError` of kind `.badFont` when FreeType cannot open the face.
  public convenience init(
    bytes: some Collection<UInt8>, faceIndex: Int, name: String, variations: [Variation] = []
  )
    throws
  {
    let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 16)
    _ = copy.initializeMemory(as: UInt8.self, from: bytes)
    try self.init(
      memory: UnsafeRawBufferPointer(rebasing: copy[..<bytes.count]), owned: copy, faceIndex: faceIndex,
      name: name, variations: variations)
  }

  private convenience init(
    memory: UnsafeRawBufferPointer, owned: UnsafeMutableRawBufferPointer?, faceIndex: Int, name: String,
    variations: [Variation]
  ) throws {
    try self.init(name: name, faceIndex: faceIndex, variations: variations, owned: owned) { library, face in
      FT_New_Memory_Face(
        library, memory.baseAddress?.assumingMemoryBound(to: FT_Byte.self), FT_Long(memory.count),
        FT_Long(faceIndex), &face)
    }
  }

  /// Opens a face with `open`, then sizes it and applies `variations`; `owned` (freed with the face,
  /// or at once on failure) holds the bytes a memory face reads.
  private init(
    name: String, faceIndex: Int, variations: [Variation], owned: UnsafeMutableRawBufferPointer?,
    open: (FT_Library, inout FT_Face?) -> FT_Error
  ) throws {
    let library: FreeTypeLibrary
    do { library = try FreeTypeLibrary() } catch {
      owned?.deallocate()
      throw error
    }
    var face: FT_Face?
    let error = open(library.pointer, &face)
    guard error == 0, let face else {
      owned?.deallocate()
      throw ShapingError(
        .badFont, input: name, reason: "FreeType cannot open face \(faceIndex) (error \(error))")
    }
    self.library = library
    self.face = face
    self.owned = owned
    unitsPerEm = max(1, Int(face.pointee.units_per_EM))
    // Outlines at one pixel per font unit: 26.6 coordinates are font units × 64, with variations
    // applied (FT_LOAD_NO_SCALE would skip them in some FreeType versions).
    FT_Set_Char_Size(face, FT_F26Dot6(unitsPerEm * 64), 0, 72, 72)
    if !variations.isEmpty { try apply(variations, path: name) }
  }

  deinit {
    FT_Done_Face(face)
    owned?.deallocate()
  }

  private func apply(_ variations: [Variation], path: String) throws {
    var master: UnsafeMutablePointer<FT_MM_Var>?
    guard FT_Get_MM_Var(face, &master) == 0, let master else { return }  // not a variable font
    defer { FT_Done_MM_Var(library.pointer, master) }
    let axes = UnsafeBufferPointer(start: master.pointee.axis, count: Int(master.pointee.num_axis))
    var coordinates = axes.map { $0.def }
    for variation in variations {
      if let index = axes.firstIndex(where: { UInt32(truncatingIfNeeded: $0.tag) == variation.tag.rawValue })
      {
        // 16.16 fixed point.
        coordinates[index] = FT_Fixed((Double(variation.value) * 65536).rounded())
      }
    }
    guard FT_Set_Var_Design_Coordinates(face, FT_UInt(coordinates.count), &coordinates) == 0 else {
      throw ShapingError(.badFont, input: path, reason: "FreeType cannot apply the variations")
    }
  }

  /// A glyph's outline in font units, y down (SVG's orientation); nil when the glyph has no
  /// outline (a space, a bitmap-only glyph) or FreeType cannot load it.
  public func outline(of glyph: UInt32) -> GlyphOutline? {
    guard FT_Load_Glyph(face, glyph, Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)) == 0,
      face.pointee.glyph.pointee.format == swiftshape_ft_glyph_format_outline()
    else { return nil }
    var outline = face.pointee.glyph.pointee.outline
    guard outline.n_points > 0 else {
      // An empty outline is a space, unless the font is one of color bitmaps (an emoji font):
      // then there is no outline to draw.
      let colorBitmaps =
        face.pointee.num_fixed_sizes > 0 && face.pointee.face_flags & FT_Long(FT_FACE_FLAG_COLOR) != 0
      return colorBitmaps ? nil : GlyphOutline(commands: [])
    }
    let recorder = OutlineRecorder()
    var funcs = FT_Outline_Funcs(
      move_to: { to, user in
        OutlineRecorder.from(user).add(.move(OutlineRecorder.point(to)))
        return 0
      },
      line_to: { to, user in
        OutlineRecorder.from(user).add(.line(OutlineRecorder.point(to)))
        return 0
      },
      conic_to: { control, to, user in
        OutlineRecorder.from(user).add(.quadratic(OutlineRecorder.point(control), OutlineRecorder.point(to)))
        return 0
      },
      cubic_to: { control1, control2, to, user in
        OutlineRecorder.from(user).add(
          .cubic(OutlineRecorder.point(control1), OutlineRecorder.point(control2), OutlineRecorder.point(to)))
        return 0
      },
      shift: 0, delta: 0)
    let status = withExtendedLifetime(recorder) {
      FT_Outline_Decompose(&outline, &funcs, Unmanaged.passUnretained(recorder).toOpaque())
    }
    guard status == 0 else { return nil }
    recorder.closeContour()
    return GlyphOutline(commands: recorder.commands)
  }
}

@available(*, unavailable, message: "FreeType faces are not thread-safe")
extension FreeTypeFace: Sendable {}

/// A glyph outline: contours of path commands in font units, y down.
public struct GlyphOutline: Sendable, Hashable {
  /// One drawing step.
  public enum Command: Sendable, Hashable {
    case move(Point)
    case line(Point)
    case quadratic(Point, Point)
    case cubic(Point, Point, Point)
    case close
  }

  /// A point in font units, y down.
  public struct Point: Sendable, Hashable {
    /// Rightward.
    public var x: Double
    /// Downward.
    public var y: Double
  }

  /// The steps, contour after contour.
  public var commands: [Command]

  /// The bounding box of the points (control points included), or nil for an empty outline.
  public var bounds: Bounds? {
    var bounds: Bounds?
    func include(_ point: Point) {
      guard let known = bounds else {
        bounds = (point.x, point.y, point.x, point.y)
        return
      }
      bounds = (
        min(known.minX, point.x), min(known.minY, point.y), max(known.maxX, point.x), max(known.maxY, point.y)
      )
    }
    for command in commands {
      switch command {
      case .move(let p), .line(let p): include(p)
      case .quadratic(let c, let p):
        include(c)
        include(p)
      case .cubic(let c1, let c2, let p):
        include(c1)
        include(c2)
        include(p)
      case .close: break
      }
    }
    return bounds
  }

  /// A box: the smallest and largest x and y.
  public typealias Bounds = (minX: Double, minY: Double, maxX: Double, maxY: Double)

}

/// Collects FreeType's decomposition callbacks into commands.
private final class OutlineRecorder {
  var commands: [GlyphOutline.Command] = []
  private var open = false

  static func from(_ user: UnsafeMutableRawPointer?) -> OutlineRecorder {
    Unmanaged<OutlineRecorder>.fromOpaque(user!).takeUnretainedValue()
  }

  /// A 26.6 point at one pixel per font unit, as font units with y down.
  static func point(_ vector: UnsafePointer<FT_Vector>?) -> GlyphOutline.Point {
    GlyphOutline.Point(x: Double(vector!.pointee.x) / 64, y: -Double(vector!.pointee.y) / 64)
  }

  func add(_ command: GlyphOutline.Command) {
    if case .move = command { closeContour() }
    commands.append(command)
    open = true
  }

  func closeContour() {
    if open { commands.append(.close) }
    open = false
  }
}

/// A glyph rendered to 8-bit coverage (FreeType's antialiasing), placed relative to a whole pixel
/// origin: its top-left pixel is `left` columns right of and `top` rows below that origin.
struct GlyphCoverage {
  var left: Int
  var top: Int
  var width: Int
  var rows: Int
  /// `rows` rows of `width` bytes, top row first; 255 is full coverage.
  var pixels: [UInt8]
}

extension FreeTypeFace {
  /// The glyph's outline scaled by (`scaleX`, `scaleY`) pixels per font unit and moved right and
  /// down by the fraction of a pixel (`dx`, `dy`), rendered with FreeType's antialiasing
  /// rasterizer, unhinted; nil when the glyph has no outline.
  func coverage(of glyph: UInt32, scaleX: Double, scaleY: Double, dx: Double, dy: Double) -> GlyphCoverage? {
    coverage(of: glyph, transform: (scaleX, 0, 0, -scaleY, dx, dy))
  }

  /// The glyph's outline through an affine transform from font units (y up) to pixels (y down):
  /// x' = a·x + c·y + e, y' = b·x + d·y + f; rendered with FreeType's antialiasing rasterizer,
  /// unhinted, placed relative to pixel (0, 0); nil when the glyph has no outline.
  func coverage(
    of glyph: UInt32, transform: (a: Double, b: Double, c: Double, d: Double, e: Double, f: Double)
  ) -> GlyphCoverage? {
    guard FT_Load_Glyph(face, glyph, Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)) == 0,
      face.pointee.glyph.pointee.format == swiftshape_ft_glyph_format_outline()
    else { return nil }
    // The slot's outline is in 26.6 font units (the face is sized at one pixel a unit); it is
    // changed in place, and loaded again next time. FreeType's y runs up: y is negated.
    var outline = face.pointee.glyph.pointee.outline
    guard outline.n_points > 0 else { return nil }
    func fixed(_ value: Double) -> FT_Fixed { FT_Fixed((value * 65536).rounded()) }
    var matrix = FT_Matrix(
      xx: fixed(transform.a), xy: fixed(transform.c), yx: fixed(-transform.b), yy: fixed(-transform.d))
    FT_Outline_Transform(&outline, &matrix)
    FT_Outline_Translate(
      &outline, FT_Pos((transform.e * 64).rounded()), FT_Pos((-transform.f * 64).rounded()))
    var box = FT_BBox()
    FT_Outline_Get_CBox(&outline, &box)
    let xMin = Int((Double(box.xMin) / 64).rounded(.down))
    let yMin = Int((Double(box.yMin) / 64).rounded(.down))
    let xMax = Int((Double(box.xMax) / 64).rounded(.up))
    let yMax = Int((Double(box.yMax) / 64).rounded(.up))
    let width = xMax - xMin
    let rows = yMax - yMin
    guard width > 0, rows > 0, width <= 1 << 14, rows <= 1 << 14 else { return nil }
    FT_Outline_Translate(&outline, FT_Pos(-xMin * 64), FT_Pos(-yMin * 64))
    var pixels = [UInt8](repeating: 0, count: width * rows)
    let status = pixels.withUnsafeMutableBufferPointer { buffer -> FT_Error in
      var bitmap = FT_Bitmap()
      bitmap.rows = UInt32(rows)
      bitmap.width = UInt32(width)
      bitmap.pitch = Int32(width)
      bitmap.buffer = buffer.baseAddress
      bitmap.num_grays = 256
      bitmap.pixel_mode = UInt8(FT_PIXEL_MODE_GRAY.rawValue)
      return FT_Outline_Get_Bitmap(library.pointer, &outline, &bitmap)
    }
    guard status == 0 else { return nil }
    return GlyphCoverage(left: xMin, top: -yMax, width: width, rows: rows, pixels: pixels)
  }
}

/// A glyph's color bitmap (`CBDT`, `sbix`), as FreeType decodes it: RGBA, not premultiplied, at
/// the size of the font's largest strike.
public struct ColorBitmap: Sendable, Hashable {
  /// Pixels across.
  public var width: Int
  /// Pixels down.
  public var rows: Int
  /// Pixels from the glyph's origin to the bitmap's left edge, and up to its top edge.
  public var left: Int
  /// Pixels from the glyph's origin up to the bitmap's top edge.
  public var top: Int
  /// The strike's pixels per em.
  public var pixelsPerEm: Double
  /// `rows` rows of `width` × 4 bytes.
  public var pixels: [UInt8]
}

/// One layer of a `COLR` version 0 glyph: a glyph drawn in a palette color, or in the foreground
/// color (nil).
public struct ColorLayer: Sendable, Hashable {
  /// The glyph whose outline the layer is.
  public var glyph: UInt32
  /// Its color, or nil for the foreground color.
  public var color: RasterImage.RGBA?
}

extension FreeTypeFace {
  /// Whether the font has color glyphs (`CBDT`, `sbix`, `COLR`).
  var hasColor: Bool { face.pointee.face_flags & FT_Long(FT_FACE_FLAG_COLOR) != 0 }

  /// How many palettes the font's `CPAL` table has (0 without one).
  public var paletteCount: Int {
    var data = FT_Palette_Data()
    guard FT_Palette_Data_Get(face, &data) == 0 else { return 0 }
    return Int(data.num_palettes)
  }

  /// The glyph's color bitmap, from the largest strike; nil when it has none.
  ///
  /// - Throws: `ShapingError` of kind `.badFont` when FreeType cannot load the glyph (a damaged
  ///   bitmap table).
  public func colorBitmap(of glyph: UInt32) throws -> ColorBitmap? {
    guard hasColor, face.pointee.num_fixed_sizes > 0, let sizes = face.pointee.available_sizes else {
      return nil
    }
    let strikes = UnsafeBufferPointer(start: sizes, count: Int(face.pointee.num_fixed_sizes))
    guard let best = strikes.indices.max(by: { strikes[$0].y_ppem < strikes[$1].y_ppem }) else { return nil }
    guard FT_Select_Size(face, FT_Int(best)) == 0 else { return nil }
    // Back to one pixel a font unit for outlines, whatever happens here.
    defer { FT_Set_Char_Size(face, FT_F26Dot6(unitsPerEm * 64), 0, 72, 72) }
    let error = FT_Load_Glyph(face, glyph, Int32(FT_LOAD_COLOR))
    guard error == 0 else {
      throw ShapingError(
        .badFont, input: "glyph \(glyph)", reason: "FreeType cannot load it (error \(error))")
    }
    let slot = face.pointee.glyph.pointee
    let bitmap = slot.bitmap
    guard slot.format == swiftshape_ft_glyph_format_bitmap(),
      bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue),
      bitmap.width > 0, bitmap.rows > 0, let buffer = bitmap.buffer
    else { return nil }
    let width = Int(bitmap.width)
    let rows = Int(bitmap.rows)
    var pixels = [UInt8](repeating: 0, count: width * rows * 4)
    for row in 0..<rows {
      let source = buffer + Int(bitmap.pitch) * (bitmap.pitch < 0 ? row - rows + 1 : row)
      for column in 0..<width {
        let (blue, green, red, alpha) = (
          Int(source[column * 4]), Int(source[column * 4 + 1]), Int(source[column * 4 + 2]),
          Int(source[column * 4 + 3])
        )
        let index = (row * width + column) * 4
        // FreeType's BGRA is premultiplied.
        if alpha > 0 {
          pixels[index] = UInt8(min(255, (red * 255 + alpha / 2) / alpha))
          pixels[index + 1] = UInt8(min(255, (green * 255 + alpha / 2) / alpha))
          pixels[index + 2] = UInt8(min(255, (blue * 255 + alpha / 2) / alpha))
        }
        pixels[index + 3] = UInt8(alpha)
      }
    }
    return ColorBitmap(
      width: width, rows: rows, left: Int(slot.bitmap_left), top: Int(slot.bitmap_top),
      pixelsPerEm: Double(strikes[best].y_ppem) / 64, pixels: pixels)
  }

  /// The colors of palette `palette` (empty without a `CPAL` table or past its palettes).
  func paletteColors(_ palette: Int) -> [RasterImage.RGBA] {
    var colors: UnsafeMutablePointer<FT_Color>?
    var data = FT_Palette_Data()
    guard FT_Palette_Data_Get(face, &data) == 0, palette < Int(data.num_palettes),
      FT_Palette_Select(face, FT_UShort(palette), &colors) == 0, let colors
    else { return [] }
    return (0..<Int(data.num_palette_entries)).map {
      RasterImage.RGBA(
        red: colors[$0].red, green: colors[$0].green, blue: colors[$0].blue, alpha: colors[$0].alpha)
    }
  }

  /// The glyph's `COLR` version 0 layers in palette `palette`, bottom first; nil when it has none.
  /// A palette index past the table's colors draws in the foreground color.
  public func colorLayers(of glyph: UInt32, palette: Int) -> [ColorLayer]? {
    guard hasColor else { return nil }
    var colors: UnsafeMutablePointer<FT_Color>?
    var data = FT_Palette_Data()
    var count = 0
    if FT_Palette_Data_Get(face, &data) == 0, data.num_palettes > 0, palette < Int(data.num_palettes),
      FT_Palette_Select(face, FT_UShort(palette), &colors) == 0
    {
      count = Int(data.num_palette_entries)
    }
    var iterator = FT_LayerIterator()
    var layerGlyph: FT_UInt = 0
    var colorIndex: FT_UInt = 0
    var layers: [ColorLayer] = []
    while FT_Get_Color_Glyph_Layer(face, glyph, &layerGlyph, &colorIndex, &iterator) != 0 {
      var color: RasterImage.RGBA?
      if colorIndex != 0xFFFF, Int(colorIndex) < count, let colors {
        let entry = colors[Int(colorIndex)]
        color = RasterImage.RGBA(red: entry.red, green: entry.green, blue: entry.blue, alpha: entry.alpha)
      }
      layers.append(ColorLayer(glyph: layerGlyph, color: color))
      if layers.count > 4096 { break }  // a table that loops
    }
    return layers.isEmpty ? nil : layers
  }
}
