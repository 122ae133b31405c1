import CHarfBuzz

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A BCP 47 language tag (`en`, `ar`, `hi`, `zh-hant`, `tr-TR`), as HarfBuzz canonicalizes it:
/// lower case, `-` for `_`.
///
/// The corresponding C type is `hb_language_t`, an interned pointer that lives as long as the
/// process.
public struct Language: Hashable, @unchecked Sendable, CustomStringConvertible {
  // @unchecked: `raw` points to a string HarfBuzz interns for the life of the process and never
  // changes, so it can be shared between threads.

  /// The interned HarfBuzz language: one pointer per canonical tag, so equal languages have equal
  /// pointers.
  let raw: hb_language_t

  /// The canonical tag (`hb_language_to_string`).
  public var identifier: String { String(cString: hb_language_to_string(raw)) }

  /// Calls `body` with the identifier's bytes, read in place from HarfBuzz's string.
  package func withIdentifierBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    let string = hb_language_to_string(raw)!
    return string.withMemoryRebound(to: UInt8.self, capacity: 1) {
      body(UnsafeBufferPointer(start: $0, count: strlen(string)))
    }
  }

  /// Parses a BCP 47 tag: ASCII letters, digits, `-` and `_`, starting with a letter.
  ///
  /// - Throws: `HarfBuzzError` with kind `.invalidSyntax` for an empty string or one with other
  ///   characters.
  ///
  /// The corresponding C function is `hb_language_from_string`.
  public init(parsing string: String) throws {
    let bytes = Array(string.utf8)
    let isLetter = { (byte: UInt8) in (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    guard let first = bytes.first, isLetter(first),
      bytes.allSatisfy({ isLetter($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x5F })
    else {
      throw HarfBuzzError(
        .invalidSyntax, input: string, reason: "not a language (a BCP 47 tag such as en or zh-Hant)")
    }
    self.init(hb_language_from_string(string, Int32(bytes.count)))
  }

  /// A language HarfBuzz returned: shaping results carry one each, so nothing is made until the
  /// tag is read.
  /// What HarfBuzz makes of the string, with no check of its own: lowercased, `_` read as `-`,
  /// cut at the first character that is not a letter, digit, `-` or `_`; nil where HarfBuzz gives
  /// `HB_LANGUAGE_INVALID` (an empty string), for which hb-shape uses the default language.
  ///
  /// The corresponding C function is `hb_language_from_string`.
  public init?(harfBuzzString string: String) {
    guard let raw = hb_language_from_string(string, Int32(clamping: string.utf8.count)) else { return nil }
    self.init(raw)
  }

  init(_ raw: hb_language_t) {
    self.raw = raw
  }

  /// Whether the two are the same.
  public static func == (a: Language, b: Language) -> Bool { a.raw == b.raw }

  /// Hashes what equality compares.
  public func hash(into hasher: inout Hasher) { hasher.combine(raw) }

  /// The language of the process's locale (`LC_CTYPE`), as HarfBuzz reads it.
  ///
  /// The corresponding C function is `hb_language_get_default`.
  public static var processDefault: Language? {
    guard let raw = hb_language_get_default() else { return nil }
    return Language(raw)
  }

  /// How it is written.
  public var description: String { identifier }
}

extension Language: HarfBuzzSyntax {}
