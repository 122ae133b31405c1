import HarfBuzz
import SwiftShape
import SwiftShapeCommandLine
import SwiftShapeRequests

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs `.tests` files in-process, as HarfBuzz's runner runs them with hb-shape: each test's options
/// read as hb-shape reads them, with the runner's own added.
package struct ConformanceRunner {
  package static let availableShapers = HarfBuzz.shapers

  package var paths: [String]
  package var jobs: Int
  package var verbose: Bool

  package init(paths: [String], jobs: Int, verbose: Bool) {
    self.paths = paths
    self.jobs = jobs
    self.verbose = verbose
  }

  package struct Summary {
    package var passed = 0
    package var failed = 0
    package var skipped = 0
  }

  /// What became of one test.
  package enum Outcome: Sendable {
    case passed
    case skipped(String)
    /// The font functions, what was printed (or the error), what was expected.
    case failed(functions: String, actual: String, expected: String)
  }

  /// Runs every test and writes each failure (every test, with `verbose`) and the closing
  /// `N passed, N failed, N skipped` to `out`.
  package func run(to out: some LineShaperOutput) throws -> Summary {
    let tests = try loadTests()
    let fonts = FontCache(limit: 4096)
    let outcomes = ParallelMap.run(tests, jobs: jobs) { test in
      ConformanceRunner.run(test, fonts: fonts)
    }
    var summary = Summary()
    for (test, outcome) in zip(tests, outcomes) {
      switch outcome {
      case .passed:
        summary.passed += 1
        if verbose { out.write("\(test.file):\(test.line): pass\n") }
      case .skipped(let reason):
        summary.skipped += 1
        if verbose { out.write("\(test.file):\(test.line): skipped: \(reason)\n") }
      case .failed(let functions, let actual, let expected):
        summary.failed += 1
        out.write("\(test.file):\(test.line): FAIL with --font-funcs=\(functions)\n")
        out.write("  arguments: \(test.arguments(fontFunctions: functions).joined(separator: " "))\n")
        out.write("  actual:    \(actual)\n")
        out.write("  expected:  \(expected)\n")
      }
    }
    out.write("\(summary.passed) passed, \(summary.failed) failed, \(summary.skipped) skipped\n")
    try out.flush()
    return summary
  }

  /// The tests of every file named, and of every `.tests` file in every folder named, in order.
  private func loadTests() throws -> [ConformanceTest] {
    var files: [String] = []
    for path in paths {
      if IO.isDirectory(path) {
        let names = try IO.listDirectory(path).filter { $0.hasSuffix(".tests") }.sorted()
        guard !names.isEmpty else {
          throw ShapingError(.badText, input: path, reason: "no .tests files in the folder")
        }
        files += names.map { path.hasSuffix("/") ? path + $0 : "\(path)/\($0)" }
      } else {
        files.append(path)
      }
    }
    return try files.flatMap { file in
      try ConformanceTest.parse(TextInput.decode(IO.readAll(path: file), name: file), file: file)
    }
  }

  /// Runs one test with FreeType's and HarfBuzz's font functions.
  package static func run(_ test: ConformanceTest, fonts: FontCache) -> Outcome {
    if let reason = test.skipReason { return .skipped(reason) }
    if let shaper = test.requestedShapers.first(where: { !ConformanceRunner.availableShapers.contains($0) }) {
      return .skipped("shaper \(shaper) is not available in this HarfBuzz")
    }
    for functions in ["ft", "ot"] {
      let output: String
      do {
        // As hb-shape runs them: what hb-shape accepts is accepted, with hb-shape's meaning.
        let command = try ShapeSettings.options.parse(
          test.arguments(fontFunctions: functions), persona: .hbShape)
        let request = try ShapeRequest(
          command, fonts: fonts, standardInputAllowed: false, defaultFormat: .text)
        let memory = MemoryOutput()
        try request.run(to: memory)
        output = String(
          memory.text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
      } catch {
        return .failed(
          functions: functions,
          actual: "error: \((error as? ShapingError)?.description ?? "\(error)")",
          expected: test.expected ?? "*")
      }
      if let expected = test.expected, output != expected {
        return .failed(functions: functions, actual: output, expected: expected)
      }
    }
    return .passed
  }
}
