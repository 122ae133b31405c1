@_spi(Writers) import SwiftShape

/// Where a line shaper's output goes: bytes in input order, and a flush when the input would
/// wait.
public protocol LineShaperOutput: AnyObject {
  /// Takes bytes of output (valid only for the call).
  func write(_ bytes: UnsafeBufferPointer<UInt8>)
  /// Sends what was written on (to a terminal, a pipe, a client waiting for answers).
  func flush() throws
}

extension LineShaperOutput {
  /// Writes text, as UTF-8.
  public func write(_ text: String) {
    var text = text
    text.withUTF8 { write($0) }
  }
}

/// Output kept in memory, as text.
public final class MemoryOutput: LineShaperOutput {
  private var bytes: [UInt8] = []

  /// An empty output.
  public init() {}

  /// Keeps the bytes.
  public func write(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes.append(contentsOf: bytes) }

  /// Nothing to do: the bytes are kept.
  public func flush() throws {}

  /// What was written, as UTF-8 text.
  public var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// Output kept in memory in chunks of about 1 MiB, to be written out whole.
private final class KeptOutput: LineShaperOutput {
  private var chunks: [[UInt8]] = []
  private var current: [UInt8] = []
  /// How many bytes were written.
  private(set) var count = 0

  func write(_ bytes: UnsafeBufferPointer<UInt8>) {
    if current.count + bytes.count > current.capacity, !current.isEmpty {
      chunks.append(current)
      current = []
    }
    if current.isEmpty { current.reserveCapacity(max(1 << 20, bytes.count)) }
    current.append(contentsOf: bytes)
    count += bytes.count
  }

  func flush() throws {}

  /// The chunks written.
  func finish() -> [[UInt8]] {
    if !current.isEmpty { chunks.append(current) }
    current = []
    return chunks
  }
}

/// Where a line shaper's lines come from.
public enum LineSource: Sendable {
  /// Lines in memory.
  case lines([String])
  /// A UTF-8 file, or standard input for `-`, read a batch of lines at a time (memory stays flat
  /// however long it is). A regular file is read through first, so that a bad line far into it
  /// is found before any output; a stream is shaped as it comes.
  case file(String)
}

/// Shapes a text file, a stream or a list of lines, each line on its own, with one font and one
/// set of options, and writes each line's output in input order: on one thread, or on `jobs`
/// threads while the input is read on. Memory stays flat for any input length, and a stream is
/// answered line by line as it comes (before reading would wait for more, what is shaped so far
/// is written and flushed), as hb-shape answers a person typing or a program sending one line at
/// a time.
///
/// ```swift
/// let shaper = LineShaper(font: try ShapingFont(file: "Noto.ttf"), format: .jsonLines)
/// try shaper.run(.file("book.txt"), to: output)   // one JSON document a line
/// ```
public struct LineShaper: Sendable {
  /// What is written for each line.
  public enum Format: Sendable {
    /// SwiftShape's JSON document, compact, one a line (JSON Lines).
    case jsonLines
    /// hb-shape's lines for each input line: the text and code points when asked, the trace
    /// (with `options.trace`), the glyphs in `format`'s syntax; each prefixed with the line
    /// number when asked.
    case harfBuzz(HBFormat, showText: Bool = false, showUnicode: Bool = false, showLineNumbers: Bool = false)
  }

  /// The font every line is shaped with.
  public var font: ShapingFont
  /// How every line is shaped.
  public var options: ShapeOptions
  /// What is written for each line.
  public var format: Format
  /// The fontconfig pattern the font was found by, named in SwiftShape's JSON.
  public var pattern: String?
  /// How many threads shape at once.
  public var jobs: Int
  /// How many times each line is shaped (for timing; the last result is written). With 0, as
  /// hb-shape, nothing is shaped: hb-shape's formats print an empty glyph line, JSON nothing.
  public var iterations: Int
  /// The longest line, in UTF-8 bytes; a longer one is an error naming it.
  public var maximumLength: Int
  /// Where hb-shape's trace lines go (`options.trace` with a `.harfBuzz` format).
  public var traceDestination: TraceDestination = .output
  /// What each line is: text to shape, or glyphs to read (`ShapingFont.readGlyphs`, hb-shape's
  /// `--glyphs`).
  public var input: Input = .text

  /// What each line is.
  public enum Input: Sendable {
    /// Text, shaped.
    case text
    /// Glyphs in hb-shape's text syntax, read onto the font, not shaped; `asHBShape`: exactly as
    /// the hb-shape of that release reads them (see `ShapingFont.readGlyphs`).
    case serializedGlyphs(asHBShape: EngineVersion?)
  }

  /// Where hb-shape's trace lines go: hb-shape writes them before each line's glyphs on standard
  /// output up to HarfBuzz 6, and on standard error, as they come, from HarfBuzz 7.0.0 on.
  public enum TraceDestination: Sendable {
    /// Into the output, before the line's glyphs.
    case output
    /// To standard error, as each line is shaped (lines are then shaped on one thread, in order).
    case standardError
  }

  /// A line shaper.
  public init(
    font: ShapingFont, options: ShapeOptions = .init(), format: Format, pattern: String? = nil, jobs: Int = 1,
    iterations: Int = 1, maximumLength: Int = 16 << 20
  ) {
    self.font = font
    self.options = options
    self.format = format
    self.pattern = pattern
    self.jobs = jobs
    self.iterations = iterations
    self.maximumLength = maximumLength
  }

  /// Shapes every line and writes its output to `output`, in input order.
  ///
  /// - Parameters:
  ///   - source: where the lines come from (text, a file, a stream).
  ///   - output: where each line's output goes.
  ///   - progress: called now and then with the bytes read and the file's size, for a regular
  ///     file.
  /// - Throws: `ShapingError`: a file that cannot be read, malformed UTF-8 or a line too long (for
  ///   a regular file, before anything is written; for a stream, after the lines before it are
  ///   written), a line that fails to shape (after the lines before it); `output`'s flush errors.
  public func run(
    _ source: LineSource, to output: some LineShaperOutput,
    progress: ((_ read: Int, _ size: Int) -> Void)? = nil
  ) throws {
    let lines = format.isJSONLines ? ShapeDocumentLines(font: font, options: options, pattern: pattern) : nil
    try run(source, to: output, progress: progress) { [self] line, number, buffer, result in
      if let lines {
        // Shaped no times (`iterations` 0, which hb-shape takes): no result.
        guard iterations > 0 else { return }
        try shape(line, into: &result)
        lines.append(ShapeDocument.Entry(line: number, result: result), to: &buffer)
      } else {
        buffer.append(try harfBuzzLines(for: line, number: number, reusing: &result))
      }
    }
  }

  /// Shapes every line (on `jobs` threads) and writes them as one SwiftShape JSON document in
  /// `layout`, for input read whole: `document(_:progress:)` written out. Each line's result is
  /// written as it is shaped, as `run` writes JSON Lines, and the bytes are kept to the end
  /// (returned in chunks, to be written one after another), so that nothing is written when a
  /// line fails.
  ///
  /// Speed: the results of a whole file kept to be written at the end, then laid out, made the
  /// English text's document take 39 ms of CPU time against 23 ms for its JSON Lines (the same
  /// instructions but for 8%; 9,700 page faults against 1,400).
  ///
  /// - Throws: as `document(_:progress:)`; nothing is returned when a line fails.
  package func documentBytes(
    _ source: LineSource, layout: ShapeDocument.Layout, progress: ((_ read: Int, _ size: Int) -> Void)? = nil
  ) throws -> [[UInt8]] {
    var document = ShapeDocument(font: font, options: options, entries: [])
    document.pattern = pattern
    let kept = KeptOutput()
    try run(source, to: kept, progress: progress) { [self] line, number, buffer, result in
      guard iterations > 0 else { return }
      try shape(line, into: &result)
      ShapeDocument.appendEntry(
        ShapeDocument.Entry(line: number, result: result), layout: layout, first: number == 1, to: &buffer)
    }
    return [document.start(layout)] + kept.finish() + [ShapeDocument.end(layout, hasEntries: kept.count > 0)]
  }

  /// Shapes every line and writes its output with `write`, which is given the line, its number,
  /// the buffer to write into and a result to reuse from line to line (its storage is, not its
  /// value).
  private func run(
    _ source: LineSource, to output: some LineShaperOutput, progress: ((_ read: Int, _ size: Int) -> Void)?,
    write: @escaping @Sendable (String, Int, inout ByteBuffer, inout ShapeResult) throws -> Void
  ) throws {
    guard jobs > 1 else {
      // One thread: lines are written into one buffer as they are shaped, sent every 64 KiB.
      var buffer = ByteBuffer(capacity: 1 << 17)
      var result = ShapeResult()
      defer { buffer.withBytes { output.write($0) } }
      try forEachBatch(source, progress: progress) { batch, firstLine in
        for (index, line) in batch.enumerated() {
          try write(line, firstLine + index, &buffer, &result)
          if buffer.count >= 1 << 16 {
            buffer.withBytes { output.write($0) }
            buffer.removeAll()
          }
        }
      } waiting: {
        buffer.withBytes { output.write($0) }
        buffer.removeAll()
        try output.flush()
      }
      return
    }
    // Several threads: runs of lines are shaped on `jobs` threads (a few runs each waiting their
    // turn) while this one reads on and writes what is done, in input order; a failing line: the
    // lines before it, then the error.
    // Written buffers go back to a pool for later runs: freeing and allocating one for every run
    // made the memory allocator give the pages back and the kernel fault them in again.
    // Speed: runs of at most 128 lines, two a thread in flight, each buffer made with room for
    // 8 KiB a line (JSON Lines of English takes 5.4): the memory written at once is what the
    // kernel faults in (runs of 256 lines, four a thread, buffers of 4 KiB a line grown as they
    // filled: 4,900 page faults where one thread takes 900, a tenth of the time of `--jobs 2` on
    // eight copies of the English text; now 2,500, and `--jobs 2` 1.18× → 1.34–1.40× `--jobs 1`,
    // `perf stat`, with the threads' shared pieces, `SharedPieces`). Runs of 64 lines were
    // slower again: each run handed over wakes a thread.
    let pool = Protected<[ByteBuffer]>([])
    let pipeline = OrderedPipeline<(bytes: ByteBuffer, failure: (any Error)?)>(workers: jobs, limit: 2 * jobs)
    {
      run in
      run.bytes.withBytes { output.write($0) }
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
      try forEachBatch(source, progress: progress) { batch, firstLine in
        var start = 0
        for end in Self.runEnds(of: batch, jobs: jobs) {
          let run = Array(batch[start..<end])
          let first = firstLine + start
          start = end
          try pipeline.submit {
            var buffer = pool.withLock { $0.popLast() } ?? ByteBuffer(capacity: 8192 * run.count)
            var result = ShapeResult()
            // (The thread's cache counts made readable for `--cache-stats` when the run is done.)
            defer { ShapingCache.publishOnThisThread() }
            for (index, line) in run.enumerated() {
              do {
                try write(line, first + index, &buffer, &result)
              } catch {
                return (buffer, error)
              }
            }
            return (buffer, nil)
          }
        }
      } waiting: {
        try pipeline.finish()
        try output.flush()
      }
    } catch {
      try pipeline.finish()
      throw error
    }
    try pipeline.finish()
  }

  /// Shapes every line (on `jobs` threads) and returns them as one SwiftShape JSON document, for
  /// input read whole.
  ///
  /// - Throws: as `run(_:to:progress:)`; nothing is returned when a line fails.
  public func document(_ source: LineSource, progress: ((_ read: Int, _ size: Int) -> Void)? = nil) throws
    -> ShapeDocument
  {
    var entries: [ShapeDocument.Entry] = []
    try forEachShaped(source, progress: progress, transform: { $0 }) { results, firstLine in
      for (index, result) in results.enumerated() {
        entries.append(ShapeDocument.Entry(line: firstLine + index, result: result))
      }
    }
    var document = ShapeDocument(font: font, options: options, entries: entries)
    document.pattern = pattern
    return document
  }

  /// Shapes every line (on `jobs` threads), hands each result to `transform` on the thread that
  /// shaped it (to keep what the caller needs of it, and let the rest go there), and hands `body`
  /// the transformed lines a batch at a time, in input order, with the number of the batch's
  /// first line. Nothing is shaped with `iterations` 0 (as hb-shape).
  ///
  /// - Throws: as `document(_:progress:)`, and what `body` throws; the batches before a failing
  ///   line have been handed on.
  public func forEachShaped<Shaped: Sendable>(
    _ source: LineSource, progress: ((_ read: Int, _ size: Int) -> Void)? = nil,
    transform: @Sendable (ShapeResult) -> Shaped,
    _ body: (_ shaped: [Shaped], _ firstLine: Int) throws -> Void
  ) throws {
    guard iterations > 0 else { return }
    try forEachBatch(source, progress: progress) { batch, firstLine in
      let shaped = try ParallelMap.run(batch, jobs: jobs) { line in
        Result { () throws -> Shaped in
          var result = ShapeResult()
          try shape(line, into: &result)
          return transform(result)
        }
      }.map { try $0.get() }
      try body(shaped, firstLine)
    }
  }

  /// Where the runs a batch is cut into for `jobs` threads end: at most 128 lines or 16 KiB of
  /// text each (a run costs the threads some work to hand over, so runs are not made small), and
  /// at least `jobs` runs when the batch has as many lines.
  package static func runEnds(of batch: [String], jobs: Int) -> [Int] {
    let most = max(1, min(128, (batch.count + jobs - 1) / max(1, jobs)))
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

  /// Calls `body` with the input's lines in batches, each with the number of its first line; a
  /// file is read a batch at a time. Before reading waits for input (standard input or a pipe
  /// that has nothing more yet), `waiting` is called, to write out the results of the lines read
  /// so far.
  private func forEachBatch(
    _ source: LineSource, progress: ((Int, Int) -> Void)?, _ body: ([String], Int) throws -> Void,
    waiting: () throws -> Void = {}
  ) throws {
    switch source {
    case .lines(let lines):
      if let long = lines.firstIndex(where: { $0.utf8.count > maximumLength }) {
        throw ShapingError(
          .badText, input: lines.count == 1 ? "the text" : "line \(long + 1)",
          reason: "longer than \(maximumLength) bytes (--max-text-length)")
      }
      let size = 1024
      for start in stride(from: 0, to: lines.count, by: size) {
        try body(Array(lines[start..<min(start + size, lines.count)]), start + 1)
      }
    case .file(let path):
      // A bad line in a file is found before any line is shaped (nothing is then written).
      try TextLines.check(path: path, maximumLength: maximumLength)
      var reader = try TextLines(path: path, maximumLength: maximumLength)
      defer { reader.close() }
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
        if let progress, let size = reader.size { progress(reader.offset, size) }
      }
    }
  }

  /// Shapes a line into `result` (reusing its storage) as many times as `iterations` asks.
  private func shape(_ line: String, into result: inout ShapeResult) throws {
    for _ in 0..<iterations { try shapeOnce(line, into: &result) }
  }

  /// Shapes a line once, or reads its glyphs.
  private func shapeOnce(_ line: String, into result: inout ShapeResult) throws {
    switch input {
    case .text: try font.shape(line, options: options, into: &result)
    case .serializedGlyphs(let asHBShape):
      try font.readGlyphs(line, options: options, asHBShape: asHBShape, into: &result)
    }
  }

  /// hb-shape's output for one line: the text and code points when asked, the trace, the glyphs.
  /// Each shaping goes into `result` (its storage reused from line to line).
  private func harfBuzzLines(for line: String, number: Int, reusing result: inout ShapeResult) throws
    -> String
  {
    guard case .harfBuzz(let format, let showText, let showUnicode, let showLineNumbers) = format else {
      return ""
    }
    let prefix = showLineNumbers ? "\(number): " : ""
    // Shaped no times (`iterations` 0): hb-shape prints its buffer as it is, empty.
    guard iterations > 0 else { return prefix + format.line(for: ShapeResult()) + "\n" }
    var text = ""
    var traces: [[TraceEvent]] = []
    for _ in 0..<iterations {
      try shapeOnce(line, into: &result)
      if let trace = result.trace { traces.append(trace) }
    }
    if showText { text += "\(prefix)(\(line))\n" }
    if showUnicode { text += prefix + HBFormat.unicodeLine(for: result) + "\n" }
    var traceText = ""
    for trace in traces {
      for event in trace {
        traceText += "\(prefix)trace: \(event.message)\tbuffer: "
        traceText += format.line(for: event) + "\n"
      }
    }
    switch traceDestination {
    case .output: text += traceText
    case .standardError: if !traceText.isEmpty { IO.writeError(traceText) }
    }
    text += prefix + format.line(for: result) + "\n"
    return text
  }
}

extension LineShaper.Format {
  fileprivate var isJSONLines: Bool {
    if case .jsonLines = self { return true }
    return false
  }
}
