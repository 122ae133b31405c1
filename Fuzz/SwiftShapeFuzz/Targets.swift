import HarfBuzz
import SwiftShape
import SwiftShapeCommandLine
import SwiftShapeFixtures
import SwiftShapeRender
import SwiftShapeRequests

/// SwiftShape's fuzz targets, one for each surface that reads untrusted input. Each takes the
/// bytes libFuzzer gives; errors are expected, and a crash, a hang, a sanitizer report or a broken
/// invariant (a `precondition`) is a finding.
enum FuzzTarget: String, CaseIterable {
  /// Font bytes, text and options through blob, face, font, shaping (new and reused results) and
  /// the output formats.
  case shaping
  /// Font bytes and lines of text through the shaping cache, against shaping each line whole.
  case cache
  /// Font bytes through FreeType's outlines and the SVG and raster renderers, color glyphs
  /// included (bitmaps, COLR layers, the COLR version 1 table reader).
  case outlines
  /// A JSON request line (`--requests`), answered.
  case requests
  /// A fixture file: parsed, and parsed again with an expectation spliced in.
  case fixtures
  /// A fontbakery shaping file: parsed, and parsed again with an expectation spliced in.
  case fontbakery
  /// hb-shape's syntaxes: features, variations, code point lists, glyph strings, each printed
  /// back where a printer exists.
  case syntax
  /// A `--batch` request line: split and read as hb-shape and as swiftshape read it.
  case batch
  /// Random mixed-script text and fonts through paragraphs and lines, with spans over random
  /// ranges, checking their invariants.
  case paragraphs
  /// A fontbakery pattern recipe and ingredients: the regular-expression parser and the listing.
  case patterns
  /// Font bytes and text through fontbakery's collision check (outlines, GDEF, GPOS anchors).
  case collisions

  func run(_ bytes: UnsafeBufferPointer<UInt8>) {
    switch self {
    case .shaping: fuzzShaping(bytes)
    case .cache: fuzzCache(bytes)
    case .outlines: fuzzOutlines(bytes)
    case .requests: fuzzRequests(bytes)
    case .fixtures, .fontbakery: fuzzFixture(bytes)
    case .syntax: fuzzSyntax(bytes)
    case .batch: fuzzBatch(bytes)
    case .paragraphs: fuzzParagraphs(bytes)
    case .patterns: fuzzPatterns(bytes)
    case .collisions: fuzzCollisions(bytes)
    }
  }
}

/// The input's first byte picks options, the next two give the text's length in bytes, then comes
/// the text (UTF-8, repaired) and the rest is a font.
struct FontInput {
  var flags: UInt8
  var text: String
  var font: UnsafeBufferPointer<UInt8>.SubSequence

  init?(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard bytes.count >= 3 else { return nil }
    flags = bytes[0]
    let length = min(Int(bytes[1]) << 8 | Int(bytes[2]), bytes.count - 3)
    text = String(decoding: bytes[3..<(3 + length)], as: UTF8.self)
    font = bytes[(3 + length)...]
  }
}

func fuzzShaping(_ bytes: UnsafeBufferPointer<UInt8>) {
  guard let input = FontInput(bytes) else { return }
  let flags = input.flags
  var fontOptions = ShapingFont.Options()
  fontOptions.functions = flags & 0x01 != 0 ? .freeType : .openType
  if flags & 0x02 != 0 { fontOptions.size = .points(12) }
  if flags & 0x04 != 0 { fontOptions.variations = [Variation("wght", 700)] }
  var options = ShapeOptions()
  options.direction = [nil, .leftToRight, .rightToLeft, .topToBottom][Int(flags >> 3) & 3]
  options.clusterUnit = [.unicodeScalars, .utf8, .utf16, .unicodeScalars][Int(flags >> 5) & 3]
  options.trace = flags & 0x80 != 0 && input.text.utf8.count < 64
  options.verify = flags & 0x40 != 0
  options.includeExtents = flags & 0x20 != 0
  options.features =
    flags & 0x10 != 0 ? [Feature("liga", value: 0), Feature("kern", value: 1, start: 1, end: 3)] : []
  guard
    let font = try? ShapingFont(
      bytes: input.font, faceIndex: Int(flags & 0x01), name: "fuzz", options: fontOptions)
  else { return }
  // Shaping into a reused result gives what a new result gives, whatever the result held before
  // (longer and shorter texts in turn, so that its glyph array grows and shrinks).
  var reused = ShapeResult()
  for piece in [input.text, String(input.text.unicodeScalars.prefix(3))] {
    let fresh = try? font.shape(piece, options: options)
    let shaped = (try? font.shape(piece, options: options, into: &reused)) != nil
    precondition(shaped == (fresh != nil), "shaping into a reused result failed where a new one did not")
    precondition(fresh == nil || fresh == reused, "a reused result differs from a new one")
  }
  if let result = try? font.shape(input.text, options: options) {
    _ = HBFormat(.text).line(for: result)
    _ = HBFormat(.json).line(for: result)
    let json = ShapeDocument(font: font, options: options, entries: [.init(line: 1, result: result)]).json(
      .compact)
    precondition(
      json.utf8.first == UInt8(ascii: "{") && json.utf8.last == UInt8(ascii: "}"), "not a JSON object")
    for index in result.glyphs.indices.prefix(16) { _ = result.textRange(ofGlyphAt: index) }
  }
}

func fuzzOutlines(_ bytes: UnsafeBufferPointer<UInt8>) {
  guard let input = FontInput(bytes) else { return }
  let variations = input.flags & 0x04 != 0 ? [Variation("wght", 700)] : []
  guard
    let outlines = try? FreeTypeFace(bytes: input.font, faceIndex: 0, name: "fuzz", variations: variations)
  else { return }
  for glyph in 0..<UInt32(8) {
    if let outline = outlines.outline(of: glyph) { _ = outline.bounds }
  }
  var fontOptions = ShapingFont.Options()
  fontOptions.variations = variations
  guard let font = try? ShapingFont(bytes: input.font, name: "fuzz", options: fontOptions),
    let result = try? font.shape(String(input.text.prefix(16)))
  else { return }
  var svgOptions = SVGOptions()
  svgOptions.annotate = input.flags & 0x30 == 0x30
  svgOptions.color = input.flags & 0x08 == 0
  svgOptions.palette = Int(input.flags >> 6)
  // Small pictures: the raster path (and color glyphs: bitmaps, COLR layers and paint graphs read
  // by the table reader) on every input.
  svgOptions.pixelsPerEm = 24
  // Paint graphs are painted up to a smaller cost than the command's, so that a costly one (which
  // the limit exists for) is met within the fuzzer's time limit.
  svgOptions.paintLimit = 1 << 20
  let renderer = SVGRenderer(font: font, outlines: outlines)
  let svg = renderer.svg([result], expected: result.glyphs, options: svgOptions)
  precondition(svg.hasSuffix("</svg>\n"), "an unfinished SVG")
  guard let image = try? renderer.image([result], options: svgOptions) else { return }
  precondition(
    image.pixels.count == image.width * image.height * image.channels, "a picture of the wrong size")
  // Plain text drawn from compact lines (the render command's faster path) is the plain drawing,
  // byte for byte.
  if renderer.canDrawLines(shapedWith: ShapeOptions(), options: svgOptions),
    let lines = SVGRenderer.drawingLines(of: result)
  {
    var compact: [UInt8] = []
    renderer.writeSVG(lines: lines, options: svgOptions, jobs: 1) { compact.append(contentsOf: $0) }
    precondition(compact == renderer.svgBytes([result], options: svgOptions), "compact lines drawn otherwise")
  }
}

/// The folder requests find their fonts in: the fixture fonts, as `fonts/…` (requests naming
/// other paths or fontconfig patterns are left out: the file system and the installed fonts are
/// not the target).
let requestFolder: String = {
  var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
  parts.removeLast(3)  // Fuzz/SwiftShapeFuzz/Targets.swift
  return parts.joined(separator: "/") + "/Fixtures"
}()
let requestCache = FontCache()

func fuzzRequests(_ bytes: UnsafeBufferPointer<UInt8>) {
  let line = Array(bytes.prefix { $0 != 0x0A })
  let text = String(decoding: line, as: UTF8.self)
  guard !text.contains("pattern"), !text.contains(".."), !text.contains("\"/"), !text.contains("\\") else {
    return
  }
  let answer = JSONRequests.answer(line, folder: requestFolder, cache: requestCache)
  precondition(answer.starts(with: Array("{\"id\":".utf8)), "an answer that does not start with its id")
  precondition(answer.last == UInt8(ascii: "}") && !answer.contains(0x0A), "an answer that is not one object")
}

func fuzzFixture(_ bytes: UnsafeBufferPointer<UInt8>) {
  let contents = Array(bytes)
  guard let fixture = try? Fixture(path: "fuzz.json", contents: contents), let first = fixture.cases.first
  else {
    return
  }
  // Splicing an expectation into a fixture that parses gives a fixture that parses, with the same
  // cases apart from that expectation.
  var result = ShapeResult()
  result.runs = [
    ShapedRun(
      font: FontIdentity(file: "fuzz", faceIndex: 0, unitsPerEm: 1000, glyphCount: 3),
      unit: .fontUnits(unitsPerEm: 1000),
      scale: Scale(x: 1000, y: 1000), direction: .leftToRight, script: .common, language: nil,
      glyphs: [
        ShapedGlyph(id: 2, name: "two", cluster: 0, xAdvance: 500),
        ShapedGlyph(id: 1, cluster: 1, xAdvance: 7),
      ])
  ]
  let failed = CaseResult(
    fixture: "fuzz.json", testCase: first, font: nil,
    status: .failed(differences: [], expected: "", actual: "", result: result))
  guard let spliced = fixture.updated(with: [failed]) else { return }
  let again: Fixture
  do {
    again = try Fixture(path: "fuzz.json", contents: spliced)
  } catch {
    preconditionFailure("a spliced fixture does not parse: \(error)")
  }
  precondition(again.cases.count == fixture.cases.count, "splicing changed the number of cases")
  for (old, new) in zip(fixture.cases, again.cases) {
    precondition(old.text == new.text && old.request == new.request, "splicing changed a case")
  }
}

func fuzzSyntax(_ bytes: UnsafeBufferPointer<UInt8>) {
  let text = String(decoding: bytes.prefix(512), as: UTF8.self)
  // Printed back, a feature or variation reads as itself.
  for piece in text.split(separator: ",").prefix(8) {
    if let feature = try? Feature(parsing: String(piece)) {
      precondition((try? Feature(parsing: feature.description)) == feature, "a feature does not read back")
    }
    if let variation = try? Variation(parsing: String(piece)) {
      let back = try? Variation(parsing: variation.description)
      precondition(back?.tag == variation.tag, "a variation does not read back")
    }
  }
  if let scalars = try? TextInput.scalars(fromUnicodesList: text) {
    let printed = scalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: ",")
    precondition(
      (try? TextInput.scalars(fromUnicodesList: printed)) == scalars, "a code point list does not read back")
  }
  _ = try? ExpectedGlyph.parseHBText(text)
  _ = HBShapeSyntax.features(text)
  _ = HBShapeSyntax.variations(text)
  _ = HBShapeSyntax.fontSize(text)
  _ = HBShapeSyntax.ppem(text)
  _ = HBShapeSyntax.integer(text)
  _ = HBShapeSyntax.double(text)
  _ = try? HBShapeSyntax.shapers(text)
  _ = try? HBShapeSyntax.unicodes(text, option: "-u")
  _ = HBShapeSyntax.decodeAsHarfBuzz(Array(bytes.prefix(512)))
}

func fuzzBatch(_ bytes: UnsafeBufferPointer<UInt8>) {
  let line = String(decoding: bytes.prefix(1024), as: UTF8.self)
  // As `--batch` splits a line: `;` between arguments.
  let arguments = line.split(separator: ";").map(String.init).filter { !$0.isEmpty }
  for persona in [Persona.hbShape, .swiftshape] {
    guard let settings = try? ShapeSettings.options.parse(arguments, persona: persona) else { continue }
    _ = try? settings.shapingRequest()
    _ = try? settings.output.resolvedFormat(persona: persona)
  }
}
