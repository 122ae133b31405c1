import Foundation
import HarfBuzz
import TestFixtures
import Testing

/// The repository, its fixtures, and the built `swiftshape` binary.
enum Repository {
  static let root = URL(fileURLWithPath: Paths.repository)

  static let fixtures = URL(fileURLWithPath: Paths.fixtures)

  /// The `swiftshape` built beside the test bundle (`swift test` builds every product).
  static let binary: URL = {
    let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("swiftshape")
    if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
    return root.appendingPathComponent(".build/debug/swiftshape")
  }()

  /// Writing to a program that has exited (a test that ends it, or one that fails early) gives an
  /// error, not a SIGPIPE that ends the whole test run: the suite run against HarfBuzz 10.2.0
  /// once died so, signal 13, in the middle of the command-line tests.
  static let brokenPipesIgnored: Void = { _ = signal(SIGPIPE, SIG_IGN) }()
}

/// What a process printed and how it ended.
struct ProcessOutput {
  var status: Int32
  var stdout: Data
  var stderr: Data

  var out: String { String(decoding: stdout, as: UTF8.self) }
  var err: String { String(decoding: stderr, as: UTF8.self) }
}

/// Runs a program to completion, with the C.UTF-8 locale: the default language is then `c` on
/// every machine, and hb-shape (through GLib) accepts UTF-8 arguments.
func run(
  _ executable: URL, _ arguments: [String], stdin: Data = Data(), in directory: URL = Repository.fixtures,
  environment extra: [String: String] = [:]
) throws -> ProcessOutput {
  _ = Repository.brokenPipesIgnored
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  process.currentDirectoryURL = directory
  var environment = ProcessInfo.processInfo.environment
  environment["LC_ALL"] = "C.UTF-8"
  environment["LANG"] = "C.UTF-8"
  environment.merge(extra) { $1 }
  process.environment = environment
  let input = Pipe()
  let output = Pipe()
  let error = Pipe()
  process.standardInput = input
  process.standardOutput = output
  process.standardError = error
  try process.run()
  // Read both pipes while the process runs, so a large output cannot fill a pipe and block it.
  let group = DispatchGroup()
  nonisolated(unsafe) var outData = Data()
  nonisolated(unsafe) var errData = Data()
  DispatchQueue.global().async(group: group) { outData = output.fileHandleForReading.readDataToEndOfFile() }
  DispatchQueue.global().async(group: group) { errData = error.fileHandleForReading.readDataToEndOfFile() }
  input.fileHandleForWriting.write(stdin)
  try input.fileHandleForWriting.close()
  process.waitUntilExit()
  group.wait()
  return ProcessOutput(status: process.terminationStatus, stdout: outData, stderr: errData)
}

/// Runs the built `swiftshape`.
func swiftshape(
  _ arguments: [String], stdin: Data = Data(), in directory: URL = Repository.fixtures,
  environment: [String: String] = [:]
) throws -> ProcessOutput {
  try run(Repository.binary, arguments, stdin: stdin, in: directory, environment: environment)
}

/// A private fontconfig configuration that lists only the test fonts, so that fonts found by
/// name are the same on every machine.
enum PrivateFontconfig {
  static let environment: [String: String] = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swiftshape-fc-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent("fonts.conf")
    let configuration = """
      <?xml version="1.0"?>
      <!DOCTYPE fontconfig SYSTEM "fonts.dtd">
      <fontconfig>
        <dir>\(Repository.fixtures.appendingPathComponent("fonts").path)</dir>
        <cachedir>\(folder.appendingPathComponent("cache").path)</cachedir>
      </fontconfig>
      """
    try? configuration.write(to: file, atomically: true, encoding: .utf8)
    return ["FONTCONFIG_FILE": file.path]
  }()
}

/// A running `swiftshape` whose standard input stays open: a test sends it lines and waits for its
/// answers, as a program driving it would.
final class Conversation: @unchecked Sendable {
  // @unchecked: `received` is written by one reading task at a time, which `answers` waits for.
  let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private var received = Data()

  init(_ arguments: [String]) throws {
    _ = Repository.brokenPipesIgnored
    process.executableURL = Repository.binary
    process.arguments = arguments
    process.currentDirectoryURL = Repository.fixtures
    process.standardInput = input
    process.standardOutput = output
    try process.run()
  }

  deinit { if process.isRunning { process.terminate() } }

  func send(_ text: String) { input.fileHandleForWriting.write(Data(text.utf8)) }

  /// What came out once it holds `count` lines, or nil when they have not come in 20 seconds.
  func answers(lines count: Int) -> String? {
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      while self.received.filter({ $0 == 0x0A }).count < count {
        let chunk = self.output.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        self.received.append(chunk)
      }
      done.signal()
    }
    guard done.wait(timeout: .now() + 20) == .success else { return nil }
    return String(decoding: received, as: UTF8.self)
  }

  /// Closes standard input and returns the exit status.
  func finish() throws -> Int32 {
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    return process.terminationStatus
  }
}

/// HarfBuzz's own tools, when installed (the README's test command installs libharfbuzz-bin).
///
/// Where the engine decides an output, tests compare with the tools of the HarfBuzz they link:
/// `hbShape` and `hbView` are the ones on `PATH` only when their `--version` names the running
/// engine (`.ci/with-harfbuzz` puts another engine's tools first on `PATH`); with another
/// release's tools the tests that need them are skipped, saying so.
enum HarfBuzzTools {
  static let hbShape: URL? = engineTool("hb-shape")
  static let hbView: URL? = engineTool("hb-view")

  /// The release of the HarfBuzz the tests (and the `swiftshape` built with them) run with.
  static let engine = EngineVersion.running.description

  /// HarfBuzz's tool of that name on `PATH` when it belongs to the running engine.
  static func engineTool(_ name: String) -> URL? {
    guard let url = find(name), toolVersion(url) == engine else { return nil }
    return url
  }

  /// The release a HarfBuzz tool names in its first `--version` line (`hb-shape (HarfBuzz) 6.0.0`).
  static func toolVersion(_ url: URL) -> String? {
    guard let result = try? run(url, ["--version"]), result.status == 0 else { return nil }
    return result.out.split(separator: "\n").first?.split(separator: " ").last.map(String.init)
  }

  /// Why a test that compares with HarfBuzz's tool `name` does not run.
  static func absence(_ name: String) -> Comment {
    guard let url = find(name) else { return Comment(rawValue: "\(name) is not installed") }
    return Comment(
      rawValue:
        "\(name) on PATH is HarfBuzz \(toolVersion(url) ?? "?")'s, not the running engine's (\(engine)): put the engine's tools first on PATH (.ci/with-harfbuzz)"
    )
  }

  static func find(_ name: String) -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }
}

/// Engine behaviour a test depends on and no tool of the engine's may be at hand to compare with
/// (`.ci/harfbuzz` builds some releases without their utilities): kept per release, each checked
/// with that release's own hb-shape when recorded.
enum EngineExpectations {
  /// Whether HarfBuzz's `--verify` finds the Arabic word سبز, forced left to right, unsafe to break
  /// and to concatenate (NotoSansArabic-Subset): 6.0.0 and 15.0.0 do; 8.3.0 and 10.2.0 find it
  /// consistent. Nil for a release not recorded.
  static let verifyFailsOnForcedLTRArabic: Bool? = [
    "6.0.0": true, "8.3.0": false, "10.2.0": false, "15.0.0": true,
  ][HarfBuzzTools.engine]
}
