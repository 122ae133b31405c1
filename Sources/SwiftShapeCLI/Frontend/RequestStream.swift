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
    var reader = LineReader(descriptor: descriptor)
    let cache = FontCache()
    let out = Output.standardOutput()
    while let first = try reader.next() {
      var batch = [first]
      while batch.count < 256, reader.hasBufferedLine, let line = try reader.next() { batch.append(line) }
      let answers = ParallelMap.run(batch, jobs: jobs) { line in JSONRequests.answer(line, cache: cache) }
      for answer in answers {
        out.write(answer)
        out.write([UInt8(ascii: "\n")])
      }
      try out.flush()
    }
    try out.commit()
  }
}
