import HarfBuzz
import SwiftShape
import SwiftShapeFonts
import SwiftShapeRequests

/// What became of one case.
public struct CaseResult: Sendable {
  /// The fixture file.
  public var fixture: String
  /// The case.
  public var testCase: FixtureCase
  /// For fontbakery files: the font the test ran with.
  public var font: String?
  /// Whether it passed, and how it failed.
  public var status: Status
  /// How many strings were checked: those a pattern stands for, else one.
  public var checkedStrings = 1
  /// The strings that failed (forbidden glyphs or collisions), in order; `status` describes the
  /// first.
  public var failedInputs: [String] = []
  /// How many strings failed.
  public var failedStrings: Int { failedInputs.count }
  /// For a failing pattern test: the first string that failed.
  public var failedInput: String? { testCase.isPattern ? failedInputs.first : nil }
  /// The collisions of the failing string, for pictures.
  public var collisions: [Collision] = []

  /// A result, as checking makes it (and tools that test what is done with results).
  package init(fixture: String, testCase: FixtureCase, font: String?, status: Status) {
    self.fixture = fixture
    self.testCase = testCase
    self.font = font
    self.status = status
  }

  /// What became of a case.
  public enum Status: Sendable {
    case passed
    /// The glyphs differ: which glyph and which field, and both glyph lists in hb-shape's syntax.
    case failed(differences: [GlyphDifference], expected: String, actual: String, result: ShapeResult)
    /// The case could not be run (a missing font, a bad option).
    case error(ShapingError)
    /// The case was not run, for the reason given: a fontbakery test for a shaper this HarfBuzz
    /// does not have (`coretext`, `directwrite`, `uniscribe`), which fontbakery skips too.
    case skipped(String)
  }

  /// Whether the case passed.
  public var passed: Bool {
    if case .passed = status { return true }
    return false
  }

  /// Whether the case was skipped.
  public var skipped: Bool {
    if case .skipped = status { return true }
    return false
  }
}

/// One difference between an expected and an actual glyph list.
public struct GlyphDifference: Sendable, Hashable {
  /// The glyph's index in the list, or nil for the glyph count.
  public var glyph: Int?
  /// `count`, `id`, `name`, `cluster`, `x_advance`, `y_advance`, `x_offset` or `y_offset`; or
  /// `forbidden` (a forbidden glyph came out) or `collision` (with `otherGlyph`).
  public var field: String
  /// The expected value.
  public var expected: String
  /// The value shaping gave.
  public var actual: String
  /// For a collision: the glyph the first collides with.
  public var otherGlyph: Int?

  /// A difference with each field given.
  public init(glyph: Int?, field: String, expected: String, actual: String, otherGlyph: Int? = nil) {
    self.glyph = glyph
    self.field = field
    self.expected = expected
    self.actual = actual
    self.otherGlyph = otherGlyph
  }
}

extension Fixture {
  /// Shapes every case and compares it with its expectation.
  ///
  /// - Parameters:
  ///   - fonts: for a fontbakery file, the font files to check every test against (a test's
  ///     `only` and `exclude` pick among them); ignored for SwiftShape fixtures, which name their
  ///     fonts.
  ///   - cache: fonts loaded once for all cases.
  ///   - patternLimit: the most strings a pattern input may stand for; a pattern past it is an
  ///     error of its test.
  public func check(
    fonts: [String] = [], cache: FontCache = FontCache(), patternLimit: Int = Fixture.defaultPatternLimit
  ) -> [CaseResult] {
    var results: [CaseResult] = []
    let context = CheckContext(cache: cache, patternLimit: patternLimit)
    for testCase in cases {
      switch format {
      case .swiftshape:
        results.append(run(testCase, font: nil, context: context))
      case .fontbakery:
        guard !fonts.isEmpty else {
          results.append(
            CaseResult(
              fixture: path, testCase: testCase, font: nil,
              status: .error(
                ShapingError(.invalidArgument, input: path, reason: "a fontbakery file needs --font-file"))))
          continue
        }
        for font in fonts {
          let name = Fixture.fileName(font)
          if testCase.excludedFonts.contains(name) { continue }
          if let only = testCase.onlyFonts, !only.contains(name) { continue }
          results.append(run(testCase, font: font, context: context))
        }
      }
    }
    return results
  }

  /// Checks every case and throws when any fails, with the report as the error's description: one
  /// call for a Swift Testing or XCTest test.
  ///
  /// ```swift
  /// @Test func shapingHasNotChanged() throws {
  ///   try Fixture.load("Tests/Fixtures/arabic.json").verify()
  /// }
  /// ```
  public func verify(fonts: [String] = [], patternLimit: Int = Fixture.defaultPatternLimit) throws {
    let results = check(fonts: fonts, patternLimit: patternLimit)
    guard results.allSatisfy({ $0.passed || $0.skipped }) else {
      throw FixtureFailure(report: FixtureReport(results: results).text(colored: false))
    }
  }

  static func fileName(_ path: String) -> String {
    String(path.split(separator: "/").last ?? Substring(path))
  }

  /// A file's name without its folder and its extension: `fixtures/latin.json` is `latin`.
  public static func stem(_ path: String) -> String {
    let name = fileName(path)
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
    return String(name[..<dot])
  }

  /// How many strings a pattern input may stand for unless told otherwise: as many as fontbakery
  /// takes.
  public static let defaultPatternLimit = 100_000

  /// What checking the cases of one call shares: fonts, collision checkers, the pattern limit.
  final class CheckContext {
    let cache: FontCache
    let patternLimit: Int
    var checkers: [String: CollisionChecker] = [:]

    init(cache: FontCache, patternLimit: Int) {
      self.cache = cache
      self.patternLimit = patternLimit
    }
  }

  /// Shapes a case with its settings (and, for fontbakery, the font given) and checks it: for
  /// fontbakery files with forbidden glyphs or collision rules, each string of the test (those a
  /// pattern stands for) first, then the expectation, if any.
  func run(_ testCase: FixtureCase, font: String?, context: CheckContext) -> CaseResult {
    var result = CaseResult(fixture: path, testCase: testCase, font: font, status: .passed)
    if let shaper = testCase.shaper, !HarfBuzz.shapers.contains(shaper) {
      result.status = .skipped(
        "HarfBuzz has no \(shaper) shaper here (it has \(HarfBuzz.shapers.joined(separator: ", ")))")
      return result
    }
    do {
      let rules = testCase.collisionRules ?? collisionRules
      if !forbiddenGlyphs.isEmpty || rules != nil {
        try checkStrings(of: testCase, font: font, rules: rules, context: context, into: &result)
        if result.failedStrings > 0 { return result }
      }
      if case .none = testCase.expectation { return result }
      let shaped = try shape(testCase, font: font, cache: context.cache)
      let (parsed, text) = try expectedGlyphs(testCase, font: font)
      let differences = Fixture.compare(parsed, shaped.glyphs)
      if differences.isEmpty { return result }
      let textual: Bool
      if case .glyphs = testCase.expectation { textual = false } else { textual = true }
      let actual = textual ? Fixture.hbText(shaped.glyphs, like: text) : Fixture.serialize(shaped.glyphs)
      result.status = .failed(differences: differences, expected: text, actual: actual, result: shaped)
    } catch let error as ShapingError {
      result.status = .error(
        ShapingError(error.kind, input: "\(path): \(testCase.label): \(error.input)", reason: error.reason))
    } catch let error as PatternError {
      result.status = .error(
        ShapingError(
          .badText, input: "\(path): \(testCase.label)", reason: "pattern \"\(testCase.text)\": \(error)"))
    } catch {
      result.status = .error(
        ShapingError(.internalFailure, input: "\(path): \(testCase.label)", reason: "\(error)"))
    }
    return result
  }

  /// Checks each string of a fontbakery test for forbidden glyphs and collisions; the first that
  /// fails is the result's.
  private func checkStrings(
    of testCase: FixtureCase, font: String?, rules: CollisionRules?, context: CheckContext,
    into result: inout CaseResult
  ) throws {
    var strings = [testCase.text]
    if testCase.isPattern {
      let unknown = StringPattern.unknownWords(in: testCase.text, ingredients: ingredients)
      guard unknown.isEmpty else {
        let known = ingredients.isEmpty ? "none" : ingredients.map(\.name).joined(separator: ", ")
        throw PatternError("unknown ingredient \"\(unknown[0])\" (the file's ingredients: \(known))")
      }
      strings = try StringPattern(recipe: testCase.text, ingredients: ingredients).strings(
        limit: context.patternLimit)
    }
    let (shapingFont, options) = try Fixture.setup(testCase.request, font: font, cache: context.cache)
    var checker: CollisionChecker?
    if let rules {
      let key = "\(font ?? "")\u{0}\(testCase.request.font.options.variations)\u{0}\(rules.hashValue)"
      checker = context.checkers[key]
      if checker == nil {
        checker = CollisionChecker(font: shapingFont.font, rules: rules, reversed: collisionsReversed)
        context.checkers[key] = checker
      }
    }
    let allowed = Set(testCase.allowedCollisions)
    result.checkedStrings = strings.count
    for string in strings {
      let shaped = try shapingFont.shape(string, options: options)
      var differences = shaped.glyphs.enumerated().compactMap { index, glyph -> GlyphDifference? in
        guard let name = glyph.name, forbiddenGlyphs.contains(name) else { return nil }
        return GlyphDifference(
          glyph: index, field: "forbidden", expected: "no forbidden glyph",
          actual: "\(name) (cluster \(glyph.cluster))")
      }
      let collisions = checker?.collisions(in: shaped.glyphs, allowed: allowed) ?? []
      differences += collisions.map { collision in
        GlyphDifference(
          glyph: collision.first, field: "collision", expected: "no collision",
          actual:
            "\(collision.pair) at (\(Fixture.rounded(collision.point.x)), \(Fixture.rounded(collision.point.y)))",
          otherGlyph: collision.second)
      }
      guard !differences.isEmpty else { continue }
      result.failedInputs.append(string)
      guard result.failedInputs.count == 1 else { continue }
      var expected: [String] = []
      if !forbiddenGlyphs.isEmpty { expected.append("none of " + forbiddenGlyphs.joined(separator: ", ")) }
      if checker != nil { expected.append("no collisions") }
      result.status = .failed(
        differences: differences, expected: expected.joined(separator: "; "),
        actual: Fixture.hbText(shaped.glyphs, like: "a=0+0"), result: shaped)
      result.collisions = collisions
    }
  }

  static func rounded(_ value: Double) -> String {
    let whole = (value * 10).rounded() / 10
    return whole == whole.rounded() ? String(Int(whole)) : String(whole)
  }

  /// The result of shaping a case.
  func shape(_ testCase: FixtureCase, font override: String?, cache: FontCache) throws -> ShapeResult {
    let (font, options) = try Fixture.setup(testCase.request, font: override, cache: cache)
    return try font.shape(testCase.text, options: options)
  }

  /// The glyphs a case expects (for a fontbakery file, with `font`); none for a case that only
  /// checks forbidden glyphs.
  ///
  /// - Throws: `ShapingError` when the expectation does not parse.
  public func expectedGlyphs(for testCase: FixtureCase, font: String?) throws -> [ExpectedGlyph] {
    try expectedGlyphs(testCase, font: font).0
  }

  /// The font a case of this fixture is shaped with (`font` for a fontbakery file), as checking
  /// loads it: for drawing a failure.
  ///
  /// - Throws: `ShapingError` as checking does.
  public func font(for testCase: FixtureCase, font: String?, cache: FontCache) throws -> ShapingFont {
    try Fixture.setup(testCase.request, font: font, cache: cache).0
  }

  /// The font and options of a request, checked (`ShapingRequest.validate`); `override` (a file,
  /// as given) replaces its font.
  static func setup(_ request: ShapingRequest, font override: String?, cache: FontCache) throws
    -> (ShapingFont, ShapeOptions)
  {
    var request = request
    if let override { request.font.source = .file(override) }
    try request.validate(naming: .keys)
    return (try request.resolveFont(cache: cache).font, request.options)
  }

  /// The expected glyphs of a case (for a fontbakery test, those for `font`) and their text.
  func expectedGlyphs(_ testCase: FixtureCase, font: String?) throws -> ([ExpectedGlyph], String) {
    switch testCase.expectation {
    case .glyphs(let glyphs): return (glyphs, Fixture.serialize(expected: glyphs))
    case .hbText(let text): return (try ExpectedGlyph.parseHBText(text), text)
    case .perFont(let entries):
      let name = font.map(Fixture.fileName)
      let entry = entries.first { $0.font == name } ?? entries.first { $0.font == "default" }!
      return (try ExpectedGlyph.parseHBText(entry.text), entry.text)
    case .none: return ([], "")
    }
  }

  /// The differences between expected and actual glyphs: each field of each glyph; when the
  /// counts differ, the count and the first glyph that differs (the glyphs after it are shifted,
  /// and comparing them would say little).
  static func compare(_ expected: [ExpectedGlyph], _ actual: [ShapedGlyph]) -> [GlyphDifference] {
    var differences: [GlyphDifference] = []
    let countDiffers = expected.count != actual.count
    if countDiffers {
      differences.append(
        GlyphDifference(glyph: nil, field: "count", expected: "\(expected.count)", actual: "\(actual.count)"))
    }
    for (index, (want, have)) in zip(expected, actual).enumerated() {
      if countDiffers && differences.count > 1 { break }
      func check<T: Equatable>(_ field: String, _ wanted: T?, _ had: T?) {
        guard let wanted, wanted != had else { return }
        differences.append(
          GlyphDifference(
            glyph: index, field: field, expected: "\(wanted)", actual: had.map { "\($0)" } ?? "(none)"))
      }
      if let name = want.name, want.id == nil, let number = UInt32(name), have.name != name {
        check("id", number, have.id)  // a glyph written by ID (hb-shape's --no-glyph-names)
      } else {
        check("name", want.name, have.name)
      }
      check("id", want.id, have.id)
      check("cluster", want.cluster, have.cluster)
      check("x_advance", want.xAdvance, have.xAdvance)
      check("y_advance", want.yAdvance, have.yAdvance)
      check("x_offset", want.xOffset, have.xOffset)
      check("y_offset", want.yOffset, have.yOffset)
    }
    return differences
  }

  /// Actual glyphs in hb-shape's text syntax.
  static func serialize(_ glyphs: [ShapedGlyph]) -> String {
    glyphs.isEmpty ? "[]" : HBFormat(.text).line(for: glyphs)
  }

  /// Expected glyphs in hb-shape's text syntax, the fields they have.
  static func serialize(expected glyphs: [ExpectedGlyph]) -> String {
    "["
      + glyphs.map { glyph in
        var text = glyph.name ?? glyph.id.map(String.init) ?? "?"
        if let cluster = glyph.cluster { text += "=\(cluster)" }
        if (glyph.xOffset ?? 0) != 0 || (glyph.yOffset ?? 0) != 0 {
          text += "@\(glyph.xOffset ?? 0),\(glyph.yOffset ?? 0)"
        }
        if let advance = glyph.xAdvance {
          text += "+\(advance)"
          if let y = glyph.yAdvance, y != 0 { text += ",\(y)" }
        }
        return text
      }.joined(separator: "|") + "]"
  }
}

/// A fixture whose cases do not all pass; the description is the report.
public struct FixtureFailure: Error, CustomStringConvertible, Sendable {
  /// The report of the cases that failed.
  public var report: String
  /// How it is written.
  public var description: String { report }
}
