import CUnicodeAlgorithms

/// A place where a line may end: before the scalar at `index`.
public struct LineBreak: Sendable, Hashable {
  /// The index of the first scalar after the break (the text's scalar count for its end).
  public var index: Int
  /// Whether the line must end here: after a newline character, U+2028 LINE SEPARATOR or U+2029
  /// PARAGRAPH SEPARATOR (and at the end of the text).
  public var isMandatory: Bool

  /// An opportunity before `index`, mandatory or not.
  public init(index: Int, isMandatory: Bool) {
    self.index = index
    self.isMandatory = isMandatory
  }
}

/// Unicode's line breaking (UAX #14), from ICU's line break iterator (Unicode 15.0): where text
/// may be cut into lines.
public enum LineBreaks {
  /// The break opportunities of `scalars`, in order, the text's end last (none for no text).
  ///
  /// - Throws: `UnicodeAlgorithmError` when ICU fails.
  public static func opportunities(_ scalars: [Unicode.Scalar]) throws -> [LineBreak] {
    guard !scalars.isEmpty else { return [] }
    var breaks = [Int32](repeating: 0, count: scalars.count + 1)
    var mandatory = [UInt8](repeating: 0, count: scalars.count + 1)
    var found: Int32 = 0
    let status = scalars.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: UInt32.self) { text in
        swiftshape_line_breaks(text.baseAddress, Int32(scalars.count), &breaks, &mandatory, &found)
      }
    }
    guard status == 0 else { throw UnicodeAlgorithmError(status, "finding line breaks") }
    return (0..<Int(found)).compactMap { slot in
      let index = Int(breaks[slot])
      guard index > 0 else { return nil }
      return LineBreak(index: index, isMandatory: mandatory[slot] != 0 || index == scalars.count)
    }
  }
}

extension BidiParagraph {
  /// Which of `scalars` rule L1 gives the paragraph level at the end of a line: whitespace
  /// (bidi class WS), isolate formatting characters, and characters rule X9 removes (BN and the
  /// explicit embeddings), as well as segment and paragraph separators (S, B).
  ///
  /// - Throws: `UnicodeAlgorithmError` when ICU fails.
  public static func trailingWhitespace(_ scalars: [Unicode.Scalar]) throws -> [Bool] {
    guard !scalars.isEmpty else { return [] }
    // (The C function writes 0 or 1 a scalar, a `Bool`'s own bytes: no second array.)
    var status: Int32 = 0
    let flags = [Bool](unsafeUninitializedCapacity: scalars.count) { flags, count in
      status = scalars.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: UInt32.self) { text in
          UnsafeMutableRawPointer(flags.baseAddress!).withMemoryRebound(
            to: UInt8.self, capacity: scalars.count
          ) {
            swiftshape_line_end_whitespace(text.baseAddress, Int32(scalars.count), $0)
          }
        }
      }
      count = status == 0 ? scalars.count : 0
    }
    guard status == 0 else { throw UnicodeAlgorithmError(status, "reading bidi classes") }
    return flags
  }
}
