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
    var breaks = [Int32](filledWith: 0, count: scalars.count + 1)
    var mandatory = [UInt8](filledWith: 0, count: scalars.count + 1)
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

/// The line break opportunities of one text (UAX #14, ICU's line break iterator, as
/// `LineBreaks.opportunities` gives them), found one at a time where they are asked for.
///
/// Speed: a line breaker asks for the opportunities from each line's start to the first that does
/// not fit, and none where the rest of the paragraph fits; ICU's iterator finds them forward from
/// the last it found, with no array of them all made. (Asked for one far from the last it found,
/// as `preceding` at a line's end is, ICU backs up to a safe point, most often the text's start,
/// and finds the boundaries forward from there: callgrind counted that dearer than finding them
/// all.)
///
/// The iterator is the thread's own: a finder is for the thread that made it (not `Sendable`), and
/// when another finder has been made on the thread since, the next question gives ICU its text again.
public final class LineBreakFinder {
  private let scalars: [Unicode.Scalar]
  /// (Unchecked: the finder is its thread's alone, and each read of a class's variable was
  /// checked for exclusive access at run time, 1.7 M instructions a pass over the Persian
  /// paragraphs broken into lines, callgrind.)
  @exclusivity(unchecked) private var generation: UInt64 = 0

  /// A finder over `scalars`.
  ///
  /// - Throws: `UnicodeAlgorithmError` when ICU fails.
  public init(_ scalars: [Unicode.Scalar]) throws {
    self.scalars = scalars
    try setText()
  }

  private func setText() throws {
    let status = scalars.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: UInt32.self) { text in
        swiftshape_line_breaker_set(text.baseAddress, Int32(text.count), &generation)
      }
    }
    guard status == 0 else { throw UnicodeAlgorithmError(status, "finding line breaks") }
  }

  /// Asks `query` again once the thread's iterator has been given this finder's text back.
  private func asking(_ query: () -> Int32) throws -> Int32 {
    let answer = query()
    guard answer == -2 else { return answer }
    try setText()
    return query()
  }

  /// The first opportunity after the scalar at `index` (the text's end at the latest); nil at
  /// or after the end.
  ///
  /// - Throws: `UnicodeAlgorithmError` when ICU fails.
  public func following(_ index: Int) throws -> LineBreak? {
    var mandatory: UInt8 = 0
    let found = try asking { swiftshape_line_breaker_following(generation, Int32(index), &mandatory) }
    return found > 0 ? LineBreak(index: Int(found), isMandatory: mandatory != 0) : nil
  }

  /// The last opportunity before `index`; nil when there is none after the text's start.
  ///
  /// - Throws: `UnicodeAlgorithmError` when ICU fails.
  public func preceding(_ index: Int) throws -> Int? {
    let found = try asking { swiftshape_line_breaker_preceding(generation, Int32(index)) }
    return found > 0 ? Int(found) : nil
  }

  /// Whether a line may end before the scalar at `index` (after the text's start).
  ///
  /// - Throws: `UnicodeAlgorithmError` when ICU fails.
  public func isOpportunity(_ index: Int) throws -> Bool {
    guard index > 0, index <= scalars.count else { return false }
    return try asking { swiftshape_line_breaker_is_boundary(generation, Int32(index)) } == 1
  }
}

/// What a paragraph that may fit on one line is checked for, read from its UTF-8 without
/// decoding it into scalars (`LineBreaks.opportunities`, `BidiParagraph.trailingWhitespace` and
/// the arrays a line breaker keeps read it all).
public struct OneLineFacts: Sendable, Hashable {
  /// The paragraph's length in scalars and in UTF-16 code units.
  public var scalars: Int, utf16: Int
  /// The length of the whitespace at its end that rule L1 gives the paragraph level (as
  /// `BidiParagraph.trailingWhitespace` finds it), in scalars, UTF-8 bytes and UTF-16 code units.
  public var trailingScalars: Int, trailingUTF8: Int, trailingUTF16: Int
  /// Whether it has a hard break (U+000A to U+000D, U+0085, U+2028, U+2029) before its last
  /// scalar.
  public var hasHardBreak: Bool

  /// The facts of `text`.
  ///
  /// - Throws: `UnicodeAlgorithmError` when ICU fails.
  public init(_ text: String) throws {
    var text = text
    var facts = swiftshape_line_facts()
    let status = text.withUTF8 { swiftshape_line_facts($0.baseAddress, Int32($0.count), &facts) }
    guard status == 0 else { throw UnicodeAlgorithmError(status, "reading bidi classes") }
    (scalars, utf16) = (Int(facts.scalars), Int(facts.utf16))
    (trailingScalars, trailingUTF8) = (Int(facts.trailing_scalars), Int(facts.trailing_utf8))
    trailingUTF16 = Int(facts.trailing_utf16)
    hasHardBreak = facts.has_hard_break != 0
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
    let flags = [Bool](capacity: scalars.count) { flags in
      status = scalars.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: UInt32.self) { text in
          UnsafeMutableRawPointer(flags.baseAddress!).withMemoryRebound(
            to: UInt8.self, capacity: scalars.count
          ) {
            swiftshape_line_end_whitespace(text.baseAddress, Int32(scalars.count), $0)
          }
        }
      }
      return status == 0 ? scalars.count : 0
    }
    guard status == 0 else { throw UnicodeAlgorithmError(status, "reading bidi classes") }
    return flags
  }
}
