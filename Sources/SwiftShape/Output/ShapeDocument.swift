import HarfBuzz

/// Writes SwiftShape's JSON document one input line at a time, as JSON Lines: each line a whole
/// compact document with one result. The part every line shares is made once. (A class: shaping
/// threads share one, and nothing is copied for each line.)
public final class ShapeDocumentLines: @unchecked Sendable {
  // @unchecked: `header` is written once, in `init`, and only read after.
  private let document: ShapeDocument
  /// What starts every line, up to the entry: kept outside any counted object, so that threads
  /// writing lines at once read it without each counting a reference to it.
  private let header: UnsafeMutableBufferPointer<UInt8>

  /// A writer for documents of `font` and `options`.
  public init(font: ShapingFont, options: ShapeOptions, pattern: String? = nil) {
    var document = ShapeDocument(font: font, options: options, entries: [])
    document.pattern = pattern
    self.document = document
    let header = document.compactHeader()
    self.header = .allocate(capacity: header.count)
    _ = self.header.initialize(from: header)
  }

  deinit { header.deallocate() }

  /// Appends one line, its newline included, for `entry`.
  public func append(_ entry: ShapeDocument.Entry, to bytes: inout [UInt8]) {
    var buffer = ByteBuffer(continuing: bytes)
    bytes = []
    append(entry, to: &buffer)
    bytes = buffer.finish()
  }

  /// Appends one line, its newline included, for `entry` (the buffer keeps its room between
  /// lines, for a caller that writes many).
  package func append(_ entry: ShapeDocument.Entry, to buffer: inout ByteBuffer) {
    buffer.reserveCapacity(buffer.count + header.count + ShapeDocument.compactSizeEstimate(entry))
    buffer.append(UnsafeBufferPointer(header))
    if document.isDirect(entry.result, pretty: false) {
      ShapeDocument.appendCompactEntry(line: entry.line, result: entry.result, to: &buffer)
    } else {
      JSONWriter.continuing(&buffer, spaced: false) { w in document.writeEntry(entry, to: &w, pretty: false) }
    }
    buffer.append(literal: "]}\n")
  }
}

/// SwiftShape's JSON document for shaped text: the font, the units, the options, and one result
/// per input line. The format is documented in the README and described by
/// `Sources/SwiftShape/Schemas/shape-document.schema.json`.
public struct ShapeDocument: Sendable {
  /// One shaped input line.
  public struct Entry: Sendable, Hashable {
    /// The 1-based number of the input line.
    public var line: Int
    /// What it was shaped into.
    public var result: ShapeResult

    public init(line: Int, result: ShapeResult) {
      self.line = line
      self.result = result
    }
  }

  /// The font every entry was shaped with.
  public var font: ShapingFont
  /// The options every entry was shaped with.
  public var options: ShapeOptions
  /// The shaped lines, in input order.
  public var entries: [Entry]
  /// The fontconfig pattern the font was found by, when it was found by name.
  public var pattern: String?

  /// The format name and version the document declares.
  public static let format = "swiftshape-shape"
  public static let version = 1

  public init(font: ShapingFont, options: ShapeOptions, entries: [Entry]) {
    self.font = font
    self.options = options
    self.entries = entries
  }

  /// The layout of the JSON text.
  public enum Layout: Sendable {
    /// Indented, one glyph per line: for reading and for diffs.
    case pretty
    /// All on one line: for JSON Lines.
    case compact
  }

  /// The document as JSON text, without a final newline.
  public func json(_ layout: Layout = .pretty) -> String {
    guard layout == .pretty else {
      var bytes = compactHeader()
      for (index, entry) in entries.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        appendCompact(entry, to: &bytes)
      }
      bytes.append(contentsOf: Array("]}".utf8))
      return String(decoding: bytes, as: UTF8.self)
    }
    var w = JSONWriter(spaced: true)
    w.beginObject()
    writeHeader(&w, pretty: true)
    w.beginArray()
    for entry in entries {
      writeEntry(entry, to: &w, pretty: true)
    }
    w.endArray(lineBreak: entries.isEmpty ? nil : 2)
    w.endObject(lineBreak: 0)
    return w.output
  }

  /// Everything before the first result in the compact layout: `{"format": … "results":[`.
  func compactHeader() -> [UInt8] {
    var w = JSONWriter(spaced: false, capacity: 512)
    w.beginObject()
    writeHeader(&w, pretty: false)
    w.beginArray()
    return w.finish()
  }

  /// One result in the compact layout.
  func appendCompact(_ entry: Entry, to bytes: inout [UInt8]) {
    var w = JSONWriter(spaced: false, continuing: bytes)
    bytes = []
    w.withBuffer { $0.reserveCapacity($0.count + ShapeDocument.compactSizeEstimate(entry)) }
    writeEntry(entry, to: &w, pretty: false)
    bytes = w.finish()
  }

  /// About how many bytes an entry takes in the compact layout, to reserve them at once.
  static func compactSizeEstimate(_ entry: Entry) -> Int {
    128 + 2 * entry.result.text.utf8.count + 112 * entry.result.runs.reduce(0) { $0 + $1.glyphs.count }
  }

  /// The keys before `results`, and the `results` key.
  private func writeHeader(_ w: inout JSONWriter, pretty: Bool) {
    func at(_ indent: Int) -> Int? { pretty ? indent : nil }
    w.key("format", lineBreak: at(2))
    w.string(ShapeDocument.format)
    w.key("version")
    w.number(ShapeDocument.version)
    w.key("harfbuzz")
    w.string(HarfBuzz.version)
    w.key("font", lineBreak: at(2))
    writeFont(&w)
    w.key("units", lineBreak: at(2))
    w.string(font.unit.description)
    w.key("scale")
    w.pair(x: font.scale.x, y: font.scale.y)
    w.key("ptem")
    w.number(Double(font.font.configuration.pointSize))
    w.key("font_funcs")
    w.string(font.options.functions.rawValue)
    w.key("variations", lineBreak: at(2))
    w.beginArray()
    for variation in font.options.variations { w.string(variation.description) }
    w.endArray()
    w.key("features")
    w.beginArray()
    for feature in options.features { w.string(feature.description) }
    w.endArray()
    w.key("cluster_level")
    w.number(options.clusterLevel.rawValue)
    w.key("cluster_unit")
    w.string(options.clusterUnit.rawValue)
    w.key("results", lineBreak: at(2))
  }

  private func writeFont(_ w: inout JSONWriter) {
    let identity = font.identity
    w.beginObject()
    w.key("file")
    w.string(identity.file)
    if let pattern {
      w.key("pattern")
      w.string(pattern)
    }
    w.key("face_index")
    w.number(identity.faceIndex)
    w.key("upem")
    w.number(identity.unitsPerEm)
    w.key("glyph_count")
    w.number(identity.glyphCount)
    for (key, value) in [
      ("family", identity.family), ("style", identity.style), ("postscript_name", identity.postScriptName),
    ] {
      guard let value else { continue }
      w.key(key)
      w.string(value)
    }
    w.endObject()
  }

  /// Whether `result` is written by `appendCompactEntry`, straight into the buffer: one run, no
  /// trace, no extents, in the compact layout.
  fileprivate func isDirect(_ result: ShapeResult, pretty: Bool) -> Bool {
    !pretty && result.runs.count == 1 && result.trace == nil && !options.includeExtents
  }

  func writeEntry(_ entry: Entry, to w: inout JSONWriter, pretty: Bool) {
    func at(_ indent: Int) -> Int? { pretty ? indent : nil }
    let result = entry.result
    if isDirect(result, pretty: pretty) {
      w.rawValue { ShapeDocument.appendCompactEntry(line: entry.line, result: result, to: &$0) }
      return
    }
    w.beginObject(lineBreak: at(4))
    w.key("line")
    w.number(entry.line)
    w.key("text")
    w.string(result.text)
    for run in result.runs {
      // One run today; the document grows a "runs" array when results can hold several.
      w.key("direction")
      w.string(run.direction.rawValue)
      w.key("script")
      w.string(run.script.description)
      w.key("language")
      if let language = run.language { w.string(language.identifier) } else { w.null() }
      w.key("advance")
      let advance = run.advance
      w.pair(x: advance.x, y: advance.y)
      w.key("glyphs")
      w.beginArray()
      // Through a pointer: each glyph is read in place, not copied out of the array.
      run.glyphs.withUnsafeBufferPointer { glyphs in
        for index in glyphs.indices { writeGlyph(glyphs[index], to: &w, lineBreak: at(6)) }
      }
      w.endArray(lineBreak: run.glyphs.isEmpty ? nil : at(4))
    }
    if let trace = result.trace {
      w.key("trace")
      w.beginArray()
      for event in trace {
        w.beginObject(lineBreak: at(6))
        w.key("message")
        w.string(event.message)
        if event.holdsCodePoints {
          w.key("codepoints")
          w.beginArray()
          for item in event.glyphs {
            w.beginObject()
            w.key("codepoint")
            w.number(item.id)
            w.key("cluster")
            w.number(item.cluster)
            w.endObject()
          }
          w.endArray()
        } else {
          w.key("glyphs")
          w.beginArray()
          for glyph in event.glyphs {
            writeGlyph(glyph, to: &w, lineBreak: nil, positions: event.hasPositions)
          }
          w.endArray()
        }
        w.endObject()
      }
      w.endArray(lineBreak: trace.isEmpty ? nil : at(4))
    }
    w.endObject()
  }

  /// A glyph object in the compact layout, written straight into the buffer (no extents) in one
  /// piece, after a comma when `comma` is set: the hot path of JSON Lines output.
  private static func appendCompactGlyph(
    _ glyph: UnsafePointer<ShapedGlyph>, positions: Bool, comma: Bool = false, to buffer: inout ByteBuffer
  ) {
    // The name as the JSON string its interned form keeps, no copy; what is written besides it
    // is at most 170 bytes (seven numbers of at most 20, and the keys).
    let name = glyph.pointee.internedName
    func write(_ json: UnsafeBufferPointer<UInt8>) {
      buffer.write(upTo: json.count + 180) { (cursor: inout ByteBuffer.Cursor) in
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
        cursor.byte(UInt8(ascii: "}"))
      }
    }
    if let name {
      name.withJSON { write($0) }
    } else {
      write(UnsafeBufferPointer(start: nil, count: 0))
    }
  }

  /// A result of one run with no trace and no extents in the compact layout, written straight into
  /// the buffer: the same bytes the writer makes, in a few pieces.
  fileprivate static func appendCompactEntry(line: Int, result: ShapeResult, to buffer: inout ByteBuffer) {
    buffer.write(upTo: 40) { (cursor: inout ByteBuffer.Cursor) in
      cursor.literal("{\"line\":")
      cursor.number(line)
      cursor.literal(",\"text\":")
    }
    JSONWriter.appendString(result.text, to: &buffer)
    // The run is read in place (a copy of it would retain and release each of its references).
    result.runs.withUnsafeBufferPointer { runs in
      let run = runs.baseAddress!
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
    }
    buffer.append(literal: "]}")
  }

  private func writeGlyph(
    _ glyph: borrowing ShapedGlyph, to w: inout JSONWriter, lineBreak: Int?, positions: Bool = true
  ) {
    if !w.spaced, lineBreak == nil, glyph.extents == nil {
      withUnsafePointer(to: glyph) { glyph in
        w.rawValue { ShapeDocument.appendCompactGlyph(glyph, positions: positions, to: &$0) }
      }
      return
    }
    w.beginObject(lineBreak: lineBreak)
    w.key("id")
    w.number(glyph.id)
    if let name = glyph.name {
      w.key("name")
      w.string(name)
    }
    w.key("cluster")
    w.number(glyph.cluster)
    if positions {
      w.key("x_advance")
      w.number(glyph.xAdvance)
      w.key("y_advance")
      w.number(glyph.yAdvance)
      w.key("x_offset")
      w.number(glyph.xOffset)
      w.key("y_offset")
      w.number(glyph.yOffset)
    }
    w.key("flags")
    w.number(glyph.flags.rawValue)
    if let extents = glyph.extents {
      w.key("extents")
      w.beginObject()
      w.key("x_bearing")
      w.number(extents.xBearing)
      w.key("y_bearing")
      w.number(extents.yBearing)
      w.key("width")
      w.number(extents.width)
      w.key("height")
      w.number(extents.height)
      w.endObject()
    }
    w.endObject()
  }
}
