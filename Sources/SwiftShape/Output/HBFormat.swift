import HarfBuzz

/// hb-shape's serializations of glyphs, byte for byte what HarfBuzz 6.0.0's
/// `hb_buffer_serialize_glyphs` writes: the text syntax `[name=cluster@dx,dy+ax,ay|…]` and the JSON
/// syntax `[{"g":name,"cl":cluster,"dx":…,"dy":…,"ax":…,"ay":…},…]`.
public struct HBFormat: Sendable, Hashable {
  /// Which of HarfBuzz's serializations.
  public enum Syntax: Sendable, Hashable {
    /// `HB_BUFFER_SERIALIZE_FORMAT_TEXT`.
    case text
    /// `HB_BUFFER_SERIALIZE_FORMAT_JSON`.
    case json
  }

  /// Which serialization.
  public var syntax: Syntax
  /// Write glyph names (`gidN` when the font has none); otherwise glyph IDs.
  public var glyphNames = true
  /// Write clusters.
  public var clusters = true
  /// Write offsets and advances.
  public var positions = true
  /// Write advances; without them offsets become absolute positions, as hb-shape's
  /// `--no-advances` and `--ned` do.
  public var advances = true
  /// Write glyph flags (only those that are set).
  public var glyphFlags = false
  /// Write ink extents.
  public var extents = false
  /// Without advances, start the absolute positions again from 0 at each 32,768 bytes of output,
  /// as hb-shape writes them before HarfBuzz 13.0.0: it serializes a line into a buffer of that
  /// size at a time, and the serializer began each from 0 (harfbuzz#2371; fixed by #5744, merged
  /// in February 2026: HarfBuzz 12.3.2's sources lack the fix, 13.0.0 is the first release after,
  /// 14.2.0's have it).
  public var restartsAbsolutePositions = false

  /// A writer of hb-shape's text or JSON syntax.
  public init(_ syntax: Syntax = .text) { self.syntax = syntax }

  /// One line for a result's glyphs, or an empty string when it has none. A paragraph's runs
  /// (`ShapeOptions.paragraph`) are written one group a run, in visual order, each after its
  /// level and script: `<0 Latn>[H=0+1540|…] <1 Arab>[…]`, and the family of a fallback
  /// font: `<0 Hani "Noto Sans CJK JP">[…]`.
  ///
  /// A paragraph broken to a width (`ShapeOptions.lineWidth`) is written a line of output for
  /// each of its lines, each with its runs so.
  public func line(for result: ShapeResult) -> String {
    var out = ByteBuffer(capacity: 64 + 24 * result.runs.reduce(0) { $0 + $1.glyphs.count })
    write(result, to: &out)
    return out.withBytes { String(decoding: $0, as: UTF8.self) }
  }

  /// Writes `line(for:)`'s line for a result to `out`.
  private func write(_ result: ShapeResult, to out: inout ByteBuffer) {
    guard result.runs.first?.level != nil else {
      // The runs' glyphs as one array's (a plain result has one run).
      if result.runs.count == 1 {
        result.runs[0].glyphs.withUnsafeBufferPointer { write($0, hasPositions: true, to: &out) }
      } else {
        result.glyphs.withUnsafeBufferPointer { write($0, hasPositions: true, to: &out) }
      }
      return
    }
    if let lines = result.lines {
      for (index, line) in lines.enumerated() {
        if index > 0 { out.append(UInt8(ascii: "\n")) }
        writeGroups(line.runs, to: &out)
      }
      return
    }
    writeGroups(result.runs, to: &out)
  }

  /// Runs of a paragraph, one group a run after its level and script.
  private func writeGroups(_ runs: [ShapedRun], to out: inout ByteBuffer) {
    for (index, run) in runs.enumerated() {
      if index > 0 { out.append(UInt8(ascii: " ")) }
      out.append(UInt8(ascii: "<"))
      out.append(Int(run.level ?? 0))
      out.append(UInt8(ascii: " "))
      out.append("\(run.script)")
      // A run of a fallback font names it: `<0 Hani "Noto Sans CJK JP">`.
      if run.isFallback {
        out.append(literal: " \"")
        out.append(run.font.family ?? String(run.font.file.split(separator: "/").last ?? ""))
        out.append(UInt8(ascii: "\""))
      }
      out.append(UInt8(ascii: ">"))
      run.glyphs.withUnsafeBufferPointer { write($0, hasPositions: true, to: &out) }
    }
  }

  /// One line for glyphs; without positions (a trace step during substitution) none are written.
  public func line(for glyphs: [ShapedGlyph], hasPositions: Bool = true) -> String {
    guard !glyphs.isEmpty else { return "" }
    var out = ByteBuffer(capacity: 8 + 24 * glyphs.count)
    glyphs.withUnsafeBufferPointer { write($0, hasPositions: hasPositions, to: &out) }
    return out.withBytes { String(decoding: $0, as: UTF8.self) }
  }

  // Speed: written as bytes (`ByteBuffer`), numbers as digits; built as a string from
  // interpolations, hb-shape's text format took twice as long as JSON Lines (`-O text`, the
  // drop-in's default) and half of `--batch`'s time (`perf`).

  /// Writes glyphs in brackets (nothing for no glyphs).
  private func write(_ glyphs: UnsafeBufferPointer<ShapedGlyph>, hasPositions: Bool, to out: inout ByteBuffer)
  {
    guard !glyphs.isEmpty else { return }
    var x: Int32 = 0
    var y: Int32 = 0
    let positions = self.positions && hasPositions
    // Where hb-shape's present buffer of 32,768 bytes (its last for the terminating zero) began,
    // when the positions start again in each (`restartsAbsolutePositions`).
    let restarts = restartsAbsolutePositions && positions && !advances
    var bufferStart = out.count
    for index in glyphs.indices {
      let glyph = glyphs[index]
      let recordStart = out.count
      writeRecord(
        glyph, index: index, last: index == glyphs.count - 1, positions: positions, x: x, y: y, to: &out)
      if restarts, out.count - bufferStart > 32_767 {
        // The record does not fit: the serializer's next call writes it first, from 0.
        out.truncate(to: recordStart)
        (x, y, bufferStart) = (0, 0, recordStart)
        writeRecord(
          glyph, index: index, last: index == glyphs.count - 1, positions: positions, x: x, y: y, to: &out)
      }
      if !advances {
        x &+= glyph.xAdvance
        y &+= glyph.yAdvance
      }
    }
  }

  /// One glyph's record as HarfBuzz's serializer writes it: after `[` or a separator, before `]`
  /// for the last.
  private func writeRecord(
    _ glyph: ShapedGlyph, index: Int, last: Bool, positions: Bool, x: Int32, y: Int32,
    to out: inout ByteBuffer
  ) {
    switch syntax {
    case .text:
      out.append(index == 0 ? UInt8(ascii: "[") : UInt8(ascii: "|"))
      writeText(glyph, positions: positions, x: x, y: y, to: &out)
    case .json:
      if index == 0 { out.append(literal: "[{") } else { out.append(literal: ",{") }
      writeJSON(glyph, positions: positions, x: x, y: y, to: &out)
      out.append(UInt8(ascii: "}"))
    }
    if last { out.append(UInt8(ascii: "]")) }
  }

  private func writeText(_ glyph: ShapedGlyph, positions: Bool, x: Int32, y: Int32, to out: inout ByteBuffer)
  {
    if glyphNames, let name = glyph.internedName {
      name.withUTF8 { out.append($0) }
    } else {
      out.appendDigits(UInt(glyph.id))
    }
    out.write(upTo: 160) { cursor in
      if clusters {
        cursor.byte(UInt8(ascii: "="))
        cursor.number(glyph.cluster)
      }
      if positions {
        let dx = x &+ glyph.xOffset
        let dy = y &+ glyph.yOffset
        if dx != 0 || dy != 0 {
          cursor.byte(UInt8(ascii: "@"))
          cursor.number(Int(dx))
          cursor.byte(UInt8(ascii: ","))
          cursor.number(Int(dy))
        }
        if advances {
          cursor.byte(UInt8(ascii: "+"))
          cursor.number(Int(glyph.xAdvance))
          if glyph.yAdvance != 0 {
            cursor.byte(UInt8(ascii: ","))
            cursor.number(Int(glyph.yAdvance))
          }
        }
      }
      if glyphFlags, glyph.flags.rawValue != 0 {
        cursor.byte(UInt8(ascii: "#"))
        Self.hexadecimal(glyph.flags.rawValue, to: &cursor)
      }
      if extents {
        let box = glyph.extents ?? GlyphExtents(xBearing: 0, yBearing: 0, width: 0, height: 0)
        cursor.byte(UInt8(ascii: "<"))
        cursor.number(Int(box.xBearing))
        cursor.byte(UInt8(ascii: ","))
        cursor.number(Int(box.yBearing))
        cursor.byte(UInt8(ascii: ","))
        cursor.number(Int(box.width))
        cursor.byte(UInt8(ascii: ","))
        cursor.number(Int(box.height))
        cursor.byte(UInt8(ascii: ">"))
      }
    }
  }

  private func writeJSON(_ glyph: ShapedGlyph, positions: Bool, x: Int32, y: Int32, to out: inout ByteBuffer)
  {
    out.append(literal: "\"g\":")
    if glyphNames, let name = glyph.internedName {
      // HarfBuzz escapes only the quote and the backslash in names.
      out.append(UInt8(ascii: "\""))
      name.withUTF8 { bytes in
        for byte in bytes {
          if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { out.append(UInt8(ascii: "\\")) }
          out.append(byte)
        }
      }
      out.append(UInt8(ascii: "\""))
    } else {
      out.appendDigits(UInt(glyph.id))
    }
    out.write(upTo: 200) { cursor in
      if clusters {
        cursor.literal(",\"cl\":")
        cursor.number(glyph.cluster)
      }
      if positions {
        cursor.literal(",\"dx\":")
        cursor.number(Int(x &+ glyph.xOffset))
        cursor.literal(",\"dy\":")
        cursor.number(Int(y &+ glyph.yOffset))
        if advances {
          cursor.literal(",\"ax\":")
          cursor.number(Int(glyph.xAdvance))
          cursor.literal(",\"ay\":")
          cursor.number(Int(glyph.yAdvance))
        }
      }
      if glyphFlags, glyph.flags.rawValue != 0 {
        cursor.literal(",\"fl\":")
        cursor.digits(UInt(glyph.flags.rawValue))
      }
      if extents {
        let box = glyph.extents ?? GlyphExtents(xBearing: 0, yBearing: 0, width: 0, height: 0)
        cursor.literal(",\"xb\":")
        cursor.number(Int(box.xBearing))
        cursor.literal(",\"yb\":")
        cursor.number(Int(box.yBearing))
        cursor.literal(",\"w\":")
        cursor.number(Int(box.width))
        cursor.literal(",\"h\":")
        cursor.number(Int(box.height))
      }
    }
  }

  /// `value` in hexadecimal with capital letters, at least `minimumDigits` (leading zeros): at most
  /// 8 bytes.
  private static func hexadecimal(_ value: UInt32, minimumDigits: Int = 1, to cursor: inout ByteBuffer.Cursor)
  {
    var shift = 28
    while shift > 4 * (minimumDigits - 1), value >> UInt32(shift) == 0 { shift -= 4 }
    while shift >= 0 {
      let digit = UInt8(truncatingIfNeeded: value >> UInt32(shift)) & 0xF
      cursor.byte(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "A") + digit - 10)
      shift -= 4
    }
  }

  /// hb-shape's `--show-unicode` line: `<U+0054=0|U+0061=1>` (always the text syntax, always with
  /// clusters), or an empty string for no text.
  public static func unicodeLine(for result: ShapeResult) -> String {
    HBFormat(.text).line(codePoints: result.scalarsWithClusters.map { ($0.scalar.value, $0.cluster) })
  }

  /// Code points with their clusters, as HarfBuzz's `hb_buffer_serialize_unicode` writes them:
  /// `<U+0054=0|U+0061=1>` or `[{"u":84,"cl":0},{"u":97,"cl":1}]`; only `clusters` applies.
  public func line(codePoints: [(value: UInt32, cluster: Int)]) -> String {
    guard !codePoints.isEmpty else { return "" }
    var out = ByteBuffer(capacity: 8 + 16 * codePoints.count)
    for (index, item) in codePoints.enumerated() {
      out.write(upTo: 64) { cursor in
        switch syntax {
        case .text:
          cursor.byte(index == 0 ? UInt8(ascii: "<") : UInt8(ascii: "|"))
          cursor.byte(UInt8(ascii: "U"))
          cursor.byte(UInt8(ascii: "+"))
          Self.hexadecimal(item.value, minimumDigits: 4, to: &cursor)
          if clusters {
            cursor.byte(UInt8(ascii: "="))
            cursor.number(item.cluster)
          }
        case .json:
          cursor.literal(index == 0 ? "[{\"u\":" : ",{\"u\":")
          cursor.digits(UInt(item.value))
          if clusters {
            cursor.literal(",\"cl\":")
            cursor.number(item.cluster)
          }
          cursor.byte(UInt8(ascii: "}"))
        }
      }
    }
    out.append(syntax == .text ? UInt8(ascii: ">") : UInt8(ascii: "]"))
    return out.withBytes { String(decoding: $0, as: UTF8.self) }
  }

  /// A trace step's buffer, as HarfBuzz's `hb_buffer_serialize` writes it: code points or glyphs.
  public func line(for event: TraceEvent) -> String {
    event.holdsCodePoints
      ? line(codePoints: event.glyphs.map { ($0.id, $0.cluster) })
      : line(for: event.glyphs, hasPositions: event.hasPositions)
  }
}
