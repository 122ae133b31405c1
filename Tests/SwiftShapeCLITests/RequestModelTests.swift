import Foundation
import Testing

/// The command line, fixtures and JSON requests map their syntax onto one request model and
/// resolve it one way: the same font specification gives the same font whichever way it came.
@Suite("One request model")
struct RequestModelTests {
  /// A named instance of a variable font, by pattern: its coordinates apply on the command line
  /// and in a JSON request alike (a request's pattern once shaped the default instance).
  @Test func aPatternsNamedInstanceAppliesEverywhere() throws {
    let environment = PrivateFontconfig.environment
    let bold = try swiftshape(
      ["-O", "jsonl", "--font", "Inter:style=Bold", "--text", "office"], environment: environment)
    let regular = try swiftshape(
      ["-O", "jsonl", "--font", "Inter:style=Regular", "--text", "office"], environment: environment)
    let request = try swiftshape(
      ["--requests", "-"],
      stdin: Data(#"{"id": 1, "text": "office", "font": {"pattern": "Inter:style=Bold"}}"#.utf8 + [0x0A]),
      environment: environment)
    #expect(bold.status == 0 && regular.status == 0 && request.status == 0, "\(bold.err)\(request.err)")
    func glyphs(_ output: String) -> Substring? {
      guard let start = output.range(of: "\"glyphs\":") else { return nil }
      return output[start.lowerBound...].prefix { $0 != "]" }
    }
    #expect(glyphs(bold.out) != nil)
    #expect(glyphs(bold.out) == glyphs(request.out), "\(bold.out)\n\(request.out)")
    #expect(glyphs(bold.out) != glyphs(regular.out))
  }
}
