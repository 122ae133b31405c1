import HarfBuzz
import SwiftShape
import SwiftShapeRender

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One fuzz input: arbitrary font bytes, text and options through blob, face, font and shape (into
/// new and reused results), and the same bytes through FreeType's outlines and the SVG renderer.
///
/// The input's first byte picks options (direction, cluster unit, font functions, trace, verify,
/// features); the next two give the text's length; then the text (as UTF-8, repaired), then the
/// font's bytes. Errors are expected; a crash, a hang or a sanitizer report is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  guard bytes.count >= 3 else { return 0 }
  let flags = bytes[0]
  let textLength = min(Int(bytes[1]) << 8 | Int(bytes[2]), bytes.count - 3)
  let text = String(decoding: bytes[3..<(3 + textLength)], as: UTF8.self)
  let fontBytes = bytes[(3 + textLength)...]
  var fontOptions = ShapingFont.Options()
  fontOptions.functions = flags & 0x01 != 0 ? .freeType : .openType
  if flags & 0x02 != 0 { fontOptions.size = .points(12) }
  if flags & 0x04 != 0 { fontOptions.variations = [Variation("wght", 700)] }
  var options = ShapeOptions()
  options.direction = [nil, .leftToRight, .rightToLeft, .topToBottom][Int(flags >> 3) & 3]
  options.clusterUnit = [.unicodeScalars, .utf8, .utf16, .unicodeScalars][Int(flags >> 5) & 3]
  options.trace = flags & 0x80 != 0
  options.verify = flags & 0x40 != 0
  options.includeExtents = true
  options.features =
    flags & 0x10 != 0 ? [Feature("liga", value: 0), Feature("kern", value: 1, start: 1, end: 3)] : []
  for faceIndex in [0, 1] {
    guard
      let font = try? ShapingFont(bytes: fontBytes, faceIndex: faceIndex, name: "fuzz", options: fontOptions)
    else {
      continue
    }
    // Shaping into a reused result gives what a new result gives, whatever the result held before
    // (longer and shorter texts in turn, so that its glyph array grows and shrinks).
    var reused = ShapeResult()
    for piece in [text, String(text.unicodeScalars.prefix(3)), text] {
      let fresh = try? font.shape(piece, options: options)
      let shaped = (try? font.shape(piece, options: options, into: &reused)) != nil
      precondition(shaped == (fresh != nil), "shaping into a reused result failed where a new one did not")
      precondition(fresh == nil || fresh == reused, "a reused result differs from a new one")
    }
    if let result = try? font.shape(text, options: options) {
      _ = HBFormat(.text).line(for: result)
      _ = ShapeDocument(font: font, options: options, entries: [.init(line: 1, result: result)]).json(
        .compact)
      for index in result.glyphs.indices { _ = result.textRange(ofGlyphAt: index) }
      if let outlines = try? FreeTypeFace(
        bytes: fontBytes, faceIndex: faceIndex, name: "fuzz", variations: fontOptions.variations)
      {
        var svgOptions = SVGOptions()
        svgOptions.annotate = flags & 0x20 != 0
        _ = SVGRenderer(font: font, outlines: outlines).svg(
          [result], expected: result.glyphs, options: svgOptions)
      }
    }
    _ = font.font.face.unicodes.count
    _ = font.font.face.tableTags
  }
  return 0
}

#if FUZZING
  // SwiftPM links an executable's entry as `SwiftShapeFuzz_main`; hand control to libFuzzer's
  // driver from there.
  @_silgen_name("LLVMFuzzerRunDriver")
  func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
  ) -> CInt

  @_cdecl("SwiftShapeFuzz_main")
  func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var vector = argv
    return LLVMFuzzerRunDriver(&count, &vector) { fuzzOneInput($0, $1) }
  }
#else
  /// Without libFuzzer: runs the fuzz function on each file named, to replay findings and seeds.
  @main
  struct Replay {
    static func main() {
      for path in CommandLine.arguments.dropFirst() {
        guard let blob = try? Blob(contentsOfFile: path) else {
          print("\(path): cannot read")
          exit(66)
        }
        let bytes = blob.bytes
        _ = bytes.withUnsafeBufferPointer { fuzzOneInput($0.baseAddress!, $0.count) }
        print("\(path): ok")
      }
    }
  }
#endif
