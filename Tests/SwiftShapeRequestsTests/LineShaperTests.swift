import Foundation
import SwiftShape
import TestFixtures
import Testing

@testable import SwiftShapeRequests

/// Collects a line shaper's output.
final class Collected: LineShaperOutput {
  var bytes: [UInt8] = []
  var flushes = 0
  func write(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes += bytes }
  func flush() throws { flushes += 1 }
  var text: String { String(decoding: bytes, as: UTF8.self) }
}

@Suite("The line shaper")
struct LineShaperTests {
  static let lines = (0..<700).map { "line \($0): office ffi Ta" }

  @Test func threadsWriteWhatOneThreadWrites() throws {
    let font = try ShapingFont(file: Paths.latin)
    for format in [
      LineShaper.Format.jsonLines, .harfBuzz(HBFormat(.text), showText: true, showLineNumbers: true),
    ] {
      let one = Collected()
      try LineShaper(font: font, format: format).run(.lines(Self.lines), to: one)
      for jobs in [2, 3] {
        let many = Collected()
        try LineShaper(font: font, format: format, jobs: jobs).run(.lines(Self.lines), to: many)
        #expect(many.bytes == one.bytes)
      }
      #expect(one.text.split(separator: "\n").count == (format.isText ? 1400 : 700))
    }
  }

  /// Threads that share the cache's pieces (`ShapingCache.sharesBetweenThreads`) write what one
  /// thread writes, on the benchmark corpora (fonts whose layout reaches across spaces: Roboto's
  /// space kerns with T, Amiri's contexts see it), plain and in paragraphs. (Whether pieces are
  /// found from another thread here depends on the workers getting threads of their own from a
  /// pool the other tests share: `threadsFindThePiecesOtherThreadsShaped` in the cache's tests
  /// runs threads of its own for that.)
  @Test func threadsSharingPiecesWriteWhatOneThreadWrites() throws {
    guard let shared = Paths.shared else {
      print("skipped: ../shared (the benchmark corpora) is absent")
      return
    }
    let perf = "\(shared)/corpus/harfbuzz-6.0.0-perf"
    let chose = ShapingCache.choosesByTime
    defer { ShapingCache.choosesByTime = chose }
    ShapingCache.choosesByTime = false
    for (fontPath, textPath) in [
      ("\(perf)/fonts/Roboto-Regular.ttf", "\(perf)/texts/en-thelittleprince.txt"),
      ("\(perf)/fonts/Amiri-Regular.ttf", "\(perf)/texts/fa-thelittleprince.txt"),
    ] {
      let lines = try String(contentsOfFile: textPath, encoding: .utf8).split(separator: "\n").map(
        String.init)
      for paragraph in [false, true] {
        var options = ShapeOptions()
        if paragraph { options.paragraph = .auto }
        options.usesCache = false
        let plain = Collected()
        try LineShaper(font: try ShapingFont(file: fontPath), options: options, format: .jsonLines).run(
          .lines(lines + lines), to: plain)
        options.usesCache = true
        for jobs in [2, 3] {
          // A font of its own each time: its pieces start from nothing.
          let many = Collected()
          try LineShaper(
            font: try ShapingFont(file: fontPath), options: options, format: .jsonLines, jobs: jobs
          )
          .run(.lines(lines + lines), to: many)
          #expect(many.bytes == plain.bytes, "\(fontPath), paragraph \(paragraph), \(jobs) jobs")
        }
      }
    }
  }

  @Test func aFileIsReadAsItsLines() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swiftshape-lines-\(getpid()).txt")
    try (Self.lines.joined(separator: "\n") + "\n").write(to: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: path) }
    let font = try ShapingFont(file: Paths.latin)
    let fromFile = Collected()
    let fromMemory = Collected()
    var sizes: [Int] = []
    try LineShaper(font: font, format: .jsonLines, jobs: 2).run(.file(path.path), to: fromFile) { _, size in
      sizes.append(size)
    }
    try LineShaper(font: font, format: .jsonLines).run(.lines(Self.lines), to: fromMemory)
    #expect(fromFile.bytes == fromMemory.bytes)
    #expect(!sizes.isEmpty)
    let document = try LineShaper(font: font, format: .jsonLines, jobs: 2).document(.file(path.path))
    #expect(document.entries.count == 700 && document.entries[699].line == 700)
  }

  /// A bad line in a file stops the run before anything is written.
  @Test func aBadLineInAFileWritesNothing() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("swiftshape-bad-\(getpid()).txt")
    var bytes = Array((Self.lines.joined(separator: "\n") + "\n").utf8)
    bytes += [0x61, 0xFF, 0x0A]
    try Data(bytes).write(to: path)
    defer { try? FileManager.default.removeItem(at: path) }
    let out = Collected()
    #expect(throws: ShapingError.self) {
      try LineShaper(font: try ShapingFont(file: Paths.latin), format: .jsonLines, jobs: 2).run(
        .file(path.path), to: out)
    }
    #expect(out.bytes.isEmpty)
  }

  @Test func runsAreCutByLinesTextAndThreads() {
    let short = Array(repeating: "word", count: 1024)
    // At most 128 lines a run.
    #expect(LineShaper.runEnds(of: short, jobs: 2) == [128, 256, 384, 512, 640, 768, 896, 1024])
    // At least one run a thread when the batch has the lines for it.
    #expect(LineShaper.runEnds(of: Array(short.prefix(10)), jobs: 4) == [3, 6, 9, 10])
    #expect(LineShaper.runEnds(of: ["a", "b"], jobs: 8) == [1, 2])
    #expect(LineShaper.runEnds(of: [], jobs: 2).isEmpty)
    // At most 16 KiB of text a run (a line ending past it ends the run).
    let long = Array(repeating: String(repeating: "x", count: 5000), count: 8)
    #expect(LineShaper.runEnds(of: long, jobs: 1) == [4, 8])
  }
}

extension LineShaper.Format {
  fileprivate var isText: Bool {
    if case .harfBuzz = self { return true }
    return false
  }
}

/// The line shaper's example in `SwiftShapeRequests.docc`, as written.
@Suite("Documentation snippets: the line shaper")
struct LineShaperSnippetTests {
  @Test func theExampleWritesOneJSONLineALine() throws {
    let font = try ShapingFont(file: Paths.latin)
    let shaper = LineShaper(font: font, format: .jsonLines)
    let output = MemoryOutput()
    try shaper.run(.lines(["office", "AVATAR"]), to: output)
    #expect(output.text.split(separator: "\n").count == 2)
  }
}

/// The code of `UsingTheLineShaper.md` (`SwiftShapeRequests.docc`), with a file of the tests'.
@Suite("Documentation snippets: using the line shaper")
struct UsingTheLineShaperSnippetTests {
  @Test func aFileIsShapedOnTwoThreadsInOrder() throws {
    let font = try ShapingFont(file: Paths.latin)
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swiftshape-book-\(getpid()).txt")
    try (1...100).map { "line \($0)" }.joined(separator: "\n").write(
      to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let shaper = LineShaper(font: font, format: .jsonLines, jobs: 2)
    let output = MemoryOutput()
    try shaper.run(.file(file.path), to: output)
    let lines = output.text.split(separator: "\n")
    #expect(lines.count == 100)
    #expect(lines[99].contains("\"text\":\"line 100\""))
  }
}
