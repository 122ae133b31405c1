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
  let spaced: Bool

  package init(spaced: Bool, capacity: Int = 256) {
    self.spaced = spaced
    bytes.reserveCapacity(capacity)
  }

  /// The text written so far.
  package var output: String { String(decoding: bytes, as: UTF8.self) }

  /// Writes a key; with `lineBreak`, the key starts a new line indented that far.
  package mutating func key(_ name: String, lineBreak indent: Int? = nil) {
    separate(lineBreak: indent)
    JSONWriter.appendString(name, to: &bytes)
    if spaced {
      bytes.append(UInt8(ascii: ":"))
      bytes.append(UInt8(ascii: " "))
    } else {
      bytes.append(UInt8(ascii: ":"))
    }
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
  /// and U+2029 too (JavaScript reads them as line ends).
  package static func appendString(_ value: String, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "\""))
    let hex: [UInt8] = Array("0123456789abcdef".utf8)
    var utf8 = value.utf8.makeIterator()
    while let byte = utf8.next() {
      switch byte {
      case UInt8(ascii: "\""):
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(byte)
      case UInt8(ascii: "\\"):
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(byte)
      case 0x0A:
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(UInt8(ascii: "n"))
      case 0x0D:
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(UInt8(ascii: "r"))
      case 0x09:
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(UInt8(ascii: "t"))
      case 0x08:
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(UInt8(ascii: "b"))
      case 0x0C:
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(UInt8(ascii: "f"))
      case 0x00..<0x20, 0x7F:
        bytes.append(contentsOf: Array("\\u00".utf8))
        bytes.append(hex[Int(byte >> 4)])
        bytes.append(hex[Int(byte & 0xF)])
      case 0xE2:
        // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
        let second = utf8.next()
        let third = second == 0x80 ? utf8.next() : nil
        if let third, third == 0xA8 || third == 0xA9 {
          bytes.append(contentsOf: Array((third == 0xA8 ? "\\u2028" : "\\u2029").utf8))
        } else {
          bytes.append(byte)
          if let second { bytes.append(second) }
          if let third { bytes.append(third) }
        }
      default:
        bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// Appends a string literal to a `String` (for callers that build text).
  package static func appendString(_ value: String, to output: inout String) {
    var bytes: [UInt8] = []
    appendString(value, to: &bytes)
    output += String(decoding: bytes, as: UTF8.self)
  }

  /// Appends an integer's decimal digits.
  package static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
    if value == 0 {
      bytes.append(UInt8(ascii: "0"))
      return
    }
    var magnitude = value.magnitude
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                 UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
    )
    var count = 0
    withUnsafeMutableBytes(of: &digits) { storage in
      while magnitude > 0 {
        storage[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
        count += 1
      }
      for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(storage[index]) }
    }
  }
}
