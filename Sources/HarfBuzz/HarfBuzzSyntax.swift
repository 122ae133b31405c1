/// A value written as a string in HarfBuzz's own syntax (a tag, feature, variation, script,
/// language), and coded in JSON or property lists as that same string.
public protocol HarfBuzzSyntax: Codable, CustomStringConvertible {
  /// Parses the value; throws `HarfBuzzError` with kind `.invalidSyntax` when the string is not one.
  init(parsing string: String) throws
}

extension HarfBuzzSyntax {
  /// Reads it from SwiftShape's JSON form.
  public init(from decoder: any Decoder) throws {
    let string = try decoder.singleValueContainer().decode(String.self)
    do {
      try self.init(parsing: string)
    } catch let error as HarfBuzzError {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: error.description))
    }
  }

  /// Writes it in SwiftShape's JSON form.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  /// Parses a list the way hb-shape reads `--features` and `--variations`: items separated by
  /// commas or spaces; empty items are skipped.
  ///
  /// - Throws: the first item's error that does not parse; unlike hb-shape, a bad item is not
  ///   silently dropped.
  public static func parseList(_ string: String) throws -> [Self] {
    try string.split(whereSeparator: { $0 == "," || $0 == " " }).map { try Self(parsing: String($0)) }
  }
}
