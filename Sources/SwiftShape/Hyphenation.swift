import HarfBuzz
import SwiftShapeHyphenation

/// Hyphenation at line ends (`ShapeOptions.hyphenates`): the word a line would end before, cut at
/// its last point (libhyphen's, `Hyphenator`) where the line with a hyphen still fits.
///
/// Only that word is hyphenated, once a line: a paragraph's other words are never looked up.
struct LineHyphenation {
  /// The paragraph's scalars.
  let scalars: [Unicode.Scalar]
  /// The language of each scalar's text: its span's, else the paragraph's.
  let language: (Int) -> Language?
  /// The advance of the hyphen a line cut before a scalar would end with, in the unit of the
  /// paragraph's positions; nil where the font of the scalar before has no hyphen.
  let hyphenAdvance: (Int) -> Int64?

  /// Hyphenators for the paragraph's language and its spans' (nil where a span's language has no
  /// dictionary: its words are not hyphenated).
  private var hyphenators: [Language: Hyphenator?] = [:]

  /// - Throws: `ShapingError` of kind `.invalidArgument` naming the paragraph's language when it
  ///   has no dictionary, or when it has none (`ShapeOptions.language` not set).
  init(
    scalars: [Unicode.Scalar], options: ShapeOptions, language: @escaping (Int) -> Language?,
    hyphenAdvance: @escaping (Int) -> Int64?
  ) throws {
    guard let paragraphLanguage = options.language else {
      throw ShapingError(
        .invalidArgument, input: "hyphenation",
        reason: "needs the text's language (ShapeOptions.language, --language) to choose a dictionary")
    }
    (self.scalars, self.language, self.hyphenAdvance) = (scalars, language, hyphenAdvance)
    do {
      hyphenators[paragraphLanguage] = try Hyphenator.shared(for: paragraphLanguage.identifier)
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

  /// The last point of the first word in `from..<to` (the text between two break opportunities)
  /// after which the line, with a hyphen, still fits (`fits` of a point and the hyphen's advance);
  /// with the start of that word. Points where the font has no hyphen are not taken.
  mutating func lastPoint(from: Int, to: Int, fits: (Int, Int64) -> Bool) throws -> (point: Int, word: Int)? {
    var start = from
    while start < to, !isWordScalar(start) { start += 1 }
    var end = start
    while end < to, isWordScalar(end) { end += 1 }
    guard end > start, let language = language(start) else { return nil }
    let hyphenator: Hyphenator?
    if let known = hyphenators[language] {
      hyphenator = known
    } else {
      hyphenator = try? Hyphenator.shared(for: language.identifier)
      hyphenators[language] = hyphenator
    }
    guard let hyphenator else { return nil }
    let points = hyphenator.points(inScalars: scalars[start..<end])
    guard
      let point = points.last(where: { point in
        hyphenAdvance(start + point).map { fits(start + point, $0) } ?? false
      })
    else { return nil }
    return (start + point, start)
  }
}

extension Hyphenator {
  /// The hyphenator for a language, loaded once for the process.
  ///
  /// - Throws: `HyphenationError` when the language has no dictionary.
  static func shared(for language: String) throws -> Hyphenator {
    if let known = loaded.withLock({ $0[language] }) { return known }
    let made = try Hyphenator(language: language)
    loaded.withLock { $0[language] = made }
    return made
  }

  private static let loaded = Protected<[String: Hyphenator]>([:])
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
