/// A JSON value parsed with the byte range it came from, so a file can be edited in place: a value
/// replaced or an element appended without rewriting (or reformatting) anything else.
package indirect enum SourceJSON: Sendable {
  case object([(key: String, value: SourceJSON)], range: Range<Int>)
  case array([SourceJSON], range: Range<Int>)
  case string(String, range: Range<Int>)
  case number(Double, range: Range<Int>)
  case bool(Bool, range: Range<Int>)
  case null(range: Range<Int>)

  /// The bytes the value spans in its source.
  package var range: Range<Int> {
    switch self {
    case .object(_, let range), .array(_, let range), .string(_, let range), .number(_, let range),
      .bool(_, let range), .null(let range):
      range
    }
  }

  package subscript(key: String) -> SourceJSON? {
    guard case .object(let members, _) = self else { return nil }
    return members.last { $0.key == key }?.value
  }

  package var string: String? {
    if case .string(let value, _) = self { return value }
    return nil
  }

  package var number: Double? {
    if case .number(let value, _) = self { return value }
    return nil
  }

  package var array: [SourceJSON]? {
    if case .array(let values, _) = self { return values }
    return nil
  }

  package var members: [(key: String, value: SourceJSON)]? {
    if case .object(let members, _) = self { return members }
    return nil
  }

  package var bool: Bool? {
    if case .bool(let value, _) = self { return value }
    return nil
  }

  /// A short name of the value's type, for error messages.
  package var typeName: String {
    switch self {
    case .object: "an object"
    case .array: "an array"
    case .string: "a string"
    case .number: "a number"
    case .bool: "a boolean"
    case .null: "null"
    }
  }

  /// Why the bytes are not JSON: where, and what was expected.
  package struct SyntaxError: Error {
    package var offset: Int
    package var line: Int
    package var column: Int
    package var message: String
  }

  /// Parses a complete JSON text (RFC 8259).
  package static func parse(_ bytes: [UInt8]) throws -> SourceJSON {
    var parser = Parser(bytes: bytes)
    parser.skipWhitespace()
    let value = try parser.value(depth: 0)
    parser.skipWhitespace()
    guard parser.index == bytes.count else { throw parser.error("unexpected text after the JSON value") }
    return value
  }

  private struct Parser {
    let bytes: [UInt8]
    var index = 0

    func error(_ message: String) -> SyntaxError {
      let before = bytes[..<min(index, bytes.count)]
      let line = before.lazy.filter { $0 == 0x0A }.count + 1
      let column = index - (before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
      return SyntaxError(offset: index, line: line, column: column, message: message)
    }

    mutating func skipWhitespace() {
      while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func expect(_ byte: UInt8, _ what: String) throws {
      guard index < bytes.count, bytes[index] == byte else { throw error("expected \(what)") }
      index += 1
    }

    mutating func value(depth: Int) throws -> SourceJSON {
      guard depth < 256 else { throw error("nested too deeply") }
      guard index < bytes.count else { throw error("unexpected end of the file") }
      let start = index
      switch bytes[index] {
      case UInt8(ascii: "{"):
        index += 1
        var members: [(key: String, value: SourceJSON)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
          index += 1
          return .object(members, range: start..<index)
        }
        while true {
          skipWhitespace()
          guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            throw error("expected a key in quotes")
          }
          let key = try string()
          skipWhitespace()
          try expect(UInt8(ascii: ":"), "':' after a key")
          skipWhitespace()
          members.append((key, try value(depth: depth + 1)))
          skipWhitespace()
          if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
            index += 1
            continue
          }
          try expect(UInt8(ascii: "}"), "',' or '}'")
          return .object(members, range: start..<index)
        }
      case UInt8(ascii: "["):
        index += 1
        var values: [SourceJSON] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
          index += 1
          return .array(values, range: start..<index)
        }
        while true {
          skipWhitespace()
          values.append(try value(depth: depth + 1))
          skipWhitespace()
          if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
            index += 1
            continue
          }
          try expect(UInt8(ascii: "]"), "',' or ']'")
          return .array(values, range: start..<index)
        }
      case UInt8(ascii: "\""):
        let value = try string()
        return .string(value, range: start..<index)
      case UInt8(ascii: "t"):
        try literal("true")
        return .bool(true, range: start..<index)
      case UInt8(ascii: "f"):
        try literal("false")
        return .bool(false, range: start..<index)
      case UInt8(ascii: "n"):
        try literal("null")
        return .null(range: start..<index)
      default:
        return .number(try number(), range: start..<index)
      }
    }

    mutating func literal(_ word: String) throws {
      let expected = Array(word.utf8)
      guard index + expected.count <= bytes.count, Array(bytes[index..<(index + expected.count)]) == expected
      else {
        throw error("expected a value")
      }
      index += expected.count
    }

    mutating func number() throws -> Double {
      let start = index
      if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
      let digits = { (parser: inout Parser) -> Int in
        let from = parser.index
        while parser.index < parser.bytes.count, (0x30...0x39).contains(parser.bytes[parser.index]) {
          parser.index += 1
        }
        return parser.index - from
      }
      guard digits(&self) > 0 else { throw error("expected a value") }
      if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
        index += 1
        guard digits(&self) > 0 else { throw error("expected digits after '.'") }
      }
      if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
        index += 1
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
          index += 1
        }
        guard digits(&self) > 0 else { throw error("expected an exponent") }
      }
      guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else {
        throw error("not a number")
      }
      return value
    }

    mutating func string() throws -> String {
      index += 1  // the opening quote
      // The text between escapes is copied as it stands. (Appending it to a scalar view took 3,100
      // instructions a string: a fifth of `--requests` with spans.)
      var text = ""
      var run = index
      func flush(_ parser: Parser, upTo end: Int) {
        text += String(decoding: parser.bytes[run..<end], as: UTF8.self)
      }
      while true {
        guard index < bytes.count else { throw error("unterminated string") }
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") {
          flush(self, upTo: index)
          index += 1
          return text
        }
        guard byte >= 0x20 else { throw error("control character in a string") }
        guard byte == UInt8(ascii: "\\") else {
          index += 1
          continue
        }
        flush(self, upTo: index)
        index += 1
        guard index < bytes.count else { throw error("unterminated string") }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): text.unicodeScalars.append("\"")
        case UInt8(ascii: "\\"): text.unicodeScalars.append("\\")
        case UInt8(ascii: "/"): text.unicodeScalars.append("/")
        case UInt8(ascii: "b"): text.unicodeScalars.append("\u{08}")
        case UInt8(ascii: "f"): text.unicodeScalars.append("\u{0C}")
        case UInt8(ascii: "n"): text.unicodeScalars.append("\n")
        case UInt8(ascii: "r"): text.unicodeScalars.append("\r")
        case UInt8(ascii: "t"): text.unicodeScalars.append("\t")
        case UInt8(ascii: "u"):
          var value = try hex4()
          if (0xD800...0xDBFF).contains(value), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
            bytes[index + 1] == UInt8(ascii: "u")
          {
            index += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw error("a lone surrogate in \\u escapes") }
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
          }
          guard let scalar = Unicode.Scalar(value) else { throw error("a lone surrogate in \\u escapes") }
          text.unicodeScalars.append(scalar)
        default:
          throw error("unknown escape in a string")
        }
        run = index
      }
    }

    mutating func hex4() throws -> UInt32 {
      guard index + 4 <= bytes.count,
        let value = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16)
      else { throw error("expected four hex digits after \\u") }
      index += 4
      return value
    }
  }
}

extension SourceJSON: Encodable {
  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// Encodes the value as it was read: an object's members in their order, a whole number as an
  /// integer.
  package func encode(to encoder: any Encoder) throws {
    switch self {
    case .object(let members, _):
      var container = encoder.container(keyedBy: Key.self)
      for (key, value) in members { try container.encode(value, forKey: Key(stringValue: key)) }
    case .array(let items, _):
      var container = encoder.unkeyedContainer()
      for item in items { try container.encode(item) }
    case .string(let text, _):
      var container = encoder.singleValueContainer()
      try container.encode(text)
    case .number(let number, _):
      var container = encoder.singleValueContainer()
      if number == number.rounded(), let whole = Int64(exactly: number) {
        try container.encode(whole)
      } else {
        try container.encode(number)
      }
    case .bool(let value, _):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    }
  }
}
