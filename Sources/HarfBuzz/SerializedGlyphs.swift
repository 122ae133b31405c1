import CHarfBuzz

extension Buffer {
  /// Fills the buffer with glyphs written in hb-shape's text syntax (`[o=0+605|f_f_i=1@10,0+946]`;
  /// the brackets, clusters, offsets and advances optional; glyphs by name or `gidN`), as hb-shape's
  /// `--glyphs` reads them (HarfBuzz 7.0.0 and later): no shaping. Glyphs written without any
  /// position get the font's advances for the buffer's direction; positions written are font units,
  /// scaled to the font's size (x by its x scale, y by its y scale, over the units per em).
  ///
  /// Reading stops at the first glyph that cannot be read (an unknown name, a malformed number):
  /// the glyphs before it stay.
  ///
  /// - Parameters:
  ///   - text: the glyphs.
  ///   - font: the font the names are looked up in and the advances come from.
  ///   - arithmetic: how written positions are scaled (see `PositionScaling`).
  /// - Returns: whether the whole text was read.
  ///
  /// The corresponding C function is `hb_buffer_deserialize_glyphs`.
  @discardableResult
  public func addSerializedGlyphs(_ text: String, font: Font, arithmetic: PositionScaling = .exact) -> Bool {
    // hb-shape closes the list when its text does not end with `]`.
    let closed = text.isEmpty || text.hasSuffix("]") ? text : text + "]"
    let complete = closed.withCString { start -> Bool in
      var end: UnsafePointer<CChar>? = start
      let read = hb_buffer_deserialize_glyphs(
        pointer, start, -1, &end, font.pointer, HB_BUFFER_SERIALIZE_FORMAT_TEXT)
      return read != 0
    }
    hasSettings = true
    var count: UInt32 = 0
    guard let infos = hb_buffer_get_glyph_infos(pointer, &count), count > 0,
      let positions = hb_buffer_get_glyph_positions(pointer, &count)
    else { return complete }
    if !text.contains("+") && !text.contains("@") {
      let direction = hb_buffer_get_direction(pointer)
      for index in 0..<Int(count) {
        hb_font_get_glyph_advance_for_direction(
          font.pointer, infos[index].codepoint, direction, &positions[index].x_advance,
          &positions[index].y_advance)
      }
      return complete
    }
    var xScale: Int32 = 0
    var yScale: Int32 = 0
    hb_font_get_scale(font.pointer, &xScale, &yScale)
    let upem = Int64(hb_face_get_upem(hb_font_get_face(font.pointer)))
    guard upem > 0, Int64(xScale) != upem || Int64(yScale) != upem else { return complete }
    func scaled(_ value: Int32, _ scale: Int32) -> Int32 {
      switch arithmetic {
      case .exact:
        return Int32(truncatingIfNeeded: Int64(value) * Int64(scale) / upem)
      case .int:
        return value.multipliedReportingOverflow(by: scale).partialValue / Int32(truncatingIfNeeded: upem)
      case .intOverUnsigned:
        let product = UInt32(bitPattern: value.multipliedReportingOverflow(by: scale).partialValue)
        return Int32(bitPattern: product / UInt32(truncatingIfNeeded: upem))
      }
    }
    for index in 0..<Int(count) {
      positions[index].x_offset = scaled(positions[index].x_offset, xScale)
      positions[index].y_offset = scaled(positions[index].y_offset, yScale)
      positions[index].x_advance = scaled(positions[index].x_advance, xScale)
      positions[index].y_advance = scaled(positions[index].y_advance, yScale)
    }
    return complete
  }
}

/// How `Buffer.addSerializedGlyphs` scales written positions to the font's size:
/// position × scale ÷ units per em.
public enum PositionScaling: Sendable, Hashable {
  /// In 64 bits, divided toward zero: exact for any position and scale.
  case exact
  /// As hb-shape does from HarfBuzz 11.0.1: `int` arithmetic, the product wrapping at 32 bits.
  case int
  /// As hb-shape does from 7.0.0 to 11.0.0: the `int` product divided by an `unsigned` units per
  /// em, so that a negative position becomes a large one.
  case intOverUnsigned
}
