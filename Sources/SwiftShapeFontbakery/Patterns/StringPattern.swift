/// A pattern input of fontbakery's shaping tests (`"input_type": "pattern"`): a recipe such as
/// `vowel consonant{1,2}` whose words name the file's `ingredients` (each a regular expression),
/// standing for every string it matches.
///
/// The strings and their order are those fontbakery gets from the same recipe (it hands the recipe
/// to stringbrewer, which enumerates the regular expression with sre_yield):
/// - each ingredient name, as a whole word, becomes `(?:its expression)`, one ingredient after
///   another in file order (a later name is also replaced inside an earlier expression), then all
///   whitespace goes;
/// - in a sequence the first item varies fastest; alternatives come in order; a repetition gives
///   its shorter strings first, and among strings of one length the last position varies fastest;
///   a class gives its characters in the order written (a character written twice comes twice);
/// - `.`, a negated class and `\D`, `\W`, `\S` range over U+0000–U+00FF (less the line feed for `.`
///   and negated classes), as sre_yield's; `\d`, `\w`, `\s` are ASCII's; `*` and `+` repeat at most
///   65,535 times;
/// - anchors (`^`, `$`, `\A`, `\Z`, `\b`, `\B`) match the empty string.
///
/// Lookarounds, backreferences, inline flags and `\N{…}` are not supported and are an error.
public struct StringPattern: Sendable {
  /// The recipe as written.
  public let recipe: String
  /// The regular expression the recipe becomes.
  public let expression: String
  /// How many strings the pattern stands for (`Int.max` when more than can be counted).
  public var count: Int { node.count }

  private let node: Node

  /// The most ingredients a file may have (stringbrewer's limit).
  public static let maximumIngredients = 52
  /// How many times `*` and `+` repeat at most.
  static let maximumRepeat = 65535

  /// Makes the pattern of `recipe` with `ingredients` (name and regular expression, in file order).
  ///
  /// - Throws: `PatternError` when there are too many ingredients or the expression does not parse.
  public init(recipe: String, ingredients: [(name: String, expression: String)]) throws {
    guard ingredients.count <= StringPattern.maximumIngredients else {
      throw PatternError("more than \(StringPattern.maximumIngredients) ingredients")
    }
    self.recipe = recipe
    var scalars = Array(recipe.unicodeScalars)
    for (name, expression) in ingredients {
      scalars = StringPattern.replacingWord(
        Array(name.unicodeScalars), with: Array("(?:\(expression))".unicodeScalars), in: scalars)
    }
    scalars.removeAll(where: StringPattern.isSpace)
    var view = String.UnicodeScalarView()
    view.append(contentsOf: scalars)
    expression = String(view)
    var parser = RegexParser(scalars)
    node = try parser.parse()
  }

  /// Every string, in order.
  ///
  /// - Throws: `PatternError` when there are more than `limit`.
  public func strings(limit: Int) throws -> [String] {
    guard count <= limit else {
      let number = count == Int.max ? "too many to count" : "\(count)"
      throw PatternError("the pattern stands for \(number) strings, more than the limit of \(limit)")
    }
    return (0..<count).map { index in
      var view = String.UnicodeScalarView()
      node.append(index, to: &view)
      return String(view)
    }
  }

  /// The words of a recipe that name no ingredient: runs of two or more ASCII letters, digits and
  /// `_` (starting with a letter or `_`) outside classes, repeat counts, escapes and group names.
  /// A regular expression may spell literal text so, but in a recipe it is most likely a misspelt
  /// ingredient.
  public static func unknownWords(in recipe: String, ingredients: [(name: String, expression: String)])
    -> [String]
  {
    let known = Set(ingredients.map(\.name))
    let scalars = Array(recipe.unicodeScalars)
    func isWord(_ scalar: Unicode.Scalar) -> Bool {
      scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
    }
    var unknown: [String] = []
    var index = 0
    var inClass = false
    while index < scalars.count {
      let scalar = scalars[index]
      switch scalar {
      case "\\":
        index += 2
        while index < scalars.count, scalars[index].properties.isASCIIHexDigit { index += 1 }
        continue
      case "[": inClass = true
      case "]": inClass = false
      case "{":
        if !inClass, let close = scalars[index...].firstIndex(of: "}") {
          index = close + 1
          continue
        }
      case "<":
        if let close = scalars[index...].firstIndex(of: ">") {
          index = close + 1
          continue
        }
      default:
        if !inClass, isWord(scalar), !("0"..."9").contains(scalar) {
          var end = index
          while end < scalars.count, isWord(scalars[end]) { end += 1 }
          let word = String(String.UnicodeScalarView(scalars[index..<end]))
          if end - index >= 2, !known.contains(word), !unknown.contains(word) { unknown.append(word) }
          index = end
          continue
        }
      }
      index += 1
    }
    return unknown
  }

  /// `text` with every whole-word `word` replaced, left to right (a word is a run of letters,
  /// digits and `_`).
  static func replacingWord(
    _ word: [Unicode.Scalar], with replacement: [Unicode.Scalar], in text: [Unicode.Scalar]
  )
    -> [Unicode.Scalar]
  {
    guard !word.isEmpty else { return text }
    func boundary(_ position: Int) -> Bool {
      let before = position > 0 && isWordCharacter(text[position - 1])
      let after = position < text.count && isWordCharacter(text[position])
      return before != after
    }
    var out: [Unicode.Scalar] = []
    var index = 0
    while index < text.count {
      if index + word.count <= text.count, text[index..<index + word.count].elementsEqual(word),
        boundary(index), boundary(index + word.count)
      {
        out += replacement
        index += word.count
      } else {
        out.append(text[index])
        index += 1
      }
    }
    return out
  }

  static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
    if scalar == "_" { return true }
    let properties = scalar.properties
    switch properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
      .decimalNumber, .letterNumber, .otherNumber:
      return true
    default: return properties.numericType != nil
    }
  }

  static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isWhitespace || (0x1C...0x1F).contains(scalar.value)
  }
}

/// A pattern that does not parse or stands for too many strings.
public struct PatternError: Error, Sendable, CustomStringConvertible {
  /// What is wrong, in a few words.
  public var description: String
  package init(_ description: String) { self.description = description }
}

extension StringPattern {
  /// A parsed expression, which can count its strings and make the one at an index.
  indirect enum Node: Sendable {
    /// One of these characters (a class, a literal, `.`); the empty list matches nothing.
    case characters([Unicode.Scalar])
    /// The empty string (an anchor, an empty alternative).
    case empty
    /// Items one after another; the first varies fastest.
    case sequence([Node], count: Int)
    /// Alternatives in order.
    case alternatives([Node], count: Int)
    /// `content` repeated `minimum` to `maximum` times, shorter first.
    case repetition(Node, minimum: Int, maximum: Int, count: Int)

    var count: Int {
      switch self {
      case .characters(let scalars): return scalars.count
      case .empty: return 1
      case .sequence(_, let count), .alternatives(_, let count), .repetition(_, _, _, let count): return count
      }
    }

    static func sequence(_ items: [Node]) -> Node {
      if items.count == 1 { return items[0] }
      return .sequence(items, count: items.reduce(1) { multiply($0, $1.count) })
    }

    static func alternatives(_ items: [Node]) -> Node {
      if items.count == 1 { return items[0] }
      return .alternatives(items, count: items.reduce(0) { add($0, $1.count) })
    }

    static func repetition(_ content: Node, minimum: Int, maximum: Int) -> Node {
      var total = 0
      var power = 1  // content.count ** length
      for length in 0...maximum {
        if length >= minimum { total = add(total, power) }
        if total == Int.max { break }
        power = multiply(power, content.count)
        if power == 0 && length >= minimum { break }
      }
      return .repetition(content, minimum: minimum, maximum: maximum, count: total)
    }

    /// Appends the string at `index` (below `count`).
    func append(_ index: Int, to out: inout String.UnicodeScalarView) {
      switch self {
      case .characters(let scalars): out.append(scalars[index])
      case .empty: break
      case .sequence(let items, _):
        var rest = index
        for item in items {
          let count = item.count
          item.append(rest % count, to: &out)
          rest /= count
        }
      case .alternatives(let items, _):
        var rest = index
        for item in items {
          if rest < item.count {
            item.append(rest, to: &out)
            return
          }
          rest -= item.count
        }
      case .repetition(let content, let minimum, _, _):
        let base = content.count
        var rest = index
        var length = minimum
        var power = Node.power(base, minimum)
        while rest >= power {
          rest -= power
          length += 1
          power = Node.multiply(power, base)
        }
        // The digits of `rest` in base `base`, most significant first.
        var digits = [Int](repeating: 0, count: length)
        var position = length - 1
        while rest > 0 {
          digits[position] = rest % base
          rest /= base
          position -= 1
        }
        for digit in digits { content.append(digit, to: &out) }
      }
    }

    static func power(_ base: Int, _ exponent: Int) -> Int {
      var result = 1
      for _ in 0..<exponent { result = multiply(result, base) }
      return result
    }

    static func add(_ a: Int, _ b: Int) -> Int {
      let (sum, overflow) = a.addingReportingOverflow(b)
      return overflow ? Int.max : sum
    }

    static func multiply(_ a: Int, _ b: Int) -> Int {
      let (product, overflow) = a.multipliedReportingOverflow(by: b)
      return overflow ? Int.max : product
    }
  }
}
