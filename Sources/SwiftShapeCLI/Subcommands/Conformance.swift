import ArgumentParser
import SwiftShape
import SwiftShapeConformance

extension SwiftShapeCommand {
  struct Conformance: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Run HarfBuzz-format .tests files (HarfBuzz's shaping test suite, or your own).",
      discussion: """
        Each line FONT;OPTIONS;UNICODES;EXPECTED is shaped as HarfBuzz's runner shapes it: with \
        --shaper=ot, and --verify --unsafe-to-concat unless EXPECTED is '*', once with \
        --font-funcs=ft and once with --font-funcs=ot; both must print EXPECTED. Fonts are relative \
        to the .tests file; an absolute font path (a system font, optionally path@sha1) is skipped \
        when the file is absent or differs. Prints each failure and a closing line \
        'N passed, N failed, N skipped'; exits 1 when any test fails.
        """ + Examples.conformance
    )

    @Argument(help: ArgumentHelp("The .tests files, or folders of them.", valueName: "path"))
    var paths: [String]

    @Option(
      name: .customLong("jobs"),
      help: ArgumentHelp("Run this many tests at once (default: 1).", valueName: "N"))
    var jobs: Int = 1

    @Flag(
      name: [.customShort("v"), .customLong("verbose")],
      help: "Print every test, and why skipped tests are skipped.")
    var verbose = false

    func validate() throws {
      guard jobs >= 1 else { throw ValidationError("--jobs must be 1 or more") }
    }

    func run() throws {
      let out = Output.standardOutput()
      let summary = try ConformanceRunner(paths: paths, jobs: jobs, verbose: verbose).run(to: out)
      try out.commit()
      if summary.failed > 0 { throw ExitCode(ExitStatus.checkFailed) }
    }
  }
}
