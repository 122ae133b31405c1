import CHarfBuzz

/// A BCP 47 language tag (`en`, `ar`, `hi`, `zh-hant`, `tr-TR`), as HarfBuzz canonicalizes it:
/// lower case, `-` for `_`.
///
/// The corresponding C type is `hb_language_t`, an interned pointer that lives as long as the
/// process.
public struct Language: Hashable, Sendable, CustomStringConvertible {
  /// The canonical tag (`hb_language_to_string`).
  public let identifier: String

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

  init(_ raw: hb_language_t) {
    // HarfBuzz interns languages for the life of the process, and the same few come back from
    // every shaping call: keep their Swift strings rather than make one each time.
    let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(raw)))
    if let known = Language.interned.withLock({ $0[key] }) {
      identifier = known
      return
    }
    identifier = String(cString: hb_language_to_string(raw))
    Language.interned.withLock { $0[key] = identifier }
  }

  /// Languages seen so far, by HarfBuzz's interned pointer.
  private static let interned = Protected<[UInt: String]>([:])

  /// The interned HarfBuzz language. Looking it up again is a read of HarfBuzz's lock-free list.
  var raw: hb_language_t { hb_language_from_string(identifier, -1) }

  /// The language of the process's locale (`LC_CTYPE`), as HarfBuzz reads it.
  ///
  /// The corresponding C function is `hb_language_get_default`.
  public static var processDefault: Language? {
    guard let raw = hb_language_get_default() else { return nil }
    return Language(raw)
  }

  public var description: String { identifier }
}

extension Language: HarfBuzzSyntax {}
