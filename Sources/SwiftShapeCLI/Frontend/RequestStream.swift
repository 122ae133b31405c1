import SwiftShape
import SwiftShapeFixtures

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--requests`: JSON requests in, one answer line per request out, in request order. Requests
/// already read are answered together on `--jobs` threads; a request is never kept waiting for
/// input that has not come (a client may send one and wait for its answer).
struct RequestStream {
  var path: String
  var jobs: Int
  var maximumLength: Int = TextLimits.defaultMaximum

  func run() throws {
    let descriptor: Int32
    if path == "-" {
      descriptor = 0
    } else {
      guard !IO.isDirectory(path) else {
        throw ShapingError(.unreadableFile, input: path, reason: String(cString: strerror(EISDIR)))
      }
      descriptor = open(path, O_RDONLY)
      guard descriptor >= 0 else {
        throw ShapingError(.unreadableFile, input: path, reason: String(cString: strerror(errno)))
      }
    }
    defer { if descriptor != 0 { close(descriptor) } }
    var reader = LineReader(descriptor: descriptor, maximumLength: maximumLength)
    let cache = FontCache()
    let out = Output.standardOutput()
    // A line past the limit is answered with an error in its place.
    enum Line: Sendable {
      case request([UInt8])
      case tooLong(Int)
    }
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
        case .request(let bytes): return JSONRequests.answer(bytes, cache: cache)
        case .tooLong(let length):
          return Array(
            #"{"id":null,"error":{"kind":"bad-text","input":"request","message":"request: \#(length) bytes, longer than \#(limit) (--max-text-length)"}}"#
              .utf8)
        }
      }
      for answer in answers {
        out.write(answer)
        out.write([UInt8(ascii: "\n")])
      }
      try out.flush()
    }
    try out.commit()
  }
}
