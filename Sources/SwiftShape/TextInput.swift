/// Reading text the way hb-shape does: lines from bytes, code points from `-u` lists.
public enum TextInput {
  /// Splits UTF-8 bytes into lines, as hb-shape reads a text file or standard input: on `\n` only
  /// (a `\r` stays in the line), with no extra empty line after a final `\n`; no bytes, no lines.
  ///
  /// - Parameters:
  ///   - bytes: the text's bytes.
  ///   - name: how the error names the input (a path, `standard input`).
  /// - Throws: `ShapingError` of kind `.badText` at the first malformed UTF-8 sequence, naming its
  ///   byte offset, line and column.
  public static func lines(fromUTF8 bytes: some Collection<UInt8>, name: String) throws -> [String] {
    lines(of: try decode(bytes, name: name))
  }

  /// Decodes UTF-8 bytes, refusing malformed ones rather than replacing them.
  ///
  /// - Throws: `ShapingError` of kind `.badText` at the first malformed sequence, naming its byte
  ///   offset, line and column.
  public static func decode(_ bytes: some Collection<UInt8>, name: String) throws -> String {
    let bytes = Array(bytes)
    if let offset = firstInvalidUTF8(in: bytes) {
      let line = bytes[..<offset].lazy.filter { $0 == 0x0A }.count + 1
      let lineStart = bytes[..<offset].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
      throw ShapingError(
        .badText, input: name,
        reason: "invalid UTF-8 at byte \(offset) (line \(line), byte \(offset - lineStart + 1) of the line)")
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Splits text into lines as `lines(fromUTF8:name:)` does.
  public static func lines(of text: String) -> [String] {
    guard !text.isEmpty else { return [] }
    var lines = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map {
      String(decoding: $0, as: UTF8.self)
    }
    if text.utf8.last == 0x0A { lines.removeLast() }
    return lines
  }

  /// The byte offset of the first malformed UTF-8 sequence, or nil when all of it is valid.
  public static func firstInvalidUTF8(in bytes: [UInt8]) -> Int? {
    var index = 0
    while index < bytes.count {
      let lead = bytes[index]
      let length: Int
      var lower: UInt8 = 0x80
      var upper: UInt8 = 0xBF
      switch lead {
      case 0x00...0x7F:
        index += 1
        continue
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        lower = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        upper = 0x9F
      case 0xF0:
        length = 4
        lower = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        upper = 0x8F
      default: return index
      }
      guard index + length <= bytes.count else { return index }
      guard (lower...upper).contains(bytes[index + 1]) else { return index }
      for continuation in (index + 2)..<(index + length) where bytes[continuation] & 0xC0 != 0x80 {
        return index
      }
      index += length
    }
    return nil
  }

  /// Parses a list of code points as hb-shape's `-u` takes them: hexadecimal numbers, each
  /// optionally prefixed `U+`, `u+` or `0x`, separated by commas, spaces, semicolons or tabs
  /// (`U+0041,U+0301`, `41 301`).
  ///
  /// - Throws: `ShapingError` of kind `.invalidArgument` naming the item that is not a hexadecimal
  ///   number or not a Unicode scalar value (a surrogate, or past U+10FFFF), or when the list has no
  ///   code points.
  public static func scalars(fromUnicodesList list: String) throws -> [Unicode.Scalar] {
    let items = list.split(whereSeparator: { ",; \t\n\r".contains($0) })
    guard !items.isEmpty else {
      throw ShapingError(
        .invalidArgument, input: list.isEmpty ? "--unicodes" : list, reason: "no code points in the list")
    }
    return try items.map { item in
      var digits = Substring(item)
      for prefix in ["U+", "u+", "0x", "0X"] where digits.hasPrefix(prefix) {
        digits = digits.dropFirst(prefix.count)
        break
      }
      guard !digits.isEmpty, digits.count <= 8, let value = UInt32(digits, radix: 16) else {
        throw ShapingError(
          .invalidArgument, input: String(item), reason: "not a hexadecimal code point (e.g. U+0041 or 41)")
      }
      guard let scalar = Unicode.Scalar(value) else {
        throw ShapingError(
          .invalidArgument, input: String(item),
          reason: value > 0x10FFFF
            ? "past U+10FFFF, the last code point" : "a surrogate, not a Unicode scalar value")
      }
      return scalar
    }
  }
}
