import ArgumentParser
import SwiftShape
import SwiftShapeCommandLine
import SwiftShapeRequests

/// hb-shape's batch protocol: each line of standard input is one request, its arguments separated
/// by `;`; each request is answered on standard output, flushed, before the next is read.
///
/// Unlike hb-shape, a bad request (a missing font, a bad option, no text, malformed UTF-8) is
/// answered with one `error: …` line and the batch goes on, so a client stays in step. A request
/// never reads standard input, which carries the requests. Answers are in hb-shape's text format
/// unless a request (or the options given with `--batch`) names another; a JSON document is then
/// written on one line.
struct Batch {
  /// The options given with `--batch`, read once: every request's own add to them.
  var defaults: ShapeSettings
  /// The longest request line.
  var maximumLength = TextLimits.defaultMaximum
  /// The most `--num-iterations` a request may ask for (`--max-iterations` given with `--batch`;
  /// a request's own is not taken).
  var maximumIterations = OutputSettings.defaultMaximumIterations

  func run() throws {
    let out = Output.standardOutput()
    var reader = LineReader(descriptor: 0, maximumLength: maximumLength)
    while true {
      let bytes: [UInt8]
      do {
        guard let line = try reader.next() else { break }
        bytes = line
      } catch let error as LineReader.LineTooLong {
        out.write(
          "error: request: \(error.length) bytes, longer than \(reader.maximumLength) (--max-text-length)\n")
        try out.flush()
        continue
      }
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
  private func parse(_ bytes: [UInt8]) throws -> ShapeJob {
    let line = try TextInput.decode(bytes, name: "request")
    let arguments = line.split(separator: ";").map(String.init).filter { !$0.isEmpty }
    guard !arguments.isEmpty else {
      throw ShapingError(.invalidArgument, input: "request", reason: "empty request")
    }
    let command = try ShapeSettings.options.parse(arguments, persona: defaults.persona, over: defaults)
    guard !command.batch, command.output.outputFile == nil, !command.shaping.listShapers else {
      throw ShapingError(
        .invalidArgument, input: "request",
        reason: "--batch, --output-file and --list-shapers cannot be used in a request")
    }
    guard command.output.iterations <= maximumIterations else {
      throw ShapingError(
        .invalidArgument, input: "--num-iterations=\(command.output.iterations)",
        reason: "more than a request may ask for (\(maximumIterations), --max-iterations given with --batch)")
    }
    return try ShapeJob(
      command, fonts: fonts, standardInputAllowed: false, defaultFormat: .text, note: Diagnostics.printNote)
  }

  private let fonts = FontCache()

  init(defaults: ShapeSettings) {
    self.defaults = defaults
  }
}
