import HarfBuzz
import SwiftShape
import SwiftShapeFonts
import SwiftShapeRequests

/// One shaping request, checked and ready: the font, the lines, the options and the output
/// settings. Made from the `shape` command's options, on the command line or from a batch line.
struct ShapeRequest {
  var font: ShapingFont
  var input: TextSettings.Input
  /// The longest line to shape, in bytes.
  var maximumLength: Int
  var options: ShapeOptions
  var output: OutputSettings
  var format: OutputSettings.Format
  /// The fontconfig pattern the font was found by, with `--font`.
  var pattern: String?

  /// Checks the command's options and loads what they name.
  ///
  /// - Parameters:
  ///   - fonts: loaded fonts to reuse, or nil to load the font afresh.
  ///   - standardInputAllowed: whether a request without text may read standard input.
  ///   - defaultFormat: the format when the options name none (a batch answers in text).
  ///
  /// The command's persona decides how values are read: as hb-shape reads them, what hb-shape
  /// accepts is accepted, a face index past the last face among it (it shapes with an empty face).
  init(
    _ command: ShapeSettings, fonts: FontCache?, standardInputAllowed: Bool,
    defaultFormat: OutputSettings.Format? = nil
  ) throws {
    let persona = command.persona
    let (_, positionalText) = command.positionals()
    try command.output.check(persona: persona)
    format =
      try command.output.format == nil
      ? defaultFormat ?? command.output.resolvedFormat() : command.output.resolvedFormat()
    output = command.output
    var request = try command.shapingRequest()
    request.options.includeGlyphNames = !command.output.noGlyphNames
    request.options.includeExtents = command.output.showExtents
    request.options.trace = command.output.trace
    options = request.options
    let resolved = try request.font.resolve(cache: fonts)
    for note in resolved.notes { Diagnostics.printNote(note) }
    font = resolved.font
    pattern = resolved.pattern
    input = try command.text.input(
      positionalText: positionalText, standardInputAllowed: standardInputAllowed, persona: persona)
    maximumLength = command.text.maximumLength
  }

  /// Shapes every line and writes the result to `out`: line by line for the line-oriented formats
  /// (a file or standard input is read as it goes, in batches shaped by `--jobs` threads, and
  /// written in input order), all at once for the JSON document. A failing line stops the request;
  /// what it would have printed is not written.
  ///
  /// - Parameter compact: write the JSON document on one line (in a batch, one line per request).
  func run(to out: Output, compact: Bool = false) throws {
    if format == .json {
      var entries: [ShapeDocument.Entry] = []
      // No shaping, no result (`--num-iterations=0`, which hb-shape takes).
      if output.iterations > 0 {
        try forEachBatch { batch, firstLine in
          let results = try shapeAll(batch)
          for (index, result) in results.enumerated() {
            entries.append(ShapeDocument.Entry(line: firstLine + index, result: result))
          }
        }
      }
      var document = ShapeDocument(font: font, options: options, entries: entries)
      document.pattern = pattern
      out.write(document.json(compact ? .compact : .pretty) + "\n")
      return
    }
    let lines = format == .jsonl ? ShapeDocumentLines(font: font, options: options, pattern: pattern) : nil
    let hbFormat = output.hbFormat(format == .hbJSON ? .json : .text)
    /// Writes one line's output: its JSON Lines document, or hb-shape's lines for it. `result` is
    /// the caller's to reuse from line to line (its storage is, not its value).
    @Sendable func write(
      _ line: String, number: Int, to buffer: inout ByteBuffer, reusing result: inout ShapeResult
    ) throws {
      if let lines {
        // Shaped no times (`--num-iterations=0`, which hb-shape takes): no result.
        guard output.iterations > 0 else { return }
        try shape(line, into: &result)
        lines.append(ShapeDocument.Entry(line: number, result: result), to: &buffer)
      } else {
        buffer.append(try hbLines(for: line, number: number, format: hbFormat, reusing: &result))
      }
    }
    guard output.jobs > 1 else {
      // One thread: lines are written into one buffer as they are shaped, sent every 64 KiB.
      var buffer = ByteBuffer(capacity: 1 << 17)
      var result = ShapeResult()
      defer { out.write(buffer) }
      try forEachBatch { batch, firstLine in
        for (index, line) in batch.enumerated() {
          try write(line, number: firstLine + index, to: &buffer, reusing: &result)
          if buffer.count >= 1 << 16 {
            out.write(buffer)
            buffer.removeAll()
          }
        }
      } waiting: {
        out.write(buffer)
        buffer.removeAll()
        try out.flush()
      }
      return
    }
    // Several threads: runs of lines are shaped on `--jobs` threads (a few runs each waiting their
    // turn) while this one reads on and writes what is done, in input order; a failing line: the
    // lines before it, then the error.
    // Written buffers go back to a pool for later runs: freeing and allocating one for every run
    // made the memory allocator give the pages back and the kernel fault them in again.
    let pool = Protected<[ByteBuffer]>([])
    let pipeline = OrderedPipeline<(bytes: ByteBuffer, failure: (any Error)?)>(
      workers: output.jobs, limit: 4 * output.jobs
    ) { run in
      out.write(run.bytes)
      // Moved out, so that the pool holds the only reference to the storage: a worker writing
      // into a buffer still referenced here would copy all of it first.
      var written = run.bytes
      run.bytes = ByteBuffer(continuing: [])
      written.removeAll()
      pool.withLock { $0.append(written) }
      if let failure = run.failure { throw failure }
    }
    defer { pipeline.abandon() }
    // A bad line read from a stream: the lines before it are written, as with one thread, then
    // the error (or that of an earlier line that failed to shape).
    do {
      try forEachBatch { batch, firstLine in
        var start = 0
        for end in Self.runEnds(of: batch, jobs: output.jobs) {
          let run = Array(batch[start..<end])
          let first = firstLine + start
          start = end
          try pipeline.submit {
            var buffer = pool.withLock { $0.popLast() } ?? ByteBuffer(capacity: 4096 * run.count)
            var result = ShapeResult()
            for (index, line) in run.enumerated() {
              do {
                try write(line, number: first + index, to: &buffer, reusing: &result)
              } catch {
                return (buffer, error)
              }
            }
            return (buffer, nil)
          }
        }
      } waiting: {
        try pipeline.finish()
        try out.flush()
      }
    } catch {
      try pipeline.finish()
      throw error
    }
    try pipeline.finish()
  }

  /// Where the runs a batch is cut into for `--jobs` threads end: at most 256 lines or 16 KiB of
  /// text each (a run costs the threads some work to hand over, so runs are not made small), and
  /// at least `jobs` runs when the batch has as many lines.
  static func runEnds(of batch: [String], jobs: Int) -> [Int] {
    let most = max(1, min(256, (batch.count + jobs - 1) / max(1, jobs)))
    var ends: [Int] = []
    var lines = 0
    var bytes = 0
    for (index, line) in batch.enumerated() {
      lines += 1
      bytes += line.utf8.count + 1
      if lines == most || bytes >= 16 << 10 {
        ends.append(index + 1)
        lines = 0
        bytes = 0
      }
    }
    if lines > 0 { ends.append(batch.count) }
    return ends
  }

  /// Shapes lines on `--jobs` threads.
  private func shapeAll(_ lines: [String]) throws -> [ShapeResult] {
    try ParallelMap.run(lines, jobs: output.jobs) { line in Result { try shape(line) } }.map { try $0.get() }
  }

  /// Calls `body` with the input's lines in batches, each with the number of its first line; a
  /// stream is read a batch at a time, with a progress bar on a terminal. Before reading waits
  /// for input (standard input or a pipe that has nothing more yet), `waiting` is called, to
  /// write out the results of the lines read so far: each line is answered as it comes, as
  /// hb-shape does.
  private func forEachBatch(
    _ body: ([String], Int) throws -> Void, waiting: () throws -> Void = {}
  ) throws {
    switch input {
    case .lines(let lines):
      let size = 1024
      for start in stride(from: 0, to: lines.count, by: size) {
        try body(Array(lines[start..<min(start + size, lines.count)]), start + 1)
      }
    case .stream(let path):
      // A bad line in a file is found before any line is shaped (nothing is then written).
      try TextLines.check(path: path, maximumLength: maximumLength)
      var reader = try TextLines(path: path, maximumLength: maximumLength)
      defer { reader.close() }
      let progress = reader.size.flatMap { Progress(total: $0) }
      defer { progress?.finish() }
      var first = 1
      while true {
        if reader.wouldWait { try waiting() }
        var batch: [String] = []
        // Up to 1,024 lines or 256 KiB of text, enough for several runs a thread, or the lines
        // there are before the next would wait.
        var bytes = 0
        while batch.count < 1024, bytes < 256 << 10, let line = try reader.next() {
          bytes += line.utf8.count + 1
          batch.append(line)
          if reader.wouldWait { break }
        }
        if batch.isEmpty { return }
        try body(batch, first)
        first += batch.count
        progress?.update(reader.offset)
      }
    }
  }

  /// Shapes a line as many times as `--num-iterations` asks; the last result counts.
  private func shape(_ line: String) throws -> ShapeResult {
    var result = ShapeResult()
    try shape(line, into: &result)
    return result
  }

  /// Shapes a line into `result` (reusing its storage) as many times as `--num-iterations` asks.
  private func shape(_ line: String, into result: inout ShapeResult) throws {
    for _ in 0..<output.iterations { try font.shape(line, options: options, into: &result) }
  }

  /// hb-shape's output for one line: the text and code points when asked, the trace, the glyphs.
  /// Each `--num-iterations` shaping goes into `result` (its storage reused from line to line).
  private func hbLines(
    for line: String, number: Int, format: HBFormat, reusing result: inout ShapeResult
  ) throws -> String {
    let prefix = output.showsLineNumber ? "\(number): " : ""
    // Shaped no times (`--num-iterations=0`): hb-shape prints its buffer as it is, empty.
    guard output.iterations > 0 else { return prefix + format.line(for: ShapeResult()) + "\n" }
    var text = ""
    var traces: [[TraceEvent]] = []
    for _ in 0..<output.iterations {
      try font.shape(line, options: options, into: &result)
      if let trace = result.trace { traces.append(trace) }
    }
    if output.showsText { text += "\(prefix)(\(line))\n" }
    if output.showsUnicode { text += prefix + HBFormat.unicodeLine(for: result) + "\n" }
    for trace in traces {
      for event in trace {
        text += "\(prefix)trace: \(event.message)\tbuffer: "
        text += format.line(for: event) + "\n"
      }
    }
    text += prefix + format.line(for: result) + "\n"
    return text
  }
}

extension ShapingCommandSettings {
  /// The request the font, text-context and shaping options describe, in the typed model every
  /// entry point shares; values read as the persona reads them.
  ///
  /// - Throws: `ShapingError` of kind `.invalidArgument` for a value that does not parse or a font
  ///   given more than one way.
  func shapingRequest() throws -> ShapingRequest {
    var options = try shaping.shapeOptions(persona: persona)
    (options.textBefore, options.textAfter) = try text.context(persona: persona)
    var font = FontSpecification(
      faceIndex: self.font.faceIndex, options: try self.font.shapingFontOptions(persona: persona),
      strict: self.font.strict, allowsMissingFace: persona == .hbShape)
    let positionalFont = positionals().font
    if let pattern = self.font.pattern {
      guard self.font.fontFile == nil, positionalFont == nil else {
        throw ShapingError(
          .invalidArgument, input: "--font",
          reason: "give the font one way only (--font, --font-file or a path)")
      }
      font.source = .pattern(pattern)
    } else if let path = self.font.fontFile ?? positionalFont {
      font.source = .file(path)
    }
    return ShapingRequest(font: font, options: options)
  }
}
