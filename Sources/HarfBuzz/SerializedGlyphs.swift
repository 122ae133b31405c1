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
  /// - Returns: whether the whole text was read.
  ///
  /// The corresponding C function is `hb_buffer_deserialize_glyphs`.
  @discardableResult
  public func addSerializedGlyphs(_ text: String, font: Font) -> Bool {
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
    // As hb-shape's `int` arithmetic: multiplied, then divided toward zero.
    func scaled(_ value: Int32, _ scale: Int32) -> Int32 {
      Int32(truncatingIfNeeded: Int64(value) * Int64(scale) / upem)
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
