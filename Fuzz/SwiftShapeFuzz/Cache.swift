import HarfBuzz
import SwiftShape

/// Font bytes, text and options (as `shaping` reads them): each line of the text, shaped through
/// the shaping cache after enough lines for it to start, must give what shaping it whole gives.
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
}
