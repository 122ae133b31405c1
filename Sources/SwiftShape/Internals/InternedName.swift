import HarfBuzz

/// A glyph name kept once for the life of the process, as HarfBuzz keeps the languages it is
/// given: a glyph holds its name as a reference that is never counted, so a glyph is plain bytes,
/// which arrays copy, grow and shrink without a runtime call for each.
///
/// Names are told apart by their bytes (not by Unicode equivalence, as `String` compares): two
/// names are equal exactly when they are the same interned name. The process holds each distinct
/// name once, whatever the number of glyphs, results and fonts that use it.
struct InternedName: Hashable, @unchecked Sendable, BitwiseCopyable {
  // @unchecked: the storage is immutable and never freed.
  private let storage: Unmanaged<Storage>

  /// The name's text, and the same as a JSON string (quoted, escaped), which writers copy whole.
  private final class Storage: Sendable {
    let string: String
    let json: [UInt8]

    init(_ string: String) {
      self.string = string
      var json: [UInt8] = []
      JSONWriter.appendString(string, to: &json)
      self.json = json
    }
  }

  /// The names interned so far, by their bytes. Their storage is retained here, for good.
  private static let table = Protected<[Bytes: Unmanaged<Storage>]>([:])

  /// `string` interned: the existing name with its bytes, or a new one.
  init(_ string: String) {
    storage = Self.table.withLock { table in
      let key = Bytes(string)
      if let storage = table[key] { return storage }
      let storage = Unmanaged.passRetained(Storage(string))
      table[key] = storage
      return storage
    }
  }

  /// The name whose `bits` these are; nil for 0.
  init?(bits: UInt) {
    guard let pointer = UnsafeRawPointer(bitPattern: bits) else { return nil }
    storage = Unmanaged.fromOpaque(pointer)
  }

  /// The name as a number (never 0), for an atomic slot to hold.
  var bits: UInt { UInt(bitPattern: storage.toOpaque()) }

  var string: String { storage._withUnsafeGuaranteedRef { $0.string } }

  /// Calls `body` with the name's UTF-8.
  func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    storage._withUnsafeGuaranteedRef { storage in
      storage.string.utf8.withContiguousStorageIfAvailable(body)
        ?? Array(storage.string.utf8).withUnsafeBufferPointer(body)
    }
  }

  /// Calls `body` with the name as a JSON string.
  func withJSON<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    storage._withUnsafeGuaranteedRef { $0.json.withUnsafeBufferPointer(body) }
  }

  static func == (lhs: InternedName, rhs: InternedName) -> Bool {
    lhs.storage.toOpaque() == rhs.storage.toOpaque()
  }

  func hash(into hasher: inout Hasher) { hasher.combine(storage.toOpaque()) }

  /// A string as a key compared and hashed by its UTF-8 bytes.
  private struct Bytes: Hashable, Sendable {
    let string: String

    init(_ string: String) { self.string = string }

    static func == (lhs: Bytes, rhs: Bytes) -> Bool { lhs.string.utf8.elementsEqual(rhs.string.utf8) }

    func hash(into hasher: inout Hasher) {
      hasher.combine(string.utf8.count)
      for byte in string.utf8 { hasher.combine(byte) }
    }
  }
}
