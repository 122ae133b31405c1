/// A small JSON writer with a fixed key order and compact or one-item-per-line layout, writing UTF-8
/// bytes.
///
/// SwiftShape writes its documents by hand rather than with `JSONEncoder`: keys come in the
/// documented order, not sorted, numbers are printed exactly, no Foundation is loaded, and it is
/// fast enough for the command's streaming output.
package struct JSONWriter {
  /// The UTF-8 written so far.
  package private(set) var buffer: ByteBuffer
  /// For each open container, a bit: whether it holds a value already (so the next needs a
  /// comma). Bit `depth` is the innermost; documents nest far less than 64 deep.
  private var hasValue: UInt64 = 0
  private var depth = 0
  /// Whether a key was just written, so the next value is its value.
  private var afterKey = false
  /// Whether to put a space after `:` and `,` (the pretty layout); line breaks are the caller's.
  package let spaced: Bool

  package init(spaced: Bool, capacity: Int = 256) {
    self.spaced = spaced
    buffer = ByteBuffer(capacity: capacity)
  }

  /// A writer that continues `bytes` (take them back with `finish()` when done).
  package init(spaced: Bool, continuing bytes: [UInt8]) {
    self.spaced = spaced
    buffer = ByteBuffer(continuing: bytes)
  }

  /// The bytes written, without a copy.
  package consuming func finish() -> [UInt8] { buffer.finish() }

  /// A copy of the bytes written so far.
  package var bytes: [UInt8] { buffer.bytes }

  /// Appends bytes as they are, after the separator a value needs (for a value written by hand).
  package mutating func rawValue(_ write: (inout ByteBuffer) -> Void) {
    beginValue()
    write(&buffer)
  }

  /// Gives `write` the buffer to append to or reserve in, outside the JSON structure: no separator
  /// is written, and the writer's state does not change.
  package mutating func withBuffer(_ write: (inout ByteBuffer) -> Void) {
    write(&buffer)
  }

  /// The text written so far.
  package var output: String { String(decoding: bytes, as: UTF8.self) }

  /// Writes a key, which must need no escaping (SwiftShape's keys are ASCII words); with
  /// `lineBreak`, the key starts a new line indented that far.
  package mutating func key(_ name: String, lineBreak indent: Int? = nil) {
    separate(lineBreak: indent)
    buffer.append(UInt8(ascii: "\""))
    buffer.append(name)
    buffer.append(UInt8(ascii: "\""))
    buffer.append(UInt8(ascii: ":"))
    if spaced { buffer.append(UInt8(ascii: " ")) }
    afterKey = true
  }

  private mutating func separate(lineBreak indent: Int?) {
    let bit: UInt64 = 1 << UInt64(depth)
    if hasValue & bit != 0 {
      buffer.append(UInt8(ascii: ","))
      if spaced && indent == nil { buffer.append(UInt8(ascii: " ")) }
    }
    hasValue |= bit
    if let indent { newline(indent: indent) }
  }

  private mutating func beginValue(lineBreak indent: Int? = nil) {
    if afterKey {
      afterKey = false
      return
    }
    separate(lineBreak: indent)
  }

  package mutating func raw(_ text: String) {
    beginValue()
    buffer.append(text)
  }

  package mutating func string(_ value: String) {
    beginValue()
    JSONWriter.appendString(value, to: &buffer)
  }

  package mutating func number<T: BinaryInteger>(_ value: T) {
    beginValue()
    buffer.append(Int(Int64(value)))
  }

  package mutating func number(_ value: Double) {
    if value.rounded() == value, abs(value) < 1e15 {
      number(Int64(value))
    } else {
      raw(value.description)
    }
  }

  /// `{"x": x, "y": y}`.
  package mutating func pair(x: Int32, y: Int32) {
    beginObject()
    key("x")
    number(x)
    key("y")
    number(y)
    endObject()
  }

  package mutating func bool(_ value: Bool) { raw(value ? "true" : "false") }

  /// A member: its key, then its value (`null` for nil).
  package mutating func member(_ name: String, _ value: String?) {
    key(name)
    if let value { string(value) } else { null() }
  }

  /// A member with a whole-number value (`null` for nil).
  package mutating func member<T: BinaryInteger>(_ name: String, _ value: T?) {
    key(name)
    if let value { number(value) } else { null() }
  }

  /// A member with a number value.
  package mutating func member(_ name: String, _ value: Double) {
    key(name)
    number(value)
  }

  /// A member with a boolean value.
  package mutating func member(_ name: String, _ value: Bool) {
    key(name)
    bool(value)
  }

  package mutating func null() { raw("null") }

  package mutating func beginObject(lineBreak indent: Int? = nil) {
    open(UInt8(ascii: "{"), lineBreak: indent)
  }

  package mutating func endObject(lineBreak indent: Int? = nil) {
    close(UInt8(ascii: "}"), lineBreak: indent)
  }

  package mutating func beginArray(lineBreak indent: Int? = nil) {
    open(UInt8(ascii: "["), lineBreak: indent)
  }

  package mutating func endArray(lineBreak indent: Int? = nil) { close(UInt8(ascii: "]"), lineBreak: indent) }

  /// Starts an object or an array with `bracket`.
  private mutating func open(_ bracket: UInt8, lineBreak indent: Int?) {
    beginValue(lineBreak: indent)
    buffer.append(bracket)
    precondition(depth < 63, "JSON nested too deep")
    depth += 1
    hasValue &= ~(1 << UInt64(depth))
  }

  /// Ends an object or an array with `bracket`, on a new line at `indent` when given.
  private mutating func close(_ bracket: UInt8, lineBreak indent: Int?) {
    depth -= 1
    if let indent { newline(indent: indent) }
    buffer.append(bracket)
  }

  /// Writes a newline and indentation, for the one-item-per-line layout.
  package mutating func newline(indent: Int) {
    buffer.write(upTo: indent + 1) { target in
      target[0] = UInt8(ascii: "\n")
      (target + 1).initialize(repeating: UInt8(ascii: " "), count: indent)
      return indent + 1
    }
  }

  /// Appends a JSON string literal: quotes, backslashes and control characters escaped, and U+2028
  /// and U+2029 too (JavaScript reads them as line ends). Text with nothing to escape, nearly all
  /// of it, is copied in one piece.
  package static func appendString(_ value: String, to buffer: inout ByteBuffer) {
    var value = value
    value.withUTF8 { appendString(utf8: $0, to: &buffer) }
  }

  /// A string given as its UTF-8 bytes (valid UTF-8), as `appendString(_:to:)` writes it.
  package static func appendString(utf8: UnsafeBufferPointer<UInt8>, to buffer: inout ByteBuffer) {
    var plain = true
    for byte in utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || byte == 0xE2 {
      plain = false
      break
    }
    if plain {
      buffer.write(upTo: utf8.count + 2) { target in
        target[0] = UInt8(ascii: "\"")
        if let source = utf8.baseAddress { (target + 1).update(from: source, count: utf8.count) }
        target[utf8.count + 1] = UInt8(ascii: "\"")
        return utf8.count + 2
      }
    } else {
      buffer.append(UInt8(ascii: "\""))
      appendEscaped(utf8, to: &buffer)
      buffer.append(UInt8(ascii: "\""))
    }
  }

  private static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to buffer: inout ByteBuffer) {
    let hex = Array("0123456789abcdef".utf8)
    var index = 0
    var plainStart = 0
    // Runs of bytes that need no escape are copied whole.
    func copyPlain(upTo end: Int) {
      if end > plainStart { buffer.append(UnsafeBufferPointer(rebasing: utf8[plainStart..<end])) }
    }
    while index < utf8.count {
      let byte = utf8[index]
      guard byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || byte == 0xE2 else {
        index += 1
        continue
      }
      if byte == 0xE2,
        !(index + 2 < utf8.count && utf8[index + 1] == 0x80
          && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9))
      {
        index += 1
        continue
      }
      copyPlain(upTo: index)
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"):
        buffer.append(UInt8(ascii: "\\"))
        buffer.append(byte)
      case 0x0A: buffer.append(literal: "\\n")
      case 0x0D: buffer.append(literal: "\\r")
      case 0x09: buffer.append(literal: "\\t")
      case 0x08: buffer.append(literal: "\\b")
      case 0x0C: buffer.append(literal: "\\f")
      case 0xE2:
        // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
        buffer.append(literal: utf8[index + 2] == 0xA8 ? "\\u2028" : "\\u2029")
        index += 2
      default:
        buffer.append(literal: "\\u00")
        buffer.append(hex[Int(byte >> 4)])
        buffer.append(hex[Int(byte & 0xF)])
      }
      index += 1
      plainStart = index
    }
    copyPlain(upTo: utf8.count)
  }

  /// Appends a string literal to bytes.
  package static func appendString(_ value: String, to bytes: inout [UInt8]) {
    var buffer = ByteBuffer(continuing: bytes)
    bytes = []
    appendString(value, to: &buffer)
    bytes = buffer.finish()
  }

  /// Appends a string literal to a `String` (for callers that build text).
  package static func appendString(_ value: String, to output: inout String) {
    var buffer = ByteBuffer(capacity: value.utf8.count + 16)
    appendString(value, to: &buffer)
    output += String(decoding: buffer.finish(), as: UTF8.self)
  }
}
