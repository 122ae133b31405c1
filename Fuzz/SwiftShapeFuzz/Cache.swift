import HarfBuzz
import SwiftShape

/// Font bytes, text and options (as `shaping` reads them): each line of the text, shaped through
/// the shaping cache after enough lines for it to start, must give what shaping it whole gives;
/// and as a paragraph with a span of language a word, what shaping its runs one by one gives.
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
  for line in warmUp + lines + lines {
    var offset = 0
    var start = 0
    var spans: [TextSpan] = []
    for scalar in line.unicodeScalars {
      if scalar == " " {
        if offset > start { spans.append(TextSpan(start..<offset, language: languages[spans.count % 2])) }
        start = offset + paragraph.clusterUnit.width(of: scalar)
      }
      offset += paragraph.clusterUnit.width(of: scalar)
    }
    if offset > start { spans.append(TextSpan(start..<offset, language: languages[spans.count % 2])) }
    paragraph.spans = spans
    paragraph.usesCache = true
    let cached = try? font.shape(line, options: paragraph)
    paragraph.usesCache = false
    let plain = try? font.shape(line, options: paragraph)
    precondition(cached == plain, "the cache gave other runs than shaping a paragraph's spans run by run")
  }
}
