import ArgumentParser
import SwiftShape
import SwiftShapeFixtures
import SwiftShapeFonts
import SwiftShapeRender
import SwiftShapeRequests

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension SwiftShapeCommand {
  struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Shape every case of fixture files and compare with what they expect.",
      discussion: """
        Reads SwiftShape fixtures and fontbakery shaping-regression files (whose fonts are given \
        with --font-file or --font). Folders are searched for .json fixtures. For each case that \
        fails: the case, each glyph and field that differs, and both glyph lists; then \
        'N passed, N failed, N skipped' (fontbakery tests for a shaper HarfBuzz lacks, such as coretext, are skipped). Exit status: 0 all pass, 1 some fail, 65 a fixture or a case is \
        unusable (malformed, missing font).
        """ + Examples.check
    )

    @Argument(help: ArgumentHelp("Fixture files, or folders of them.", valueName: "fixture"))
    var paths: [String]

    @Option(
      name: .customLong("font-file"),
      help: ArgumentHelp("A font to check fontbakery files against (repeatable).", valueName: "path"))
    var fontFiles: [String] = []

    @Option(
      name: .customLong("font"),
      help: ArgumentHelp(
        "A font by fontconfig pattern, for fontbakery files (repeatable).", valueName: "pattern"))
    var patterns: [String] = []

    @Option(
      name: .customLong("format"),
      help: ArgumentHelp("Report format: text (default) or json.", valueName: "format"))
    var format: String = "text"

    @Option(
      name: .customLong("pattern-limit"),
      help: ArgumentHelp(
        "The most strings a fontbakery pattern input may stand for (default 100000, as fontbakery); a pattern past it is an error of its test.",
        valueName: "count"))
    var patternLimit: Int = Fixture.defaultPatternLimit

    @Flag(
      name: .customLong("update"),
      help: "Re-record the expectations of failing cases in place (atomically); nothing else changes.")
    var update = false

    @Flag(name: .customLong("no-color"), help: "No colors, even on a terminal.")
    var noColor = false

    @Option(
      name: .customLong("svg"),
      help: ArgumentHelp(
        "Write a picture of each failing case to this folder: the actual and expected runs, or the run with its forbidden glyphs in red.",
        valueName: "folder"))
    var svgFolder: String?

    func run() throws {
      let json = try ReportFormatOptions.isJSON(format, option: "--format", noun: "report format")
      guard patternLimit > 0 else {
        throw ShapingError(
          .invalidArgument, input: "--pattern-limit \(patternLimit)", reason: "must be at least 1")
      }
      let fonts = try fontFiles + patterns.map { try FontLocator.match($0).file }
      var results: [CaseResult] = []
      var unusable: [ShapingError] = []
      let cache = FontCache()
      for file in try fixtureFiles() {
        do {
          let fixture = try Fixture.load(file.path)
          let checked = fixture.check(fonts: fonts, cache: cache, patternLimit: patternLimit)
          results += checked
          if let svgFolder { try drawFailures(checked, of: fixture, into: svgFolder, cache: cache) }
          if update {
            let count = try fixture.update(with: checked)
            if count > 0 {
              Diagnostics.printNote("\(file.path): re-recorded \(count) expectation\(count == 1 ? "" : "s")")
            }
          }
        } catch let error as ShapingError {
          // A .json file found in a folder that is no fixture at all is not one of ours; skip it.
          if file.explicit || !error.reason.hasPrefix("not a fixture") {
            unusable.append(error)
          }
        }
      }
      let report = FixtureReport(results: results)
      let out = Output.standardOutput()
      if json {
        out.write(report.json() + "\n")
      } else {
        for error in unusable { out.write("ERROR \(error.description)\n") }
        let colored = !noColor && isatty(1) != 0 && getenv("NO_COLOR") == nil
        out.write(report.text(colored: colored).replacingLastLine(adding: unusable.count))
      }
      try out.commit()
      if !unusable.isEmpty || report.errors > 0 { throw ExitCode(ExitStatus.badInput) }
      if report.failed > 0 && !update { throw ExitCode(ExitStatus.checkFailed) }
    }

    /// A picture of each failing case, `FOLDER/FIXTURE-caseN[-FONT].svg`: the actual run above the
    /// expected one (as `render --expect` draws them), or for forbidden glyphs the run with them
    /// in red. Each file is written atomically.
    private func drawFailures(
      _ results: [CaseResult], of fixture: Fixture, into folder: String, cache: FontCache
    )
      throws
    {
      if !IO.isDirectory(folder), mkdir(folder, 0o777) != 0 {
        throw ShapingError(
          .unreadableFile, input: "--svg \(folder)",
          reason: "cannot make the folder: \(String(cString: strerror(errno)))")
      }
      for result in results {
        guard case .failed(let differences, _, _, let shaped) = result.status else { continue }
        let font = try fixture.font(for: result.testCase, font: result.font, cache: cache)
        var options = SVGOptions()
        options.pixelsPerEm = 64
        var expected: [ShapedGlyph]?
        let forbidden = differences.filter { $0.field == "forbidden" }.compactMap(\.glyph)
        let collisions = result.collisions
        if !collisions.isEmpty {
          options.overlays = collisions.flatMap { $0.sharedArea.flatMap(\.trapezoids) }.map { polygon in
            polygon.map { ($0.x, $0.y) }
          }
        } else if forbidden.isEmpty {
          expected = try fixture.expectedGlyphs(for: result.testCase, font: result.font)
            .shapedGlyphs(font: font, option: "--svg")
        } else {
          options.highlightedGlyphs = Set(forbidden)
        }
        let base = Fixture.stem(fixture.path)
        let fontPart = result.font.map { "-" + Fixture.stem($0) } ?? ""
        let path = "\(folder)/\(base)-case\(result.testCase.index)\(fontPart).svg"
        let out = try Output.file(path)
        let renderer = try SVGRenderer(font: font)
        renderer.spanOptions = result.testCase.request.options
        out.write(renderer.svgBytes([shaped], expected: expected, options: options))
        try out.commit()
      }
    }

    /// The fixture files named, and the `.json` files in the folders named (at any depth).
    private func fixtureFiles() throws -> [(path: String, explicit: Bool)] {
      var files: [(String, Bool)] = []
      func walk(_ folder: String) throws {
        for name in try IO.listDirectory(folder).sorted() {
          let path = folder.hasSuffix("/") ? folder + name : "\(folder)/\(name)"
          if IO.isDirectory(path) {
            try walk(path)
          } else if name.hasSuffix(".json") {
            files.append((path, false))
          }
        }
      }
      for path in paths {
        if IO.isDirectory(path) { try walk(path) } else { files.append((path, true)) }
      }
      return files
    }
  }
}

extension String {
  /// A report whose closing `N passed, N failed, N skipped` line also counts `unusable` fixtures as
  /// failed.
  fileprivate func replacingLastLine(adding unusable: Int) -> String {
    guard unusable > 0 else { return self }
    var lines = split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    lines.removeLast()  // the empty string after the final newline
    let numbers = lines.removeLast().split(separator: " ").compactMap { Int($0) }
    guard numbers.count == 3 else { return self }
    lines.append("\(numbers[0]) passed, \(numbers[1] + unusable) failed, \(numbers[2]) skipped")
    return lines.joined(separator: "\n") + "\n"
  }
}
