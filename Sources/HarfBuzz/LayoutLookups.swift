import CHarfBuzz

extension Face {
  /// The glyphs one lookup can read or write, as HarfBuzz collects them: those it looks back at,
  /// those it acts on, those it looks ahead at, and those it can produce.
  public struct LookupGlyphs: Sendable, Hashable {
    /// The glyphs it looks back at.
    public var before: [UInt32]
    /// The glyphs it acts on.
    public var input: [UInt32]
    /// The glyphs it looks ahead at.
    public var after: [UInt32]
    /// The glyphs it can produce.
    public var output: [UInt32]

    /// Every glyph of the four sets.
    public var all: [UInt32] { before + input + after + output }
  }

  /// How many lookups the table has (0 without the table).
  ///
  /// The corresponding C function is `hb_ot_layout_table_get_lookup_count`.
  public func lookupCount(in table: LayoutTable) -> Int {
    Int(hb_ot_layout_table_get_lookup_count(pointer, table.tag))
  }

  /// The glyphs lookup `index` of `table` can read or write, whatever features select it.
  ///
  /// The corresponding C function is `hb_ot_layout_lookup_collect_glyphs`.
  public func glyphs(ofLookup index: Int, in table: LayoutTable) -> LookupGlyphs {
    let sets = (0..<4).map { _ in hb_set_create() }
    defer { sets.forEach { hb_set_destroy($0) } }
    hb_ot_layout_lookup_collect_glyphs(
      pointer, table.tag, UInt32(index), sets[0], sets[1], sets[2], sets[3])
    func members(_ set: OpaquePointer?) -> [UInt32] {
      var result: [UInt32] = []
      result.reserveCapacity(Int(hb_set_get_population(set)))
      var value = UInt32.max  // HB_SET_VALUE_INVALID: start before the first element
      while hb_set_next(set, &value) != 0 { result.append(value) }
      return result
    }
    return LookupGlyphs(
      before: members(sets[0]), input: members(sets[1]), after: members(sets[2]), output: members(sets[3]))
  }
}

extension Face {
  /// The language systems HarfBuzz's OpenType shaper chooses for text of `script` in `language`,
  /// as it chooses them when it plans the shaping (`hb-ot-map.cc`, 6.0 through 15.0): for GSUB
  /// then GPOS, whether the script was found, the script chosen, its index and the language
  /// system's index. Two languages with
  /// equal selections select the same lookups (the OpenType shaper reads the language nowhere
  /// else; AAT's `morx` does, through `ltag`).
  ///
  /// The corresponding C functions are `hb_ot_tags_from_script_and_language`,
  /// `hb_ot_layout_table_select_script` and `hb_ot_layout_script_select_language`.
  public func languageSystems(script: Script, language: Language?) -> [UInt32] {
    var scriptTags = [hb_tag_t](repeating: 0, count: Int(HB_OT_MAX_TAGS_PER_SCRIPT))
    var languageTags = [hb_tag_t](repeating: 0, count: Int(HB_OT_MAX_TAGS_PER_LANGUAGE))
    var scriptCount = UInt32(scriptTags.count)
    var languageCount = UInt32(languageTags.count)
    hb_ot_tags_from_script_and_language(
      script.raw, language?.raw, &scriptCount, &scriptTags, &languageCount, &languageTags)
    var selection: [UInt32] = []
    for table in [LayoutTable.gsub, .gpos] {
      var scriptIndex: UInt32 = 0
      var chosen: hb_tag_t = 0
      let found = hb_ot_layout_table_select_script(
        pointer, table.tag, scriptCount, &scriptTags, &scriptIndex, &chosen)
      var languageIndex: UInt32 = 0
      hb_ot_layout_script_select_language(
        pointer, table.tag, scriptIndex, languageCount, &languageTags, &languageIndex)
      selection += [UInt32(found), chosen, scriptIndex, languageIndex]
    }
    return selection
  }
}
