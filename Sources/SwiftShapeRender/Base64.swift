/// Base64 (RFC 4648, with padding).
public enum Base64 {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// The Base64 text of `bytes`, as ASCII bytes.
  public static func encode(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index + 2 < bytes.count {
      let value = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
      out += [
        alphabet[value >> 18], alphabet[value >> 12 & 63], alphabet[value >> 6 & 63], alphabet[value & 63],
      ]
      index += 3
    }
    let rest = bytes.count - index
    if rest == 1 {
      let value = Int(bytes[index]) << 16
      out += [alphabet[value >> 18], alphabet[value >> 12 & 63], 61, 61]
    } else if rest == 2 {
      let value = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8
      out += [alphabet[value >> 18], alphabet[value >> 12 & 63], alphabet[value >> 6 & 63], 61]
    }
    return out
  }
}
