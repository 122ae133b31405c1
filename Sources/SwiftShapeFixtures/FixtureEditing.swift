import HarfBuzz
import SwiftShape
import SwiftShapeRequests

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Fixture {
  /// The file with the expectations of the failed cases among `results` re-recorded, and nothing
  /// else changed: each expectation keeps its form (a glyph list stays a glyph list, hb-shape's
  /// syntax stays that syntax with the same fields) and its indentation. Nil when nothing failed.
  public func updated(with results: [CaseResult]) -> [UInt8]? {
    var edits: [(range: Range<Int>, text: String)] = []
    for result in results where result.fixture == path {
      guard case .failed(_, _, _, let shaped) = result.status else { continue }
      let testCase = result.testCase
      if format == .swiftshape, testCase.engine != .running {
        // The expectation is now the running engine's: the case says so.
        let version = "\"\(EngineVersion.running)\""
        if let range = testCase.engineRange {
          edits.append((range, version))
        } else {
          let pad = String(repeating: " ", count: testCase.indent)
          edits.append(
            (testCase.objectStart + 1..<testCase.objectStart + 1, "\n\(pad)\"harfbuzz\": \(version),"))
        }
      }
      switch testCase.expectation {
      case .glyphs:
        edits.append((testCase.expectationRange, Fixture.glyphList(shaped.glyphs, indent: testCase.indent)))
      case .hbText(let original):
        edits.append(
          (testCase.expectationRange, Fixture.jsonString(Fixture.hbText(shaped.glyphs, like: original))))
      case .none:
        continue
      case .perFont(let entries):
        let name = result.font.map(Fixture.fileName)
        let entry = entries.first { $0.font == name } ?? entries.first { $0.font == "default" }!
        edits.append((entry.range, Fixture.jsonString(Fixture.hbText(shaped.glyphs, like: entry.text))))
      }
    }
    guard !edits.isEmpty else { return nil }
    var bytes = source
    // From the end, so earlier ranges stay valid; one range may be edited once (several fonts of a
    // fontbakery file can fail the same default expectation).
    var done = Set<Int>()
    for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound })
    where done.insert(edit.range.lowerBound).inserted {
      bytes.replaceSubrange(edit.range, with: Array(edit.text.utf8))
    }
    return bytes
  }

  /// Re-records the failed cases' expectations in the file, atomically (a temporary file renamed
  /// over it), and returns how many were re-recorded.
  ///
  /// - Throws: `ShapingError` of kind `.unreadableFile` when the file cannot be written.
  @discardableResult
  public func update(with results: [CaseResult]) throws -> Int {
    guard let bytes = updated(with: results) else { return 0 }
    try AtomicFile.write(bytes, to: path)
    return results.filter {
      if case .failed = $0.status { return $0.fixture == path }
      return false
    }.count
  }

  /// Glyphs as SwiftShape's expectation list: one glyph a line, the closing bracket at `indent`.
  static func glyphList(_ glyphs: [ShapedGlyph], indent: Int) -> String {
    guard !glyphs.isEmpty else { return "[]" }
    let pad = String(repeating: " ", count: indent + 2)
    let items = glyphs.map { glyph -> String in
      var item = "{\"id\": \(glyph.id), "
      if let name = glyph.name { item += "\"name\": \(jsonString(name)), " }
      item +=
        "\"cluster\": \(glyph.cluster), \"x_advance\": \(glyph.xAdvance), \"y_advance\": \(glyph.yAdvance), "
      item += "\"x_offset\": \(glyph.xOffset), \"y_offset\": \(glyph.yOffset)}"
      return pad + item
    }
    return "[\n" + items.joined(separator: ",\n") + "\n" + String(repeating: " ", count: indent) + "]"
  }

  /// Glyphs in hb-shape's text syntax, written with the fields `original` has: brackets, clusters,
  /// positions (fontbakery's form has no brackets and no y advance; names alone when it has no `+`).
  static func hbText(_ glyphs: [ShapedGlyph], like original: String) -> String {
    let bracketed = original.trimmingWhitespace().hasPrefix("[")
    let positions = original.contains("+")
    let clusters = original.contains("=")
    let items = glyphs.map { glyph -> String in
      var text = glyph.name ?? String(glyph.id)
      if clusters { text += "=\(glyph.cluster)" }
      if positions {
        if glyph.xOffset != 0 || glyph.yOffset != 0 { text += "@\(glyph.xOffset),\(glyph.yOffset)" }
        text += "+\(glyph.xAdvance)"
        if bracketed && glyph.yAdvance != 0 { text += ",\(glyph.yAdvance)" }
      }
      return text
    }.joined(separator: "|")
    return bracketed ? "[\(items)]" : items
  }

  static func jsonString(_ text: String) -> String {
    var out = ""
    JSONWriter.appendString(text, to: &out)
    return out
  }
}

// MARK: Recording

extension Fixture {
  /// Shapes `text` as `request` asks and adds it as a case to the fixture at `path`: at the end
  /// of its cases when the file exists, in a new file otherwise. Every setting of the request that
  /// differs from the default is written with its key (`RequestKey`); font paths are written
  /// relative to the fixture's folder. Written atomically; nothing else in an existing file
  /// changes.
  ///
  /// - Parameters:
  ///   - text: the text to shape.
  ///   - request: how to shape; font paths as the current folder sees them.
  ///   - name: the case's name.
  ///   - path: the fixture file.
  ///   - cache: fonts loaded once for many calls.
  /// - Returns: the result the case expects.
  /// - Throws: `ShapingError`: the font or options are unusable, the file exists but is not a
  ///   SwiftShape fixture, or it cannot be written.
  @discardableResult
  public static func record(
    text: String, request: ShapingRequest, name: String?, into path: String, cache: FontCache = FontCache()
  ) throws -> ShapeResult {
    let exists = access(path, F_OK) == 0
    let existing = exists ? try Fixture.load(path) : nil
    if let existing, existing.format != .swiftshape {
      throw ShapingError(
        .badText, input: path, reason: "cases can only be recorded into a SwiftShape fixture")
    }
    let (font, options) = try setup(request, font: nil, cache: cache)
    let result = try font.shape(text, options: options)
    let settings = request.keyMembers(syntax: .fixture) { RequestPaths.relative($0, toFolderOf: path) }
    let caseText = caseJSON(text: text, settings: settings, name: name, glyphs: result.glyphs, indent: 4)
    var bytes: [UInt8]
    if let existing {
      bytes = existing.source
      let range = existing.casesRange
      if existing.cases.isEmpty {
        bytes.replaceSubrange(range, with: Array("[\n\(caseText)\n  ]".utf8))
      } else {
        // After the last case: find where it ends (the cases array ends with it, then `]`).
        var end = range.upperBound - 1
        while end > range.lowerBound, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[end - 1]) { end -= 1 }
        bytes.insert(contentsOf: Array(",\n\(caseText)".utf8), at: end)
      }
    } else {
      bytes = Array(
        """
        {
          "format": "\(Fixture.formatName)",
          "version": \(Fixture.version),
          "defaults": {},
          "cases": [
        \(caseText)
          ]
        }

        """.utf8)
    }
    try AtomicFile.write(bytes, to: path)
    return result
  }

  /// A case in SwiftShape's canonical layout, indented `indent` spaces.
  static func caseJSON(
    text: String, settings: [String], name: String?, glyphs: [ShapedGlyph], indent: Int
  ) -> String {
    let pad = String(repeating: " ", count: indent + 2)
    var lines: [String] = []
    if let name { lines.append("\"name\": \(jsonString(name))") }
    lines.append("\"harfbuzz\": \"\(EngineVersion.running)\"")
    lines += settings
    lines.append("\"text\": \(jsonString(text))")
    lines.append("\"expect\": \(glyphList(glyphs, indent: indent + 2))")
    let open = String(repeating: " ", count: indent) + "{\n"
    return open + lines.map { pad + $0 }.joined(separator: ",\n") + "\n"
      + String(repeating: " ", count: indent) + "}"
  }

}

/// Writes a file so that it is either the old one or the whole new one: a temporary file beside it,
/// synced, then renamed over it. A symbolic link is followed: the file it names is replaced and the
/// link stays a link.
enum AtomicFile {
  static func write(_ bytes: [UInt8], to given: String) throws {
    let file = try ReplacementFile(replacing: given)
    do {
      try IO.writeAll(bytes, to: file.descriptor, name: file.path)
    } catch {
      file.discard()
      throw error
    }
    try file.commit()
  }
}
