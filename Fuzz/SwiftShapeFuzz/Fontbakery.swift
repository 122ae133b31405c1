import SwiftShape
import SwiftShapeFixtures

/// A pattern input: the first line is the recipe, each further line `name=expression` an
/// ingredient. Parsing, counting and listing must agree, and listing twice gives the same list.
func fuzzPatterns(_ bytes: UnsafeBufferPointer<UInt8>) {
  let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
  guard let recipe = lines.first.map(String.init) else { return }
  let ingredients = lines.dropFirst().prefix(60).compactMap { line -> (name: String, expression: String)? in
    guard let equals = line.firstIndex(of: "=") else { return nil }
    return (String(line[..<equals]), String(line[line.index(after: equals)...]))
  }
  _ = StringPattern.unknownWords(in: recipe, ingredients: ingredients)
  guard let pattern = try? StringPattern(recipe: recipe, ingredients: ingredients) else { return }
  let count = pattern.count
  precondition(count >= 0, "a negative count")
  guard count <= 2_000 else {
    precondition((try? pattern.strings(limit: 2_000)) == nil, "more strings than the limit were listed")
    return
  }
  let strings: [String]
  do {
    strings = try pattern.strings(limit: 2_000)
  } catch {
    preconditionFailure("a pattern within the limit was refused: \(error)")
  }
  precondition(strings.count == count, "the count and the list differ")
  precondition(strings == (try? pattern.strings(limit: count)), "listing twice differs")
  if count > 0 { precondition((try? pattern.strings(limit: count - 1)) == nil, "the limit was not kept") }
}

/// Font bytes and text (as `FontInput`) through collision checking with every rule (the cursive
/// rule reads the font's GPOS table): collisions name glyphs of the run, and no shared area is
/// larger than the two glyphs' ink boxes allow.
func fuzzCollisions(_ bytes: UnsafeBufferPointer<UInt8>) {
  guard let input = FontInput(bytes) else { return }
  let flags = input.flags
  guard let font = try? ShapingFont(bytes: input.font, faceIndex: 0, name: "fuzz") else { return }
  var options = ShapeOptions()
  options.direction = [nil, .leftToRight, .rightToLeft, nil][Int(flags >> 6) & 3]
  guard let result = try? font.shape(String(input.text.unicodeScalars.prefix(12)), options: options) else {
    return
  }
  var rules = CollisionRules()
  rules.bases = [nil, true, false, nil][Int(flags) & 3]
  rules.marks = flags & 0x04 != 0
  rules.faraway = flags & 0x08 != 0
  rules.adjacentClusters = flags & 0x10 != 0
  rules.cursive = flags & 0x20 != 0
  rules.area = flags & 0x01 != 0 ? 0.05 : 0
  let checker = CollisionChecker(font: font, rules: rules, reversed: flags & 0x02 != 0)
  let glyphs = result.glyphs
  let collisions = checker.collisions(in: glyphs)
  for collision in collisions {
    precondition(glyphs.indices.contains(collision.first) && glyphs.indices.contains(collision.second))
    precondition(collision.first != collision.second, "a glyph collides with itself")
    for piece in collisions.first == collision ? collision.sharedArea : [] {
      precondition(piece.area >= 0 && piece.area.isFinite, "a shared area that is not a size")
    }
  }
  // The same run checked again gives the same collisions (outlines come from the cache).
  precondition(checker.collisions(in: glyphs) == collisions, "checking twice differs")
}
