import HarfBuzz

/// A small part of Pango's markup (`ShapeOptions.readsMarkup`, `--markup`): text with `<span>`,
/// `<b>` and `<i>` elements, read into the plain text and its spans.
///
/// - `<span>` takes `font` (a Pango font description: a family, then style words such as `Bold`
///   or `Italic`, then a size in points, as `DejaVu Sans Bold 12`), `font_family` (or `face`),
///   `size` (in 1024ths of a point as Pango takes a number, or `12pt`), `font_features` (or
///   `features`), `lang`, and `font_file` (SwiftShape's own: a font by file).
/// - `<b>` and `<i>` set the bold or italic face of the current family (the innermost span's, else
///   the paragraph font's), found by fontconfig (`TextSpan.fontPattern`).
/// - Entities: `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#N;` and `&#xN;`.
///
/// Anything else — another element or attribute, an unclosed or mismatched element, a bad entity,
/// a value that does not parse — is an error naming it.
public struct MarkupText: Sendable, Hashable {
  /// The text without its markup.
  public var text: String
  /// The spans of the markup's elements, outermost first, in the cluster unit they were read for.
  public var spans: [TextSpan]

  /// Reads `markup`, the spans' ranges counted in `unit`; `family` is the family `<b>` and `<i>`
  /// take outside any span that names one.
  ///
  /// - Throws: `ShapingError` of kind `.invalidArgument` naming the markup and what is wrong.
  public init(parsing markup: String, unit: ClusterUnit = .unicodeScalars, family: String? = nil) throws {
    func fail(_ reason: String) -> ShapingError {
      ShapingError(.invalidArgument, input: "markup", reason: reason)
    }
    struct Open {
      var name: String
      /// Where its span is in `spans`.
      var span: Int
      var family: String?
    }
    // (Read as UTF-8: the markup's characters `<`, `&`, `>` and `;` are ASCII, never part of another
    // character's bytes, so the text between them is copied as it stands. Appended a scalar at
    // a time to a string, the text took 30% of shaping the English text with a `<b>` every other
    // word, `perf`.)
    let source = Array(markup.utf8)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(source.count)
    var offset = 0
    var open: [Open] = []
    var spans: [TextSpan] = []
    var index = 0
    /// Copies `source[range]`, text without markup.
    func appendText(_ range: Range<Int>) {
      bytes.append(contentsOf: source[range])
      switch unit {
      case .utf8: offset += range.count
      case .unicodeScalars: for byte in source[range] where byte & 0xC0 != 0x80 { offset += 1 }
      case .utf16:
        for byte in source[range] where byte & 0xC0 != 0x80 { offset += byte >= 0xF0 ? 2 : 1 }
      }
    }
    func append(_ scalar: Unicode.Scalar) {
      UTF8.encode(scalar) { bytes.append($0) }
      offset += unit.width(of: scalar)
    }
    /// The source's bytes up to `stop` (`index` moved past it), less the spaces, tabs and line
    /// feeds at either end where `trimmed`.
    func read(until stop: UInt8, trimmed: Bool = false) throws -> String {
      var start = index
      guard var end = source[index...].firstIndex(of: stop) else {
        let rest = String(decoding: source[start...], as: UTF8.self).unicodeScalars.prefix(20)
        throw fail("'\(String(String.UnicodeScalarView(rest)))' is not closed")
      }
      index = end + 1
      if trimmed {
        // (Byte by byte: as characters of strings, trimming the tags was 8% of shaping the
        // English text with a `<b>` every other word, `perf`.)
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A }
        while start < end, isSpace(source[start]) { start += 1 }
        while end > start, isSpace(source[end - 1]) { end -= 1 }
        if start < end, source[start] == 0x2F {
          // A closing tag's name, trimmed too.
          start += 1
          while start < end, isSpace(source[start]) { start += 1 }
          return "/" + String(decoding: source[start..<end], as: UTF8.self)
        }
      }
      return String(decoding: source[start..<end], as: UTF8.self)
    }
    func entity(_ name: String) throws -> Unicode.Scalar {
      switch name {
      case "amp": return "&"
      case "lt": return "<"
      case "gt": return ">"
      case "quot": return "\""
      case "apos": return "'"
      default:
        let number: UInt32? =
          name.hasPrefix("#x") || name.hasPrefix("#X")
          ? UInt32(name.dropFirst(2), radix: 16) : name.hasPrefix("#") ? UInt32(name.dropFirst()) : nil
        guard let number, let scalar = Unicode.Scalar(number) else {
          throw fail("unknown entity '&\(name);'")
        }
        return scalar
      }
    }
    while index < source.count {
      // The text up to the next `<` or `&`.
      var end = index
      while end < source.count, source[end] != 0x3C, source[end] != 0x26 { end += 1 }
      if end > index {
        appendText(index..<end)
        index = end
        continue
      }
      let byte = source[index]
      index += 1
      if byte == 0x26 {
        append(try entity(try read(until: 0x3B)))
        continue
      }
      let tag = try read(until: 0x3E, trimmed: true)
      if tag.utf8.first == 0x2F {
        let name = String(tag.utf8.dropFirst())!
        guard let last = open.last, last.name == name else {
          throw fail("</\(name)> closes \(open.last.map { "<\($0.name)>" } ?? "nothing")")
        }
        open.removeLast()
        spans[last.span].end = offset
        continue
      }
      // (`<b>` and `<i>` without reading them as elements with attributes.)
      let (name, attributes) = tag == "b" || tag == "i" ? (tag, []) : try Self.element(tag, fail: fail)
      var span = TextSpan(offset..<offset)
      var elementFamily = open.last?.family ?? family
      switch name {
      case "b", "i":
        guard attributes.isEmpty else { throw fail("<\(name)> takes no attributes") }
        guard let current = elementFamily else {
          throw fail("<\(name)> needs a family (a span's font_family)")
        }
        span.fontPattern = "\(current):\(name == "b" ? "bold" : "italic")"
      case "span":
        for (key, value) in attributes {
          switch key {
          case "font", "font_desc":
            let description = try Self.fontDescription(value, fail: fail)
            if let described = description.family { elementFamily = described }
            if let points = description.points { span.points = points }
            let style = description.styles.isEmpty ? "" : ":" + description.styles.joined(separator: ":")
            if description.family != nil || !style.isEmpty {
              span.fontPattern = (description.family ?? elementFamily ?? "") + style
            }
          case "font_family", "face":
            elementFamily = value
            span.fontPattern = value
          case "font_file": span.fontFile = value
          case "size":
            if value.hasSuffix("pt"), let points = Double(value.dropLast(2)), points > 0 {
              span.points = points
            } else if let units = Double(value), units > 0 {
              span.points = units / 1024
            } else {
              throw fail("size='\(value)' is not a size (1024ths of a point, or 12pt)")
            }
          case "font_features", "features":
            do {
              span.features = try Feature.parseList(value)
            } catch let error as HarfBuzzError {
              throw fail("features='\(value)': \(error.description)")
            }
          case "lang":
            guard let language = Language(harfBuzzString: value) else {
              throw fail("lang='\(value)' is not a language")
            }
            span.language = language
          default:
            throw fail(
              "<span> has no attribute '\(key)' (font, font_family, face, font_file, size, font_features, lang)"
            )
          }
        }
      default:
        throw fail("<\(name)> is not an element of this markup (span, b, i)")
      }
      open.append(Open(name: name, span: spans.count, family: elementFamily))
      spans.append(span)
    }
    if let last = open.last { throw fail("<\(last.name)> is not closed") }
    self.text = String(decoding: bytes, as: UTF8.self)
    self.spans = spans.filter { $0.start < $0.end }
  }

  /// An element's name and attributes: `span font="Sans 12" lang='fa'`.
  ///
  /// (Read through the tag's scalars in place, words and values taken as slices of it: copied
  /// into an array and appended a scalar at a time, a `<span font_file="…">` a word cost more than
  /// shaping the word, `perf`.)
  private static func element(_ tag: String, fail: (String) -> ShapingError) throws -> (
    String, [(String, String)]
  ) {
    let scalars = tag.unicodeScalars
    var index = scalars.startIndex
    /// Unicode's white space (ASCII's without asking for the property).
    func isSpace(_ scalar: Unicode.Scalar) -> Bool {
      scalar.isASCII ? scalar == " " || (0x09...0x0D).contains(scalar.value) : scalar.properties.isWhitespace
    }
    func skipSpaces() {
      while index < scalars.endIndex, isSpace(scalars[index]) { scalars.formIndex(after: &index) }
    }
    func word() -> String {
      let start = index
      while index < scalars.endIndex, !isSpace(scalars[index]), scalars[index] != "=" {
        scalars.formIndex(after: &index)
      }
      return String(scalars[start..<index])
    }
    let name = word()
    guard !name.isEmpty else { throw fail("<\(tag)> has no element name") }
    var attributes: [(String, String)] = []
    skipSpaces()
    while index < scalars.endIndex {
      let key = word()
      skipSpaces()
      guard index < scalars.endIndex, scalars[index] == "=" else {
        throw fail("<\(tag)>: '\(key)' has no value")
      }
      scalars.formIndex(after: &index)
      skipSpaces()
      guard index < scalars.endIndex, scalars[index] == "\"" || scalars[index] == "'" else {
        throw fail("<\(tag)>: the value of '\(key)' is not quoted")
      }
      let quote = scalars[index]
      scalars.formIndex(after: &index)
      guard let end = scalars[index...].firstIndex(of: quote) else {
        throw fail("<\(tag)>: the value of '\(key)' is not closed")
      }
      let value = String(scalars[index..<end])
      index = scalars.index(after: end)
      guard !attributes.contains(where: { $0.0 == key }) else {
        throw fail("<\(tag)>: '\(key)' is given twice")
      }
      attributes.append((key, value))
      skipSpaces()
    }
    return (name, attributes)
  }

  /// A Pango font description read as a family, style words and a size in points:
  /// `DejaVu Sans Bold Italic 12`.
  private static func fontDescription(_ value: String, fail: (String) -> ShapingError) throws -> (
    family: String?, styles: [String], points: Double?
  ) {
    var words = value.split(separator: " ").map(String.init)
    var points: Double?
    if let last = words.last, let size = Double(last.hasSuffix("px") ? "" : last), size > 0 {
      points = size
      words.removeLast()
    }
    let styleWords: [String: String] = [
      "bold": "bold", "italic": "italic", "oblique": "oblique", "light": "light", "medium": "medium",
      "semibold": "semibold", "black": "black", "heavy": "heavy", "thin": "thin", "condensed": "condensed",
      "regular": "regular", "normal": "regular",
    ]
    var styles: [String] = []
    while let last = words.last, let style = styleWords[last.lowercased()] {
      styles.insert(style, at: 0)
      words.removeLast()
    }
    let family = words.joined(separator: " ").trimmingCharacters(in: ", ")
    return (family.isEmpty ? nil : family, styles, points)
  }
}

extension String {
  fileprivate func trimmingCharacters(in set: String) -> String {
    var scalars = Substring(self)
    while let first = scalars.first, set.contains(first) { scalars.removeFirst() }
    while let last = scalars.last, set.contains(last) { scalars.removeLast() }
    return String(scalars)
  }
}
