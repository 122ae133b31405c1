import SwiftShape

/// A report of checked cases, as text for people or JSON for programs.
public struct FixtureReport: Sendable {
  /// The results, in order.
  public var results: [CaseResult]

  /// A report of `results`.
  public init(results: [CaseResult]) { self.results = results }

  /// Cases that passed.
  public var passed: Int { results.filter(\.passed).count }
  /// Cases whose glyphs differ.
  public var failed: Int {
    results.filter {
      if case .failed = $0.status { return true }
      return false
    }.count
  }
  /// Cases skipped (a shaper HarfBuzz lacks).
  public var skipped: Int { results.filter(\.skipped).count }
  /// Cases that could not run.
  public var errors: Int { results.count - passed - failed - skipped }

  /// For each case that did not pass: the case (file, name or index, input), then each difference,
  /// then both glyph lists; a closing `N passed, N failed, N skipped` line (cases that could not run
  /// count as failed). With `colored`, ANSI colors mark failures, expected and actual values.
  public func text(colored: Bool) -> String {
    func paint(_ text: String, _ code: String) -> String {
      colored ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
    var out = ""
    for result in results {
      let testCase = result.testCase
      let font = result.font.map { " with \(Fixture.fileName($0))" } ?? ""
      switch result.status {
      case .passed, .skipped: continue
      case .error(let error):
        out += "\(paint("ERROR", "1;31")) \(error.description)\n"
      case .failed(let differences, let expected, let actual, let shaped):
        out +=
          "\(paint("FAIL", "1;31")) \(result.fixture): \(testCase.label)\(font): \(FixtureReport.quoted(testCase.text))\n"
        if let input = result.failedInput {
          out +=
            "  \(result.failedStrings) of \(result.checkedStrings) strings of the pattern fail; the first: \(FixtureReport.quoted(input))\n"
        }
        func label(_ glyph: Int) -> String {
          let name = shaped.glyphs.indices.contains(glyph) ? shaped.glyphs[glyph].name ?? "" : ""
          return "glyph \(glyph)\(name.isEmpty ? "" : " (\(name))")"
        }
        for difference in differences {
          switch difference.field {
          case "collision":
            let other = difference.otherGlyph.map { " and \(label($0))" } ?? ""
            out +=
              "  \(difference.glyph.map(label) ?? "")\(other) collide: \(paint(difference.actual, "31"))\n"
          case "forbidden":
            out += "  \(difference.glyph.map(label) ?? ""): forbidden, \(paint(difference.actual, "31"))\n"
          default:
            let place = difference.glyph.map(label) ?? "glyph count"
            out +=
              "  \(place): \(difference.field == "count" ? "" : "\(difference.field) ")expected \(paint(difference.expected, "32")), actual \(paint(difference.actual, "31"))\n"
          }
        }
        if let recorded = testCase.engine, recorded != .running {
          out +=
            "  recorded with HarfBuzz \(recorded), shaped with HarfBuzz \(EngineVersion.running): the engine changed (--update records this engine's result)\n"
        }
        out += "  expected: \(paint(expected, "32"))\n"
        out += "  actual:   \(paint(actual, "31"))\n"
      }
    }
    out += "\(passed) passed, \(results.count - passed - skipped) failed, \(skipped) skipped\n"
    return out
  }

  /// The text in quotes, with invisible and control characters written as `\u{…}`.
  static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      let invisible: Set<Unicode.GeneralCategory> = [
        .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator,
      ]
      if scalar != " " && invisible.contains(scalar.properties.generalCategory) {
        out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  /// The report as one JSON document: `{"format": "swiftshape-check", "version": 1, "passed",
  /// "failed", "errors", "skipped", "cases": [{"file", "index", "name", "font", "input", "status",
  /// "differences", "expected", "actual", "error"}]}`; a pattern test also has `strings`,
  /// `failed_strings` and `failed_input`, and a collision difference `other_glyph`.
  public func json() -> String {
    var w = JSONWriter(spaced: true)
    w.beginObject()
    w.key("format", lineBreak: 2)
    w.string("swiftshape-check")
    w.member("version", 1)
    w.member("passed", passed)
    w.member("failed", failed)
    w.member("errors", errors)
    w.member("skipped", skipped)
    w.key("cases", lineBreak: 2)
    w.beginArray()
    for result in results {
      w.beginObject(lineBreak: 4)
      w.member("file", result.fixture)
      w.member("index", result.testCase.index)
      w.member("name", result.testCase.name)
      if let font = result.font {
        w.member("font", font)
      }
      w.member("input", result.testCase.text)
      if result.testCase.isPattern {
        w.member("strings", result.checkedStrings)
        w.member("failed_strings", result.failedStrings)
        if let input = result.failedInput { w.member("failed_input", input) }
      }
      w.key("status")
      switch result.status {
      case .passed:
        w.string("pass")
      case .skipped(let reason):
        w.string("skip")
        w.member("reason", reason)
      case .error(let error):
        w.string("error")
        w.member("error", error.description)
      case .failed(let differences, let expected, let actual, _):
        w.string("fail")
        w.key("differences")
        w.beginArray()
        for difference in differences {
          w.beginObject()
          w.member("glyph", difference.glyph)
          w.member("field", difference.field)
          w.member("expected", difference.expected)
          w.member("actual", difference.actual)
          if let other = difference.otherGlyph { w.member("other_glyph", other) }
          w.endObject()
        }
        w.endArray()
        w.member("expected", expected)
        w.member("actual", actual)
        if let recorded = result.testCase.engine, recorded != .running {
          w.member("recorded_harfbuzz", recorded.description)
          w.member("shaped_harfbuzz", EngineVersion.running.description)
        }
      }
      w.endObject()
    }
    w.endArray(lineBreak: results.isEmpty ? nil : 2)
    w.endObject(lineBreak: 0)
    return w.output
  }
}
