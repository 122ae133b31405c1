/// A small JSON writer with a fixed key order and compact or one-item-per-line layout, writing UTF-8
/// bytes.
///
/// SwiftShape writes its documents by hand rather than with `JSONEncoder`: keys come in the
/// documented order, not sorted, numbers are printed exactly, no Foundation is loaded, and it is
/// fast enough for the command's streaming output.
package struct JSONWriter {
  /// The UTF-8 bytes written so far.
  package private(set) var bytes: [UInt8] = []
  /// For each open container, whether it holds a value already (so the next needs a comma).
  private var hasValue = [false]
  /// Whether a key was just written, so the next value is its value.
  private var afterKey = false
  /// Whether to put a space after `:` and `,` (the pretty layout); line breaks are the caller's.
  package let spaced: Bool

  package init(spaced: Bool, capacity: Int = 256) {
    self.spaced = spaced
    bytes.reserveCapacity(capacity)
  }

  /// A writer that continues `bytes` (take them back with `bytes` when done).
  package init(spaced: Bool, continuing bytes: [UInt8]) {
    self.spaced = spaced
    self.bytes = bytes
  }

  /// Appends bytes as they are, after the separator a value needs (for a value written by hand).
  package mutating func rawValue(_ write: (inout [UInt8]) -> Void) {
    beginValue()
    write(&bytes)
  }

  /// The text written so far.
  package var output: String { String(decoding: bytes, as: UTF8.self) }

  /// Writes a key; with `lineBreak`, the key starts a new line indented that far.
  package mutating func key(_ name: String, lineBreak indent: Int? = nil) {
    separate(lineBreak: indent)
    JSONWriter.appendString(name, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    if spaced { bytes.append(UInt8(ascii: " ")) }
    afterKey = true
  }

  private mutating func separate(lineBreak indent: Int?) {
    if hasValue[hasValue.count - 1] {
      bytes.append(UInt8(ascii: ","))
      if spaced && indent == nil { bytes.append(UInt8(ascii: " ")) }
    }
    hasValue[hasValue.count - 1] = true
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
    bytes.append(contentsOf: text.utf8)
  }

  package mutating func string(_ value: String) {
    beginValue()
    JSONWriter.appendString(value, to: &bytes)
  }

  package mutating func number<T: BinaryInteger>(_ value: T) {
    beginValue()
    JSONWriter.appendInteger(Int64(value), to: &bytes)
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

  package mutating func null() { raw("null") }

  package mutating func beginObject(lineBreak indent: Int? = nil) {
    beginValue(lineBreak: indent)
    bytes.append(UInt8(ascii: "{"))
    hasValue.append(false)
  }

  package mutating func endObject(lineBreak indent: Int? = nil) {
    hasValue.removeLast()
    if let indent { newline(indent: indent) }
    bytes.append(UInt8(ascii: "}"))
  }

  package mutating func beginArray(lineBreak indent: Int? = nil) {
    beginValue(lineBreak: indent)
    bytes.append(UInt8(ascii: "["))
    hasValue.append(false)
  }

  package mutating func endArray(lineBreak indent: Int? = nil) {
    hasValue.removeLast()
    if let indent { newline(indent: indent) }
    bytes.append(UInt8(ascii: "]"))
  }

  /// Writes a newline and indentation, for the one-item-per-line layout.
  package mutating func newline(indent: Int) {
    bytes.append(UInt8(ascii: "\n"))
    for _ in 0..<indent { bytes.append(UInt8(ascii: " ")) }
  }

  /// Appends a JSON string literal: quotes, backslashes and control characters escaped, and U+2028
  /// and U+2029 too (JavaScript reads them as line ends). Text with nothing to escape, nearly all
  /// of it, is copied in one piece.
  package static func appendString(_ value: String, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "\""))
    var value = value
    value.withUTF8 { utf8 in
      if !utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xE2 }) {
        bytes.append(contentsOf: utf8)
      } else {
        appendEscaped(utf8, to: &bytes)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  private static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
    let hex: [UInt8] = Array("0123456789abcdef".utf8)
    var index = 0
    while index < utf8.count {
      let byte = utf8[index]
      index += 1
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"):
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(byte)
      case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
      case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
      case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
      case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
      case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
      case 0x00..<0x20, 0x7F:
        bytes.append(contentsOf: [
          UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)],
          hex[Int(byte & 0xF)],
        ])
      case 0xE2
      where index + 1 < utf8.count && utf8[index] == 0x80
        && (utf8[index + 1] == 0xA8 || utf8[index + 1] == 0xA9):
        // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
        bytes.append(contentsOf: Array((utf8[index + 1] == 0xA8 ? "\\u2028" : "\\u2029").utf8))
        index += 2
      default:
        bytes.append(byte)
      }
    }
  }

  /// Appends a string literal to a `String` (for callers that build text).
  package static func appendString(_ value: String, to output: inout String) {
    var bytes: [UInt8] = []
    appendString(value, to: &bytes)
    output += String(decoding: bytes, as: UTF8.self)
  }

  /// Appends an integer's decimal digits.
  package static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
    if value >= 0 && value < 10 {
      bytes.append(UInt8(ascii: "0") + UInt8(value))
      return
    }
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var magnitude = value.magnitude
      var start = 20
      while magnitude > 0 {
        start -= 1
        digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
      }
      if value < 0 {
        start -= 1
        digits[start] = UInt8(ascii: "-")
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
    }
  }
}
