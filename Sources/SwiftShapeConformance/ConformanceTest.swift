import HarfBuzz
import SwiftShape

/// One test of a HarfBuzz-format `.tests` file: `FONT;OPTIONS;UNICODES;EXPECTED`.
///
/// The format is HarfBuzz's (its `test/shape/data/*/tests/*.tests`): the font is relative to the
/// file, or absolute (a system font, optionally `path@sha1`, skipped when absent or different);
/// the options are hb-shape options separated by spaces; the code points are `U+XXXX` separated
/// by commas; the expectation is hb-shape's text output, or `*` for "shapes without failing". A
/// line starting with `#` is a comment or a disabled test.
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

  /// Parses a `.tests` file's text into its tests, skipping comments and blank lines.
  ///
  /// - Throws: `ShapingError` of kind `.badText` naming the file and line of a line that does not
  ///   have four `;`-separated fields.
  public static func parse(_ contents: String, file: String) throws -> [ConformanceTest] {
    let folder = file.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(
      separator: "/")
    var tests: [ConformanceTest] = []
    for (index, rawLine) in contents.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
      if line.hasPrefix("#") || line.allSatisfy(\.isWhitespace) { continue }
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
          unicodes: String(fields[2]).trimmingWhitespace(), expected: expected == "*" ? nil : expected))
    }
    return tests
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

  /// The hb-shape arguments HarfBuzz's own runner uses for this test with the given font
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
