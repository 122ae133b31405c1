import CHarfBuzz

/// A writing system, named by its ISO 15924 code (`Latn`, `Arab`, `Deva`).
///
/// The corresponding C type is `hb_script_t`, whose values are the ISO 15924 codes as tags.
public struct Script: Hashable, Sendable, CustomStringConvertible {
  /// The ISO 15924 code as a tag, capitalized as HarfBuzz stores it (`Arab`).
  public var tag: OpenTypeTag

  /// The script of the given ISO 15924 tag, as HarfBuzz normalizes it (`arab` becomes `Arab`).
  ///
  /// The corresponding C function is `hb_script_from_iso15924_tag`.
  public init(tag: OpenTypeTag) {
    self.tag = OpenTypeTag(rawValue: hb_script_from_iso15924_tag(tag.rawValue).rawValue)
  }

  /// What HarfBuzz makes of the string, with no check of its own: a tag from its first four
  /// characters, canonical case, `Zzzz` (unknown) for a tag that does not look like a script's;
  /// nil where HarfBuzz gives `HB_SCRIPT_INVALID` (an empty string), which hb-shape guesses from
  /// the text.
  ///
  /// The corresponding C function is `hb_script_from_string`.
  public init?(harfBuzzString string: String) {
    let raw = hb_script_from_string(string, Int32(clamping: string.utf8.count))
    guard raw != HB_SCRIPT_INVALID else { return nil }
    self.init(raw)
  }

  init(_ raw: hb_script_t) { tag = OpenTypeTag(rawValue: raw.rawValue) }

  /// Parses a four-letter ISO 15924 code, in any case (`arab`, `Arab`, `ARAB`).
  ///
  /// - Throws: `HarfBuzzError` with kind `.invalidSyntax` for anything but four ASCII letters.
  ///
  /// The corresponding C function is `hb_script_from_string`.
  public init(parsing string: String) throws {
    let bytes = Array(string.utf8)
    guard bytes.count == 4, bytes.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }) else {
      throw HarfBuzzError(
        .invalidSyntax, input: string, reason: "not a script (an ISO 15924 code such as Latn or Arab)")
    }
    self.init(hb_script_from_string(string, 4))
  }

  var raw: hb_script_t { hb_script_t(rawValue: tag.rawValue) }

  /// The horizontal direction the script is written in, when it has one.
  ///
  /// The corresponding C function is `hb_script_get_horizontal_direction`.
  public var horizontalDirection: Direction? { Direction(hb_script_get_horizontal_direction(raw)) }

  /// The script HarfBuzz's default Unicode functions give the character.
  ///
  /// The corresponding C function is `hb_unicode_script`.
  public init(of scalar: Unicode.Scalar) {
    self.init(hb_unicode_script(hb_unicode_funcs_get_default(), scalar.value))
  }

  /// Whether HarfBuzz takes the script as the one of a text when it guesses (not Common,
  /// Inherited or Unknown).
  public var isSpecific: Bool { self != .common && self != .inherited && self != .unknown }

  /// The ISO 15924 code (`Arab`).
  public var description: String { tag.description }

  /// Common characters, shared by many scripts (`Zyyy`).
  public static let common = Script(tag: "Zyyy")
  /// Characters that take the script of the text around them (`Zinh`).
  public static let inherited = Script(tag: "Zinh")
  /// Characters whose script is not known (`Zzzz`).
  public static let unknown = Script(tag: "Zzzz")
  /// Latin (`Latn`).
  public static let latin = Script(tag: "Latn")
  /// Arabic (`Arab`).
  public static let arabic = Script(tag: "Arab")
  /// Devanagari (`Deva`).
  public static let devanagari = Script(tag: "Deva")
  /// Han (`Hani`).
  public static let han = Script(tag: "Hani")
}

extension Script: HarfBuzzSyntax {}
