import SwiftShape
import SwiftShapeRequests

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where output goes: standard output (buffered, flushed when asked and at the end), a file that
/// replaces its target atomically when committed, a device or pipe written in place, or memory.
final class Output: LineShaperOutput {
  private enum Destination {
    case standardOutput
    case file(ReplacementFile)
    /// A device, pipe or socket (`/dev/null`, `/dev/stdout`, a FIFO): nothing to replace.
    case special(path: String, descriptor: Int32)
    case memory
  }

  private var destination: Destination
  private var pending: [UInt8] = []
  /// The first write that failed while buffering, reported by the next `flush` or `commit`.
  private var failure: (any Error)?
  /// Everything written, for `.memory`.
  private(set) var text = ""

  private init(_ destination: Destination) { self.destination = destination }

  static func standardOutput() -> Output { Output(.standardOutput) }

  static func memory() -> Output { Output(.memory) }

  /// Output to a temporary file beside `path`, renamed over `path` by `commit()`. A symbolic link
  /// is followed (the file it names is replaced, the link stays); a device, pipe or socket is
  /// written in place.
  ///
  /// - Throws: `ShapingError` of kind `.unreadableFile` when the folder cannot be written.
  static func file(_ given: String) throws -> Output {
    var info = stat()
    if stat(given, &info) == 0 && info.st_mode & S_IFMT != S_IFREG && info.st_mode & S_IFMT != S_IFDIR {
      let descriptor = open(given, O_WRONLY | O_CLOEXEC)
      guard descriptor >= 0 else {
        throw ShapingError(
          .unreadableFile, input: given, reason: "cannot write: \(String(cString: strerror(errno)))")
      }
      return Output(.special(path: given, descriptor: descriptor))
    }
    return Output(.file(try ReplacementFile(replacing: given)))
  }

  func write(_ string: String) {
    if case .memory = destination {
      text += string
      return
    }
    pending.append(contentsOf: string.utf8)
    if pending.count >= 1 << 16 { flushKeepingFailure() }
  }

  /// Writes bytes (a line shaper's output).
  func write(_ bytes: UnsafeBufferPointer<UInt8>) {
    if case .memory = destination {
      text += String(decoding: bytes, as: UTF8.self)
      return
    }
    if pending.isEmpty, bytes.count >= 1 << 16 {
      // Large enough to go out as it is, without a copy into the pending bytes.
      guard failure == nil else { return }
      do { try send(bytes) } catch { failure = error }
      return
    }
    pending.append(contentsOf: bytes)
    if pending.count >= 1 << 16 { flushKeepingFailure() }
  }

  /// Writes UTF-8 bytes.
  func write(_ bytes: [UInt8]) {
    if case .memory = destination {
      text += String(decoding: bytes, as: UTF8.self)
      return
    }
    pending.append(contentsOf: bytes)
    if pending.count >= 1 << 16 { flushKeepingFailure() }
  }

  private func flushKeepingFailure() {
    do {
      try flush()
    } catch {
      if failure == nil { failure = error }
    }
  }

  /// Writes what is buffered.
  func flush() throws {
    if let failure { throw failure }
    guard !pending.isEmpty else { return }
    defer { pending.removeAll(keepingCapacity: true) }
    try pending.withUnsafeBufferPointer { try send($0) }
  }

  /// Writes bytes to the destination now.
  private func send(_ bytes: UnsafeBufferPointer<UInt8>) throws {
    switch destination {
    case .standardOutput:
      try IO.writeAll(bytes, to: 1, name: "standard output")
    case .file(let file): try IO.writeAll(bytes, to: file.descriptor, name: file.path)
    case .special(let path, let descriptor):
      try IO.writeAll(bytes, to: descriptor, name: path)
    case .memory:
      break
    }
  }

  /// Finishes the output: flushes, and for a file moves it into place.
  func commit() throws {
    try flush()
    if case .special(let path, let descriptor) = destination {
      destination = .memory
      guard close(descriptor) == 0 else {
        throw ShapingError(
          .unreadableFile, input: path, reason: "cannot write: \(String(cString: strerror(errno)))")
      }
    }
    if case .file(let file) = destination {
      destination = .memory
      try file.commit()
    }
  }

  /// Drops the output: nothing buffered is written, and a temporary file is removed.
  func discard() {
    pending.removeAll()
    if case .special(_, let descriptor) = destination {
      close(descriptor)
      destination = .memory
    }
    if case .file(let file) = destination {
      file.discard()
      destination = .memory
    }
  }
}
