// The shaping cache's cuts (see ShapingCache.swift): where a text is cut into pieces shaped
// apart, at its runs of spaces, as the characters on either side allow.

import SwiftShapeUnicode

extension ShapingFont {
  /// Where the pieces start, and the end of the text: at each run of spaces, after it when the
  /// character that follows may follow a space shaped apart (`SpaceJoints.mayFollowSpace`), else
  /// before it when the character before it may precede one (`mayPrecedeSpace`), else nowhere
  /// (the words on both sides are shaped together). `beforeSpaces[k]` says which side cut `k` is
  /// on.
  ///
  /// A cut in `required` (the edges of runs shaped apart, each in a buffer of its own) at either
  /// end of a run of spaces is made whatever the characters allow: the text on its two sides is
  /// shaped apart, as the runs are. HarfBuzz reads a run's context only for joining, which a
  /// space stops, and for the dotted circle at the beginning of text, which a piece after a cut
  /// is not. Those the characters would not allow are listed in `forced` (indices into `cuts`).
  /// A required cut before a run of spaces that the character before allows, where a piece
  /// starts after the spaces, is made inside the piece (`inside`, offsets ascending): the text on
  /// its two sides shaped together gives the glyphs they give shaped apart, as at any cut the
  /// characters allow, and each side's glyphs are found by their clusters. (`inside` is given
  /// empty.)
  ///
  /// (Not inlined: inlined into `shapeCached`, it took its callee `allows` out of line, 0.6 M
  /// instructions more a pass over the English paragraphs, callgrind.)
  @inline(never)
  func cutPieces(
    _ bytes: UnsafeBufferPointer<UInt8>, joints: SpaceJoints, table: ThreadCache.Table, cache: ThreadCache,
    required: [Int], into cuts: inout [Int], beforeSpaces: inout [Bool], forced: inout [Int],
    inside: inout [Int]
  ) {
    cuts.removeAllKeepingCapacity()
    beforeSpaces.removeAllKeepingCapacity()
    forced.removeAllKeepingCapacity()
    cuts.append(0)
    beforeSpaces.append(false)
    // What each character allows, worked out once a table.
    func allows(_ scalar: Unicode.Scalar?) -> UInt8 { table.allows(scalar, font: font, joints: joints) }
    var index = 0
    var nextRequired = 0
    while index < bytes.count {
      guard bytes[index] == 0x20 else {
        index += 1
        continue
      }
      let runStart = index
      while index < bytes.count, bytes[index] == 0x20 { index += 1 }
      // A cut required before the spaces as well as the one after them: both joints are exact
      // on their own.
      var cutBefore = false
      // A required cut before the spaces that the character before allows: made inside the piece
      // where one starts after the spaces. (Speed: a span of language a word, whose runs end
      // before their spaces, looked up two pieces a word, the word and its space, where the
      // paragraph without spans looks up one; 22.9 M → 17.6 M instructions a pass over the
      // English text, callgrind.)
      var insideBefore = false
      while nextRequired < required.count, required[nextRequired] < runStart { nextRequired += 1 }
      if runStart > 0, nextRequired < required.count, required[nextRequired] == runStart {
        if Self.cutsBeforeSpaces(at: runStart, in: bytes, allows: allows) {
          insideBefore = true
        } else {
          forced.append(cuts.count)
          cuts.append(runStart)
          beforeSpaces.append(true)
          cutBefore = true
        }
      }
      if Self.cutsAfterSpaces(at: index, in: bytes, allows: allows) {
        if insideBefore { inside.append(runStart) }
        cuts.append(index)
        beforeSpaces.append(false)
        continue
      }
      while nextRequired < required.count, required[nextRequired] < index { nextRequired += 1 }
      if index < bytes.count, nextRequired < required.count, required[nextRequired] == index {
        if insideBefore { inside.append(runStart) }
        forced.append(cuts.count)
        cuts.append(index)
        beforeSpaces.append(false)
        continue
      }
      if cutBefore { continue }
      if Self.cutsBeforeSpaces(at: runStart, in: bytes, allows: allows) {
        cuts.append(runStart)
        beforeSpaces.append(true)
        continue
      }
      if runStart > 0, index < bytes.count { cache.counts.unsafeJoints += 1 }
    }
    cuts.append(bytes.count)
    beforeSpaces.append(false)
  }

  /// Whether a piece may end at `runStart`, where a run of spaces starts after other text: where
  /// the character before the spaces allows a cut before them (`allows`, as
  /// `ThreadCache.Table.allows` gives it).
  static func cutsBeforeSpaces(
    at runStart: Int, in bytes: UnsafeBufferPointer<UInt8>, allows: (Unicode.Scalar?) -> UInt8
  ) -> Bool {
    guard runStart > 0 else { return false }
    return allows(UTF8Scalar.decode(bytes, at: UTF8Scalar.start(of: runStart - 1, in: bytes))) & 2 != 0
  }

  /// Whether a piece may start at `index`, where a run of spaces ends before other text: where
  /// the character after the spaces allows a cut after them.
  static func cutsAfterSpaces(
    at index: Int, in bytes: UnsafeBufferPointer<UInt8>, allows: (Unicode.Scalar?) -> UInt8
  ) -> Bool {
    index < bytes.count && allows(UTF8Scalar.decode(bytes, at: index)) & 1 != 0
  }

  /// Which of `required` (offsets into `bytes`, ascending) the cutting above would not make: a
  /// required cut is made where a run of spaces starts or ends, and nowhere else.
  static func requiredCutsNotMade(_ required: [Int], in bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
    required.filter { cut in
      guard cut > 0, cut < bytes.count else { return true }
      return (bytes[cut] == 0x20) == (bytes[cut - 1] == 0x20)
    }
  }

  /// Whether a space after the character starts a cluster of its own: not after a format or
  /// control character, an unassigned code point, or a character that joins what follows it
  /// (Grapheme_Cluster_Break Prepend, UAX #29: those that are letters; the others are format
  /// characters).
  static func endsAlone(_ scalar: Unicode.Scalar) -> Bool {
    if (0x21...0x7E).contains(scalar.value) { return true }
    return endAlone[scalar] ?? endsAloneTested(scalar)
  }

  private static let endAlone = ScalarTable(endsAloneTested)

  static func endsAloneTested(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .format, .control, .surrogate, .unassigned: return false
    default: break
    }
    switch scalar.value {
    case 0x0D4E, 0x111C2, 0x111C3, 0x1193F, 0x11941, 0x11A3A, 0x11A84...0x11A89, 0x11D46, 0x11F02:
      return false
    default: return true
    }
  }

  /// Whether a character after a space starts a cluster of its own whatever came before: not a
  /// mark, a format character (joiners, the soft hyphen), a grapheme extender, an emoji modifier,
  /// a Hangul vowel or final jamo, or an unassigned code point.
  static func startsAlone(_ scalar: Unicode.Scalar) -> Bool {
    if (0x21...0x7E).contains(scalar.value) { return true }
    // (The test makes a string.)
    return startAlone[scalar] ?? startsAloneTested(scalar)
  }

  private static let startAlone = ScalarTable(startsAloneTested)

  static func startsAloneTested(_ scalar: Unicode.Scalar) -> Bool {
    let properties = scalar.properties
    switch properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark, .format, .control, .surrogate, .unassigned:
      return false
    default: break
    }
    if properties.isGraphemeExtend || properties.isEmojiModifier { return false }
    // A space and the character are two grapheme clusters (not a spacing mark such as Thai's SARA
    // AM, a Hangul vowel or final jamo, …).
    var pair = " "
    pair.unicodeScalars.append(scalar)
    return pair.count == 2
  }
}
