import HarfBuzz

// The one writer of the document's results, straight into a byte buffer in either layout: a glyph
// in one piece, its name copied as the JSON string its interned form keeps. The compact layout is
// the hot path of JSON Lines output; the pretty layout puts a space after every `:` and `,` and
// the items of the result's own arrays (its glyphs, its trace events, a paragraph's lines and
// runs, and their glyphs) each on a line of its own. A test checks that the pretty form is the
// compact one laid out again, on the corpora, paragraphs, lines and traces.
//
// Speed: the pretty layout was once the compact one laid out again byte by byte; written directly,
// the English text's JSON document (shape's default output) takes <PRETTY> where it took 53 ms,
// against 36 ms for `hb-shape -O json`.

extension ShapeDocument {
  /// One result of a document's `results`, `{"line": …}`, in `layout`, after a comma unless it is
  /// the first; in the pretty layout on a line of its own at an indent of 4, its glyphs and trace
  /// events each on a line of their own under it.
  package static func appendEntry(_ entry: Entry, layout: Layout, first: Bool, to buffer: inout ByteBuffer) {
    if !first { buffer.append(UInt8(ascii: ",")) }
    if layout == .pretty { buffer.append(literal: "\n    ") }
    appendEntry(entry, layout: layout, to: &buffer)
  }

  /// One result, `{"line": …}`, in `layout`. In the pretty layout, glyphs and trace events start
  /// lines of their own, indented under the result, which the caller starts at an indent of 4.
  ///
  /// `runFont`, when given, is a font and what `appendRunFont` writes for it (not as a
  /// fallback), made once by the caller: a paragraph's runs in that font are written with it.
  package static func appendEntry(
    _ entry: Entry, layout: Layout, runFont: RunFontBytes? = nil, to buffer: inout ByteBuffer
  ) {
    let spaced = layout == .pretty
    let result = entry.result
    buffer.write(upTo: 40) { (cursor: inout ByteBuffer.Cursor) in
      cursor.json("{\"line\":", spaced: spaced)
      cursor.number(entry.line)
      cursor.json(",\"text\":", spaced: spaced)
    }
    JSONWriter.appendString(result.text, to: &buffer)
    if let baseLevel = result.baseLevel {
      appendParagraph(result, baseLevel: baseLevel, runFont: runFont, spaced: spaced, to: &buffer)
    } else {
      // The run is read in place (a copy of it would retain and release each of its references).
      result.runs.withUnsafeBufferPointer { runs in
        for run in runs.indices {
          appendRun(runs.baseAddress! + run, glyphIndent: spaced ? 6 : nil, spaced: spaced, to: &buffer)
        }
      }
    }
    if let trace = result.trace { appendTrace(trace, spaced: spaced, to: &buffer) }
    buffer.append(UInt8(ascii: "}"))
  }

  /// A paragraph's members: its level and direction, its advance, and its runs in visual order,
  /// each with its font, level and range before the members of a run.
  private static func appendParagraph(
    _ result: ShapeResult, baseLevel: UInt8, runFont: RunFontBytes?, spaced: Bool, to buffer: inout ByteBuffer
  ) {
    let advance = result.runs.reduce(Scale(x: 0, y: 0)) {
      Scale(x: $0.x &+ $1.advance.x, y: $0.y &+ $1.advance.y)
    }
    buffer.write(upTo: 160) { (cursor: inout ByteBuffer.Cursor) in
      cursor.json(",\"level\":", spaced: spaced)
      cursor.number(Int(baseLevel))
      cursor.json(baseLevel & 1 == 1 ? ",\"direction\":\"rtl\"" : ",\"direction\":\"ltr\"", spaced: spaced)
      cursor.json(",\"advance\":{\"x\":", spaced: spaced)
      cursor.number(Int(advance.x))
      cursor.json(",\"y\":", spaced: spaced)
      cursor.number(Int(advance.y))
      cursor.byte(UInt8(ascii: "}"))
    }
    if let lines = result.lines {
      buffer.write(upTo: 80) { (cursor: inout ByteBuffer.Cursor) in
        cursor.json(",\"reshaped_edges\":", spaced: spaced)
        cursor.number(result.reshapedEdges)
        cursor.json(",\"lines\":[", spaced: spaced)
      }
      for (index, line) in lines.enumerated() {
        buffer.write(upTo: 420) { (cursor: inout ByteBuffer.Cursor) in
          cursor.item(index, indent: spaced ? 6 : nil, spaced: spaced)
          cursor.json("{\"range\":[", spaced: spaced)
          cursor.number(line.range.lowerBound)
          cursor.json(",", spaced: spaced)
          cursor.number(line.range.upperBound)
          cursor.byte(UInt8(ascii: "]"))
          let members: [(StaticString, Int32)] = [
            (",\"advance\":", line.advance), (",\"visible_advance\":", line.visibleAdvance),
            (",\"ascent\":", line.ascent), (",\"descent\":", line.descent), (",\"baseline\":", line.baseline),
            (",\"x\":", line.x),
          ]
          for (key, value) in members {
            cursor.json(key, spaced: spaced)
            cursor.number(Int(value))
          }
          if line.hyphen { cursor.json(",\"hyphen\":true", spaced: spaced) }
          if let fill = line.fill {
            cursor.json(",\"fill\":{\"kind\":", spaced: spaced)
            switch fill.kind {
            case .spaces: cursor.literal("\"spaces\"")
            case .characters: cursor.literal("\"characters\"")
            case .none: cursor.literal("\"none\"")
            }
            cursor.json(",\"added\":", spaced: spaced)
            cursor.number(Int(fill.added))
            cursor.json(",\"places\":", spaced: spaced)
            cursor.number(fill.places)
            if !fill.kashidas.isEmpty {
              cursor.json(",\"kashidas\":[", spaced: spaced)
              for (index, offset) in fill.kashidas.enumerated() {
                if index > 0 { cursor.json(",", spaced: spaced) }
                cursor.number(offset)
              }
              cursor.byte(UInt8(ascii: "]"))
            }
            cursor.byte(UInt8(ascii: "}"))
          }
          cursor.json(",\"runs\":", spaced: spaced)
        }
        appendRuns(line.runs, runFont: runFont, indent: spaced ? 10 : nil, spaced: spaced, to: &buffer)
        buffer.append(UInt8(ascii: "}"))
      }
      buffer.endArray(count: lines.count, indent: spaced ? 6 : nil)
    } else {
      buffer.append(json: ",\"runs\":", spaced: spaced)
      appendRuns(result.runs, runFont: runFont, indent: spaced ? 6 : nil, spaced: spaced, to: &buffer)
    }
    appendMissing(result.missingCharacters, spaced: spaced, to: &buffer)
  }

  /// A paragraph's runs, `[…]`, each with its font, level and range before the members of a run;
  /// in the pretty layout each on a line of its own at `indent`, its glyphs 4 further in.
  private static func appendRuns(
    _ runs: [ShapedRun], runFont: RunFontBytes?, indent: Int?, spaced: Bool, to buffer: inout ByteBuffer
  ) {
    buffer.append(UInt8(ascii: "["))
    runs.withUnsafeBufferPointer { runs in
      for index in runs.indices {
        let run = runs.baseAddress! + index
        buffer.write(upTo: 24) { $0.item(index, indent: indent, spaced: spaced) }
        // Speed: the document's own font is written from bytes made once (its file and family
        // were escaped at every run: 1,500 instructions a line of JSON Lines, 12% of what
        // `--paragraph` added to a word of Hindi).
        if !spaced, let runFont, !run.pointee.isFallback, run.pointee.font.file == runFont.font.file,
          run.pointee.font.faceIndex == runFont.font.faceIndex
        {
          buffer.append(runFont.bytes)
        } else {
          appendRunFont(run.pointee.font, fallback: run.pointee.isFallback, spaced: spaced, to: &buffer)
        }
        let range = run.pointee.range ?? 0..<0
        buffer.write(upTo: 160) { (cursor: inout ByteBuffer.Cursor) in
          cursor.json(",\"level\":", spaced: spaced)
          cursor.number(Int(run.pointee.level ?? 0))
          cursor.json(",\"range\":[", spaced: spaced)
          cursor.number(range.lowerBound)
          cursor.json(",", spaced: spaced)
          cursor.number(range.upperBound)
          cursor.byte(UInt8(ascii: "]"))
          if let span = run.pointee.span {
            cursor.json(",\"span\":", spaced: spaced)
            cursor.number(span)
          }
        }
        appendRun(run, glyphIndent: indent.map { $0 + 4 }, spaced: spaced, to: &buffer)
        buffer.append(UInt8(ascii: "}"))
      }
    }
    buffer.endArray(count: runs.count, indent: indent)
  }

  /// The `missing` member, when some characters have no font.
  private static func appendMissing(
    _ missingCharacters: [MissingCharacter], spaced: Bool, to buffer: inout ByteBuffer
  ) {
    guard !missingCharacters.isEmpty else { return }
    buffer.append(json: ",\"missing\":[", spaced: spaced)
    for (index, missing) in missingCharacters.enumerated() {
      buffer.write(upTo: 100) { (cursor: inout ByteBuffer.Cursor) in
        cursor.item(index, indent: spaced ? 6 : nil, spaced: spaced)
        cursor.json("{\"code_point\":", spaced: spaced)
        cursor.number(Int(missing.scalar.value))
        cursor.json(",\"cluster\":", spaced: spaced)
        cursor.number(missing.offset)
        cursor.byte(UInt8(ascii: "}"))
      }
    }
    buffer.endArray(count: missingCharacters.count, indent: spaced ? 6 : nil)
  }

  /// A font and the bytes `appendRunFont` writes for it in the compact layout, made once.
  package struct RunFontBytes {
    package var font: FontIdentity
    package var bytes: UnsafeBufferPointer<UInt8>
  }

  /// The start of a paragraph's run, up to its font: `{"font":{"file":…,"face_index":…,"family":…,
  /// "fallback":…}`.
  package static func appendRunFont(
    _ font: FontIdentity, fallback: Bool, spaced: Bool = false, to buffer: inout ByteBuffer
  ) {
    buffer.append(json: "{\"font\":{\"file\":", spaced: spaced)
    JSONWriter.appendString(font.file, to: &buffer)
    buffer.write(upTo: 64) { (cursor: inout ByteBuffer.Cursor) in
      cursor.json(",\"face_index\":", spaced: spaced)
      cursor.number(font.faceIndex)
      cursor.json(",\"family\":", spaced: spaced)
    }
    if let family = font.family {
      JSONWriter.appendString(family, to: &buffer)
    } else {
      buffer.append(literal: "null")
    }
    buffer.append(json: fallback ? ",\"fallback\":true}" : ",\"fallback\":false}", spaced: spaced)
  }

  /// A run's members: direction, script, language, advance, glyphs; in the pretty layout the
  /// glyphs each on a line of their own at `glyphIndent`.
  private static func appendRun(
    _ run: UnsafePointer<ShapedRun>, glyphIndent: Int?, spaced: Bool, to buffer: inout ByteBuffer
  ) {
    switch run.pointee.direction {
    case .leftToRight: buffer.append(json: ",\"direction\":\"ltr\",\"script\":", spaced: spaced)
    case .rightToLeft: buffer.append(json: ",\"direction\":\"rtl\",\"script\":", spaced: spaced)
    case .topToBottom: buffer.append(json: ",\"direction\":\"ttb\",\"script\":", spaced: spaced)
    case .bottomToTop: buffer.append(json: ",\"direction\":\"btt\",\"script\":", spaced: spaced)
    }
    var script = run.pointee.script.description
    script.withUTF8 { JSONWriter.appendString(utf8: $0, to: &buffer) }
    buffer.append(json: ",\"language\":", spaced: spaced)
    if let language = run.pointee.language {
      language.withIdentifierBytes { JSONWriter.appendString(utf8: $0, to: &buffer) }
    } else {
      buffer.append(literal: "null")
    }
    let advance = run.pointee.advance
    buffer.write(upTo: 100) { (cursor: inout ByteBuffer.Cursor) in
      cursor.json(",\"advance\":{\"x\":", spaced: spaced)
      cursor.number(Int(advance.x))
      cursor.json(",\"y\":", spaced: spaced)
      cursor.number(Int(advance.y))
      cursor.json("},\"glyphs\":[", spaced: spaced)
    }
    let count = run.pointee.glyphs.withUnsafeBufferPointer { glyphs in
      for index in glyphs.indices {
        appendGlyph(
          glyphs.baseAddress! + index, positions: true, index: index, indent: glyphIndent, spaced: spaced,
          to: &buffer)
      }
      return glyphs.count
    }
    buffer.endArray(count: count, indent: glyphIndent)
  }

  /// The `trace` member: each event's message and its code points or glyphs; in the pretty layout
  /// each event on a line of its own, its glyphs on the event's line.
  private static func appendTrace(_ trace: [TraceEvent], spaced: Bool, to buffer: inout ByteBuffer) {
    buffer.append(json: ",\"trace\":[", spaced: spaced)
    for (index, event) in trace.enumerated() {
      buffer.write(upTo: 24) { $0.item(index, indent: spaced ? 6 : nil, spaced: spaced) }
      buffer.append(json: "{\"message\":", spaced: spaced)
      JSONWriter.appendString(event.message, to: &buffer)
      if event.holdsCodePoints {
        buffer.append(json: ",\"codepoints\":[", spaced: spaced)
        for (number, codePoint) in event.glyphs.enumerated() {
          buffer.write(upTo: 60) { (cursor: inout ByteBuffer.Cursor) in
            cursor.item(number, indent: nil, spaced: spaced)
            cursor.json("{\"codepoint\":", spaced: spaced)
            cursor.digits(UInt(codePoint.id))
            cursor.json(",\"cluster\":", spaced: spaced)
            cursor.number(codePoint.cluster)
            cursor.byte(UInt8(ascii: "}"))
          }
        }
      } else {
        buffer.append(json: ",\"glyphs\":[", spaced: spaced)
        event.glyphs.withUnsafeBufferPointer { glyphs in
          for index in glyphs.indices {
            appendGlyph(
              glyphs.baseAddress! + index, positions: event.hasPositions, index: index, indent: nil,
              spaced: spaced, to: &buffer)
          }
        }
      }
      buffer.append(literal: "]}")
    }
    buffer.endArray(count: trace.count, indent: spaced ? 6 : nil)
  }

  /// A glyph object in one piece, the `index`th of its array: after a comma unless it is the first,
  /// and in the pretty layout with `indent`, on a line of its own.
  ///
  /// Speed: this is most of what is written, so its keys are given in both layouts side by side
  /// rather than spaced a byte at a time (a test checks that each is the other laid out).
  static func appendGlyph(
    _ glyph: UnsafePointer<ShapedGlyph>, positions: Bool, index: Int, indent: Int?, spaced: Bool,
    to buffer: inout ByteBuffer
  ) {
    // The name as the JSON string its interned form keeps, no copy; what is written besides it is
    // at most 400 bytes (eleven numbers of at most 20, the keys, and an indent).
    func write(_ json: UnsafeBufferPointer<UInt8>) {
      buffer.write(upTo: json.count + 400) { (cursor: inout ByteBuffer.Cursor) in
        cursor.item(index, indent: indent, spaced: spaced)
        cursor.literal(spaced ? "{\"id\": " : "{\"id\":")
        cursor.digits(UInt(glyph.pointee.id))
        if json.baseAddress != nil {
          cursor.literal(spaced ? ", \"name\": " : ",\"name\":")
          cursor.bytes(json)
        }
        cursor.literal(spaced ? ", \"cluster\": " : ",\"cluster\":")
        cursor.number(glyph.pointee.cluster)
        if positions {
          cursor.literal(spaced ? ", \"x_advance\": " : ",\"x_advance\":")
          cursor.number(Int(glyph.pointee.xAdvance))
          if glyph.pointee.yAdvance == 0, glyph.pointee.xOffset == 0, glyph.pointee.yOffset == 0 {
            // Speed: most glyphs of horizontal text are not moved: their three zeros in one
            // literal (a fifth of writing a glyph, callgrind).
            cursor.literal(
              spaced
                ? ", \"y_advance\": 0, \"x_offset\": 0, \"y_offset\": 0"
                : ",\"y_advance\":0,\"x_offset\":0,\"y_offset\":0")
          } else {
            cursor.literal(spaced ? ", \"y_advance\": " : ",\"y_advance\":")
            cursor.number(Int(glyph.pointee.yAdvance))
            cursor.literal(spaced ? ", \"x_offset\": " : ",\"x_offset\":")
            cursor.number(Int(glyph.pointee.xOffset))
            cursor.literal(spaced ? ", \"y_offset\": " : ",\"y_offset\":")
            cursor.number(Int(glyph.pointee.yOffset))
          }
        }
        cursor.literal(spaced ? ", \"flags\": " : ",\"flags\":")
        cursor.digits(UInt(glyph.pointee.flags.rawValue))
        if let extents = glyph.pointee.extents {
          cursor.literal(spaced ? ", \"extents\": {\"x_bearing\": " : ",\"extents\":{\"x_bearing\":")
          cursor.number(Int(extents.xBearing))
          cursor.literal(spaced ? ", \"y_bearing\": " : ",\"y_bearing\":")
          cursor.number(Int(extents.yBearing))
          cursor.literal(spaced ? ", \"width\": " : ",\"width\":")
          cursor.number(Int(extents.width))
          cursor.literal(spaced ? ", \"height\": " : ",\"height\":")
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

extension ByteBuffer {
  /// A literal of compact JSON, or in the pretty layout (`spaced`) with a space after each `:`
  /// and `,` (the document's literals hold neither inside a string).
  mutating func append(json literal: StaticString, spaced: Bool) {
    write(upTo: 2 * literal.utf8CodeUnitCount) { $0.json(literal, spaced: spaced) }
  }

  /// The end of an array written with `Cursor.item(_:indent:spaced:)`: with an indent and items,
  /// on a line of its own, 2 less indented than the items.
  mutating func endArray(count: Int, indent: Int?) {
    guard let indent, count > 0 else {
      append(UInt8(ascii: "]"))
      return
    }
    write(upTo: indent + 2) { (cursor: inout Cursor) in
      cursor.newline(indent: indent - 2)
      cursor.byte(UInt8(ascii: "]"))
    }
  }
}

extension ByteBuffer.Cursor {
  /// A literal of compact JSON, or in the pretty layout (`spaced`) with a space after each `:`
  /// and `,`: at most twice its length.
  @inline(__always)
  mutating func json(_ literal: StaticString, spaced: Bool) {
    guard spaced else {
      self.literal(literal)
      return
    }
    literal.withUTF8Buffer { bytes in
      for byte in bytes {
        self.byte(byte)
        if byte == UInt8(ascii: ":") || byte == UInt8(ascii: ",") { self.byte(UInt8(ascii: " ")) }
      }
    }
  }

  /// What comes before the `index`th item of an array: a comma unless it is the first (and in the
  /// pretty layout a space), or with an indent in the pretty layout, a line of its own: at most
  /// `indent` + 2 bytes.
  @inline(__always)
  mutating func item(_ index: Int, indent: Int?, spaced: Bool) {
    if index > 0 { byte(UInt8(ascii: ",")) }
    if let indent {
      newline(indent: indent)
    } else if spaced, index > 0 {
      byte(UInt8(ascii: " "))
    }
  }

  /// A line break and `indent` spaces.
  @inline(__always)
  mutating func newline(indent: Int) {
    byte(UInt8(ascii: "\n"))
    for _ in 0..<indent { byte(UInt8(ascii: " ")) }
  }
}
