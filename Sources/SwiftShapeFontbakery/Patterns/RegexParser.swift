/// Parses the regular expressions of pattern inputs (Python's syntax, the part that stands for a
/// finite list of strings) into `StringPattern.Node`s.
///
/// The parse keeps the shape Python's parser gives, because the strings depend on it: a group
/// that does not capture is spliced into its sequence; alternatives that all start with the same
/// simple item (a character, a class, an anchor) have it moved out in front; alternatives that are
/// all single characters or classes become one class; a class lists each item (a character, a
/// range, `\d`…) once.
struct RegexParser {
  typealias Node = StringPattern.Node

  /// One item of a parsed sequence. Compound items carry a serial number so that no two are equal,
  /// as Python's parser compares them.
  private enum Item: Hashable {
    case literal(UInt32)
    case notLiteral(UInt32)
    case any
    case anchor(String)
    case set(negated: Bool, [SetItem])
    case group(serial: Int, [Item])
    case alternatives(serial: Int, [[Item]])
    case repetition(serial: Int, minimum: Int, maximum: Int, [Item])
  }

  private enum SetItem: Hashable {
    case literal(UInt32)
    case range(UInt32, UInt32)
    case category(Character)
  }

  private let scalars: [Unicode.Scalar]
  private var position = 0
  private var serial = 0

  init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

  /// What `.` and negated classes range over: U+0000–U+00FF without the line feed.
  static let charset: [Unicode.Scalar] = (0...255).compactMap { $0 == 10 ? nil : Unicode.Scalar(UInt8($0)) }
  private static let allBytes: [Unicode.Scalar] = (0...255).map { Unicode.Scalar(UInt8($0)) }
  private static let digits = Array("0123456789".unicodeScalars)
  private static let word = Array(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_".unicodeScalars)
  private static let space: [Unicode.Scalar] = [" ", "\t", "\n", "\r", "\u{0B}", "\u{0C}"]

  /// The whole expression.
  mutating func parse() throws -> Node {
    let items = try alternatives()
    if position < scalars.count {
      throw PatternError("unbalanced parenthesis at position \(position)")
    }
    return RegexParser.node(items)
  }

  // MARK: Parsing

  private var next: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

  private mutating func take(_ scalar: Unicode.Scalar) -> Bool {
    guard next == scalar else { return false }
    position += 1
    return true
  }

  private mutating func newSerial() -> Int {
    serial += 1
    return serial
  }

  /// `a|b|c`, as a sequence of items.
  private mutating func alternatives() throws -> [Item] {
    var branches = [try sequence()]
    while take("|") { branches.append(try sequence()) }
    if branches.count == 1 { return branches[0] }
    var out: [Item] = []
    // A first item all alternatives share moves out in front.
    while let first = branches[0].first, branches.allSatisfy({ $0.first == first }) {
      out.append(first)
      for index in branches.indices { branches[index].removeFirst() }
    }
    // Alternatives that are each one character or class become one class.
    var members: [SetItem] = []
    var asSet = true
    for branch in branches {
      guard branch.count == 1 else {
        asSet = false
        break
      }
      switch branch[0] {
      case .literal(let value): members.append(.literal(value))
      case .set(negated: false, let items): members += items
      default: asSet = false
      }
      if !asSet { break }
    }
    if asSet {
      out.append(.set(negated: false, RegexParser.unique(members)))
    } else {
      out.append(.alternatives(serial: newSerial(), branches))
    }
    return out
  }

  private mutating func sequence() throws -> [Item] {
    var items: [Item] = []
    while let scalar = next, scalar != "|", scalar != ")" {
      let start = position
      if let (minimum, maximum) = quantifier() {
        guard let last = items.popLast() else {
          throw PatternError("nothing to repeat at position \(start)")
        }
        switch last {
        case .anchor: throw PatternError("nothing to repeat at position \(start)")
        case .repetition: throw PatternError("multiple repeat at position \(start)")
        default: break
        }
        guard minimum <= maximum else {
          throw PatternError("min repeat greater than max repeat at position \(start)")
        }
        if take("+") { throw PatternError("possessive repeats are not supported (position \(start))") }
        _ = take("?")  // a lazy repeat gives the same strings
        var content = [last]
        if case .group(serial: 0, let inner) = last { content = inner }
        items.append(.repetition(serial: newSerial(), minimum: minimum, maximum: maximum, content))
        continue
      }
      if let atom = try atom() { items.append(atom) }
    }
    // Groups that do not capture are spliced in.
    return items.flatMap { item -> [Item] in
      if case .group(serial: 0, let inner) = item { return inner }
      return [item]
    }
  }

  /// An atom, or nil for something that adds nothing (a comment). A group that does not capture
  /// has serial 0.
  private mutating func atom() throws -> Item? {
    let scalar = scalars[position]
    position += 1
    switch scalar {
    case "(":
      var capturing = true
      if take("?") {
        if take(":") {
          capturing = false
        } else if take("P") {
          guard take("<"), let close = scalars[position...].firstIndex(of: ">") else {
            throw PatternError("bad group name at position \(position)")
          }
          position = close + 1
        } else if take("#") {
          guard let close = scalars[position...].firstIndex(of: ")") else {
            throw PatternError("missing ), unterminated comment")
          }
          position = close + 1
          return nil
        } else {
          throw PatternError("lookarounds and inline flags are not supported (position \(position - 2))")
        }
      }
      let inner = try alternatives()
      guard take(")") else { throw PatternError("missing ), unterminated subpattern") }
      return .group(serial: capturing ? newSerial() : 0, inner)
    case "[": return try characterClass()
    case ".": return .any
    case "^": return .anchor("^")
    case "$": return .anchor("$")
    case "\\":
      switch try escape() {
      case .literal(let value): return .literal(value)
      case .category(let name): return .set(negated: false, [.category(name)])
      case .anchor(let name): return .anchor(name)
      }
    default: return .literal(scalar.value)
    }
  }

  /// `*`, `+`, `?`, `{m}`, `{m,}`, `{,n}`, `{m,n}`; nil (and nothing read) when none is next.
  private mutating func quantifier() -> (Int, Int)? {
    guard let scalar = next else { return nil }
    switch scalar {
    case "*", "+", "?":
      position += 1
      return scalar == "*" ? (0, Int.max) : scalar == "+" ? (1, Int.max) : (0, 1)
    case "{":
      var cursor = position + 1
      func number() -> Int? {
        var value: Int?
        while cursor < scalars.count, RegexParser.digits.contains(scalars[cursor]) {
          value = StringPattern.Node.add(
            StringPattern.Node.multiply(value ?? 0, 10), Int(scalars[cursor].value - 48))
          cursor += 1
        }
        return value
      }
      let low = number()
      var high = low
      if cursor < scalars.count, scalars[cursor] == "," {
        cursor += 1
        high = number() ?? Int.max
      } else if low == nil {
        return nil
      }
      guard cursor < scalars.count, scalars[cursor] == "}" else { return nil }
      position = cursor + 1
      return (low ?? 0, high ?? Int.max)
    default: return nil
    }
  }

  /// `[…]`, after the bracket.
  private mutating func characterClass() throws -> Item {
    let negated = take("^")
    var members: [SetItem] = []
    var first = true
    while true {
      guard let scalar = next else { throw PatternError("unterminated character set") }
      position += 1
      if scalar == "]" && !first { break }
      first = false
      var low: UInt32
      if scalar == "\\" {
        switch try escape(inClass: true) {
        case .literal(let value): low = value
        case .category(let name):
          members.append(.category(name))
          continue
        case .anchor: throw PatternError("bad escape in a character set at position \(position - 2)")
        }
      } else {
        low = scalar.value
      }
      // A range, unless the hyphen is last.
      if next == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
        position += 1
        var high = scalars[position].value
        position += 1
        if high == 92 {  // a backslash
          guard case .literal(let value) = try escape(inClass: true) else {
            throw PatternError("bad character range at position \(position)")
          }
          high = value
        }
        guard low <= high else { throw PatternError("bad character range at position \(position)") }
        members.append(.range(low, high))
      } else {
        members.append(.literal(low))
      }
    }
    members = RegexParser.unique(members)
    if members.count == 1, case .literal(let value) = members[0] {
      return negated ? .notLiteral(value) : .literal(value)
    }
    return .set(negated: negated, members)
  }

  private enum Escape {
    case literal(UInt32)
    case category(Character)
    case anchor(String)
  }

  /// An escape, after the backslash.
  private mutating func escape(inClass: Bool = false) throws -> Escape {
    guard let scalar = next else { throw PatternError("bad escape (end of pattern)") }
    position += 1
    func hex(_ length: Int) throws -> Escape {
      guard position + length <= scalars.count,
        let value = UInt32(
          String(String.UnicodeScalarView(scalars[position..<position + length])), radix: 16),
        Unicode.Scalar(value) != nil
      else { throw PatternError("bad escape \\\(scalar) at position \(position - 2)") }
      position += length
      return .literal(value)
    }
    switch scalar {
    case "d", "D", "w", "W", "s", "S": return .category(Character(scalar))
    case "n": return .literal(10)
    case "t": return .literal(9)
    case "r": return .literal(13)
    case "f": return .literal(12)
    case "v": return .literal(11)
    case "a": return .literal(7)
    case "x": return try hex(2)
    case "u": return try hex(4)
    case "U": return try hex(8)
    case "0":
      var value: UInt32 = 0
      var length = 0
      while length < 2, let digit = next, ("0"..."7").contains(digit) {
        value = value * 8 + digit.value - 48
        position += 1
        length += 1
      }
      return .literal(value)
    case "b": return inClass ? .literal(8) : .anchor("\\b")
    case "A", "Z", "B":
      guard !inClass else { throw PatternError("bad escape \\\(scalar) in a character set") }
      return .anchor("\\\(scalar)")
    default:
      if ("1"..."9").contains(scalar) {
        throw PatternError("backreferences are not supported (position \(position - 2))")
      }
      if scalar.isASCII, scalar.properties.isAlphabetic {
        throw PatternError("bad escape \\\(scalar) at position \(position - 2)")
      }
      return .literal(scalar.value)
    }
  }

  private static func unique(_ items: [SetItem]) -> [SetItem] {
    var seen = Set<SetItem>()
    return items.filter { seen.insert($0).inserted }
  }

  // MARK: Enumeration

  private static func node(_ items: [Item]) -> Node {
    items.isEmpty ? .empty : .sequence(items.map(node))
  }

  private static func node(_ item: Item) -> Node {
    switch item {
    case .literal(let value): return .characters([Unicode.Scalar(value)!])
    case .notLiteral(let value): return .characters(charset.filter { $0.value != value })
    case .any: return .characters(charset)
    case .anchor: return .empty
    case .set(let negated, let members):
      let listed = members.flatMap(scalars)
      guard negated else { return .characters(listed) }
      let excluded = Set(listed)
      return .characters(charset.filter { !excluded.contains($0) })
    case .group(_, let inner): return node(inner)
    case .alternatives(_, let branches): return .alternatives(branches.map(node))
    case .repetition(_, let minimum, let maximum, let content):
      return .repetition(node(content), minimum: minimum, maximum: min(maximum, StringPattern.maximumRepeat))
    }
  }

  private static func scalars(_ member: SetItem) -> [Unicode.Scalar] {
    func complement(_ set: [Unicode.Scalar]) -> [Unicode.Scalar] {
      let excluded = Set(set)
      return allBytes.filter { !excluded.contains($0) }
    }
    switch member {
    case .literal(let value): return [Unicode.Scalar(value)!]
    case .range(let low, let high): return (low...high).compactMap(Unicode.Scalar.init)
    case .category(let name):
      switch name {
      case "d": return digits
      case "D": return complement(digits)
      case "w": return word
      case "W": return complement(word)
      case "s": return space
      default: return complement(space)
      }
    }
  }
}
