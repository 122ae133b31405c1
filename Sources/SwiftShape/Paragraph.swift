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
    // Where each scalar starts, in the cluster unit.
    var offsets: [Int] = []
    offsets.reserveCapacity(scalars.count + 1)
    var offset = 0
    for scalar in scalars {
      offsets.append(offset)
      switch options.clusterUnit {
      case .unicodeScalars: offset += 1
      case .utf8: offset += UTF8.width(scalar)
      case .utf16: offset += UTF16.width(scalar)
      }
    }
    offsets.append(offset)
    func string(_ range: Range<Int>) -> String {
      var view = String.UnicodeScalarView()
      view.append(contentsOf: scalars[range])
      return String(view)
    }

    var shaped: [ShapedRun] = []
    var trace: [TraceEvent]? = options.trace ? [] : nil
    shaped.reserveCapacity(paragraph.runs.count)
    for run in paragraph.runs {
      let start = offsets[run.range.lowerBound]
      var runOptions = options
      runOptions.paragraph = nil
      runOptions.direction = run.isRightToLeft ? .rightToLeft : .leftToRight
      runOptions.script = Script(harfBuzzString: run.script)
      if run.range.lowerBound > 0 {
        runOptions.textBefore = options.textBefore + string(0..<run.range.lowerBound)
      }
      if run.range.upperBound < scalars.count {
        runOptions.textAfter = string(run.range.upperBound..<scalars.count) + options.textAfter
      }
      runOptions.features = options.features.compactMap { $0.shifted(by: start) }
      // A paragraph of one run is shaped from its own string, not one made again from its scalars.
      let runText = run.range.count == scalars.count ? text : string(run.range)
      let result = try shape(runText, options: runOptions)
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
