/// A small JSON writer with a fixed key order and compact or one-item-per-line layout.
///
/// SwiftShape writes its documents by hand rather than with `JSONEncoder`: keys come in the
/// documented order, not sorted, numbers are printed exactly, and no Foundation is loaded.
package struct JSONWriter {
  package private(set) var output = ""
  /// For each open container, whether it holds a value already (so the next needs a comma).
  private var hasValue = [false]
  /// Whether a key was just written, so the next value is its value.
  private var afterKey = false

  /// Whether to put a space after `:` and `,` (the pretty layout); line breaks are the caller's.
  let spaced: Bool

  package init(spaced: Bool) { self.spaced = spaced }

  /// Writes a key; with `lineBreak`, the key starts a new line indented that far.
  package mutating func key(_ name: String, lineBreak indent: Int? = nil) {
    separate(lineBreak: indent)
    JSONWriter.appendString(name, to: &output)
    output += spaced ? ": " : ":"
    afterKey = true
  }

  private mutating func separate(lineBreak indent: Int?) {
    if hasValue[hasValue.count - 1] { output += spaced && indent == nil ? ", " : "," }
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
    output += text
  }

  package mutating func string(_ value: String) {
    beginValue()
    JSONWriter.appendString(value, to: &output)
  }

  package mutating func number<T: BinaryInteger>(_ value: T) { raw(String(value)) }

  package mutating func number(_ value: Double) {
    if value.rounded() == value, abs(value) < 1e15 {
      raw(String(Int64(value)))
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
    output += "{"
    hasValue.append(false)
  }

  package mutating func endObject(lineBreak indent: Int? = nil) {
    hasValue.removeLast()
    if let indent { newline(indent: indent) }
    output += "}"
  }

  package mutating func beginArray(lineBreak indent: Int? = nil) {
    beginValue(lineBreak: indent)
    output += "["
    hasValue.append(false)
  }

  package mutating func endArray(lineBreak indent: Int? = nil) {
    hasValue.removeLast()
    if let indent { newline(indent: indent) }
    output += "]"
  }

  /// Writes a newline and indentation, for the one-item-per-line layout.
  package mutating func newline(indent: Int) {
    output += "\n"
    output += String(repeating: " ", count: indent)
  }

  package static func appendString(_ value: String, to output: inout String) {
    output += "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case "\u{08}": output += "\\b"
      case "\u{0C}": output += "\\f"
      case "\u{00}"..."\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}":
        let hex = String(scalar.value, radix: 16)
        output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: output.unicodeScalars.append(scalar)
      }
    }
    output += "\""
  }
}
