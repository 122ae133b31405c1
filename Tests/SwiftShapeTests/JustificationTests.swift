import Foundation
import SwiftShape
import TestFixtures
import Testing

/// `LineAlignment.justify`: every line but the last fills the width, with space between words or,
/// without words, between characters; each line says how it was filled.
@Suite("Justified lines")
struct JustificationTests {
  static func justified(
    _ font: ShapingFont, _ text: String, width: Int32, unit: ClusterUnit = .unicodeScalars
  )
    throws -> (ShapeResult, plain: ShapeResult)
  {
    var options = ShapeOptions()
    options.paragraph = .auto
    options.lineWidth = width
    options.clusterUnit = unit
    let plain = try font.shape(text, options: options)
    options.alignment = .justify
    return (try font.shape(text, options: options), plain)
  }

  static let english =
    "Once when I was six years old I saw a magnificent picture in a book, called True Stories from Nature, about the primeval forest. It was a picture of a boa constrictor in the act of swallowing an animal."

  /// Every line but the last is as wide as the width (its visible advance, to the unit), the space
  /// going to the spaces inside it; the lines break where they broke unjustified; the last line
  /// keeps its advance and sits at the start.
  @Test(arguments: [12_000, 20_000, 31_000])
  func linesFillTheWidth(width: Int32) throws {
    let font = try ShapingFont(file: Paths.latin)
    for unit in [ClusterUnit.unicodeScalars, .utf8] {
      let (result, plain) = try Self.justified(font, Self.english, width: width, unit: unit)
      let lines = try #require(result.lines)
      let plainLines = try #require(plain.lines)
      #expect(lines.map(\.range) == plainLines.map(\.range))
      for (index, (line, before)) in zip(lines, plainLines).enumerated() {
        let fill = try #require(line.fill)
        if index == lines.count - 1 {
          #expect(fill.kind == .none && line.visibleAdvance == before.visibleAdvance && line.x == 0)
          continue
        }
        if fill.kind == .spaces {
          #expect(line.visibleAdvance == width && line.x == 0)
          #expect(fill.added == width - before.visibleAdvance && fill.places > 0)
          // Only the spaces grew, and the glyphs are the same.
          let now = line.runs.flatMap(\.glyphs)
          let then = before.runs.flatMap(\.glyphs)
          #expect(now.map(\.id) == then.map(\.id))
          let grown = zip(now, then).filter { $0.xAdvance != $1.xAdvance }
          #expect(grown.count == fill.places && grown.allSatisfy { $0.0.name == "space" })
        } else {
          #expect(fill.kind == .none && line.visibleAdvance == before.visibleAdvance)
        }
      }
      #expect(lines.dropLast().contains { $0.fill?.kind == .spaces })
    }
  }

  /// Right to left: the same, the lines at x 0 filling the width.
  @Test func rightToLeftLinesFillTheWidth() throws {
    let font = try ShapingFont(file: Paths.hebrew)
    let text = String(repeating: "שלום עולם זה טקסט ארוך ", count: 6)
    let (result, _) = try Self.justified(font, text, width: 9000)
    let lines = try #require(result.lines)
    #expect(lines.count > 2)
    for line in lines.dropLast() where line.fill?.kind == .spaces {
      #expect(line.visibleAdvance == 9000 && line.x == 0)
    }
    #expect(lines.dropLast().allSatisfy { $0.fill?.kind == .spaces })
  }

  /// Text without spaces (Japanese): space between the characters, after each cluster but the
  /// line's last.
  @Test func textWithoutSpacesFillsBetweenCharacters() throws {
    let font = try ShapingFont(file: Paths.cjkCollection)
    let text = String(repeating: "日本語のテスト", count: 8)
    let (result, plain) = try Self.justified(font, text, width: 10_500)
    let lines = try #require(result.lines)
    #expect(lines.count > 2)
    for (line, before) in zip(lines, try #require(plain.lines)).dropLast() {
      let fill = try #require(line.fill)
      #expect(fill.kind == .characters && line.visibleAdvance == 10_500)
      #expect(fill.places == line.runs.flatMap(\.glyphs).count - 1)
      #expect(fill.added == 10_500 - before.visibleAdvance)
    }
  }

  /// A line that would need more than an em at each place stays ragged, at the start, and says so;
  /// a paragraph of one line is its last.
  @Test func tooWideAGapStaysRagged() throws {
    let font = try ShapingFont(file: Paths.latin)
    let (result, _) = try Self.justified(font, "a b cccccccccccccccccccc", width: 6000)
    let lines = try #require(result.lines)
    #expect(lines.first?.fill == LineFill(kind: .none, added: 0, places: 0))
    let (one, _) = try Self.justified(font, "a short one", width: 60_000)
    #expect(one.lines?.count == 1 && one.lines?.first?.fill?.kind == LineFill.Kind.none)
  }

  /// A soft hyphen is a place to break that shows a hyphen when the line breaks there: the line
  /// ends in the font's hyphen at the soft hyphen's cluster and says so; unbroken, it draws
  /// nothing; each line fits.
  @Test func softHyphensShowAHyphenWhereTheyBreak() throws {
    let font = try ShapingFont(file: Paths.latin)
    let hyphen = try #require(font.font.nominalGlyph(for: "-"))
    var options = ShapeOptions()
    options.paragraph = .auto
    options.lineWidth = 3000
    let text = "some extra\u{AD}ordinary words and hy\u{AD}phen\u{AD}ation"
    let result = try font.shape(text, options: options)
    let lines = try #require(result.lines)
    let scalars = Array(text.unicodeScalars)
    var broken = 0
    for (index, line) in lines.enumerated() {
      // A line fits, unless it is one piece that cannot break (a word wider than the width).
      let inside = scalars[line.range.lowerBound..<(line.range.upperBound - 1)]
      #expect(line.visibleAdvance <= 3000 || !inside.dropLast().contains { $0 == " " || $0 == "\u{AD}" })
      let glyphs = line.runs.flatMap(\.glyphs)
      let endsAtSoftHyphen = scalars[line.range.upperBound - 1] == "\u{AD}" && index < lines.count - 1
      #expect(line.hyphen == endsAtSoftHyphen)
      if endsAtSoftHyphen {
        broken += 1
        #expect(glyphs.last?.id == hyphen && glyphs.last?.cluster == line.range.upperBound - 1)
        #expect((glyphs.last?.xAdvance ?? 0) > 0)
      }
      // A soft hyphen inside a line draws nothing.
      for glyph in glyphs
      where scalars[glyph.cluster] == "\u{AD}" && glyph.cluster < line.range.upperBound - 1 {
        #expect(glyph.xAdvance == 0)
      }
    }
    #expect(broken >= 2)
    // Unbroken, the same text has no hyphen glyph.
    options.lineWidth = nil
    #expect(!(try font.shape(text, options: options)).glyphs.contains { $0.id == hyphen })
  }
}
