import HarfBuzz
import SwiftShapeHyphenation

/// Hyphenation at line ends (`ShapeOptions.hyphenates`): the word a line would end before, cut at
/// its last point (libhyphen's, `Hyphenator`) where the line with a hyphen still fits.
///
/// Only that word is hyphenated, once a line: a paragraph's other words are never looked up.
///
/// Speed: the line breaker's closures (each scalar's language, the hyphen's advance) are given to
/// each question rather than kept: kept, they escaped, and every variable of the line breaker they
/// captured went to the heap, whether the paragraph was hyphenated or not; with the dictionary of
/// hyphenators each paragraph made, setting up and letting go of a paragraph's hyphenation took
/// about 3,000 instructions (1.84 M a pass over the English text broken into lines, callgrind).
struct LineHyphenation {
  /// The paragraph's scalars.
  let scalars: [Unicode.Scalar]
  /// The paragraph's language and its hyphenator.
  private let paragraphLanguage: Language
  private let paragraphHyphenator: Hyphenator
  /// Hyphenators for the spans' other languages (nil where a span's language has no dictionary:
  /// its words are not hyphenated).
  private var spanHyphenators: [Language: Hyphenator?] = [:]

  /// - Throws: `ShapingError` of kind `.invalidArgument` naming the paragraph's language when it
  ///   has no dictionary, or when it has none (`ShapeOptions.language` not set).
  init(scalars: [Unicode.Scalar], options: ShapeOptions) throws {
    guard let paragraphLanguage = options.language else {
      throw ShapingError(
        .invalidArgument, input: "hyphenation",
        reason: "needs the text's language (ShapeOptions.language, --language) to choose a dictionary")
    }
    (self.scalars, self.paragraphLanguage) = (scalars, paragraphLanguage)
    do {
      paragraphHyphenator = try Hyphenator.shared(for: paragraphLanguage)
    } catch let error as HyphenationError {
      throw ShapingError(.invalidArgument, input: paragraphLanguage.identifier, reason: error.description)
    }
  }

  /// Whether a scalar belongs to a word: a letter or a mark.
  private func isWordScalar(_ index: Int) -> Bool {
    // (ASCII without its properties: of it, only the letters are letters or marks.)
    let value = scalars[index].value
    if value < 0x80 { return (0x41...0x5A).contains(value & ~0x20) }
    return switch scalars[index].properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .nonspacingMark,
      .spacingMark, .enclosingMark:
      true
    default: false
    }
  }

  /// The hyphenator for the words of `language` (nil where it has no dictionary).
  private mutating func hyphenator(for language: Language) -> Hyphenator? {
    if language == paragraphLanguage { return paragraphHyphenator }
    if let known = spanHyphenators[language] { return known }
    let found = try? Hyphenator.shared(for: language)
    spanHyphenators[language] = found
    return found
  }

  /// The last point of the first word in `from..<to` (the text between two break opportunities)
  /// after which the line, with a hyphen, still fits (`fits` of a point and the hyphen's advance);
  /// with the start of that word. `language` gives a scalar's language (its span's, else the
  /// paragraph's), `hyphenAdvance` the advance of the hyphen a line cut before a scalar would end
  /// with (nil where the font of the scalar before has no hyphen: points there are not taken).
  mutating func lastPoint(
    from: Int, to: Int, language: (Int) -> Language?, hyphenAdvance: (Int) -> Int64?,
    fits: (Int, Int64) -> Bool
  ) throws -> (point: Int, word: Int)? {
    var start = from
    while start < to, !isWordScalar(start) { start += 1 }
    var end = start
    while end < to, isWordScalar(end) { end += 1 }
    guard end > start, let language = language(start), let hyphenator = hyphenator(for: language) else {
      return nil
    }
    let points = Self.points(of: scalars[start..<end], by: hyphenator)
    guard
      let point = points.last(where: { point in
        hyphenAdvance(start + point).map { fits(start + point, $0) } ?? false
      })
    else { return nil }
    return (start + point, start)
  }

  /// The points `hyphenator` finds in `word`, kept for the process: words come back at line ends
  /// (in a text, and whenever a text is broken again), and asking libhyphen again costs far more
  /// than the lookup.
  ///
  /// Speed: a word found again costs about 500 instructions where libhyphen and the preparing of
  /// its word took about 6,900 (callgrind, the English text broken into lines).
  ///
  /// Bounded: words of up to `memoWordLimit` scalars, at most `memoLimit` of them (all dropped when
  /// full), under 2 MB; the lock is taken once a line that ends inside a word (twice for a word
  /// not yet kept).
  static func points(of word: ArraySlice<Unicode.Scalar>, by hyphenator: Hyphenator) -> [Int] {
    guard word.count >= hyphenator.minimumWordLength, word.count <= memoWordLimit else {
      return hyphenator.points(inScalars: word)
    }
    let key = MemoKey(hyphenator: ObjectIdentifier(hyphenator), word: Array(word))
    if let known = memo.withLock({ $0[key] }) { return known }
    let found = hyphenator.points(inScalars: word)
    memo.withLock { memo in
      if memo.count >= memoLimit { memo.removeAll(keepingCapacity: true) }
      memo[key] = found
    }
    return found
  }

  /// A word and the hyphenator it was given to (a hyphenator is loaded once and kept for the
  /// process: its identity stays its own).
  private struct MemoKey: Hashable, Sendable {
    let hyphenator: ObjectIdentifier
    let word: [Unicode.Scalar]
  }
  static let memoWordLimit = 64
  static let memoLimit = 4_096
  private static let memo = Protected<[MemoKey: [Int]]>([:])
}

extension Hyphenator {
  /// The hyphenator for a language, loaded once for the process.
  ///
  /// - Throws: `HyphenationError` when the language has no dictionary.
  static func shared(for language: Language) throws -> Hyphenator {
    if let known = loaded.withLock({ $0[language] }) { return known }
    let made = try Hyphenator(language: language.identifier)
    return loaded.withLock { loaded in
      if let raced = loaded[language] { return raced }
      loaded[language] = made
      return made
    }
  }

  /// (Keyed by HarfBuzz's interned language: no string is made to look one up.)
  private static let loaded = Protected<[Language: Hyphenator]>([:])
}

/// Whether Pango (1.50, `break.c`) puts a hyphen at the end of a line cut before scalar `index`
/// of `scalars` inside a word (a word cut by `--break-anywhere`): not at a word boundary, not next
/// to a space or a hyphen, and after a character of a script that hyphenates (not Common — but
/// the soft hyphen —, Han, Hangul, Hiragana or Katakana). Word boundaries are UAX #29's between
/// letters, marks and digits (scripts of complex line breaking, such as Thai, have one between
/// each two characters).
func pangoInsertsHyphen(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
  guard index > 0, index < scalars.count else { return false }
  let previous = scalars[index - 1]
  let next = scalars[index]
  func isSpaceOrHyphen(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .spaceSeparator, .lineSeparator, .paragraphSeparator: return true
    default: break
    }
    switch scalar.value {
    case 0x09, 0x0A, 0x0D, 0x0C, 0x2D, 0x58A, 0x1400, 0x1806, 0x2010, 0x2E17, 0x2E40, 0x30A0, 0xFE63, 0xFF0D:
      return true
    default: return false
    }
  }
  guard !isSpaceOrHyphen(previous), !isSpaceOrHyphen(next) else { return false }
  let script = Script(of: previous).tag.description
  switch script {
  case "Zyyy": guard previous == "\u{AD}" else { return false }
  case "Hani", "Hang", "Hira", "Kana": return false
  default: break
  }
  // A word boundary (UAX #29, as far as Pango's cuts meet it): between two characters that are
  // not both of a word.
  let complex: Set<String> = ["Thai", "Laoo", "Khmr", "Mymr", "Lana", "Tavt", "Talu"]
  func inWord(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber:
      return !complex.contains(Script(of: scalar).tag.description)
    case .nonspacingMark, .spacingMark, .enclosingMark, .format: return true
    default: return false
    }
  }
  let nextIsExtend: Bool
  switch next.properties.generalCategory {
  case .nonspacingMark, .spacingMark, .enclosingMark, .format: nextIsExtend = true
  default: nextIsExtend = false
  }
  return nextIsExtend || (inWord(previous) && inWord(next))
}
