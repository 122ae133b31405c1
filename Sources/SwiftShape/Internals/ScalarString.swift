extension String {
  /// The string of `scalars`, encoded into its UTF-8 storage directly.
  ///
  /// Speed: built through `String.UnicodeScalarView` a scalar at a time, the few characters of
  /// each piece and context a kashida line shapes again cost about 6,000 instructions a string
  /// (callgrind), a tenth of the Persian text's justified lines.
  init(utf8Of scalars: ArraySlice<Unicode.Scalar>) {
    self.init(unsafeUninitializedCapacity: scalars.count * 4) { buffer in
      var count = 0
      for scalar in scalars { count = UTF8Scalar.encode(scalar, into: buffer, at: count) }
      return count
    }
  }
}

extension UTF8Scalar {
  /// Writes the UTF-8 of `scalar` into `buffer` at `index` (room for four bytes there); where
  /// it ends.
  static func encode(_ scalar: Unicode.Scalar, into buffer: UnsafeMutableBufferPointer<UInt8>, at index: Int)
    -> Int
  {
    let value = scalar.value
    switch value {
    case 0..<0x80:
      buffer[index] = UInt8(value)
      return index + 1
    case 0x80..<0x800:
      buffer[index] = UInt8(0xC0 | value >> 6)
      buffer[index + 1] = UInt8(0x80 | value & 0x3F)
      return index + 2
    case 0x800..<0x10000:
      buffer[index] = UInt8(0xE0 | value >> 12)
      buffer[index + 1] = UInt8(0x80 | value >> 6 & 0x3F)
      buffer[index + 2] = UInt8(0x80 | value & 0x3F)
      return index + 3
    default:
      buffer[index] = UInt8(0xF0 | value >> 18)
      buffer[index + 1] = UInt8(0x80 | value >> 12 & 0x3F)
      buffer[index + 2] = UInt8(0x80 | value >> 6 & 0x3F)
      buffer[index + 3] = UInt8(0x80 | value & 0x3F)
      return index + 4
    }
  }
}

extension [Unicode.Scalar] {
  /// The scalars of `text`, decoded from its UTF-8 directly.
  ///
  /// Speed: `Array(text.unicodeScalars)` counts the scalars, then copies them one at a time
  /// through the view's iterator: about 40 instructions a scalar, 6,000 for a paragraph of the
  /// Persian text (callgrind), where this takes about 8.
  init(scalarsOf text: String) {
    // (Not made when empty: through `init(unsafeUninitializedCapacity:)`, as it was, it then
    // wrote the count of the standard library's shared empty array, which ThreadSanitizer
    // reports as a race.)
    guard !text.isEmpty else {
      self = []
      return
    }
    var text = text
    self = text.withUTF8 { bytes in
      [Unicode.Scalar](capacity: bytes.count) { buffer in
        // (A String's UTF-8 is valid: each lead byte says how many follow.)
        var index = 0
        var written = 0
        while index < bytes.count {
          let lead = UInt32(bytes[index])
          let value: UInt32
          if lead < 0x80 {
            value = lead
            index += 1
          } else if lead < 0xE0 {
            value = (lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
            index += 2
          } else if lead < 0xF0 {
            value =
              (lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
            index += 3
          } else {
            value =
              (lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12 | UInt32(bytes[index + 2] & 0x3F)
              << 6
              | UInt32(bytes[index + 3] & 0x3F)
            index += 4
          }
          // (A valid scalar, from valid UTF-8: taken as it is, not checked again.)
          buffer[written] = unsafeBitCast(value, to: Unicode.Scalar.self)
          written += 1
        }
        return written
      }
    }
  }
}

/// UTF-8 decoding of one scalar.
enum UTF8Scalar {
  /// The scalar that starts at `index`, or nil when the bytes there are not one.
  ///
  /// (An ASCII byte read inline, the rest in a call: called for each, the cache's cuts spent 14
  /// instructions a call on a run of spaces' neighbours, callgrind.)
  @inline(__always)
  static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Unicode.Scalar? {
    let lead = bytes[index]
    if lead < 0x80 { return Unicode.Scalar(lead) }
    return decodeLong(bytes, at: index, lead: lead)
  }

  /// `decode(_:at:)` for a lead byte that is not ASCII. (Each length written out: a loop over
  /// the bytes that follow took 48 instructions a scalar of the mixed text's paragraphs,
  /// callgrind.)
  @inline(never)
  private static func decodeLong(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, lead: UInt8)
    -> Unicode.Scalar?
  {
    let lead = UInt32(lead)
    if lead >= 0xC0, lead < 0xE0, index + 2 <= bytes.count {
      return Unicode.Scalar((lead & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F))
    }
    if lead >= 0xE0, lead < 0xF0, index + 3 <= bytes.count {
      return Unicode.Scalar(
        (lead & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F))
    }
    if lead >= 0xF0, index + 4 <= bytes.count {
      return Unicode.Scalar(
        (lead & 0x07) << 18 | UInt32(bytes[index + 1] & 0x3F) << 12 | UInt32(bytes[index + 2] & 0x3F) << 6
          | UInt32(bytes[index + 3] & 0x3F))
    }
    return nil
  }

  /// Where the scalar whose bytes hold `index` starts.
  static func start(of index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var start = index
    while start > 0, index - start < 3, bytes[start] & 0xC0 == 0x80 { start -= 1 }
    return start
  }
}
