import HarfBuzz

// What a font's caches share between threads (see ShapingCache.swift).

/// What a font's caches share between threads: its identity for the tables, and how it joins.
final class FontCacheState: Sendable {
  /// Tells fonts apart in the threads' tables (an address could be reused by a later font).
  let id: UInt64
  private let joints = Protected<SpaceJoints?>(nil)
  /// The language systems chosen for a script and a language (`Face.languageSystems`), and
  /// whether the face has AAT's `morx`, which reads the language itself.
  private let languageSystems = Protected<[LanguageSystemKey: [UInt32]]>([:])
  private let hasMorx = Protected<Bool?>(nil)
  /// The answers of `shapesAlike`, by script and the two languages. (Found again from the
  /// systems, each under its lock, and the morx flag under a third, a paragraph's first
  /// question cost about 1,500 instructions, a span a word 1.7 M a pass over the English text,
  /// callgrind.)
  private let alike = Protected<[LanguagePairKey: Bool]>([:])
  private let tatweel = Protected<Int32??>(nil)
  /// The pieces the threads' tables of each key offer each other (`sharedPieces`).
  let sharedTables = Protected<[ThreadCache.TableKey: SharedPieces]>([:])

  /// A tatweel's advance inside a word, between two Behs (its nominal glyph may have none, and
  /// fonts such as Amiri substitute it, or join several into one glyph); nil where the font has
  /// no tatweel or it has no advance. Shaped once a font: shaped for every line, its table's
  /// timing (three characters, faster plainly) sent the lines of the same script plainly too.
  func tatweelAdvance(_ font: ShapingFont) throws -> Int32? {
    if let known = tatweel.withLock({ $0 }) { return known }
    var advance: Int32?
    if font.font.nominalGlyph(for: "\u{640}") != nil {
      var alone = ShapeOptions(direction: .rightToLeft, script: Script(iso15924: "Arab"))
      alone.includeGlyphNames = false
      alone.usesCache = false
      let probe = try font.shape("\u{628}\u{640}\u{628}", options: alone).glyphs
      let total = probe.filter { $0.cluster == 1 }.reduce(Int32(0)) { $0 &+ $1.xAdvance }
      advance = total > 0 ? total : nil
    }
    tatweel.withLock { $0 = .some(advance) }
    return advance
  }

  struct LanguageSystemKey: Hashable {
    var script: Script
    var language: Language?
  }

  struct LanguagePairKey: Hashable {
    var script: Script
    var a: Language?
    var b: Language?
  }

  /// Whether text of `script` shapes alike in languages `a` and `b` with `font`: they select the
  /// same language systems, and the face has no `morx`.
  func shapesAlike(_ a: Language?, _ b: Language?, script: Script, font: Font) -> Bool {
    let (a, b) = (a ?? Language.processDefault, b ?? Language.processDefault)
    if a == b { return true }
    let pair = LanguagePairKey(script: script, a: a, b: b)
    if let known = alike.withLock({ $0[pair] }) { return known }
    let answer = languageSystemsAlike(a, b, script: script, font: font)
    alike.withLock {
      if $0.count >= 1_024 { $0.removeAll() }
      $0[pair] = answer
    }
    return answer
  }

  private func languageSystemsAlike(_ a: Language?, _ b: Language?, script: Script, font: Font) -> Bool {
    let morx = hasMorx.withLock { known in
      if let known { return known }
      let has = font.face.tableTags.contains("morx")
      known = has
      return has
    }
    guard !morx else { return false }
    func systems(_ language: Language?) -> [UInt32] {
      let key = LanguageSystemKey(script: script, language: language)
      if let known = languageSystems.withLock({ $0[key] }) { return known }
      let made = font.face.languageSystems(script: script, language: language)
      languageSystems.withLock { $0[key] = made }
      return made
    }
    return systems(a) == systems(b)
  }

  init() {
    id = FontCacheState.nextID.withLock {
      $0 += 1; return $0
    }
  }

  private static let nextID = Protected<UInt64>(0)

  /// How the font joins, read from its tables once.
  func spaceJoints(_ font: Font) -> SpaceJoints {
    joints.withLock { joints in
      if let joints { return joints }
      let made = SpaceJoints(font: font)
      joints = made
      return made
    }
  }
}
