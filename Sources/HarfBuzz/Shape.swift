import CHarfBuzz

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Font {
  /// Shapes the text in `buffer`: replaces its code points with positioned glyphs.
  ///
  /// The buffer's direction, script and language must be set (or guessed) first.
  ///
  /// - Parameters:
  ///   - buffer: text in, glyphs out.
  ///   - features: feature settings over the defaults.
  ///   - shapers: the shapers to try, in order (`ot`, `fallback`); nil for HarfBuzz's default list.
  /// - Throws: `HarfBuzzError` with kind `.shapingFailed` when no listed shaper could shape.
  ///
  /// The corresponding C function is `hb_shape_full`.
  public func shape(_ buffer: Buffer, features: [Feature] = [], shapers: [String]? = nil) throws {
    let succeeded: Bool
    if features.isEmpty, shapers == nil {
      // The common call, without making the arrays below.
      succeeded = hb_shape_full(pointer, buffer.pointer, nil, 0, nil) != 0
    } else {
      let rawFeatures = features.map(\.raw)
      if let shapers {
        let strings = shapers.map { strdup($0) }
        defer { strings.forEach { free($0) } }
        var list: [UnsafePointer<CChar>?] = strings.map { UnsafePointer($0) } + [nil]
        succeeded = hb_shape_full(pointer, buffer.pointer, rawFeatures, UInt32(rawFeatures.count), &list) != 0
      } else {
        succeeded = hb_shape_full(pointer, buffer.pointer, rawFeatures, UInt32(rawFeatures.count), nil) != 0
      }
    }
    guard succeeded else {
      throw HarfBuzzError(
        .shapingFailed, input: (shapers ?? HarfBuzz.shapers).joined(separator: ","),
        reason: "no shaper could shape the text")
    }
  }
}

/// The shapers this HarfBuzz was built with, in the order it tries them (`ot`, `fallback`, …).
///
/// The corresponding C function is `hb_shape_list_shapers`.
public var shapers: [String] { cStrings(hb_shape_list_shapers()) }

/// The HarfBuzz version the program runs with, e.g. `6.0.0`.
///
/// The corresponding C function is `hb_version_string`.
public var version: String { String(cString: hb_version_string()) }
