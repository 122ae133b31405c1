import Foundation
import TestFixtures
import Testing

@_spi(Writers) @testable import SwiftShape

/// SwiftShape's JSON document has one writer with two layouts, compact and pretty. Whatever a
/// result holds, the compact form is the pretty form minified, the pretty form is the compact one
/// laid out by the documented rules, and both parse.
@Suite("Document layouts")
struct DocumentLayoutTests {
  /// JSON without the white space outside strings.
  static func minified(_ json: String) -> String {
    var output = ""
    var inString = false
    var escaped = false
    for character in json {
      if inString {
        output.append(character)
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          inString = false
        }
      } else if character == "\"" {
        inString = true
        output.append(character)
      } else if !character.isWhitespace {
        output.append(character)
      }
    }
    return output
  }

  static func documents() throws -> [ShapeDocument] {
    let latin = try ShapingFont(file: Paths.latin)
    let arabic = try ShapingFont(file: Paths.arabic)
    var traced = ShapeOptions()
    traced.trace = true
    traced.includeExtents = true
    var unnamed = ShapeOptions(direction: .rightToLeft)
    unnamed.includeGlyphNames = false
    unnamed.clusterUnit = .utf16
    let texts = ["office \"quoted\\\" \u{1}", "", "Ta 😀"]
    var paragraph = ShapeOptions()
    paragraph.paragraph = .auto
    paragraph.trace = true
    var lines = ShapeOptions()
    lines.paragraph = .auto
    lines.lineWidth = 3000
    lines.includeExtents = true
    return [
      ShapeDocument(
        font: latin, options: .init(),
        entries: try texts.enumerated().map { .init(line: $0 + 1, result: try latin.shape($1)) }),
      ShapeDocument(
        font: latin, options: traced,
        entries: try texts.enumerated().map {
          .init(line: $0 + 1, result: try latin.shape($1, options: traced))
        }),
      ShapeDocument(
        font: arabic, options: unnamed,
        entries: [.init(line: 7, result: try arabic.shape("سلام", options: unnamed))]),
      ShapeDocument(font: arabic, options: .init(), entries: []),
      ShapeDocument(
        font: try ShapingFont.defaultFont(), options: paragraph,
        entries: try ["Hello שלום 123 مرحبا!", "", "abc"].enumerated().map {
          .init(line: $0 + 1, result: try ShapingFont.defaultFont().shape($1, options: paragraph))
        }),
      ShapeDocument(
        font: latin, options: lines,
        entries: try ["Hello there, a paragraph in lines \u{10FFFD} and more words", ""].enumerated().map {
          .init(line: $0 + 1, result: try latin.shape($1, options: lines))
        }),
    ]
  }

  @Test func theCompactFormIsThePrettyFormMinified() throws {
    for document in try Self.documents() {
      let pretty = document.json(.pretty)
      let compact = document.json(.compact)
      #expect(Self.minified(pretty) == compact)
      #expect(compact.count < pretty.count)
      for json in [pretty, compact] {
        #expect((try? JSONSerialization.jsonObject(with: Data(json.utf8))) != nil, "\(json)")
      }
    }
  }

  /// The pretty layout from the compact one: a space after every `:` and `,` outside strings; the
  /// items of the result's own arrays (its glyphs, trace events, a paragraph's lines, runs and
  /// missing characters) each on a line of its own, indented by 6 (the array's end by 4), and so
  /// the runs of each line and the glyphs of each run of a paragraph, 4 further in each time;
  /// every other array and object on one line. A result starts at an indent of 4.
  static func laidOut(_ compactResult: String) -> String {
    var output = ""
    var inString = false
    var escaped = false
    // For each open container: whether its items go on lines of their own, whether it has any.
    var stack: [(itemLines: Bool, hasItems: Bool, key: String)] = []
    var lastString = ""
    var currentString = ""
    var key = ""
    var itemStarts = false
    func newline(_ indent: Int) { output += "\n" + String(repeating: " ", count: indent) }
    for character in compactResult {
      if inString {
        output.append(character)
        currentString.append(character)
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          inString = false
          lastString = String(currentString.dropLast())
        }
        continue
      }
      if itemStarts {
        itemStarts = false
        if character != "]" {
          newline(2 * stack.count + 2)
          stack[stack.count - 1].hasItems = true
        }
      }
      switch character {
      case "\"":
        inString = true
        currentString = ""
        output.append(character)
      case ":":
        key = lastString
        output += ": "
      case ",":
        output += ","
        if let top = stack.last, top.itemLines { itemStarts = true } else { output += " " }
      case "[", "{":
        let depth = stack.count + 1
        let itemLines =
          character == "["
          && (depth == 2
            || (depth == 4 && key == "glyphs" && stack[1].key == "runs")
            || (depth == 4 && key == "runs" && stack[1].key == "lines")
            || (depth == 6 && key == "glyphs" && stack[1].key == "lines"))
        stack.append((itemLines, false, key))
        output.append(character)
        if itemLines { itemStarts = true }
      case "]", "}":
        if let top = stack.popLast(), top.itemLines, top.hasItems { newline(2 * stack.count + 2) }
        output.append(character)
      default:
        output.append(character)
      }
    }
    return output
  }

  @Test func thePrettyFormIsTheCompactFormLaidOut() throws {
    var glyphs = 0
    for document in try Self.documents() {
      for entry in document.entries {
        var compact = ByteBuffer()
        ShapeDocument.appendEntry(entry, layout: .compact, to: &compact)
        var pretty = ByteBuffer()
        ShapeDocument.appendEntry(entry, layout: .pretty, to: &pretty)
        let expected = Self.laidOut(String(decoding: compact.bytes, as: UTF8.self))
        #expect(String(decoding: pretty.bytes, as: UTF8.self) == expected)
        glyphs += entry.result.glyphs.count
      }
    }
    #expect(glyphs > 50)
  }

  /// The pretty layout puts one glyph and one trace event on a line.
  @Test func thePrettyFormHasAGlyphALine() throws {
    let document = try Self.documents()[1]
    let lines = document.json(.pretty).split(separator: "\n")
    let glyphLines = lines.filter { $0.hasPrefix("      {\"id\": ") }
    let eventLines = lines.filter { $0.hasPrefix("      {\"message\": ") }
    let glyphs = document.entries.reduce(0) { $0 + $1.result.glyphs.count }
    let events = document.entries.reduce(0) { $0 + ($1.result.trace?.count ?? 0) }
    #expect(glyphLines.count == glyphs && events > 0 && eventLines.count == events)
  }
}

/// `Codable` speaks SwiftShape's JSON format: a document decodes back into the results it was
/// written from, and a document encodes as its writer writes it.
@Suite("Codable in the documented format")
struct DocumentCodingTests {
  @Test func aDocumentDecodesIntoItsResults() throws {
    var documents = try DocumentLayoutTests.documents()
    let points = try ShapingFont(file: Paths.latin, options: .init(size: .points(10.5)))
    documents.append(
      ShapeDocument(font: points, options: .init(), entries: [.init(line: 1, result: try points.shape("Ta"))])
    )
    for document in documents {
      for layout in [ShapeDocument.Layout.pretty, .compact] {
        let decoded = try JSONDecoder().decode(
          DecodedShapeDocument.self, from: Data(document.json(layout).utf8))
        #expect(decoded.results == document.entries)
        #expect(decoded.font == document.font.identity)
        #expect(decoded.features == document.options.features.map(\.description))
      }
    }
  }

  /// `Encodable` is the document writer's: `JSONEncoder` gives the same keys and values, in the
  /// same order, and decodes back to the results.
  @Test func aDocumentEncodesAsItsWriterWritesIt() throws {
    for document in try DocumentLayoutTests.documents() {
      let encoder = JSONEncoder()
      encoder.outputFormatting = .withoutEscapingSlashes
      let encoded = try encoder.encode(document)
      let written = Data(document.json(.compact).utf8)
      let a = try JSONSerialization.jsonObject(with: encoded) as? NSDictionary
      let b = try JSONSerialization.jsonObject(with: written) as? NSDictionary
      #expect(a != nil && a == b)
      #expect(try JSONDecoder().decode(DecodedShapeDocument.self, from: encoded).results == document.entries)
    }
  }
}
