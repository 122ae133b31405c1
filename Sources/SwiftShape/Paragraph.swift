import HarfBuzz
import SwiftShapeUnicode

extension ShapingFont {
  /// Shapes a paragraph of mixed directions and scripts: its bidi levels are resolved (UAX #9,
  /// from `base`), it is cut into runs of one level and one script (UAX #24), each run is shaped
  /// as `shape(_:options:)` shapes a text — in its direction and script, with the rest of the
  /// paragraph as context, so that joining and kerning across run edges are right — and the runs
  /// come in visual order (rule L2).
  ///
  /// Each run carries its `level` and its `range` in the paragraph; glyph clusters count from the
  /// start of the paragraph, in `options.clusterUnit`, and feature ranges (`kern[3:5]`) count in
  /// the paragraph too. `options.direction` and `options.script` are not used: each run's come
  /// from the text.
  ///
  /// ```swift
  /// let result = try font.shapeParagraph("Hello שלום 123 مرحبا!")
  /// for run in result.runs { print(run.level!, run.direction, run.script, run.glyphs.count) }
  /// ```
  ///
  /// - Throws: what `shape(_:options:)` throws; `ShapingError` of kind `.internalFailure` when ICU
  ///   fails.
  public func shapeParagraph(
    _ text: String, options: ShapeOptions = ShapeOptions(), base: BaseDirection = .auto
  ) throws -> ShapeResult {
    let scalars = Array(text.unicodeScalars)
    let paragraph: ItemizedParagraph
    do {
      paragraph = try ItemizedParagraph(scalars, base: base)
    } catch let error as UnicodeAlgorithmError {
      throw ShapingError(.internalFailure, input: "the paragraph", reason: error.description)
    }
    // A paragraph of one run (one script, one level) is shaped from its own string.
    if paragraph.runs.count == 1, let run = paragraph.runs.first {
      var runOptions = options
      runOptions.paragraph = nil
      runOptions.direction = run.isRightToLeft ? .rightToLeft : .leftToRight
      runOptions.script = Script(harfBuzzString: run.script)
      var result = try shape(text, options: runOptions)
      let length =
        switch options.clusterUnit {
        case .unicodeScalars: scalars.count
        case .utf8: text.utf8.count
        case .utf16: text.utf16.count
        }
      for index in result.runs.indices {
        result.runs[index].level = run.level
        result.runs[index].range = 0..<length
      }
      result.baseLevel = paragraph.baseLevel
      return result
    }
    // Where each scalar starts, in the cluster unit and in the text's UTF-8.
    var offsets: [Int] = []
    var bytes: [Int] = []
    offsets.reserveCapacity(scalars.count + 1)
    bytes.reserveCapacity(scalars.count + 1)
    var offset = 0
    var byte = 0
    for scalar in scalars {
      offsets.append(offset)
      bytes.append(byte)
      switch options.clusterUnit {
      case .unicodeScalars: offset += 1
      case .utf8: offset += UTF8.width(scalar)
      case .utf16: offset += UTF16.width(scalar)
      }
      byte += UTF8.width(scalar)
    }
    offsets.append(offset)
    bytes.append(byte)
    let utf8 = Array(text.utf8)
    /// The text of scalars `range`, copied from the text's UTF-8.
    func string(_ range: Range<Int>) -> String {
      String(decoding: utf8[bytes[range.lowerBound]..<bytes[range.upperBound]], as: UTF8.self)
    }
    // HarfBuzz keeps this many characters of context on each side (HB_BUFFER_CONTEXT_LENGTH): a
    // run is given no more, so that its context costs the same wherever it is in the paragraph.
    let contextLength = 5

    var shaped: [ShapedRun] = []
    var trace: [TraceEvent]? = options.trace ? [] : nil
    shaped.reserveCapacity(paragraph.runs.count)
    for run in paragraph.runs {
      let start = offsets[run.range.lowerBound]
      var runOptions = options
      runOptions.paragraph = nil
      runOptions.direction = run.isRightToLeft ? .rightToLeft : .leftToRight
      runOptions.script = Script(harfBuzzString: run.script)
      let lower = run.range.lowerBound
      let upper = run.range.upperBound
      if lower > 0 {
        let before = string(max(0, lower - contextLength)..<lower)
        runOptions.textBefore = lower < contextLength ? options.textBefore + before : before
      }
      if upper < scalars.count {
        let after = string(upper..<min(scalars.count, upper + contextLength))
        runOptions.textAfter = upper + contextLength > scalars.count ? after + options.textAfter : after
      }
      runOptions.features = options.features.compactMap { $0.shifted(by: start) }
      let result = try shape(string(run.range), options: runOptions)
      guard var piece = result.runs.first else { continue }
      for index in piece.glyphs.indices { piece.glyphs[index].cluster += start }
      piece.level = run.level
      piece.range = start..<offsets[run.range.upperBound]
      shaped.append(piece)
      if let events = result.trace { trace? += events }
    }
    let visual = paragraph.visualOrder.map { shaped[$0] }
    var result = ShapeResult(text: text, clusterUnit: options.clusterUnit, runs: visual, trace: trace)
    result.baseLevel = paragraph.baseLevel
    return result
  }
}

extension Feature {
  /// The setting for a run that starts `start` clusters into the text: its range moved back by
  /// `start`; nil when it ends before the run.
  fileprivate func shifted(by start: Int) -> Feature? {
    guard start > 0, !(self.start == 0 && end == Feature.globalEnd) else { return self }
    let start = UInt32(clamping: start)
    guard end == Feature.globalEnd || end > start else { return nil }
    var moved = self
    moved.start = self.start > start ? self.start - start : 0
    if end != Feature.globalEnd { moved.end = end - start }
    return moved
  }
}
