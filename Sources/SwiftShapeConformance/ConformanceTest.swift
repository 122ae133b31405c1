import HarfBuzz
import SwiftShape

/// One test of a HarfBuzz-format `.tests` file: `FONT;OPTIONS;UNICODES;EXPECTED`.
///
/// The format is HarfBuzz's (its `test/shape/data/*/tests/*.tests`): the font is relative to the
/// file, or absolute (a system font, optionally `path@sha1`, skipped when absent or different);
/// the options are hb-shape options separated by spaces; the code points are `U+XXXX` separated
/// by commas; the expectation is hb-shape's text output, or `*` for "shapes without failing". A
/// line starting with `#` is a comment (`# `) or a disabled test (`#` then the test).
///
/// HarfBuzz 11 added directives: a line `@shapers=ot,coretext`, `@font-funcs=ot,ft`,
/// `@face-loaders=ot` names the backends the tests after it run with (`@font-funcs-=ft` every one
/// HarfBuzz has but those; a `#` after the list starts a comment), until the file ends.
public struct ConformanceTest: Sendable, Hashable {
  /// The `.tests` file the test came from, as given.
  public var file: String
  /// The 1-based line number in that file.
  public var line: Int
  /// The font's path: resolved against the file's folder when relative.
  public var fontPath: String
  /// The SHA-1 the font must have (lower-case hex), for an absolute path with `@sha1`.
  public var fontSHA1: String?
  /// Whether the font is a system font (an absolute path in the file), skipped when absent.
  public var isSystemFont: Bool
  /// The hb-shape options, split on white space.
  public var options: [String]
  /// The code points, as written (`U+0041,U+0301`).
  public var unicodes: String
  /// The expected output, or nil for `*` (shapes without failing).
  public var expected: String?
  /// The backends the file's directives before the test name.
  public var backends = Backends()

  /// What a file's directives say the tests after them run with; nil for the runner's default.
  public struct Backends: Sendable, Hashable {
    /// `@shapers=` (`@shaper=`).
    public var shapers: BackendList?
    /// `@face-loaders=` (`@face-loader=`).
    public var faceLoaders: BackendList?
    /// `@font-funcs=`.
    public var fontFunctions: BackendList?

    /// The runner's defaults.
    public init() {}
  }

  /// A directive's list: the backends named, or every one HarfBuzz has but those named (`-=`).
  public struct BackendList: Sendable, Hashable {
    /// The names, as written.
    public var names: [String]
    /// Whether the names are the ones to leave out.
    public var excludes: Bool

    /// The backends to run with, out of those HarfBuzz has (in the directive's order, or in
    /// HarfBuzz's for an exclusion).
    public func chosen(from supported: [String]) -> [String] {
      excludes ? supported.filter { !names.contains($0) } : names.filter { supported.contains($0) }
    }
  }

  /// Parses a `.tests` file's text into its tests, skipping comments and blank lines.
  ///
  /// - Throws: `ShapingError` of kind `.badText` naming the file and line of a line that does not
  ///   have four `;`-separated fields.
  public static func parse(_ contents: String, file: String) throws -> [ConformanceTest] {
    let folder = file.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(
      separator: "/")
    var tests: [ConformanceTest] = []
    var backends = Backends()
    for (index, rawLine) in contents.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
      if line.hasPrefix("#") || line.allSatisfy(\.isWhitespace) { continue }
      let trimmed = String(line).trimmingWhitespace()
      if trimmed.hasPrefix("@") {
        try backends.read(directive: trimmed, at: "\(file):\(index + 1)")
        continue
      }
      let fields = line.split(separator: ";", omittingEmptySubsequences: false)
      guard fields.count == 4 else {
        throw ShapingError(
          .badText, input: "\(file):\(index + 1)", reason: "not a test (FONT;OPTIONS;UNICODES;EXPECTED)")
      }
      var font = String(fields[0]).replacingBackslashEscapes()
      if font.hasPrefix("\""), font.hasSuffix("\""), font.count >= 2 {
        font = String(font.dropFirst().dropLast())
      }
      var sha1: String?
      let isSystemFont = font.hasPrefix("/")
      if isSystemFont, let at = font.lastIndex(of: "@") {
        sha1 = String(font[font.index(after: at)...]).lowercased()
        font = String(font[..<at])
      }
      if !isSystemFont { font = folder.isEmpty ? font : "\(folder)/\(font)" }
      let expected = String(fields[3]).trimmingWhitespace()
      tests.append(
        ConformanceTest(
          file: file, line: index + 1, fontPath: font.normalizedPath(), fontSHA1: sha1,
          isSystemFont: isSystemFont,
          options: fields[1].split(whereSeparator: \.isWhitespace).map(String.init),
          unicodes: String(fields[2]).trimmingWhitespace(), expected: expected == "*" ? nil : expected,
          backends: backends))
    }
    return tests
  }
}

extension ConformanceTest.Backends {
  /// Reads a directive line (`@font-funcs=ot,ft # a comment`), as HarfBuzz's runner does.
  ///
  /// - Throws: `ShapingError` of kind `.badText` naming the place for a directive it does not know.
  mutating func read(directive line: String, at place: String) throws {
    let body = line.dropFirst().split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
    let parts = body.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2 else {
      throw ShapingError(
        .badText, input: place, reason: "not a directive (@shapers=…, @font-funcs=…, @face-loaders=…)")
    }
    var command = String(parts[0]).trimmingWhitespace()
    let excludes = command.hasSuffix("-")
    if excludes { command.removeLast() }
    let list = ConformanceTest.BackendList(
      names: parts[1].split(separator: ",").map { String($0).trimmingWhitespace() }, excludes: excludes)
    switch command {
    case "shaper", "shapers": shapers = list
    case "face-loader", "face-loaders": faceLoaders = list
    case "font-funcs": fontFunctions = list
    default:
      throw ShapingError(.badText, input: place, reason: "unknown directive '@\(command)'")
    }
  }
}

extension String {
  /// `\x` becomes `x` (a `.tests` file escapes the spaces of a path this way).
  fileprivate func replacingBackslashEscapes() -> String {
    var result = ""
    var escaped = false
    for character in self {
      if escaped || character != "\\" {
        result.append(character)
        escaped = false
      } else {
        escaped = true
      }
    }
    return result
  }

  fileprivate func trimmingWhitespace() -> String {
    String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
  }

  /// Removes `.` and `name/..` components, as Python's `os.path.normpath` does.
  fileprivate func normalizedPath() -> String {
    let absolute = hasPrefix("/")
    var parts: [Substring] = []
    for part in split(separator: "/") {
      if part == "." { continue }
      if part == "..", let last = parts.last, last != ".." {
        parts.removeLast()
      } else if part == "..", absolute {
        continue
      } else {
        parts.append(part)
      }
    }
    let joined = parts.joined(separator: "/")
    return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
  }
}

extension ConformanceTest {
  /// Why the test cannot run on this machine, or nil when it can: its system font is absent, or is
  /// not the version the test was written for (its SHA-1 differs).
  public var skipReason: String? {
    guard isSystemFont else { return nil }
    guard let blob = try? Blob(contentsOfFile: fontPath) else { return "\(fontPath) not found" }
    if let fontSHA1, SHA1.hexDigest(blob.bytes) != fontSHA1 {
      return "different version of \(fontPath) (expected SHA-1 \(fontSHA1))"
    }
    return nil
  }

  /// The hb-shape arguments the runner of HarfBuzz 6 to 10 uses for this test with the given font
  /// functions: `--shaper=ot`, and `--verify --unsafe-to-concat` unless the expectation is `*`,
  /// before the test's own options (which win where they repeat one).
  public func arguments(fontFunctions: String) -> [String] {
    ["--font-funcs=\(fontFunctions)", fontPath, "--shaper=ot"]
      + (expected == nil ? [] : ["--verify", "--unsafe-to-concat"]) + ["--unicodes", unicodes] + options
  }
}

extension ConformanceTest {
  /// The shapers the test's own options ask for (`--shaper=coretext`), which a HarfBuzz built
  /// without them cannot run.
  public var requestedShapers: [String] {
    var shapers: [String] = []
    for (index, option) in options.enumerated() {
      for name in ["--shaper", "--shapers"] {
        if option.hasPrefix(name + "=") {
          shapers += option.dropFirst(name.count + 1).split(separator: ",").map(String.init)
        } else if option == name, index + 1 < options.count {
          shapers += options[index + 1].split(separator: ",").map(String.init)
        }
      }
    }
    return shapers
  }
}
