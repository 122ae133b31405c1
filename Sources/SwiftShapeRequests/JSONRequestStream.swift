import SwiftShape

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension JSONRequests {
  /// Answers every request line of a file (or standard input, `-`), in order, to `out`, flushed
  /// after each batch of requests already read (a client may send one and wait for its answer).
  /// Requests read together are answered on `jobs` threads; a bad line is answered with an error
  /// in its place and the stream goes on. `usesCache`: false shapes every request without the
  /// shaping cache (`--no-cache`).
  ///
  /// - Throws: `ShapingError` of kind `.unreadableFile` when the file cannot be opened or read;
  ///   `out`'s flush errors.
  public static func serve(
    _ path: String, jobs: Int = 1, maximumLength: Int = 16 << 20, usesCache: Bool = true,
    to out: some LineShaperOutput
  ) throws {
    let descriptor = try IO.openForReading(path)
    defer { if descriptor != 0 { close(descriptor) } }
    var reader = LineReader(descriptor: descriptor, maximumLength: maximumLength)
    let cache = FontCache()
    func nextLine() throws -> Line? {
      do {
        return try reader.next().map(Line.request)
      } catch let error as LineReader.LineTooLong {
        return .tooLong(error.length)
      }
    }
    let limit = reader.maximumLength
    while let first = try nextLine() {
      var batch = [first]
      while batch.count < 256, reader.hasBufferedLine, let line = try nextLine() { batch.append(line) }
      let answers = ParallelMap.run(batch, jobs: jobs) { line -> [UInt8] in
        switch line {
        case .request(let bytes): return JSONRequests.answer(bytes, cache: cache, usesCache: usesCache)
        case .tooLong(let length):
          return JSONRequests.errorAnswer(
            id: Array("null".utf8),
            ShapingError(
              .badText, input: "request", reason: "\(length) bytes, longer than \(limit) (--max-text-length)")
          )
        }
      }
      for answer in answers {
        (answer + [UInt8(ascii: "\n")]).withUnsafeBufferPointer { out.write($0) }
      }
      try out.flush()
    }
  }
}

/// A request line, or the length of one past the limit (answered with an error in its place).
private enum Line: Sendable {
  case request([UInt8])
  case tooLong(Int)
}
