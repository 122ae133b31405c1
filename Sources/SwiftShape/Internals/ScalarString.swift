extension String {
  /// The string of `scalars`, encoded into its UTF-8 storage directly.
  ///
  /// Speed: built through `String.UnicodeScalarView` a scalar at a time, the few characters of
  /// each piece and context a kashida line shapes again cost about 6,000 instructions a string
  /// (callgrind), a tenth of the Persian text's justified lines.
  init(utf8Of scalars: ArraySlice<Unicode.Scalar>) {
    self.init(unsafeUninitializedCapacity: scalars.count * 4) { buffer in
      var count = 0
      for scalar in scalars {
        let value = scalar.value
        switch value {
        case 0..<0x80:
          buffer[count] = UInt8(value)
          count += 1
        case 0x80..<0x800:
          buffer[count] = UInt8(0xC0 | value >> 6)
          buffer[count + 1] = UInt8(0x80 | value & 0x3F)
          count += 2
        case 0x800..<0x10000:
          buffer[count] = UInt8(0xE0 | value >> 12)
          buffer[count + 1] = UInt8(0x80 | value >> 6 & 0x3F)
          buffer[count + 2] = UInt8(0x80 | value & 0x3F)
          count += 3
        default:
          buffer[count] = UInt8(0xF0 | value >> 18)
          buffer[count + 1] = UInt8(0x80 | value >> 12 & 0x3F)
          buffer[count + 2] = UInt8(0x80 | value >> 6 & 0x3F)
          buffer[count + 3] = UInt8(0x80 | value & 0x3F)
          count += 4
        }
      }
      return count
    }
  }
}

extension [UInt8] {
  /// Appends the UTF-8 of `scalar` (as `String(utf8Of:)` writes it).
  mutating func appendUTF8(_ scalar: Unicode.Scalar) {
    let value = scalar.value
    switch value {
    case 0..<0x80:
      append(UInt8(value))
    case 0x80..<0x800:
      append(UInt8(0xC0 | value >> 6))
      append(UInt8(0x80 | value & 0x3F))
    case 0x800..<0x10000:
      append(UInt8(0xE0 | value >> 12))
      append(UInt8(0x80 | value >> 6 & 0x3F))
      append(UInt8(0x80 | value & 0x3F))
    default:
      append(UInt8(0xF0 | value >> 18))
      append(UInt8(0x80 | value >> 12 & 0x3F))
      append(UInt8(0x80 | value >> 6 & 0x3F))
      append(UInt8(0x80 | value & 0x3F))
    }
  }
}
