// SVG text as UTF-8 bytes, with coordinates formatted straight into them.

import HarfBuzz
@_spi(Writers) import SwiftShape

/// SVG text as UTF-8 bytes, written with string literals or appended piece by piece: `Double`s
/// are coordinates, with at most two decimals and no trailing zeros (deterministic text),
/// formatted straight into the bytes.
struct SVGText: ExpressibleByStringInterpolation {
  /// The UTF-8, written into one buffer piece by piece.
  private var buffer = ByteBuffer()

  init() {}

  init(stringLiteral value: String) { append(value) }

  init(stringInterpolation: Interpolation) { self = stringInterpolation.text }

  /// A copy of the text's bytes.
  var bytes: [UInt8] { buffer.bytes }

  /// The text's bytes, without a copy.
  consuming func finish() -> [UInt8] { buffer.finish() }

  /// How many bytes are written.
  var count: Int { buffer.count }

  /// Hands the bytes written to `sink` and empties the text.
  mutating func flush(to sink: (UnsafeBufferPointer<UInt8>) -> Void) {
    buffer.withBytes { sink($0) }
    buffer.removeAll()
  }

  /// Makes room for `capacity` bytes in all.
  mutating func reserveCapacity(_ capacity: Int) { buffer.reserveCapacity(capacity) }

  static func += (text: inout SVGText, more: SVGText) { text.buffer.append(more.buffer) }

  mutating func append(_ byte: UInt8) { buffer.append(byte) }

  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) { buffer.append(bytes) }

  mutating func append(_ text: String) { buffer.append(text) }

  mutating func append(literal: StaticString) { buffer.append(literal: literal) }

  /// Text for an attribute value or an element's content, with `&`, `<`, `>` and `"` escaped.
  mutating func appendEscaped(_ text: String) {
    var text = text
    text.withUTF8 { utf8 in
      let special: (UInt8) -> Bool = { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 }
      guard utf8.contains(where: special) else { return append(utf8) }
      for byte in utf8 {
        switch byte {
        case UInt8(ascii: "&"): append("&amp;")
        case UInt8(ascii: "<"): append("&lt;")
        case UInt8(ascii: ">"): append("&gt;")
        case UInt8(ascii: "\""): append("&quot;")
        default: append(byte)
        }
      }
    }
  }

  mutating func append(_ value: Int) { buffer.append(value) }

  mutating func append(_ value: UInt32) { buffer.appendDigits(UInt(value)) }

  /// A coordinate, rounded to hundredths.
  mutating func append(_ value: Double) {
    buffer.write(upTo: ByteBuffer.Cursor.longestCoordinate) { $0.coordinate(value) }
  }

  /// Writes at most `length` bytes through a cursor, with one capacity check (see
  /// `ByteBuffer.write(upTo:through:)`).
  @inline(__always)
  mutating func write(upTo length: Int, through body: (inout ByteBuffer.Cursor) -> Void) {
    buffer.write(upTo: length, through: body)
  }

  struct Interpolation: StringInterpolationProtocol {
    var text = SVGText()

    init(literalCapacity: Int, interpolationCount: Int) {
      text.reserveCapacity(literalCapacity + 8 * interpolationCount)
    }

    mutating func appendLiteral(_ literal: String) { text.append(literal) }
    mutating func appendInterpolation(_ value: String) { text.append(value) }
    mutating func appendInterpolation(_ value: SVGText) { text += value }
    mutating func appendInterpolation(_ value: Int) { text.append(value) }
    mutating func appendInterpolation(_ value: UInt32) { text.append(value) }
    mutating func appendInterpolation(_ value: Double) { text.append(value) }
  }
}

/// Checks a color option: `#rrggbb`, `rrggbb`, `#rrggbbaa` or `rrggbbaa`; returns it with `#`.
public func parseColor(_ text: String) -> String? {
  let hex = text.hasPrefix("#") ? String(text.dropFirst()) : text
  guard [6, 8].contains(hex.count), hex.allSatisfy(\.isHexDigit) else { return nil }
  return "#" + hex.uppercased()
}

extension ByteBuffer.Cursor {
  /// The most bytes `coordinate(_:)` writes: a sign, 16 digits, a point and two decimals.
  static let longestCoordinate = 20

  /// A coordinate, rounded to hundredths, with no trailing zeros (`12`, `-3.5`, `0.25`).
  @inline(__always)
  mutating func coordinate(_ value: Double) {
    // Speed: a whole number (most coordinates in font units) skips the rounding, a call into the
    // C library: 7 million instructions of the English text's 455 million. It is written as the
    // rounding below would write it.
    if let whole = Int64(exactly: value), whole > -1_000_000_000_000, whole < 1_000_000_000_000 {
      if whole < 0 { byte(UInt8(ascii: "-")) }
      digits(UInt(whole.magnitude))
      return
    }
    // Beyond ±10^15 (no font draws there) the hundredths would not fit an integer.
    let hundredths = (min(max(value, -1e15), 1e15) * 100).rounded()
    guard hundredths != 0, !hundredths.isNaN else {
      byte(UInt8(ascii: "0"))
      return
    }
    if hundredths < 0 { byte(UInt8(ascii: "-")) }
    let magnitude = UInt(hundredths.magnitude)
    digits(magnitude / 100)
    let fraction = magnitude % 100
    if fraction != 0 {
      byte(UInt8(ascii: "."))
      byte(UInt8(ascii: "0") + UInt8(fraction / 10))
      if fraction % 10 != 0 { byte(UInt8(ascii: "0") + UInt8(fraction % 10)) }
    }
  }
}
