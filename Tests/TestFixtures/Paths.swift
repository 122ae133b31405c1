/// Paths to the repository's test fixtures, found from this file's location, for every test target.
public enum Paths {
  /// The repository's root folder.
  public static let repository: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)  // Tests/TestFixtures/Paths.swift
    return parts.joined(separator: "/")
  }()

  /// `Fixtures/`.
  public static let fixtures = "\(repository)/Fixtures"

  /// A font in `Fixtures/fonts`.
  public static func font(_ name: String) -> String { "\(fixtures)/fonts/\(name)" }

  /// Noto Sans: Latin, ligatures, kerning.
  public static let latin = font("NotoSans-Latin.ttf")
  /// Noto Sans Arabic: joining, marks.
  public static let arabic = font("NotoSansArabic-Subset.ttf")
  /// Noto Sans Devanagari: reordering, conjuncts.
  public static let devanagari = font("NotoSansDevanagari-Subset.ttf")
  /// Noto Sans CJK JP and KR: a two-face collection, vertical text.
  public static let cjkCollection = font("NotoSansCJK-Subset.ttc")
  /// Inter: a variable font.
  public static let variable = font("InterVariable-Subset.ttf")
}

extension Paths {
  /// Noto Sans Thai.
  public static let thai = font("NotoSansThai-Subset.ttf")
  /// Noto Sans Hebrew, with points.
  public static let hebrew = font("NotoSansHebrew-Subset.ttf")
  /// Noto Color Emoji: color bitmaps.
  public static let emoji = font("NotoColorEmoji-Subset.ttf")
  /// A font built with fontTools whose layout reaches across spaces in each way the shaping cache
  /// must see (`Fixtures/cache/make-space-joints.py`; kept out of `fonts/`, which the fixture fontconfig lists).
  public static let spaceJoints = "\(fixtures)/cache/SpaceJoints-Test.ttf"
  /// A fontconfig configuration that lists only the fixture fonts, with `sans-serif` (and `sans`)
  /// preferring Noto Sans, then Hebrew, Arabic, Devanagari, Thai, CJK and the color emoji.
  public static let fontconfigFile = "\(fixtures)/fontconfig/fonts.conf"

  /// `../shared` beside the repository (HarfBuzz's test suite and the benchmark corpus), when it
  /// is there.
  public static let shared: String? = {
    let path = "\(repository)/../shared"
    var isDirectory = false
    return FileSystem.isDirectory(path) ? path : nil
  }()
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

enum FileSystem {
  static func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }
}

/// A small, seedable pseudo-random generator (SplitMix64), so that random tests can be replayed.
public struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  /// A generator whose numbers follow from `seed`.
  public init(seed: UInt64) { state = seed }
  /// The next number.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
