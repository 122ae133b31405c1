import Foundation
import TestFixtures
import Testing

@testable import SwiftShape

/// SwiftShape's JSON document has one writer: the compact layout, and the pretty layout made from
/// it. Whatever a result holds, the compact form is the pretty form minified, and both parse.
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
