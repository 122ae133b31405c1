import HarfBuzz

/// An error from SwiftShape: a one-line message naming the input it is about.
///
/// The kinds tell a program what to do about it (the command-line tool maps them to exit codes):
/// the caller's request was malformed, an input could not be used, or SwiftShape itself failed.
public struct ShapingError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong, by whose doing.
  public enum Kind: String, Sendable, Equatable, Codable {
    /// A value in the request does not parse or is out of range (a feature, a size, a list of code
    /// points).
    case invalidArgument = "invalid-argument"
    /// A font file is missing, unreadable, not a font, or damaged; or its face index is out of range.
    case badFont = "bad-font"
    /// A file (font or text) cannot be opened or read: missing, a folder, no permission.
    case unreadableFile = "unreadable-file"
    /// Input text is unusable: unreadable file, malformed UTF-8.
    case badText = "bad-text"
    /// A check of the result (`ShapeOptions.verify`) did not hold.
    case verificationFailed = "verification-failed"
    /// HarfBuzz failed to allocate or shape.
    case internalFailure = "internal"
  }

  /// What went wrong, by whose doing.
  public var kind: Kind
  /// The input the error is about: a path, an option value, a string.
  public var input: String
  /// What is wrong with the input.
  public var reason: String

  /// An error of `kind` about `input`, saying why.
  public init(_ kind: Kind, input: String, reason: String) {
    self.kind = kind
    self.input = input
    self.reason = reason
  }

  /// `input: reason`, on one line.
  public var description: String {
    "\(input): \(reason)".split(whereSeparator: \.isNewline).joined(separator: " ")
  }
}

extension ShapingError {
  /// Translates an error of the HarfBuzz layer, naming `input` when the error names none better.
  package init(_ error: HarfBuzzError, kind: Kind? = nil) {
    let derived: Kind
    switch error.kind {
    case .cannotReadFile: derived = .unreadableFile
    case .notAFont, .corruptFont, .faceIndexOutOfRange: derived = .badFont
    case .invalidSyntax: derived = .invalidArgument
    case .allocationFailed, .shapingFailed: derived = .internalFailure
    }
    self.init(kind ?? derived, input: error.input, reason: error.reason)
  }
}

extension ShapingError {
  /// Runs a HarfBuzz-layer parser for the value of a setting called `name` (`--features`,
  /// `features`), turning its error into an `.invalidArgument` error that names the setting and
  /// the item that did not parse.
  public static func parsing<T>(_ name: String, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as HarfBuzzError {
      throw ShapingError(.invalidArgument, input: "\(name) '\(error.input)'", reason: error.reason)
    }
  }
}
