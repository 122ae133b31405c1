import SwiftShape

/// Reads lines of bytes from a file descriptor, without decoding them. A line longer than
/// `maximumLength` is skipped to its end and reported (`LineTooLong`), so one line cannot exhaust
/// memory and the next call goes on with the next line.
package struct LineReader {
  package let descriptor: Int32
  package let maximumLength: Int
  private var buffer: [UInt8] = []
  private var start = 0
  private var atEnd = false

  package init(descriptor: Int32, maximumLength: Int = TextLimits.defaultMaximum) {
    self.descriptor = descriptor
    self.maximumLength = maximumLength
  }

  /// A line was longer than the limit; it was skipped.
  package struct LineTooLong: Error {
    package var length: Int
  }

  /// Whether a whole line is already read, so `next()` returns without waiting for input.
  package var hasBufferedLine: Bool { atEnd ? start < buffer.count : buffer[start...].contains(0x0A) }

  /// The next line without its `\n`, or nil at the end of the input.
  ///
  /// - Throws: `LineTooLong` for a line past the limit (skipped), `ShapingError` when reading fails.
  package mutating func next() throws -> [UInt8]? {
    var skipped = 0
    // Where to look for the next newline: the bytes before it have none (each byte is looked at
    // once, however long the line).
    var scanned = start
    while true {
      if let newline = buffer[scanned...].firstIndex(of: 0x0A) {
        defer { start = newline + 1 }
        if skipped > 0 || newline - start > maximumLength {
          throw LineTooLong(length: skipped + newline - start)
        }
        return Array(buffer[start..<newline])
      }
      if atEnd {
        guard start < buffer.count || skipped > 0 else { return nil }
        defer { start = buffer.count }
        if skipped > 0 || buffer.count - start > maximumLength {
          throw LineTooLong(length: skipped + buffer.count - start)
        }
        return Array(buffer[start...])
      }
      if buffer.count - start > maximumLength {
        // Past the limit with no end in sight: drop what is read of the line, keep its length.
        skipped += buffer.count - start
        buffer.removeAll(keepingCapacity: true)
        start = 0
      } else if start > 0 {
        buffer.removeFirst(start)
        start = 0
      }
      scanned = buffer.count
      let chunk = try IO.readChunk(descriptor: descriptor, name: "standard input")
      if chunk.isEmpty { atEnd = true } else { buffer += chunk }
    }
  }
}

/// How long one text may be.
package enum TextLimits {
  /// The longest line (in UTF-8 bytes) shaped by default: 16 MiB. `--max-text-length` changes it.
  package static let defaultMaximum = 16 << 20
}
