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
  /// The font object of a paragraph's runs in the document's font, made once.
  private let runFont: UnsafeMutableBufferPointer<UInt8>

  /// A writer for documents of `font` and `options`.
  public init(font: ShapingFont, options: ShapeOptions, pattern: String? = nil) {
    var document = ShapeDocument(font: font, options: options, entries: [])
    document.pattern = pattern
    self.document = document
    let header = document.start(.compact)
    self.header = .allocate(capacity: header.count)
    _ = self.header.initialize(from: header)
    var runFont = ByteBuffer(capacity: 256)
    ShapeDocument.appendRunFont(font.identity, fallback: false, to: &runFont)
    let bytes = runFont.finish()
    self.runFont = .allocate(capacity: bytes.count)
    _ = self.runFont.initialize(from: bytes)
  }

  deinit {
    header.deallocate()
    runFont.deallocate()
  }

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
    ShapeDocument.appendEntry(
      entry, layout: .compact,
      runFont: ShapeDocument.RunFontBytes(font: document.font.identity, bytes: UnsafeBufferPointer(runFont)),
      to: &buffer)
    buffer.append(literal: "]}\n")
  }
}

/// SwiftShape's JSON document for shaped text: the font, the units, the options, and one result
/// per input line. The format is documented in the README and described by
/// `Sources/SwiftShape/Schemas/shape-document.schema.json`.
public struct ShapeDocument: Sendable {
  /// One shaped input line: its 1-based number (`line`) and what it was shaped into (`result`).
  public struct Entry: Sendable, Hashable {
    /// The result of input line `line`.
    public init(line: Int, result: ShapeResult) { (self.line, self.result) = (line, result) }

    /// The 1-based number of the input line.
    public var line: Int
    /// What it was shaped into.
    public var result: ShapeResult
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
  /// The format's version.
  public static let version = 1

  /// A document of `entries` shaped with `font` and `options`.
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
    String(decoding: jsonBytes(layout), as: UTF8.self)
  }

  /// The document as UTF-8 JSON text, without a final newline: `json(_:)` before it is made a
  /// `String` (for writing out, which then needs no copy of a long text).
  public func jsonBytes(_ layout: Layout = .pretty) -> [UInt8] {
    // Room for it all at once (the pretty layout adds about a quarter): growing by doubling had
    // the kernel fault in the pages of every larger copy.
    let estimate = entries.reduce(1024) { $0 + ShapeDocument.compactSizeEstimate($1) }
    var buffer = ByteBuffer(capacity: layout == .pretty ? estimate + estimate / 4 : estimate)
    buffer.append(start(layout))
    for (index, entry) in entries.enumerated() {
      ShapeDocument.appendEntry(entry, layout: layout, first: index == 0, to: &buffer)
    }
    buffer.append(ShapeDocument.end(layout, hasEntries: !entries.isEmpty))
    return buffer.finish()
  }

  /// The document up to its first result: the keys before `results`, and `"results": [`.
  package func start(_ layout: Layout) -> [UInt8] {
    let pretty = layout == .pretty
    var w = JSONWriter(spaced: pretty, capacity: 1024)
    w.beginObject()
    writeHeader(&w, pretty: pretty)
    w.beginArray()
    return w.finish()
  }

  /// The document after its last result, without a final newline.
  package static func end(_ layout: Layout, hasEntries: Bool) -> [UInt8] {
    switch layout {
    case .pretty: hasEntries ? Array("\n  ]\n}".utf8) : Array("]\n}".utf8)
    case .compact: Array("]}".utf8)
    }
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
    w.member("version", ShapeDocument.version)
    w.member("harfbuzz", HarfBuzz.version)
    w.key("font", lineBreak: at(2))
    writeFont(&w)
    w.key("units", lineBreak: at(2))
    w.string(font.unit.description)
    w.key("scale")
    w.pair(x: font.scale.x, y: font.scale.y)
    w.member("ptem", Double(font.font.configuration.pointSize))
    w.member("font_funcs", font.options.functions.rawValue)
    w.key("variations", lineBreak: at(2))
    w.beginArray()
    for variation in font.options.variations { w.string(variation.description) }
    w.endArray()
    w.key("features")
    w.beginArray()
    for feature in options.features { w.string(feature.description) }
    w.endArray()
    w.member("cluster_level", options.clusterLevel.rawValue)
    w.member("cluster_unit", options.clusterUnit.rawValue)
    w.key("results", lineBreak: at(2))
  }

  private func writeFont(_ w: inout JSONWriter) {
    let identity = font.identity
    w.beginObject()
    w.member("file", identity.file)
    if let pattern {
      w.member("pattern", pattern)
    }
    w.member("face_index", identity.faceIndex)
    w.member("upem", identity.unitsPerEm)
    w.member("glyph_count", identity.glyphCount)
    for (key, value) in [
      ("family", identity.family), ("style", identity.style), ("postscript_name", identity.postScriptName),
    ] {
      guard let value else { continue }
      w.key(key)
      w.string(value)
    }
    w.endObject()
  }
}
