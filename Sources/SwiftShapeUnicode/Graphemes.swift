import CUnicodeAlgorithms

/// Unicode's extended grapheme clusters (UAX #29): what a reader takes for one character — a base
/// with its marks, a Hangul syllable, an emoji ZWJ sequence, a keycap, a flag — from ICU's
/// character break iterator (Unicode 15.0).
public enum GraphemeClusters {
  /// The boundaries of the grapheme clusters of `scalars`, as scalar indices: 0, then the end of
  /// each cluster, `scalars.count` last (just `[0]` for no text).
  ///
  /// - Throws: `UnicodeAlgorithmError` when ICU fails.
  public static func boundaries(_ scalars: [Unicode.Scalar]) throws -> [Int] {
    guard !scalars.isEmpty else { return [0] }
    var boundaries = [Int32](filledWith: 0, count: scalars.count + 1)
    var found: Int32 = 0
    // Unicode.Scalar is its UInt32 value.
    let status = scalars.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: UInt32.self) { text in
        swiftshape_grapheme_boundaries(text.baseAddress, Int32(scalars.count), &boundaries, &found)
      }
    }
    guard status == 0 else { throw UnicodeAlgorithmError(status, "finding grapheme clusters") }
    return boundaries.prefix(Int(found)).map(Int.init)
  }

  /// The grapheme clusters of `text`, as ranges of scalar indices.
  public static func ranges(_ scalars: [Unicode.Scalar]) throws -> [Range<Int>] {
    let boundaries = try boundaries(scalars)
    return zip(boundaries, boundaries.dropFirst()).map { $0..<$1 }
  }
}

/// What font fallback reads of a character (from ICU, Unicode 15.0).
public struct FallbackTraits: OptionSet, Sendable, Hashable {
  /// The raw value.
  public var rawValue: UInt8
  /// The value with this raw value.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Default_Ignorable_Code_Point: drawn as nothing (joiners, variation selectors, bidi
  /// controls), so a font need not have it.
  public static let ignorable = FallbackTraits(rawValue: UInt8(SWIFTSHAPE_FALLBACK_IGNORABLE))
  /// The Emoji property.
  public static let emoji = FallbackTraits(rawValue: UInt8(SWIFTSHAPE_FALLBACK_EMOJI))
  /// Emoji_Presentation: an emoji unless VS15 follows.
  public static let emojiPresentation = FallbackTraits(
    rawValue: UInt8(SWIFTSHAPE_FALLBACK_EMOJI_PRESENTATION))
  /// Makes its cluster an emoji: VS16 (U+FE0F), the keycap U+20E3, tag characters.
  public static let selectsEmoji = FallbackTraits(rawValue: UInt8(SWIFTSHAPE_FALLBACK_SELECTS_EMOJI))
  /// VS15 (U+FE0E): the text presentation.
  public static let selectsText = FallbackTraits(rawValue: UInt8(SWIFTSHAPE_FALLBACK_SELECTS_TEXT))
  /// A space or a punctuation mark (General_Category Z or P).
  public static let spaceOrPunctuation = FallbackTraits(
    rawValue: UInt8(SWIFTSHAPE_FALLBACK_SPACE_OR_PUNCTUATION))

  /// The traits of each of `scalars`.
  ///
  /// - Throws: `UnicodeAlgorithmError` when ICU fails.
  public static func of(_ scalars: [Unicode.Scalar]) throws -> [FallbackTraits] {
    guard !scalars.isEmpty else { return [] }
    var flags = [UInt8](filledWith: 0, count: scalars.count)
    let status = scalars.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: UInt32.self) { text in
        swiftshape_fallback_properties(text.baseAddress, Int32(scalars.count), &flags)
      }
    }
    guard status == 0 else { throw UnicodeAlgorithmError(status, "reading emoji and ignorable properties") }
    return flags.map(FallbackTraits.init(rawValue:))
  }

  /// Whether a grapheme cluster of characters with these traits is drawn as an emoji (UTS #51):
  /// it has VS16, a keycap or tags, or it starts with an Emoji_Presentation character and has no
  /// VS15.
  public static func isEmojiCluster(_ traits: some Collection<FallbackTraits>) -> Bool {
    guard let first = traits.first else { return false }
    var selectsText = false
    for trait in traits {
      if trait.contains(.selectsEmoji) { return true }
      if trait.contains(.selectsText) { selectsText = true }
    }
    return first.contains(.emojiPresentation) && !selectsText
  }
}
