import HarfBuzz
import SwiftShape

/// What is in a font face: names, metrics, tables, OpenType layout, variations, Unicode coverage and
/// color support. What `swiftshape info` prints.
public struct FontInfo: Sendable, Hashable, Codable {
  /// The file as given, and the face's index in it.
  public var file: String
  /// The face of a collection.
  public var faceIndex: Int
  /// How many faces the file holds (1 for a single font).
  public var faceCount: Int

  /// The face's names, in English where the font has them.
  public struct Names: Sendable, Hashable, Codable {
    /// The typographic family (name ID 16), else the family (ID 1).
    public var family: String?
    /// The typographic subfamily (ID 17), else the subfamily (ID 2).
    public var subfamily: String?
    /// The full name.
    public var fullName: String?
    /// The version string.
    public var version: String?
    /// The PostScript name.
    public var postScriptName: String?
  }

  /// The face's names.
  public var names: Names
  /// Units per em.
  public var unitsPerEm: Int
  /// How many glyphs the face has.
  public var glyphCount: Int
  /// Table tags, in the table directory's order.
  public var tables: [OpenTypeTag]
  /// Line metrics in font units, for horizontal and vertical layout.
  public var horizontalExtents: FontExtents
  /// The line metrics for vertical text.
  public var verticalExtents: FontExtents
  /// Scripts, language systems and features of each layout table the face has.
  public var gsub: [Face.LayoutScript]
  /// The scripts and languages of the `GPOS` table.
  public var gpos: [Face.LayoutScript]
  /// Every feature tag of each layout table.
  public var gsubFeatures: [OpenTypeTag]
  /// The `GPOS` table's features.
  public var gposFeatures: [OpenTypeTag]
  /// The variation axes.
  public var variationAxes: [Face.VariationAxis]
  /// The named instances.
  public var namedInstances: [Face.NamedInstance]
  /// The number of code points the `cmap` covers, and the covered ranges (inclusive).
  public var unicodeCount: Int
  /// The code points the font maps, as ranges.
  public var unicodeRanges: [ClosedRange<UInt32>]
  /// Which color tables the font has.
  public var color: Face.ColorSupport
  /// The Apple Advanced Typography tables the face has (`morx`, `kerx`, `trak`, …).
  public var aatTables: [OpenTypeTag]

  /// The AAT tables `aatTables` looks for.
  public static let aatTableTags: [OpenTypeTag] = [
    "morx", "mort", "kerx", "kern", "trak", "ankr", "feat", "just", "lcar", "opbd", "prop", "bsln",
  ]

  /// Reads face `faceIndex` of a font file.
  ///
  /// - Throws: `ShapingError` as `ShapingFont.init(file:faceIndex:options:)` does.
  public init(file: String, faceIndex: Int = 0) throws {
    let face: Face
    let blob: Blob
    do {
      blob = try Blob(contentsOfFile: file)
      face = try Face(blob: blob, index: faceIndex, name: file)
    } catch let error as HarfBuzzError {
      throw ShapingError(error)
    }
    self.init(face: face, file: file, faceCount: Face.count(in: blob))
  }

  /// Reads a face already loaded; `file` is how the info names it.
  public init(face: Face, file: String, faceCount: Int? = nil) {
    self.file = file
    faceIndex = face.index
    self.faceCount = faceCount ?? Face.count(in: face.blob)
    names = Names(
      family: face.name(.typographicFamily) ?? face.name(.family),
      subfamily: face.name(.typographicSubfamily) ?? face.name(.subfamily), fullName: face.name(.fullName),
      version: face.name(.version), postScriptName: face.name(.postScriptName))
    unitsPerEm = face.unitsPerEm
    glyphCount = face.glyphCount
    tables = face.tableTags
    let font = Font(face: face)
    horizontalExtents = font.extents(for: .leftToRight)
    verticalExtents = font.extents(for: .topToBottom)
    gsub = face.layoutScripts(.gsub)
    gpos = face.layoutScripts(.gpos)
    gsubFeatures = face.layoutFeatures(.gsub)
    gposFeatures = face.layoutFeatures(.gpos)
    variationAxes = face.variationAxes
    namedInstances = face.namedInstances
    let unicodes = face.unicodes.map(\.value)
    unicodeCount = unicodes.count
    var ranges: [ClosedRange<UInt32>] = []
    for value in unicodes {
      if let last = ranges.last, last.upperBound &+ 1 == value {
        ranges[ranges.count - 1] = last.lowerBound...value
      } else {
        ranges.append(value...value)
      }
    }
    unicodeRanges = ranges
    color = face.colorSupport
    aatTables = FontInfo.aatTableTags.filter(tables.contains)
  }
}
