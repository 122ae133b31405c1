import ArgumentParser
import SwiftShape
import SwiftShapeCommandLine
import SwiftShapeRequests

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Exit statuses, from BSD's sysexits.h. The README lists them.
enum ExitStatus {
  /// A check failed: `--verify` found a result that does not hold, `conformance` a test that
  /// fails.
  static let checkFailed: Int32 = 1
  /// A usage error: unknown option, malformed or out-of-range value (EX_USAGE).
  static let usage: Int32 = 64
  /// Unusable input data: not a font, damaged font, face index out of range, invalid UTF-8
  /// (EX_DATAERR).
  static let badInput: Int32 = 65
  /// A file cannot be opened, read or written (EX_NOINPUT).
  static let cannotOpen: Int32 = 66
  /// An internal failure (EX_SOFTWARE).
  static let internalFailure: Int32 = 70
}

/// Writes diagnostics: one line each on standard error, never a stack trace.
enum Diagnostics {
  static func printError(_ message: String) {
    let line = message.split(whereSeparator: \.isNewline).joined(separator: " ")
    IO.writeError("swiftshape: error: \(line)\n")
  }

  static func printNote(_ message: String) {
    IO.writeError("swiftshape: note: \(message)\n")
  }

  /// Reports `error` and exits with its status: help and version go to standard output with 0.
  static func exit(with error: any Error, command: any ParsableCommand.Type) -> Never {
    if let error = error as? ShapingError {
      printError(error.description)
      terminate(status(for: error))
    }
    if let error = error as? ExitCode {
      terminate(error.rawValue)
    }
    let code = command.exitCode(for: error)
    if code == .success {
      // --help, --version.
      try? IO.writeAll(Array((command.fullMessage(for: error) + "\n").utf8), to: 1, name: "standard output")
      terminate(0)
    }
    // ArgumentParser's message is the first line; its usage summary follows, and is left out.
    let message =
      command.message(for: error).split(whereSeparator: \.isNewline).first.map(String.init) ?? "\(error)"
    let trimmed = message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message
    printError(trimmed + " (see 'swiftshape --help')")
    terminate(code == .validationFailure ? ExitStatus.usage : code.rawValue)
  }

  /// An error's one-line message, without the program's name: for batch answers.
  static func oneLine(for error: any Error, command: any ParsableCommand.Type) -> String {
    if let error = error as? ShapingError { return error.description }
    let message =
      command.message(for: error).split(whereSeparator: \.isNewline).first.map(String.init) ?? "\(error)"
    return message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message
  }

  static func status(for error: ShapingError) -> Int32 {
    switch error.kind {
    case .invalidArgument: ExitStatus.usage
    case .unreadableFile: ExitStatus.cannotOpen
    case .badFont, .badText: ExitStatus.badInput
    case .verificationFailed: ExitStatus.checkFailed
    case .internalFailure: ExitStatus.internalFailure
    }
  }
}

private func terminate(_ code: Int32) -> Never {
  exit(code)
}

extension Persona {
  /// What this process behaves as: `hb-shape` when run through a link of that name.
  static let current: Persona = {
    // From argv as C strings: this runs at every start.
    guard CommandLine.argc > 0, let path = CommandLine.unsafeArgv[0] else { return .swiftshape }
    let name = strrchr(path, Int32(UInt8(ascii: "/"))).map { UnsafePointer($0 + 1) } ?? UnsafePointer(path)
    return strcmp(name, "hb-shape") == 0 ? .hbShape : .swiftshape
  }()
}

extension Diagnostics {
  /// One line on standard error: what the shaping cache did in this process.
  static func printCacheStatistics() {
    let counts = ShapingCache.statistics
    let rate = counts.pieces == 0 ? 0 : Double(counts.hits) / Double(counts.pieces)
    let percent = Double(Int(rate * 1000)) / 10
    let line =
      "swiftshape: cache: \(counts.lines) lines, \(counts.pieces) pieces, \(counts.hits) found (\(percent)%), "
      + "\(counts.sharedHits) of them from other threads, \(counts.shapedRuns) shaped runs, \(counts.unsafeJoints) unsafe joints, \(counts.bypassed) lines bypassed, "
      + "\(counts.bytes) bytes held, \(counts.evictions) evictions\n"
    IO.writeError(line)
  }
}
