import Foundation
import TestFixtures

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
  _ executable: URL, _ arguments: [String], stdin: Data = Data(), in directory: URL = Repository.fixtures
) throws -> ProcessOutput {
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  process.currentDirectoryURL = directory
  var environment = ProcessInfo.processInfo.environment
  environment["LC_ALL"] = "C.UTF-8"
  environment["LANG"] = "C.UTF-8"
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
func swiftshape(_ arguments: [String], stdin: Data = Data(), in directory: URL = Repository.fixtures) throws
  -> ProcessOutput
{
  try run(Repository.binary, arguments, stdin: stdin, in: directory)
}

/// HarfBuzz's own tools, when installed (the README's test command installs libharfbuzz-bin).
enum HarfBuzzTools {
  static let hbShape: URL? = find("hb-shape")

  static func find(_ name: String) -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }
}
