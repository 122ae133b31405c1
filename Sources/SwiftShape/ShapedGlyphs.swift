/// A run's glyphs: a collection of `ShapedGlyph` indexed from 0, as an array of them is, whose
/// storage the runs of one result may share.
///
/// A paragraph's runs, a line's pieces and the runs of a span a word are stretches of the glyphs
/// the text was shaped into; each run holds its stretch of that one storage rather than a copy of
/// it. Changing a run's glyphs gives it storage of its own first, so runs never see each other's
/// changes: a `ShapedGlyphs` is a value, as an array is.
///
/// ```swift
/// let run = try font.shape("Hello").runs[0]
/// for glyph in run.glyphs { print(glyph.id, glyph.xAdvance) }
/// let ids = run.glyphs.map(\.id)
/// ```
public struct ShapedGlyphs: Sendable, Hashable, RandomAccessCollection, MutableCollection,
  RangeReplaceableCollection, ExpressibleByArrayLiteral, CustomStringConvertible
{
  // The glyphs are `storage[offset..<offset + count]`. A run that holds the whole of its storage
  // (offset 0, count the storage's) changes it in place, as an array does; one that holds a
  // stretch of it copies its stretch out first (`ownStorage`).
  // (The members read for each glyph are inlinable, as an array's are, so that other modules'
  // loops over a run's glyphs compile to reads of memory, not calls.)
  @usableFromInline var storage: [ShapedGlyph]
  @usableFromInline var offset: Int
  /// The number of glyphs.
  public private(set) var count: Int

  /// No glyphs.
  public init() {
    (storage, offset, count) = ([], 0, 0)
  }

  /// The glyphs of `array`, in its storage.
  public init(_ array: [ShapedGlyph]) {
    (storage, offset, count) = (array, 0, array.count)
  }

  /// The glyphs of a sequence.
  public init<S: Sequence>(_ elements: S) where S.Element == ShapedGlyph {
    self.init(Array(elements))
  }

  /// The glyphs listed.
  public init(arrayLiteral elements: ShapedGlyph...) {
    self.init(elements)
  }

  /// The glyphs of `glyphs` at `range` (its indices), sharing their storage: no glyph is copied.
  public init(_ glyphs: ShapedGlyphs, sharing range: Range<Int>) {
    precondition(range.lowerBound >= 0 && range.upperBound <= glyphs.count, "Range out of bounds")
    (storage, offset, count) = (glyphs.storage, glyphs.offset + range.lowerBound, range.count)
  }

  /// 0.
  @inlinable public var startIndex: Int { 0 }
  /// `count`.
  @inlinable public var endIndex: Int { count }

  /// The glyph at `position`, from 0.
  @inlinable public subscript(position: Int) -> ShapedGlyph {
    get {
      precondition(UInt(bitPattern: position) < UInt(bitPattern: count), "Index out of range")
      return storage[offset + position]
    }
    set {
      precondition(UInt(bitPattern: position) < UInt(bitPattern: count), "Index out of range")
      ownStorage()
      storage[position] = newValue
    }
  }

  /// The glyphs as an array of their own (the storage itself where the glyphs are all of it).
  public var array: [ShapedGlyph] {
    holdsWholeStorage ? storage : Array(storage[offset..<(offset + count)])
  }

  /// The glyphs as an array prints them.
  public var description: String { array.description }

  /// Calls `body` with the glyphs in contiguous memory.
  @inlinable
  public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<ShapedGlyph>) throws -> R) rethrows -> R
  {
    try storage.withUnsafeBufferPointer { all in
      try body(UnsafeBufferPointer(start: all.baseAddress.map { $0 + offset }, count: count))
    }
  }

  /// Calls `body` with the glyphs in contiguous memory (always available).
  @inlinable
  public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<ShapedGlyph>) throws -> R)
    rethrows -> R?
  {
    try withUnsafeBufferPointer(body)
  }

  /// Goes through the glyphs in order.
  public struct Iterator: IteratorProtocol {
    @usableFromInline let storage: [ShapedGlyph]
    @usableFromInline var index: Int
    @usableFromInline let end: Int

    @inlinable init(storage: [ShapedGlyph], index: Int, end: Int) {
      (self.storage, self.index, self.end) = (storage, index, end)
    }

    /// The next glyph, nil after the last.
    @inlinable public mutating func next() -> ShapedGlyph? {
      guard index < end else { return nil }
      defer { index += 1 }
      return storage[index]
    }
  }

  /// An iterator from the first glyph.
  @inlinable public func makeIterator() -> Iterator {
    Iterator(storage: storage, index: offset, end: offset + count)
  }

  /// `count`.
  @inlinable public var underestimatedCount: Int { count }

  /// Whether a glyph satisfies `predicate` (read in place: through the iterator, a paragraph's
  /// check for `.notdef` glyphs cost 2% of a paragraph through the cache, callgrind).
  @inlinable
  public func contains(where predicate: (ShapedGlyph) throws -> Bool) rethrows -> Bool {
    try withUnsafeBufferPointer { glyphs in
      for glyph in glyphs where try predicate(glyph) { return true }
      return false
    }
  }

  /// Calls `body` with the glyphs in contiguous memory it may change (not their number).
  public mutating func withUnsafeMutableBufferPointer<R>(
    _ body: (inout UnsafeMutableBufferPointer<ShapedGlyph>) throws -> R
  ) rethrows -> R {
    ownStorage()
    return try storage.withUnsafeMutableBufferPointer { try body(&$0) }
  }

  /// Calls `body` with the glyphs as an array it may change in any way.
  mutating func withArray<R>(_ body: (inout [ShapedGlyph]) throws -> R) rethrows -> R {
    ownStorage()
    defer { count = storage.count }
    return try body(&storage)
  }

  /// Replaces the glyphs at `subrange` with `newElements`.
  public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
  where C.Element == ShapedGlyph {
    precondition(subrange.lowerBound >= 0 && subrange.upperBound <= count, "Range out of bounds")
    withArray { $0.replaceSubrange(subrange, with: newElements) }
  }

  /// Makes room for `minimumCapacity` glyphs.
  public mutating func reserveCapacity(_ minimumCapacity: Int) {
    withArray { $0.reserveCapacity(minimumCapacity) }
  }

  /// Adds a glyph at the end.
  public mutating func append(_ glyph: ShapedGlyph) {
    withArray { $0.append(glyph) }
  }

  /// Adds glyphs at the end.
  public mutating func append<S: Sequence>(contentsOf glyphs: S) where S.Element == ShapedGlyph {
    withArray { $0.append(contentsOf: glyphs) }
  }

  /// Removes every glyph, keeping the storage where it is the glyphs' own and `keepCapacity`.
  public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
    guard keepCapacity, holdsWholeStorage else {
      self = ShapedGlyphs()
      return
    }
    storage.removeAll(keepingCapacity: true)
    count = 0
  }

  /// Whether the two hold equal glyphs in the same order.
  public static func == (lhs: ShapedGlyphs, rhs: ShapedGlyphs) -> Bool {
    guard lhs.count == rhs.count else { return false }
    return lhs.withUnsafeBufferPointer { a in rhs.withUnsafeBufferPointer { b in a.elementsEqual(b) } }
  }

  /// Hashes the glyphs.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    withUnsafeBufferPointer { for glyph in $0 { hasher.combine(glyph) } }
  }

  @usableFromInline var holdsWholeStorage: Bool { offset == 0 && count == storage.count }

  /// Makes the glyphs the whole of their storage, copying them out of a shared one.
  @usableFromInline mutating func ownStorage() {
    guard !holdsWholeStorage else { return }
    storage = Array(storage[offset..<(offset + count)])
    offset = 0
  }
}

extension ShapedGlyphs: Codable {
  /// Reads an array of glyphs.
  public init(from decoder: any Decoder) throws {
    self.init(try [ShapedGlyph](from: decoder))
  }

  /// Writes the glyphs as an array.
  public func encode(to encoder: any Encoder) throws {
    try array.encode(to: encoder)
  }
}
