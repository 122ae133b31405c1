import CHarfBuzz

/// Collects a list HarfBuzz hands out in chunks (`start_offset`, `*count` in/out, array out).
///
/// - Parameter fetch: calls the C function with a start offset, a capacity (in/out) and a buffer,
///   and returns the total number of items.
func collect<Item>(
  placeholder: Item, _ fetch: (UInt32, UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<Item>) -> UInt32
) -> [Item] {
  var items: [Item] = []
  var chunk = [Item](repeating: placeholder, count: 64)
  var start: UInt32 = 0
  while true {
    var count = UInt32(chunk.count)
    let total = chunk.withUnsafeMutableBufferPointer { fetch(start, &count, $0.baseAddress!) }
    items += chunk.prefix(Int(count))
    start += count
    if count == 0 || start >= total { return items }
  }
}

// MARK: OpenType layout

extension Face {
  /// An OpenType layout table.
  public enum LayoutTable: String, Sendable, CaseIterable, Codable {
    case gsub = "GSUB"
    case gpos = "GPOS"

    var tag: hb_tag_t { OpenTypeTag(stringLiteral: rawValue).rawValue }
  }

  /// A script of a layout table, with its language systems.
  public struct LayoutScript: Sendable, Hashable, Codable {
    /// The OpenType script tag (`arab`, `dev2`, `DFLT`).
    public var tag: OpenTypeTag
    /// The features of the script's default language system.
    public var defaultFeatures: [OpenTypeTag]
    /// The script's other language systems, by OpenType language tag (`URD `, `TRK `).
    public var languages: [LayoutLanguage]
  }

  /// A language system of a script.
  public struct LayoutLanguage: Sendable, Hashable, Codable {
    /// The OpenType language tag (`URD `).
    public var tag: OpenTypeTag
    /// The features it turns on.
    public var features: [OpenTypeTag]
  }

  /// The scripts of a layout table, each with its language systems and their features, in the
  /// table's order; empty when the face has no such table.
  ///
  /// The corresponding C functions are `hb_ot_layout_table_get_script_tags`,
  /// `hb_ot_layout_script_get_language_tags` and `hb_ot_layout_language_get_feature_tags`.
  public func layoutScripts(_ table: LayoutTable) -> [LayoutScript] {
    let scripts = collect(placeholder: hb_tag_t(0)) {
      hb_ot_layout_table_get_script_tags(pointer, table.tag, $0, $1, $2)
    }
    return scripts.enumerated().map { scriptIndex, scriptTag in
      func features(_ languageIndex: UInt32) -> [OpenTypeTag] {
        collect(placeholder: hb_tag_t(0)) {
          hb_ot_layout_language_get_feature_tags(
            pointer, table.tag, UInt32(scriptIndex), languageIndex, $0, $1, $2)
        }.map(OpenTypeTag.init(rawValue:))
      }
      let languages = collect(placeholder: hb_tag_t(0)) {
        hb_ot_layout_script_get_language_tags(pointer, table.tag, UInt32(scriptIndex), $0, $1, $2)
      }
      return LayoutScript(
        tag: OpenTypeTag(rawValue: scriptTag),
        defaultFeatures: features(UInt32(HB_OT_LAYOUT_DEFAULT_LANGUAGE_INDEX)),
        languages: languages.enumerated().map { languageIndex, languageTag in
          LayoutLanguage(tag: OpenTypeTag(rawValue: languageTag), features: features(UInt32(languageIndex)))
        })
    }
  }

  /// Every feature tag of a layout table, in the table's order (repeated tags included once).
  ///
  /// The corresponding C function is `hb_ot_layout_table_get_feature_tags`.
  public func layoutFeatures(_ table: LayoutTable) -> [OpenTypeTag] {
    var seen = Set<hb_tag_t>()
    return collect(placeholder: hb_tag_t(0)) {
      hb_ot_layout_table_get_feature_tags(pointer, table.tag, $0, $1, $2)
    }.filter { seen.insert($0).inserted }.map(OpenTypeTag.init(rawValue:))
  }
}

// MARK: Variations

extension Face {
  /// A variation axis of a variable font (`fvar`).
  public struct VariationAxis: Sendable, Hashable, Codable {
    /// The axis's tag (`wght`).
    public var tag: OpenTypeTag
    /// The axis name from the `name` table (`Weight`), when the font has one.
    public var name: String?
    /// The least value, in design coordinates.
    public var minimum: Float
    /// The default value.
    public var defaultValue: Float
    /// The greatest value.
    public var maximum: Float
    /// Whether the font asks applications not to show the axis.
    public var isHidden: Bool
  }

  /// A named instance of a variable font (`Bold`, `Condensed Light`).
  public struct NamedInstance: Sendable, Hashable, Codable {
    /// The subfamily name (`Bold`), when the font has one.
    public var name: String?
    /// The PostScript name, when the font gives one.
    public var postScriptName: String?
    /// The design coordinates, one per axis, in axis order.
    public var coordinates: [Float]
  }

  /// The variation axes, in `fvar` order; empty for a font that is not variable.
  ///
  /// The corresponding C function is `hb_ot_var_get_axis_infos`.
  public var variationAxes: [VariationAxis] {
    collect(placeholder: hb_ot_var_axis_info_t()) { hb_ot_var_get_axis_infos(pointer, $0, $1, $2) }.map {
      VariationAxis(
        tag: OpenTypeTag(rawValue: $0.tag), name: name(NameID(rawValue: $0.name_id)), minimum: $0.min_value,
        defaultValue: $0.default_value, maximum: $0.max_value,
        isHidden: ($0.flags.rawValue & HB_OT_VAR_AXIS_FLAG_HIDDEN.rawValue) != 0)
    }
  }

  /// The named instances, in `fvar` order.
  ///
  /// The corresponding C functions are `hb_ot_var_get_named_instance_count`,
  /// `hb_ot_var_named_instance_get_subfamily_name_id`,
  /// `hb_ot_var_named_instance_get_postscript_name_id` and
  /// `hb_ot_var_named_instance_get_design_coords`.
  public var namedInstances: [NamedInstance] {
    let axisCount = Int(hb_ot_var_get_axis_count(pointer))
    return (0..<hb_ot_var_get_named_instance_count(pointer)).map { index in
      var coordinates = [Float](repeating: 0, count: axisCount)
      var count = UInt32(axisCount)
      hb_ot_var_named_instance_get_design_coords(pointer, index, &count, &coordinates)
      let postScriptID = hb_ot_var_named_instance_get_postscript_name_id(pointer, index)
      return NamedInstance(
        name: name(NameID(rawValue: hb_ot_var_named_instance_get_subfamily_name_id(pointer, index))),
        postScriptName: postScriptID == swiftshape_hb_ot_name_id_invalid()
          ? nil : name(NameID(rawValue: postScriptID)),
        coordinates: Array(coordinates.prefix(Int(count))))
    }
  }
}

// MARK: Color

extension Face {
  /// Which kinds of color glyphs the face has.
  public struct ColorSupport: Sendable, Hashable, Codable {
    /// `COLR` layers.
    public var layers: Bool
    /// `CPAL` palettes.
    public var palettes: Bool
    /// `SVG ` glyphs.
    public var svg: Bool
    /// Bitmap glyphs (`CBDT` or `sbix`).
    public var bitmaps: Bool
  }

  /// The color glyph tables the face has.
  ///
  /// The corresponding C functions are `hb_ot_color_has_layers`, `hb_ot_color_has_palettes`,
  /// `hb_ot_color_has_svg` and `hb_ot_color_has_png`.
  public var colorSupport: ColorSupport {
    ColorSupport(
      layers: hb_ot_color_has_layers(pointer) != 0, palettes: hb_ot_color_has_palettes(pointer) != 0,
      svg: hb_ot_color_has_svg(pointer) != 0, bitmaps: hb_ot_color_has_png(pointer) != 0)
  }
}
