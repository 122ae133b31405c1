/// Paths to the repository's fixtures, found from this file's location.
enum Paths {
  static let repository: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)  // Tests/SwiftShapeTests/Paths.swift
    return parts.joined(separator: "/")
  }()

  static func font(_ name: String) -> String { "\(repository)/Fixtures/fonts/\(name)" }

  static let latin = font("NotoSans-Latin.ttf")
  static let arabic = font("NotoSansArabic-Subset.ttf")
  static let devanagari = font("NotoSansDevanagari-Subset.ttf")
  static let cjkCollection = font("NotoSansCJK-Subset.ttc")
  static let variable = font("InterVariable-Subset.ttf")
}
