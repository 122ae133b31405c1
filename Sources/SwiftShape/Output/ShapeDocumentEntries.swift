import HarfBuzz

// The one writer of the document's results. It writes the compact layout straight into a byte
// buffer — a glyph in one piece, its name copied as the JSON string its interned form keeps — the
// hot path of JSON Lines output; the pretty layout is the compact one laid out again (`relayOut`),
// so every key is spelled once and the compact form is the pretty form minified, by construction.

extension ShapeDocument {
  /// One result, `{"line": …}`, in `layout`. In the pretty layout, glyphs and trace events start
  /// lines of their own, indented under the result, which the caller starts at an indent of 4.
  ///
  /// `runFont`, when given, is a font and what `appendRunFont` writes for it (not as a
  /// fallback), made once by the caller: a paragraph's runs in that font are written with it.
  package static func appendEntry(
    _ entry: Entry, layout: Layout, runFont: RunFontBytes? = nil, to buffer: inout ByteBuffer
  ) {
    guard layout == .pretty else {
      appendCompactEntry(entry, runFont: runFont, to: &buffer)
      return
    }
    var compact = ByteBuffer(capacity: compactSizeEstimate(entry))
    appendCompactEntry(entry, runFont: runFont, to: &compact)
    compact.withBytes { relayOut($0, to: &buffer) }
  }

  /// The pretty layout of a compact result: a space after every `:` and `,` outside strings; the
  /// items of the result's own arrays (its glyphs, its trace events, a paragraph's runs) each on
  /// a line of its own, indented by 6 (the array's end by 4), and so the glyphs of each run of a
  /// paragraph (indented by 10, the end by 8); every other array and object on one line.
  ///
  /// Speed: the bytes are written through a pointer into room made 4 KiB (or a long string) at a
  /// time, checked once a token, and keys are kept as ranges of the compact text. Appending a
  /// byte at a time, each string kept as a new array, made the pretty layout of the English text
  /// take 150 ms against 33 ms for JSON Lines; an append a token still took 264 million
  /// instructions.
  private static func relayOut(_ compact: UnsafeBufferPointer<UInt8>, to buffer: inout ByteBuffer) {
    let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
    let count = compact.count
    struct Container {
      var isArray: Bool
      /// Items each on a line of its own.
      var itemLines: Bool
      var hasItems = false
      /// The key the container is the value of, where it is in the compact text.
      var key: Range<Int>
    }
    func isKey(_ range: Range<Int>, _ name: StaticString) -> Bool {
      name.withUTF8Buffer { range.count == $0.count && compact[range].elementsEqual($0) }
    }
    var stack: [Container] = []
    var lastString = 0..<0
    var key = 0..<0
    var itemStarts = false
    var index = 0
    // The room the next token needs when it did not fit.
    var needed = 0
    // A line break and an indent of `indent` spaces at `out`.
    func newline(_ out: inout UnsafeMutablePointer<UInt8>, indent: Int) {
      out.pointee = UInt8(ascii: "\n")
      (out + 1).update(repeating: UInt8(ascii: " "), count: indent)
      out += 1 + indent
    }
    while index < count {
      buffer.write(upTo: max(1 << 12, needed)) { start in
        let limit = start + max(1 << 12, needed)
        var out = start
        // The position in a local while the room lasts (a captured variable lives in memory).
        var at = index
        defer { index = at }
        let bytes = compact.baseAddress!
        while at < count {
          let byte = bytes[at]
          // Most bytes (digits, letters) are themselves; copied here in a run while there is room.
          if !itemStarts, byte > UInt8(ascii: "\""), byte != UInt8(ascii: ","), byte != UInt8(ascii: ":"),
            byte != UInt8(ascii: "["), byte != UInt8(ascii: "]"), byte != UInt8(ascii: "{"),
            byte != UInt8(ascii: "}"),
            out < limit
          {
            out.pointee = byte
            out += 1
            at += 1
            continue
          }
          // A token writes at most a line break, its indent, itself and a space; a string, itself.
          var end = at
          if byte == quote {
            end = at + 1
            while end < count, bytes[end] != quote { end += bytes[end] == backslash ? 2 : 1 }
            end = min(end, count)
          }
          let need = end - at + 2 * stack.count + 8
          guard limit - out >= need else {
            needed = need
            break
          }
          if itemStarts {
            itemStarts = false
            if byte != UInt8(ascii: "]") {
              newline(&out, indent: 2 * stack.count + 2)
              stack[stack.count - 1].hasItems = true
            }
          }
          switch byte {
          case quote:
            // The string whole, to its closing quote.
            let length = min(end + 1, count) - at
            out.update(from: bytes + at, count: length)
            out += length
            lastString = (at + 1)..<max(at + 1, end)
            at = end + 1
            continue
          case UInt8(ascii: ":"):
            key = lastString
            out[0] = byte
            out[1] = UInt8(ascii: " ")
            out += 2
          case UInt8(ascii: ","):
            out.pointee = byte
            out += 1
            if let top = stack.last, top.isArray, top.itemLines {
              itemStarts = true
            } else {
              out.pointee = UInt8(ascii: " ")
              out += 1
            }
          case UInt8(ascii: "["), UInt8(ascii: "{"):
            let isArray = byte == UInt8(ascii: "[")
            // The result is the container at depth 1; its own arrays are at depth 2, the glyphs
            // of a paragraph's runs at depth 4.
            let depth = stack.count + 1
            let itemLines =
              isArray
              && (depth == 2
                || (depth == 4 && isKey(key, "glyphs") && isKey(stack[1].key, "runs"))
                || (depth == 4 && isKey(key, "runs") && isKey(stack[1].key, "lines"))
                || (depth == 6 && isKey(key, "glyphs") && isKey(stack[1].key, "lines")))
            stack.append(Container(isArray: isArray, itemLines: itemLines, key: key))
            out.pointee = byte
            out += 1
            if itemLines { itemStarts = true }
          case UInt8(ascii: "]"), UInt8(ascii: "}"):
            if let top = stack.popLast(), top.itemLines, top.hasItems {
              newline(&out, indent: 2 * stack.count + 2)
            }
            out.pointee = byte
            out += 1
          default:
            out.pointee = byte
            out += 1
          }
          at += 1
        }
        return out - start
      }
    }
  }

  /// A result in the compact layout, straight into the buffer in a few pieces.
  private static func appendCompactEntry(
    _ entry: Entry, runFont: RunFontBytes?, to buffer: inout ByteBuffer
  ) {
    let result = entry.result
    buffer.write(upTo: 40) { (cursor: inout ByteBuffer.Cursor) in
      cursor.literal("{\"line\":")
      cursor.number(entry.line)
      cursor.literal(",\"text\":")
    }
    JSONWriter.appendString(result.text, to: &buffer)
    if let baseLevel = result.baseLevel {
      appendCompactParagraph(result, baseLevel: baseLevel, runFont: runFont, to: &buffer)
    } else {
      // The run is read in place (a copy of it would retain and release each of its references).
      result.runs.withUnsafeBufferPointer { runs in
        for run in runs.indices { appendCompactRun(runs.baseAddress! + run, to: &buffer) }
      }
    }
    if let trace = result.trace { appendCompactTrace(trace, to: &buffer) }
    buffer.append(UInt8(ascii: "}"))
  }

  /// A paragraph's members: its level and direction, its advance, and its runs in visual order,
  /// each with its font, level and range before the members of a run.
  private static func appendCompactParagraph(
    _ result: ShapeResult, baseLevel: UInt8, runFont: RunFontBytes?, to buffer: inout ByteBuffer
  ) {
    let advance = result.runs.reduce(Scale(x: 0, y: 0)) {
      Scale(x: $0.x &+ $1.advance.x, y: $0.y &+ $1.advance.y)
    }
    buffer.write(upTo: 120) { (cursor: inout ByteBuffer.Cursor) in
      cursor.literal(",\"level\":")
      cursor.number(Int(baseLevel))
      cursor.literal(baseLevel & 1 == 1 ? ",\"direction\":\"rtl\"" : ",\"direction\":\"ltr\"")
      cursor.literal(",\"advance\":{\"x\":")
      cursor.number(Int(advance.x))
      cursor.literal(",\"y\":")
      cursor.number(Int(advance.y))
      cursor.byte(UInt8(ascii: "}"))
    }
    if let lines = result.lines {
      buffer.write(upTo: 64) { (cursor: inout ByteBuffer.Cursor) in
        cursor.literal(",\"reshaped_edges\":")
        cursor.number(result.reshapedEdges)
        cursor.literal(",\"lines\":[")
      }
      for (index, line) in lines.enumerated() {
        buffer.write(upTo: 256) { (cursor: inout ByteBuffer.Cursor) in
          cursor.literal(index > 0 ? ",{\"range\":[" : "{\"range\":[")
          cursor.number(line.range.lowerBound)
          cursor.byte(UInt8(ascii: ","))
          cursor.number(line.range.upperBound)
          cursor.literal("],\"advance\":")
          cursor.number(Int(line.advance))
          cursor.literal(",\"visible_advance\":")
          cursor.number(Int(line.visibleAdvance))
          cursor.literal(",\"ascent\":")
          cursor.number(Int(line.ascent))
          cursor.literal(",\"descent\":")
          cursor.number(Int(line.descent))
          cursor.literal(",\"baseline\":")
          cursor.number(Int(line.baseline))
          cursor.literal(",\"x\":")
          cursor.number(Int(line.x))
          cursor.literal(",\"runs\":")
        }
        appendCompactRuns(line.runs, runFont: runFont, to: &buffer)
        buffer.append(UInt8(ascii: "}"))
      }
      buffer.append(UInt8(ascii: "]"))
    } else {
      buffer.append(literal: ",\"runs\":")
      appendCompactRuns(result.runs, runFont: runFont, to: &buffer)
    }
    appendMissing(result.missingCharacters, to: &buffer)
  }

  /// A paragraph's runs, `[…]`, each with its font, level and range before the members of a run.
  private static func appendCompactRuns(
    _ runs: [ShapedRun], runFont: RunFontBytes?, to buffer: inout ByteBuffer
  ) {
    buffer.append(UInt8(ascii: "["))
    runs.withUnsafeBufferPointer { runs in
      for index in runs.indices {
        let run = runs.baseAddress! + index
        if index > 0 { buffer.append(UInt8(ascii: ",")) }
        // Speed: the document's own font is written from bytes made once (its file and family
        // were escaped at every run: 1,500 instructions a line of JSON Lines, 12% of what
        // `--paragraph` added to a word of Hindi).
        if let runFont, !run.pointee.isFallback, run.pointee.font.file == runFont.font.file,
          run.pointee.font.faceIndex == runFont.font.faceIndex
        {
          buffer.append(runFont.bytes)
        } else {
          appendRunFont(run.pointee.font, fallback: run.pointee.isFallback, to: &buffer)
        }
        let range = run.pointee.range ?? 0..<0
        buffer.write(upTo: 120) { (cursor: inout ByteBuffer.Cursor) in
          cursor.literal(",\"level\":")
          cursor.number(Int(run.pointee.level ?? 0))
          cursor.literal(",\"range\":[")
          cursor.number(range.lowerBound)
          cursor.byte(UInt8(ascii: ","))
          cursor.number(range.upperBound)
          cursor.byte(UInt8(ascii: "]"))
        }
        appendCompactRun(run, to: &buffer)
        buffer.append(UInt8(ascii: "}"))
      }
    }
    buffer.append(UInt8(ascii: "]"))
  }

  /// The `missing` member, when some characters have no font.
  private static func appendMissing(_ missingCharacters: [MissingCharacter], to buffer: inout ByteBuffer) {
    guard !missingCharacters.isEmpty else { return }
    buffer.append(literal: ",\"missing\":[")
    for (index, missing) in missingCharacters.enumerated() {
      buffer.write(upTo: 80) { (cursor: inout ByteBuffer.Cursor) in
        if index > 0 { cursor.byte(UInt8(ascii: ",")) }
        cursor.literal("{\"code_point\":")
        cursor.number(Int(missing.scalar.value))
        cursor.literal(",\"cluster\":")
        cursor.number(missing.offset)
        cursor.byte(UInt8(ascii: "}"))
      }
    }
    buffer.append(UInt8(ascii: "]"))
  }

  /// A font and the bytes `appendRunFont` writes for it, made once.
  package struct RunFontBytes {
    package var font: FontIdentity
    package var bytes: UnsafeBufferPointer<UInt8>
  }

  /// The start of a paragraph's run, up to its font: `{"font":{"file":…,"face_index":…,"family":…,
  /// "fallback":…}`.
  package static func appendRunFont(_ font: FontIdentity, fallback: Bool, to buffer: inout ByteBuffer) {
    buffer.append(literal: "{\"font\":{\"file\":")
    JSONWriter.appendString(font.file, to: &buffer)
    buffer.write(upTo: 64) { (cursor: inout ByteBuffer.Cursor) in
      cursor.literal(",\"face_index\":")
      cursor.number(font.faceIndex)
      cursor.literal(",\"family\":")
    }
    if let family = font.family {
      JSONWriter.appendString(family, to: &buffer)
    } else {
      buffer.append(literal: "null")
    }
    buffer.append(literal: fallback ? ",\"fallback\":true}" : ",\"fallback\":false}")
  }

  /// A run's members: direction, script, language, advance, glyphs.
  private static func appendCompactRun(_ run: UnsafePointer<ShapedRun>, to buffer: inout ByteBuffer) {
    switch run.pointee.direction {
    case .leftToRight: buffer.append(literal: ",\"direction\":\"ltr\",\"script\":")
    case .rightToLeft: buffer.append(literal: ",\"direction\":\"rtl\",\"script\":")
    case .topToBottom: buffer.append(literal: ",\"direction\":\"ttb\",\"script\":")
    case .bottomToTop: buffer.append(literal: ",\"direction\":\"btt\",\"script\":")
    }
    var script = run.pointee.script.description
    script.withUTF8 { JSONWriter.appendString(utf8: $0, to: &buffer) }
    buffer.append(literal: ",\"language\":")
    if let language = run.pointee.language {
      language.withIdentifierBytes { JSONWriter.appendString(utf8: $0, to: &buffer) }
    } else {
      buffer.append(literal: "null")
    }
    let advance = run.pointee.advance
    buffer.write(upTo: 80) { (cursor: inout ByteBuffer.Cursor) in
      cursor.literal(",\"advance\":{\"x\":")
      cursor.number(Int(advance.x))
      cursor.literal(",\"y\":")
      cursor.number(Int(advance.y))
      cursor.literal("},\"glyphs\":[")
    }
    run.pointee.glyphs.withUnsafeBufferPointer { glyphs in
      for index in glyphs.indices {
        appendCompactGlyph(glyphs.baseAddress! + index, positions: true, comma: index > 0, to: &buffer)
      }
    }
    buffer.append(UInt8(ascii: "]"))
  }

  /// The `trace` member: each event's message and its code points or glyphs.
  private static func appendCompactTrace(_ trace: [TraceEvent], to buffer: inout ByteBuffer) {
    buffer.append(literal: ",\"trace\":[")
    for (index, event) in trace.enumerated() {
      buffer.append(literal: index > 0 ? ",{\"message\":" : "{\"message\":")
      JSONWriter.appendString(event.message, to: &buffer)
      if event.holdsCodePoints {
        buffer.append(literal: ",\"codepoints\":[")
        for (number, codePoint) in event.glyphs.enumerated() {
          buffer.write(upTo: 60) { (cursor: inout ByteBuffer.Cursor) in
            cursor.literal(number > 0 ? ",{\"codepoint\":" : "{\"codepoint\":")
            cursor.digits(UInt(codePoint.id))
            cursor.literal(",\"cluster\":")
            cursor.number(codePoint.cluster)
            cursor.byte(UInt8(ascii: "}"))
          }
        }
      } else {
        buffer.append(literal: ",\"glyphs\":[")
        event.glyphs.withUnsafeBufferPointer { glyphs in
          for index in glyphs.indices {
            appendCompactGlyph(
              glyphs.baseAddress! + index, positions: event.hasPositions, comma: index > 0, to: &buffer)
          }
        }
      }
      buffer.append(literal: "]}")
    }
    buffer.append(UInt8(ascii: "]"))
  }

  /// A glyph object in one piece, after a comma when `comma` is set.
  static func appendCompactGlyph(
    _ glyph: UnsafePointer<ShapedGlyph>, positions: Bool, comma: Bool, to buffer: inout ByteBuffer
  ) {
    // The name as the JSON string its interned form keeps, no copy; what is written besides it is
    // at most 300 bytes (eleven numbers of at most 20, and the keys).
    func write(_ json: UnsafeBufferPointer<UInt8>) {
      buffer.write(upTo: json.count + 300) { (cursor: inout ByteBuffer.Cursor) in
        if comma { cursor.byte(UInt8(ascii: ",")) }
        cursor.literal("{\"id\":")
        cursor.digits(UInt(glyph.pointee.id))
        if json.baseAddress != nil {
          cursor.literal(",\"name\":")
          cursor.bytes(json)
        }
        cursor.literal(",\"cluster\":")
        cursor.number(glyph.pointee.cluster)
        if positions {
          cursor.literal(",\"x_advance\":")
          cursor.number(Int(glyph.pointee.xAdvance))
          cursor.literal(",\"y_advance\":")
          cursor.number(Int(glyph.pointee.yAdvance))
          cursor.literal(",\"x_offset\":")
          cursor.number(Int(glyph.pointee.xOffset))
          cursor.literal(",\"y_offset\":")
          cursor.number(Int(glyph.pointee.yOffset))
        }
        cursor.literal(",\"flags\":")
        cursor.digits(UInt(glyph.pointee.flags.rawValue))
        if let extents = glyph.pointee.extents {
          cursor.literal(",\"extents\":{\"x_bearing\":")
          cursor.number(Int(extents.xBearing))
          cursor.literal(",\"y_bearing\":")
          cursor.number(Int(extents.yBearing))
          cursor.literal(",\"width\":")
          cursor.number(Int(extents.width))
          cursor.literal(",\"height\":")
          cursor.number(Int(extents.height))
          cursor.byte(UInt8(ascii: "}"))
        }
        cursor.byte(UInt8(ascii: "}"))
      }
    }
    if let name = glyph.pointee.internedName {
      name.withJSON { write($0) }
    } else {
      write(UnsafeBufferPointer(start: nil, count: 0))
    }
  }
}
