import CHarfBuzz

/// A four-character OpenType tag: a table (`GSUB`), feature (`liga`), axis (`wght`), script or
/// language system.
///
/// A tag is written as one to four printable ASCII characters; shorter strings are padded with
/// spaces, as OpenType does. The corresponding C type is `hb_tag_t`.
public struct OpenTypeTag: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The tag's four bytes, big-endian, as in the font file.
  public var rawValue: UInt32

  /// The value with this raw value.
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// Parses a tag of one to four printable ASCII characters.
  ///
  /// - Throws: `HarfBuzzError` with kind `.invalidSyntax` for an empty string, more than four
  ///   characters or a character outside printable ASCII.
  ///
  /// The corresponding C function is `hb_tag_from_string`.
  public init(parsing string: String) throws {
    let bytes = Array(string.utf8)
    guard (1...4).contains(bytes.count), bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else {
      throw HarfBuzzError(
        .invalidSyntax, input: string, reason: "not a tag (one to four printable ASCII characters)")
    }
    var value: UInt32 = 0
    for index in 0..<4 {
      value = value << 8 | UInt32(index < bytes.count ? bytes[index] : 0x20)
    }
    rawValue = value
  }

  /// The tag as four characters, trailing spaces included (`"cv01"`, `"DFLT"`, `"kern"`).
  public var description: String {
    // Four bytes in place (a string this short is stored inline: nothing is allocated).
    func printable(_ shift: UInt32) -> UInt8 {
      let byte = UInt8(truncatingIfNeeded: rawValue >> shift)
      return (0x20...0x7E).contains(byte) ? byte : UInt8(ascii: "?")
    }
    var bytes = (printable(24), printable(16), printable(8), printable(0))
    return withUnsafeBytes(of: &bytes) { String(decoding: $0, as: UTF8.self) }
  }

  /// Orders tags by their 32-bit value.
  public static func < (lhs: OpenTypeTag, rhs: OpenTypeTag) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension OpenTypeTag: ExpressibleByStringLiteral {
  /// A tag from a literal; a literal that is not a valid tag is a programming error.
  public init(stringLiteral value: String) {
    do {
      try self.init(parsing: value)
    } catch {
      preconditionFailure("invalid tag literal \"\(value)\"")
    }
  }
}

extension OpenTypeTag: HarfBuzzSyntax {}
