#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An error from the HarfBuzz layer: what went wrong and the input it went wrong with.
///
/// `description` is one line, fit to print after the program's name.
public struct HarfBuzzError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of failure this is.
  public enum Kind: Sendable, Equatable {
    /// A file could not be opened or read; `errno` is the C library's code.
    case cannotReadFile(errno: Int32)
    /// The bytes are not an OpenType/TrueType font or font collection.
    case notAFont
    /// The font is damaged: a table lies outside the file, or a required table is missing or empty.
    case corruptFont
    /// A face index at or past the number of faces in the file.
    case faceIndexOutOfRange(count: Int)
    /// A string that is not a valid tag, feature, variation, direction, script or language.
    case invalidSyntax
    /// HarfBuzz could not allocate memory (it reports this by returning an inert object).
    case allocationFailed
    /// `hb_shape_full` returned false: none of the requested shapers could shape the buffer.
    case shapingFailed
  }

  /// What kind of failure this is.
  public var kind: Kind
  /// The input the failure is about: a path, a string that did not parse, a shaper list.
  public var input: String
  /// A human explanation that completes the sentence started by `input`.
  public var reason: String

  /// An error of `kind` about `input`, saying why.
  public init(_ kind: Kind, input: String, reason: String) {
    self.kind = kind
    self.input = input
    self.reason = reason
  }

  /// How it is written.
  public var description: String { "\(input): \(reason)" }

  /// An error for a file operation that failed with the current `errno`.
  static func file(_ path: String, errno code: Int32) -> HarfBuzzError {
    HarfBuzzError(.cannotReadFile(errno: code), input: path, reason: String(cString: strerror(code)))
  }
}
