/// UTF-8 output written piece by piece into the spare room of one array, for the text writers
/// (JSON, SVG): each piece costs one capacity check and a copy, where `Array.append(contentsOf:)`
/// takes a generic path for every call and its uniqueness and capacity checks for every byte.
///
/// The bytes are `storage[..<count]`; the rest of `storage` is room to write into, grown by
/// doubling.
///
/// (Public as the package's SPI `Writers`, not `package`: the compiler (Swift 6.3) does not inline
/// a `package` declaration into another module, `@inlinable` or not, and the SVG and request
/// writers, in other modules, called each cursor step, a byte or a literal, as a function —
/// drawing the English text's SVG took 352.6 M instructions, now 314.4 M, callgrind.)
@_spi(Writers) public struct ByteBuffer: Sendable {
  @usableFromInline var storage: [UInt8]
  @usableFromInline var written: Int
  /// `storage.count`, kept here: the check before each piece then reads no array header.
  @usableFromInline var room: Int

  /// How many bytes are written.
  package var count: Int { written }

  package init(capacity: Int = 256) {
    storage = ByteBuffer.makeStorage(max(capacity, 16), keeping: UnsafeBufferPointer(start: nil, count: 0))
    written = 0
    room = storage.count
  }

  /// An array of `capacity` bytes that starts with `kept`; the rest is left as it is, not zeroed
  /// (bytes past `written` are never read).
  private static func makeStorage(_ capacity: Int, keeping kept: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    // (Not made empty this way: see `Array(scalarsOf:)`.)
    guard capacity > 0 else { return [] }
    return [UInt8](unsafeUninitializedCapacity: capacity) { room, initialized in
      if let source = kept.baseAddress { room.baseAddress!.update(from: source, count: kept.count) }
      initialized = capacity
    }
  }

  /// A buffer that goes on from `bytes`, taking their storage (give it back with `finish()`).
  package init(continuing bytes: [UInt8]) {
    storage = bytes
    written = bytes.count
    room = bytes.count
  }

  /// The bytes written, without a copy.
  package consuming func finish() -> [UInt8] {
    storage.removeSubrange(written...)
    room = written
    return storage
  }

  /// Calls `body` with the bytes written.
  package func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
    try storage.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[..<written])) }
  }

  /// Forgets the bytes written and keeps the room, to write more.
  package mutating func removeAll() { written = 0 }

  /// Forgets the bytes written after the first `count`.
  package mutating func truncate(to count: Int) {
    precondition(count >= 0 && count <= written)
    written = count
  }

  /// A copy of the bytes written.
  package var bytes: [UInt8] { Array(storage[..<count]) }

  /// Makes room for `capacity` bytes in all.
  @usableFromInline
  package mutating func reserveCapacity(_ capacity: Int) {
    guard capacity > room else { return }
    let written = self.written
    storage = storage.withUnsafeBufferPointer { old in
      ByteBuffer.makeStorage(
        max(capacity, 2 * old.count), keeping: UnsafeBufferPointer(rebasing: old[..<written]))
    }
    room = storage.count
  }

  /// Writes at most `length` bytes at the end with `body`, which returns how many it wrote.
  @inlinable @inline(__always)
  public mutating func write(upTo length: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
    if written + length > room { reserveCapacity(written + length) }
    let start = written
    written += storage.withUnsafeMutableBufferPointer { body($0.baseAddress! + start) }
  }

  /// One byte.
  @inlinable @inline(__always)
  public mutating func append(_ byte: UInt8) {
    write(upTo: 1) { target in
      target.pointee = byte
      return 1
    }
  }

  /// Bytes copied as they are.
  @inlinable @inline(__always)
  public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress else { return }
    write(upTo: bytes.count) { target in
      target.update(from: source, count: bytes.count)
      return bytes.count
    }
  }

  /// An array's bytes, as they are.
  @inlinable
  public mutating func append(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { append($0) }
  }

  /// A literal's UTF-8, as it is (no string to unwrap).
  @inlinable @inline(__always)
  public mutating func append(literal: StaticString) {
    literal.withUTF8Buffer { append($0) }
  }

  /// A string's UTF-8, as it is.
  @inlinable
  public mutating func append(_ text: String) {
    var text = text
    text.withUTF8 { append($0) }
  }

  /// Another buffer's bytes.
  package mutating func append(_ other: ByteBuffer) {
    other.storage.withUnsafeBufferPointer { append(UnsafeBufferPointer(rebasing: $0[..<other.count])) }
  }

  /// Writes at most `length` bytes at the end through a cursor, with no check between pieces.
  @inlinable @inline(__always)
  public mutating func write(upTo length: Int, through body: (inout Cursor) -> Void) {
    write(upTo: length) { start in
      var cursor = Cursor(start)
      body(&cursor)
      return cursor.position - start
    }
  }

  /// An integer in decimal.
  @inlinable @inline(__always)
  public mutating func append(_ value: Int) {
    write(upTo: 20) { $0.number(value) }
  }

  /// An unsigned integer's decimal digits.
  @inlinable @inline(__always)
  public mutating func appendDigits(_ value: UInt) {
    write(upTo: 20) { $0.digits(value) }
  }

  /// Writes pieces one after another at a place with room for all of them (from `write(upTo:)`),
  /// with no check between them: for small records of known greatest length.
  public struct Cursor {
    /// Where the next byte goes.
    @inlinable public var position: UnsafeMutablePointer<UInt8> { next }
    /// (Stored apart from `position`, so that inlinable writers may move it: a setter that is
    /// private may not be.)
    @usableFromInline var next: UnsafeMutablePointer<UInt8>

    /// A cursor that writes from `position` on.
    @inlinable @inline(__always)
    public init(_ position: UnsafeMutablePointer<UInt8>) { self.next = position }

    /// One byte.
    @inlinable @inline(__always)
    public mutating func byte(_ byte: UInt8) {
      next.pointee = byte
      next += 1
    }

    /// A literal's UTF-8, as it is.
    @inlinable @inline(__always)
    public mutating func literal(_ literal: StaticString) {
      let count = literal.utf8CodeUnitCount
      next.update(from: literal.utf8Start, count: count)
      next += count
    }

    /// Bytes copied as they are.
    @inlinable @inline(__always)
    public mutating func bytes(_ bytes: UnsafeBufferPointer<UInt8>) {
      guard let source = bytes.baseAddress else { return }
      next.update(from: source, count: bytes.count)
      next += bytes.count
    }

    /// An integer in decimal: at most 20 bytes.
    @inlinable @inline(__always)
    public mutating func number(_ value: Int) {
      if value < 0 { byte(UInt8(ascii: "-")) }
      digits(UInt(value.magnitude))
    }

    /// An unsigned integer's decimal digits: at most 20 bytes.
    @inlinable @inline(__always)
    public mutating func digits(_ value: UInt) {
      // Most numbers written have a few digits: those lengths take a comparison or two.
      var length: Int
      if value < 100 {
        length = value < 10 ? 1 : 2
      } else if value < 10_000 {
        length = value < 1000 ? 3 : 4
      } else {
        length = 5
        var power: UInt = 100_000
        while length < 20, value >= power {
          length += 1
          power &*= 10
        }
      }
      // Written from the last digits back, two at a time from a table of the pairs 00 to 99
      // (division by the constant 100 is a multiplication): half the divisions and stores of a
      // digit at a time, which made this a fifth of drawing a long text's SVG.
      var rest = value
      var index = length
      let pairs = ByteBuffer.digitPairs.utf8Start
      while index >= 2 {
        let pair = Int(truncatingIfNeeded: rest % 100) &* 2
        rest /= 100
        index -= 2
        next[index] = pairs[pair]
        next[index + 1] = pairs[pair + 1]
      }
      if index == 1 { next[0] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest) }
      next += length
    }
  }

  /// `00`, `01`, … `99`, one after another.
  @usableFromInline static var digitPairs: StaticString {
    """
    00010203040506070809101112131415161718192021222324252627282930313233343536373839\
    40414243444546474849505152535455565758596061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899
    """
  }
}
