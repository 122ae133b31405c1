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
    /// The shaping that failed, what was printed (or the error), what was expected.
    case failed(run: Run, actual: String, expected: String)
  }

  /// Runs every test and writes each failure (every test, with `verbose`) and the closing
  /// `N passed, N failed, N skipped` to `out`.
  package func run(to out: some LineShaperOutput) throws -> Summary {
    let tests = try loadTests()
    let fonts = FontCache(limit: 4096)
    let disabled = try ConformanceRunner.disabledFiles(Set(tests.map(\.file)))
    let outcomes = ParallelMap.run(tests, jobs: jobs) { test in
      if let list = disabled[test.file] { return Outcome.skipped("disabled in \(list)") }
      return ConformanceRunner.run(test, fonts: fonts)
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
      case .failed(let run, let actual, let expected):
        summary.failed += 1
        out.write("\(test.file):\(test.line): FAIL with \(run.label)\n")
        out.write("  arguments: \(run.arguments.joined(separator: " "))\n")
        out.write("  actual:    \(actual)\n")
        out.write("  expected:  \(expected)\n")
      }
    }
    out.write("\(summary.passed) passed, \(summary.failed) failed, \(summary.skipped) skipped\n")
    try out.flush()
    return summary
  }

  /// The files a suite's `DISABLED` list names, each with the list's path: HarfBuzz's build leaves
  /// them out (the text-rendering-tests suite lists the tests whose fonts or expectations HarfBuzz
  /// does not follow). A `DISABLED` file in a `.tests` file's folder or the folder above it names
  /// paths relative to its own folder, one a line; `#` starts a comment.
  package static func disabledFiles(_ files: Set<String>) throws -> [String: String] {
    var result: [String: String] = [:]
    var lists: [String: Set<String>] = [:]
    for file in files {
      var folders: [String] = []
      var folder = file
      for _ in 0..<2 {
        guard let slash = folder.lastIndex(of: "/") else {
          folders.append(".")
          break
        }
        folder = String(folder[..<slash])
        folders.append(folder.isEmpty ? "/" : folder)
      }
      for folder in folders {
        let list = folder == "." ? "DISABLED" : "\(folder)/DISABLED"
        if lists[list] == nil {
          lists[list] =
            IO.isRegularFile(list)
            ? Set(
              try TextInput.decode(IO.readAll(path: list), name: list).split(separator: "\n").map {
                String($0).trimmingCharacters()
              }.filter { !$0.isEmpty && !$0.hasPrefix("#") }) : []
        }
        let relative = folder == "." ? file : String(file.dropFirst(folder.count + 1))
        if lists[list]!.contains(relative) { result[file] = list }
      }
    }
    return result
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

  /// One shaping of a test: its hb-shape arguments, and the backends that name it in a failure.
  package struct Run: Sendable, Hashable {
    package var label: String
    package var arguments: [String]
  }

  /// The shapings of a test, as the runner of the HarfBuzz in use makes them
  /// (`HBShapeRelease.conformanceRunner`), or why the test is skipped.
  package static func runs(
    of test: ConformanceTest,
    rules: HBShapeRelease.ConformanceRunnerRules = HBShapeRelease.linked.conformanceRunner,
    environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }
  ) -> Result<[Run], Skip> {
    let checks = test.expected == nil ? [] : ["--verify", "--unsafe-to-concat"]
    guard rules.directives else {
      // Up to HarfBuzz 10: FreeType's functions, then HarfBuzz's, the runner's options first.
      if let shaper = test.requestedShapers.first(where: { !availableShapers.contains($0) }) {
        return .failure(Skip("shaper \(shaper) is not available in this HarfBuzz"))
      }
      return .success(
        ["ft", "ot"].map { Run(label: "--font-funcs=\($0)", arguments: test.arguments(fontFunctions: $0)) })
    }
    // From HarfBuzz 11: the test's own backends are taken out of its options; the others come from
    // the file's directives, the environment (HB_SHAPER_LIST, HB_FACE_LOADER) or the defaults (the
    // ot shaper and face loader, every font functions HarfBuzz has).
    let supported: [String: [String]] = [
      "shaper": availableShapers, "face-loader": Face.loaders, "font-funcs": Font.Functions.listed,
    ]
    var chosen: [String: String] = [:]
    var options: [String] = []
    var index = 0
    while index < test.options.count {
      let option = test.options[index]
      index += 1
      guard let what = ["shaper", "face-loader", "font-funcs"].first(where: { option.hasPrefix("--\($0)") })
      else {
        options.append(option)
        continue
      }
      let backend: String
      if option.contains("=") {
        backend = String(option.split(separator: "=", omittingEmptySubsequences: false)[1])
      } else if index < test.options.count {
        backend = test.options[index]
        index += 1
      } else {
        backend = ""
      }
      guard supported[what]!.contains(backend) else {
        return .failure(Skip("\(what)=\(backend) is not available in this HarfBuzz"))
      }
      chosen[what] = backend
    }
    let shapers =
      chosen["shaper"].map { [$0] } ?? test.backends.shapers?.chosen(from: supported["shaper"]!)
      ?? (environment("HB_SHAPER_LIST") ?? "ot").split(separator: ",", omittingEmptySubsequences: false).map(
        String.init)
    let loaders =
      chosen["face-loader"].map { [$0] } ?? test.backends.faceLoaders?.chosen(from: supported["face-loader"]!)
      ?? (environment("HB_FACE_LOADER") ?? "ot").split(separator: ",", omittingEmptySubsequences: false).map(
        String.init)
    let allFunctions =
      test.backends.fontFunctions?.chosen(from: supported["font-funcs"]!) ?? supported["font-funcs"]!
    var runs: [Run] = []
    for loader in loaders {
      for shaper in shapers {
        let functionsList: [String?] =
          chosen["font-funcs"].map { [$0] } ?? (shaper == "ot" ? allFunctions.map { $0 } : [nil])
        for functions in functionsList {
          var extra = ["--shaper=\(shaper)", "--face-loader=\(loader)"]
          if let functions { extra.append("--font-funcs=\(functions)") }
          if !checks.isEmpty {
            extra += checks + (rules.safeToInsertTatweel ? ["--safe-to-insert-tatweel"] : [])
          }
          runs.append(
            Run(
              label: "shaper=\(shaper) face-loader=\(loader)" + (functions.map { " font-funcs=\($0)" } ?? ""),
              arguments: [test.fontPath, "--unicodes", test.unicodes] + options + extra))
        }
      }
    }
    return .success(runs)
  }

  /// Why a test is not run.
  package struct Skip: Error, Sendable {
    package var reason: String
    init(_ reason: String) { self.reason = reason }
  }

  /// Runs one test as the runner of the HarfBuzz in use runs it: every shaping must print the
  /// expectation.
  package static func run(_ test: ConformanceTest, fonts: FontCache) -> Outcome {
    if let reason = test.skipReason { return .skipped(reason) }
    let runs: [Run]
    switch ConformanceRunner.runs(of: test) {
    case .success(let list): runs = list
    case .failure(let skip): return .skipped(skip.reason)
    }
    for run in runs {
      let output: String
      do {
        // As hb-shape runs them: what hb-shape accepts is accepted, with hb-shape's meaning.
        let command = try ShapeSettings.options.parse(run.arguments, persona: .hbShape)
        let request = try ShapeJob(
          command, fonts: fonts, standardInputAllowed: false, defaultFormat: .text)
        let memory = MemoryOutput()
        try request.run(to: memory)
        output = String(
          memory.text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
      } catch {
        return .failed(
          run: run, actual: "error: \((error as? ShapingError)?.description ?? "\(error)")",
          expected: test.expected ?? "*")
      }
      if let expected = test.expected, output != expected {
        return .failed(run: run, actual: output, expected: expected)
      }
    }
    return .passed
  }
}

extension String {
  fileprivate func trimmingCharacters() -> String {
    String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
  }
}
