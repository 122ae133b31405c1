import HarfBuzz

// Speed: text shaped with a context through the shaping cache (see ShapingCache.swift): a
// paragraph's runs, which have the paragraph around them, the edges of lines shaped again, and
// text given a context. The cache shapes text without context, so it takes such text only where
// the context cannot change the glyphs.
//
// HarfBuzz reads the context in two places (`hb-ot-shape.cc`, `hb-ot-shaper-arabic.cc`, the same
// from 6.0 to 15.0): a dotted circle goes before a broken cluster only at the beginning of text
// with no context before it, and the joining scripts' forms depend on the joining type of the
// nearest character around the text that is not transparent. So text is shaped without its
// context, and without the beginning-of-text (end-of-text) flag where it has a context before
// (after) it; text of a joining script only when the characters next to it join as the edge of
// the text does (`joinsAsTextEdge`), or there are none.

extension ShapingFont {
  /// Shapes the run `item` of `units` (the paragraph's UTF-8 between its context) through the
  /// thread's cache into `result`, with `runOptions` (the run's direction, script and features),
  /// its clusters from `clusterStart`; false (and `result` as it was) when the cache does not
  /// take it and the caller must shape it with its context. The result's text is left empty.
  /// (`requiredCuts`: as
  /// `shapeCached(_:options:requiredCuts:into:)` takes them, from the item's start.)
  func shapeRunCached(
    units: UnsafeBufferPointer<UInt8>, item: Range<Int>, runOptions: ShapeOptions, clusterStart: Int,
    requiredCuts: [Int] = [], into result: inout ShapeResult
  ) throws -> Bool {
    guard runOptions.cacheable, runOptions.clusterUnit != .utf16, let script = runOptions.script else {
      return false
    }
    var before = item.lowerBound
    if before > 0 {
      before -= 1
      while before > 0, units[before] & 0xC0 == 0x80 { before -= 1 }
    }
    let (hasBefore, hasAfter) = (item.lowerBound > 0, item.upperBound < units.count)
    guard
      ShapeOptions.contextKeepsGlyphs(
        script: script, before: hasBefore ? UTF8Scalar.decode(units, at: before) : nil,
        hasBefore: hasBefore, after: hasAfter ? UTF8Scalar.decode(units, at: item.upperBound) : nil,
        hasAfter: hasAfter, first: item.isEmpty ? nil : UTF8Scalar.decode(units, at: item.lowerBound),
        last: item.isEmpty
          ? nil : UTF8Scalar.decode(units, at: UTF8Scalar.start(of: item.upperBound - 1, in: units)))
    else { return false }
    // (The run's text as its UTF-8, not a `String`: the result's text is not read.)
    let text = UnsafeBufferPointer(rebasing: units[item])
    // (The run's options as given where the context changes none of them, as inside a paragraph
    // without a context of its own: a copy cost 160 instructions, its release 100.)
    let shaped =
      try runOptions.changedWithoutContext(hasBefore: hasBefore, hasAfter: hasAfter)
      ? shapeCached(
        utf8: text, options: runOptions.strippingContext(hasBefore: hasBefore, hasAfter: hasAfter),
        requiredCuts: requiredCuts, into: &result)
      : shapeCached(utf8: text, options: runOptions, requiredCuts: requiredCuts, into: &result)
    guard shaped else { return false }
    if clusterStart != 0 {
      // (Through one buffer pointer: through the run's glyphs, 26 instructions a glyph.)
      result.runs[0].glyphs.withUnsafeMutableBufferPointer { glyphs in
        for index in glyphs.indices { glyphs[index].cluster += clusterStart }
      }
    }
    return true
  }
}

extension ShapeOptions {
  /// These options without their text context, where text of `script` shapes into the same
  /// glyphs with them as with the context; nil where it may not.
  /// (`first` and `last`: the text's own first and last characters.)
  func withoutContext(script: Script, first: Unicode.Scalar? = nil, last: Unicode.Scalar? = nil)
    -> ShapeOptions?
  {
    guard !textBefore.isEmpty || !textAfter.isEmpty else { return self }
    return withoutContext(
      script: script, before: textBefore.unicodeScalars.last, hasBefore: !textBefore.isEmpty,
      after: textAfter.unicodeScalars.first, hasAfter: !textAfter.isEmpty, first: first, last: last)
  }

  /// These options without a context whose characters next to the text are `before` and `after`
  /// (`hasBefore`, `hasAfter`: whether there is a context on that side). The text's own first and
  /// last characters, `first` and `last`, where known: one that joins as the text's edge (a space)
  /// keeps the context beyond it from the joining of the text's letters, whatever the context is.
  func withoutContext(
    script: Script, before: Unicode.Scalar?, hasBefore: Bool, after: Unicode.Scalar?, hasAfter: Bool,
    first: Unicode.Scalar? = nil, last: Unicode.Scalar? = nil
  ) -> ShapeOptions? {
    guard
      Self.contextKeepsGlyphs(
        script: script, before: before, hasBefore: hasBefore, after: after, hasAfter: hasAfter, first: first,
        last: last)
    else { return nil }
    return strippingContext(hasBefore: hasBefore, hasAfter: hasAfter)
  }

  /// Whether text of `script` shapes into the same glyphs without a context as with one whose
  /// characters next to it are `before` and `after` (as `withoutContext` takes them).
  static func contextKeepsGlyphs(
    script: Script, before: Unicode.Scalar?, hasBefore: Bool, after: Unicode.Scalar?, hasAfter: Bool,
    first: Unicode.Scalar?, last: Unicode.Scalar?
  ) -> Bool {
    guard contextJoins(script) else { return true }
    return (!hasBefore || Self.joinsAsTextEdge(before) || Self.joinsAsTextEdge(first))
      && (!hasAfter || Self.joinsAsTextEdge(after) || Self.joinsAsTextEdge(last))
  }

  /// Whether a context can change the glyphs of text of `script` (a script whose letters join):
  /// where not, `contextKeepsGlyphs` is true whatever the characters.
  static func contextJoins(_ script: Script) -> Bool { joiningScripts.contains(script.tag.rawValue) }

  /// Whether `strippingContext` changes these options.
  func changedWithoutContext(hasBefore: Bool, hasAfter: Bool) -> Bool {
    !textBefore.isEmpty || !textAfter.isEmpty || (hasBefore && bufferFlags.contains(.beginningOfText))
      || (hasAfter && bufferFlags.contains(.endOfText))
  }

  /// These options without their context, and without the text's edge on a side that has one.
  func strippingContext(hasBefore: Bool, hasAfter: Bool) -> ShapeOptions {
    var options = self
    options.textBefore = ""
    options.textAfter = ""
    if hasBefore { options.bufferFlags.remove(.beginningOfText) }
    if hasAfter { options.bufferFlags.remove(.endOfText) }
    return options
  }

  /// Whether a character next to text of a joining script joins as the edge of the text does:
  /// Latin-1 but the soft hyphen, and the general punctuation from the dashes to the ellipsis and
  /// from the per mille sign on (joining type U in HarfBuzz's table and Unicode's, not a format
  /// character, which would be transparent).
  private static func joinsAsTextEdge(_ scalar: Unicode.Scalar?) -> Bool {
    guard let value = scalar?.value else { return false }
    return (value < 0x100 && value != 0xAD) || (0x2010...0x2027).contains(value)
      || (0x2030...0x205E).contains(value)
  }

  /// The scripts whose shaping joins letters by their joining types (HarfBuzz's
  /// `has_arabic_joining`, 15.0.0), as tags of their ISO 15924 codes.
  /// (An array, Arabic first: a set hashed the tag with SipHash for each run of a paragraph.)
  private static let joiningScripts: [UInt32] = [
    "Arab", "Adlm", "Chrs", "Rohg", "Mand", "Mani", "Mong", "Nkoo", "Ougr", "Phag", "Phlp", "Sogd", "Syrc",
  ]
  .map { Script(iso15924: $0).tag.rawValue }
}
