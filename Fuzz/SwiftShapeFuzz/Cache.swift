import HarfBuzz
import SwiftShape

/// Font bytes, text and options (as `shaping` reads them): each line of the text, shaped through
/// the shaping cache after enough lines for it to start, must give what shaping it whole gives;
/// and as a paragraph with a span of language a word (or, for half the texts, a span every
/// other word of another size or of other variations, with a language), what shaping its runs
/// one by one gives.
func fuzzCache(_ bytes: UnsafeBufferPointer<UInt8>) {
  guard let input = FontInput(bytes) else { return }
  let flags = input.flags
  guard
    let font = try? ShapingFont(
      bytes: input.font, faceIndex: 0, name: "fuzz",
      options: .init(size: flags & 0x02 != 0 ? .points(12) : .unitsPerEm))
  else { return }
  var options = ShapeOptions()
  options.direction = [nil, .leftToRight, .rightToLeft, nil][Int(flags >> 3) & 3]
  options.clusterUnit = [.unicodeScalars, .utf8, .utf16, .unicodeScalars][Int(flags >> 5) & 3]
  options.clusterLevel = flags & 0x04 != 0 ? .monotoneCharacters : .monotoneGraphemes
  if flags & 0x01 != 0 { options.bufferFlags = [.beginningOfText, .endOfText] }
  if flags & 0x80 != 0 { options.features = [Feature("kern", value: 0)] }
  ShapingCache.choosesByTime = false
  var whole = options
  whole.usesCache = false
  let lines = input.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  let warmUp = Array(repeating: lines.first ?? "", count: ShapingCache.warmUpLines)
  for line in warmUp + lines + lines {
    let cached = try? font.shape(line, options: options)
    let plain = try? font.shape(line, options: whole)
    precondition(cached == plain, "the cache gave other glyphs than shaping the line whole")
  }
  // Paragraphs with a span of language a word (two languages in turn, as the last byte of the
  // flags picks them): the runs the cache shapes together must be those shaped run by run. (Half
  // the inputs, by their text's length: a paragraph shaped twice a line slows the target.)
  guard input.text.utf8.count & 1 == 0 else { return }
  var paragraph = options
  paragraph.paragraph = .auto
  paragraph.bufferFlags = []
  let languages = ["en", flags & 0x40 != 0 ? "tr" : "de"].map { Language(harfBuzzString: $0) }
  let styled = input.text.utf8.count & 2 != 0
  let wght = try? Variation(parsing: "wght=700")
  func span(_ range: Range<Int>, _ number: Int) -> TextSpan {
    guard styled else { return TextSpan(range, language: languages[number % 2]) }
    // Every other word another size (the font sized in points) or other variations, every
    // third in the second language.
    let language = number % 3 == 2 ? languages[1] : nil
    return flags & 0x02 != 0
      ? TextSpan(range, points: number % 2 == 0 ? 18 : nil, language: language)
      : TextSpan(range, variations: number % 2 == 0 ? wght.map { [$0] } ?? [] : [], language: language)
  }
  for line in warmUp + lines + lines {
    var offset = 0
    var start = 0
    var spans: [TextSpan] = []
    // (A span that sets nothing is left out: it would take the general path.)
    func add(_ range: Range<Int>, _ number: Int) {
      let made = span(range, number)
      if made.points != nil || !made.variations.isEmpty || made.language != nil { spans.append(made) }
    }
    var number = 0
    for scalar in line.unicodeScalars {
      if scalar == " " {
        if offset > start {
          add(start..<offset, number)
          number += 1
        }
        start = offset + paragraph.clusterUnit.width(of: scalar)
      }
      offset += paragraph.clusterUnit.width(of: scalar)
    }
    if offset > start { add(start..<offset, number) }
    paragraph.spans = spans
    paragraph.usesCache = true
    let cached = try? font.shape(line, options: paragraph)
    paragraph.usesCache = false
    let plain = try? font.shape(line, options: paragraph)
    precondition(cached == plain, "the cache gave other runs than shaping a paragraph's spans run by run")
  }
}
