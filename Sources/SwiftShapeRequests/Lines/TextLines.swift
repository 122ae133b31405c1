import SwiftShape

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The lines of a UTF-8 file or of standard input, read as needed, so that memory stays flat however
/// long the input is. Lines end at `\n`, as `TextInput.lines` splits them.
package struct TextLines {
  package let name: String
  private var reader: LineReader
  private let descriptor: Int32
  private let ownsDescriptor: Bool
  /// The number of the next line, and the byte offset where it starts.
  private(set) var lineNumber = 1
  private(set) var offset = 0
  /// The file's size, when it is a regular file (for progress).
  package let size: Int?

  /// Opens a file, or standard input for `-`.
  ///
  /// - Throws: `ShapingError` of kind `.unreadableFile` naming the file.
  package init(path: String, maximumLength: Int = TextLimits.defaultMaximum) throws {
    if path == "-" {
      descriptor = 0
      ownsDescriptor = false
      name = "standard input"
      size = nil
    } else {
      descriptor = try IO.openForReading(path)
      ownsDescriptor = true
      name = path
      var info = stat()
      size = fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
    }
    reader = LineReader(descriptor: descriptor, maximumLength: maximumLength)
  }

  /// Whether the next line would wait for input: none is read yet and none is there (standard
  /// input or a pipe whose writer is slower than shaping, or a person typing).
  package var wouldWait: Bool {
    size == nil && !reader.hasBufferedLine && !IO.hasInput(descriptor: descriptor)
  }

  /// Closes the file.
  package func close() {
    if ownsDescriptor { _ = Glibc_close(descriptor) }
  }

  /// The next line, or nil at the end.
  ///
  /// - Throws: `ShapingError` of kind `.badText` at malformed UTF-8, naming the byte offset in the
  ///   input, the line and the byte in the line.
  package mutating func next() throws -> String? {
    try nextBytes().map { String(decoding: $0, as: UTF8.self) }
  }

  /// Reads a regular file through to its end as `next()` does, without making the lines, and
  /// throws what `next()` would throw at its first bad line: so that a bad line far into a file
  /// stops the request before anything is written. (Standard input and pipes are read once, as
  /// they come; a file only once too, when its size is not known.)
  package static func check(path: String, maximumLength: Int) throws {
    // Anything but a regular file is not opened here: a FIFO opened and closed twice could lose
    // its writer's bytes.
    var info = stat()
    guard path != "-", stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
    var lines = try TextLines(path: path, maximumLength: maximumLength)
    defer { lines.close() }
    while try lines.nextBytes() != nil {}
  }

  /// The next line's bytes, valid UTF-8, or nil at the end.
  private mutating func nextBytes() throws -> [UInt8]? {
    let read: [UInt8]?
    do {
      read = try reader.next()
    } catch let error as LineReader.LineTooLong {
      throw ShapingError(
        .badText, input: name,
        reason:
          "line \(lineNumber) is \(error.length) bytes, longer than \(reader.maximumLength) (--max-text-length)"
      )
    }
    guard let bytes = read else { return nil }
    if let bad = TextInput.firstInvalidUTF8(in: bytes) {
      throw ShapingError(
        .badText, input: name,
        reason: "invalid UTF-8 at byte \(offset + bad) (line \(lineNumber), byte \(bad + 1) of the line)")
    }
    lineNumber += 1
    offset += bytes.count + 1
    return bytes
  }
}

private func Glibc_close(_ descriptor: Int32) -> Int32 {
  #if canImport(Glibc)
    Glibc.close(descriptor)
  #else
    Darwin.close(descriptor)
  #endif
}
