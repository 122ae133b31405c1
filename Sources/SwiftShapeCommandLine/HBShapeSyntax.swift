import SwiftShape

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How hb-shape 6.0.0 reads option values, for the drop-in `hb-shape` and for
/// `swiftshape conformance`: GLib's option parser (`G_OPTION_ARG_INT`, `G_OPTION_ARG_DOUBLE`) and
/// the callbacks in HarfBuzz's `util/` sources (`parse_features`, `parse_font_size`, …), value by
/// value. Under the name `swiftshape` the strict readers in the option types apply instead; the
/// README's table lists each difference.
package enum HBShapeSyntax {
  /// GLib's integer option: `strtol` in base 0 over the whole string (`0x10`, octal `010`, a sign,
  /// white space before), within the range of an `int`.
  package static func integer(_ text: String) -> Int32? {
    guard !text.isEmpty else { return nil }
    return text.withCString { start -> Int32? in
      var end: UnsafeMutablePointer<CChar>?
      errno = 0
      let value = strtol(start, &end, 0)
      guard errno == 0, let end, end.pointee == 0, let result = Int32(exactly: value) else { return nil }
      return result
    }
  }

  /// GLib's double option: `strtod` over the whole string (`inf`, `nan`, hex floats, white space
  /// before); out of range (overflow or underflow) is an error.
  package static func double(_ text: String) -> Double? {
    guard !text.isEmpty else { return nil }
    return text.withCString { start -> Double? in
      var end: UnsafeMutablePointer<CChar>?
      errno = 0
      let value = strtod(start, &end)
      guard errno == 0, let end, end.pointee == 0 else { return nil }
      return value
    }
  }

  /// Reads what C's `sscanf("%lf%*[ ,]%lf")` (or `%d` pairs) reads, each number with `read`
  /// (`strtod`, `strtol`): one or two numbers, the second after spaces or commas; nil when not even
  /// the first is there. Text after them is ignored.
  private static func scanPair<T>(
    _ text: String, _ read: (UnsafePointer<CChar>, inout UnsafeMutablePointer<CChar>?) -> T
  )
    -> (T, T?)?
  {
    text.withCString { start -> (T, T?)? in
      var end: UnsafeMutablePointer<CChar>?
      let first = read(start, &end)
      guard let stop = end, UnsafePointer(stop) != start else { return nil }
      var cursor = UnsafePointer(stop)
      var separators = 0
      while cursor.pointee == 0x20 || cursor.pointee == 0x2C {
        cursor += 1
        separators += 1
      }
      guard separators > 0 else { return (first, nil) }
      let second = read(cursor, &end)
      guard let end, UnsafePointer(end) != cursor else { return (first, nil) }
      return (first, second)
    }
  }

  /// `--font-size`: `upem`, or one or two numbers (x, y) read as `sscanf("%lf%*[ ,]%lf")`, each
  /// made a scale the way hb-shape does: 2147483647 means the units per em, anything else goes
  /// through a `float` and is truncated; what does not fit an `int` (or is not a number) becomes
  /// -2147483648, which is what the conversion gives on the machines HarfBuzz's tools run on.
  package static func fontSize(_ text: String) -> FontSize? {
    if text == "upem" { return .unitsPerEm }
    guard let (x, y) = scanPair(text, { strtod($0, &$1) }) else { return nil }
    func scale(_ value: Double) -> Int32 {
      if value == Double(Int32.max) { return FontSize.unitsPerEmScale }
      let single = Float(value)
      guard single.isFinite, single >= -2_147_483_648, single < 2_147_483_648 else { return Int32.min }
      return Int32(single.rounded(.towardZero))
    }
    return .scale(x: scale(x), y: scale(y ?? x))
  }

  /// `--font-bold`, `--font-grade`: one or two numbers read as `sscanf("%lf%*[ ,]%lf")`; one
  /// stands for both.
  package static func numberPair(_ text: String) -> (Double, Double)? {
    guard let (x, y) = scanPair(text, { strtod($0, &$1) }) else { return nil }
    return (x, y ?? x)
  }

  /// `--font-ppem`: one or two integers read as `sscanf("%d%*[ ,]%d")`, stored unsigned.
  package static func ppem(_ text: String) -> (UInt32, UInt32)? {
    guard let (x, y) = scanPair(text, { strtol($0, &$1, 10) }) else { return nil }
    func pixels(_ value: Int) -> UInt32 { UInt32(truncatingIfNeeded: value) }
    return (pixels(x), pixels(y ?? x))
  }

  /// `--features`: the list's quotes are stripped when it starts and ends with the same one (`"`
  /// or `'`); then items, separated by commas or spaces, that HarfBuzz cannot parse are skipped.
  package static func features(_ text: String) -> [Feature] {
    var list = Substring(text)
    if let first = list.first, first == list.last, first == "\"" || first == "'" {
      list = list.dropFirst()
      if !list.isEmpty { list = list.dropLast() }
    }
    return list.split(separator: ",", omittingEmptySubsequences: false).flatMap {
      $0.split(separator: " ", omittingEmptySubsequences: false)
    }.compactMap(Feature.init(harfBuzzString:))
  }

  /// `--variations`: items separated by commas or spaces; those HarfBuzz cannot parse are skipped
  /// (no quotes are stripped here: hb-shape strips them from features only).
  package static func variations(_ text: String) -> [Variation] {
    text.split(whereSeparator: { $0 == "," || $0 == " " }).compactMap(Variation.init(harfBuzzString:))
  }

  /// `--font-funcs`: before HarfBuzz 11.0.0, `ot` or `ft` in any case; from 11.0.0, the exact
  /// name of font functions HarfBuzz lists (`HBShapeRelease.fontFunctionsByExactName`).
  package static func fontFunctions(_ text: String, release: HBShapeRelease = .linked) -> Font.Functions? {
    guard release.fontFunctionsByExactName else { return Font.Functions(rawValue: text.lowercased()) }
    guard Font.Functions.listed.contains(text) else { return nil }
    return Font.Functions(rawValue: text)
  }

  /// `--shapers`: the list split at every comma; each piece, empty ones included, must name an
  /// available shaper. An empty string names no shaper, and shaping then fails, as in hb-shape.
  package static func shapers(_ text: String) throws -> [String] {
    guard !text.isEmpty else { return [] }
    let list = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    for shaper in list where !HarfBuzz.shapers.contains(shaper) {
      throw ShapingError(
        .invalidArgument, input: "--shapers '\(shaper)'",
        reason: "unknown or unavailable shaper (available: \(HarfBuzz.shapers.joined(separator: ", ")))")
    }
    return list
  }

  /// `--unicodes`: hex numbers between any of hb-shape's delimiters (`U+`, `<`, `,`, `;`, `\x`,
  /// `&#x`, white space, …), read by `strtoul` and cut to 32 bits; each is encoded as GLib encodes
  /// a character (`g_unichar_to_utf8`, which writes surrogates and numbers past U+10FFFF in the
  /// old five- and six-byte forms), and the bytes decoded as HarfBuzz decodes UTF-8 (each byte of
  /// a malformed sequence becomes U+FFFD). `*` is the text `*`.
  ///
  /// - Throws: `ShapingError` naming the rest of the list where a number should start.
  package static func unicodes(_ text: String, option: String) throws -> String {
    if text == "*" { return "*" }
    let delimiters = Set("<+-|>{},;&#\\xXuUnNiI\n\t\u{0B}\u{0C}\r ".utf8)
    var bytes: [UInt8] = []
    let source = Array(text.utf8CString)
    try source.withUnsafeBufferPointer { buffer in
      var index = 0
      while source[index] != 0 {
        while source[index] != 0, delimiters.contains(UInt8(bitPattern: source[index])) { index += 1 }
        if source[index] == 0 { break }
        let start = buffer.baseAddress! + index
        var end: UnsafeMutablePointer<CChar>?
        errno = 0
        let value = strtoul(start, &end, 16)
        guard errno == 0, let end, UnsafePointer(end) != start else {
          let rest = String(decoding: text.utf8.dropFirst(index), as: UTF8.self)
          throw ShapingError(
            .invalidArgument, input: "\(option) '\(rest)'", reason: "not a hexadecimal number")
        }
        appendGLibUTF8(UInt32(truncatingIfNeeded: value), to: &bytes)
        index = UnsafePointer(end) - buffer.baseAddress!
      }
    }
    return decodeAsHarfBuzz(bytes)
  }

  /// `g_unichar_to_utf8`: one to six bytes, whatever the number.
  private static func appendGLibUTF8(_ character: UInt32, to bytes: inout [UInt8]) {
    let (first, count): (UInt32, Int) =
      switch character {
      case ..<0x80: (0, 1)
      case ..<0x800: (0xC0, 2)
      case ..<0x10000: (0xE0, 3)
      case ..<0x20_0000: (0xF0, 4)
      case ..<0x400_0000: (0xF8, 5)
      default: (0xFC, 6)
      }
    var value = character
    var encoded = [UInt8](repeating: 0, count: count)
    for index in stride(from: count - 1, to: 0, by: -1) {
      encoded[index] = UInt8((value & 0x3F) | 0x80)
      value >>= 6
    }
    encoded[0] = UInt8(truncatingIfNeeded: value | first)
    bytes += encoded
  }

  /// UTF-8 decoded as `hb_buffer_add_utf8` decodes it: a malformed sequence gives U+FFFD for its
  /// first byte and decoding goes on at the next byte.
  package static func decodeAsHarfBuzz(_ bytes: [UInt8]) -> String {
    var scalars = String.UnicodeScalarView()
    var index = 0
    func continuation(_ offset: Int) -> UInt32? {
      guard index + offset < bytes.count else { return nil }
      let byte = bytes[index + offset]
      return byte & 0xC0 == 0x80 ? UInt32(byte & 0x3F) : nil
    }
    while index < bytes.count {
      let lead = UInt32(bytes[index])
      var scalar: UInt32? = nil
      var length = 1
      switch lead {
      case 0..<0x80: scalar = lead
      case 0xC2...0xDF:
        if let t1 = continuation(1) { (scalar, length) = ((lead & 0x1F) << 6 | t1, 2) }
      case 0xE0...0xEF:
        if let t1 = continuation(1), let t2 = continuation(2) {
          let value = (lead & 0x0F) << 12 | t1 << 6 | t2
          if value >= 0x800, !(0xD800...0xDFFF).contains(value) { (scalar, length) = (value, 3) }
        }
      case 0xF0...0xF4:
        if let t1 = continuation(1), let t2 = continuation(2), let t3 = continuation(3) {
          let value = (lead & 0x07) << 18 | t1 << 12 | t2 << 6 | t3
          if (0x10000...0x10FFFF).contains(value) { (scalar, length) = (value, 4) }
        }
      default: break
      }
      scalars.append(scalar.flatMap(Unicode.Scalar.init) ?? "\u{FFFD}")
      index += length
    }
    return String(scalars)
  }
}
