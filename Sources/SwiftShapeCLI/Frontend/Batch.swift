import ArgumentParser
import SwiftShape

/// hb-shape's batch protocol: each line of standard input is one request, its arguments separated
/// by `;`; each request is answered on standard output, flushed, before the next is read.
///
/// Unlike hb-shape, a bad request (a missing font, a bad option, no text, malformed UTF-8) is
/// answered with one `error: …` line and the batch goes on, so a client stays in step. A request
/// never reads standard input, which carries the requests. Answers are in hb-shape's text format
/// unless a request (or the options given with `--batch`) names another; a JSON document is then
/// written on one line.
struct Batch {
  /// Arguments given with `--batch`, placed before every request's own.
  var defaults: [String]

  func run() throws {
    let out = Output.standardOutput()
    var reader = LineReader(descriptor: 0)
    while let bytes = try reader.next() {
      let answer = Output.memory()
      do {
        let request = try parse(bytes)
        try request.run(to: answer, compact: true)
        out.write(answer.text)
      } catch {
        out.write("error: \(Diagnostics.oneLine(for: error, command: SwiftShapeCommand.Shape.self))\n")
      }
      try out.flush()
    }
    try out.commit()
  }

  /// Splits a request line as hb-shape does (`;` separates arguments; several in a row count as
  /// one) and checks it.
  private func parse(_ bytes: [UInt8]) throws -> ShapeRequest {
    let line = try TextInput.decode(bytes, name: "request")
    let arguments = line.split(separator: ";").map(String.init).filter { !$0.isEmpty }
    guard !arguments.isEmpty else {
      throw ShapingError(.invalidArgument, input: "request", reason: "empty request")
    }
    let command = try parser.parse(defaults + arguments)
    guard !command.batch, command.output.outputFile == nil, !command.shaping.listShapers else {
      throw ShapingError(
        .invalidArgument, input: "request",
        reason: "--batch, --output-file and --list-shapers cannot be used in a request")
    }
    return try ShapeRequest(command, fonts: fonts, standardInputAllowed: false, defaultFormat: .text)
  }

  private let fonts = FontCache()
  private let parser: ShapeArgumentParser

  init(defaults: [String]) throws {
    self.defaults = defaults
    parser = ShapeArgumentParser()
  }
}

/// Reads lines of bytes from a file descriptor, without decoding them.
struct LineReader {
  let descriptor: Int32
  private var buffer: [UInt8] = []
  private var start = 0
  private var atEnd = false

  init(descriptor: Int32) { self.descriptor = descriptor }

  /// Whether a whole line is already read, so `next()` returns without waiting for input.
  var hasBufferedLine: Bool { atEnd ? start < buffer.count : buffer[start...].contains(0x0A) }

  /// The next line without its `\n`, or nil at the end of the input.
  mutating func next() throws -> [UInt8]? {
    while true {
      if let newline = buffer[start...].firstIndex(of: 0x0A) {
        defer { start = newline + 1 }
        return Array(buffer[start..<newline])
      }
      if atEnd {
        guard start < buffer.count else { return nil }
        defer { start = buffer.count }
        return Array(buffer[start...])
      }
      buffer.removeFirst(start)
      start = 0
      let chunk = try IO.readChunk(descriptor: descriptor, name: "standard input")
      if chunk.isEmpty { atEnd = true } else { buffer += chunk }
    }
  }
}
