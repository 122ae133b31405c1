import SwiftShape

// The `spans` key's objects (`TextSpan`), as requests and fixtures read and write them.

extension TextSpan {
  /// The members a span object may have.
  static let memberNames = [
    "start", "end", "font_file", "font", "face_index", "points", "variations", "language", "features",
    "direction",
  ]

  /// A span object of a request or fixture: `start` and `end` in the cluster unit, and any of
  /// `font_file` (relative to the file's folder), `face_index`, `points`, `variations`,
  /// `language`, `features` (lists, or strings of items separated by commas).
  init(reading value: SourceJSON, _ reading: KeyReading) throws {
    guard let members = value.members else { throw reading.fail("a list of span objects") }
    var start: Int?
    var end: Int?
    self.init(0..<0)
    for (name, member) in members {
      var nested = reading
      nested.key = "\(reading.key).\(name)"
      switch name {
      case "start": start = try nested.whole(member, in: 0...Double(Int32.max), "a whole number from 0")
      case "end": end = try nested.whole(member, in: 0...Double(Int32.max), "a whole number from 0")
      case "font_file": fontFile = nested.path(try nested.string(member))
      case "font": fontPattern = try nested.string(member)
      case "face_index":
        faceIndex = try nested.whole(member, in: 0...Double(Int32.max), "a whole number from 0")
      case "points":
        points = try nested.number(member, in: 0.015625...33_554_431, "a number of points above 0")
      case "variations":
        variations = try nested.parsed { try nested.strings(member).map { try Variation(parsing: $0) } }
      case "features":
        features = try nested.parsed { try nested.strings(member).map { try Feature(parsing: $0) } }
      case "direction":
        guard let base = BaseDirection(rawValue: try nested.string(member)) else {
          throw nested.fail("\"auto\", \"ltr\" or \"rtl\"")
        }
        direction = base
      case "language":
        guard let language = Language(harfBuzzString: try nested.string(member)) else {
          throw nested.fail("a language tag")
        }
        self.language = language
      default:
        throw reading.fail(
          "a list of span objects, each with only \(Self.memberNames.joined(separator: ", ")) (not \"\(name)\")"
        )
      }
    }
    guard let start, let end, start <= end else {
      throw reading.fail("a list of span objects, each with \"start\" and \"end\" (end not before start)")
    }
    (self.start, self.end) = (start, end)
  }

  /// The span as a JSON object, its font path as `writing` writes paths.
  func json(_ writing: KeyWriting) -> String {
    var members = ["\"start\": \(start)", "\"end\": \(end)"]
    if let fontFile { members.append("\"font_file\": " + JSONText.string(writing.path(fontFile))) }
    if let fontPattern { members.append("\"font\": " + JSONText.string(fontPattern)) }
    if let faceIndex { members.append("\"face_index\": \(faceIndex)") }
    if let points { members.append("\"points\": " + JSONText.number(points)) }
    if !variations.isEmpty {
      members.append("\"variations\": " + JSONText.list(variations.map(\.description)))
    }
    if let language { members.append("\"language\": " + JSONText.string(language.identifier)) }
    if !features.isEmpty { members.append("\"features\": " + JSONText.list(features.map(\.description))) }
    if let direction { members.append("\"direction\": " + JSONText.string(direction.rawValue)) }
    return "{" + members.joined(separator: ", ") + "}"
  }
}
