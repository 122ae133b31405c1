// Speed: arrays made where a line or a run is laid out, without the standard library's
// unspecialized allocation.
//
// `Array(repeating:count:)` and `Array(unsafeUninitializedCapacity:initializingWith:)` allocate
// through `_allocateBufferUninitialized`, which the standard library does not let callers
// specialize: it finds the storage's type in the runtime's table of generic types at each call.
// Counted with callgrind, an array of 20 `Int32` made so cost 660 instructions against 470
// through `reserveCapacity` (specialized, its storage type found through an accessor), and in a
// program that has met more generic types, such as this one, the lookup alone about 450.
// For elements that are not plain bytes (`ShapedRun?`), copying a value into each slot goes
// through the type's copy function whichever way the array is made (about 500 instructions a
// slot): `CachedRunGroups` appends `nil`s, which need no copy.

// (In the Unicode layer, for itemizing, and given to the package's other modules, inlinable so
// that each specializes it.)
extension Array {
  /// `count` copies of `value`, allocated through `reserveCapacity`.
  @inlinable @inline(__always)
  package init(filledWith value: Element, count: Int) {
    self.init()
    reserveCapacity(count)
    append(contentsOf: repeatElement(value, count: count))
  }
}

extension Array where Element: BitwiseCopyable {
  /// The elements `body` writes at the start of room for `capacity` of them, as many as it
  /// returns: `init(unsafeUninitializedCapacity:initializingWith:)` without its unspecialized
  /// allocation, for elements that are plain bytes (`body` must write each element it counts; it
  /// is given memory that may hold anything, and may not throw).
  ///
  /// The memory is the array's own, reserved through `reserveCapacity` and taken into the array
  /// as it is by `append(contentsOf:)` of a sequence that writes nothing (`UnwrittenRoom`), then
  /// handed to `body`; what `body` does not write is removed before anything reads it. (Plain
  /// bytes hold no reference, so none of it is ever copied or destroyed as a value.)
  /// (Filled with a value first and then overwritten, as `init(filledWith:count:)` makes them,
  /// the glyphs of a paragraph's runs cost 2.3 M instructions a pass over the mixed text more,
  /// callgrind. Handed to a sequence that called `body` from its `_copyContents`, `body` had to be
  /// made escaping, and `withoutActuallyEscaping` allocated a box for it at each array: 380
  /// instructions more an array of 33 glyphs, callgrind.)
  @inlinable @inline(__always)
  package init(capacity: Int, writing body: (UnsafeMutableBufferPointer<Element>) -> Int) {
    self.init()
    // (No room: `body` is still called, for what else it does, with no memory.)
    guard capacity > 0 else {
      _ = body(UnsafeMutableBufferPointer(start: nil, count: 0))
      return
    }
    reserveCapacity(capacity)
    append(contentsOf: UnwrittenRoom<Element>(count: capacity))
    let written = withUnsafeMutableBufferPointer { body($0) }
    precondition(written >= 0 && written <= capacity)
    if written < capacity { removeLast(capacity - written) }
  }
}

/// Room for `count` elements that are plain bytes, taken into an array without writing them
/// (`Array.init(capacity:writing:)`, which writes them next).
@usableFromInline
package struct UnwrittenRoom<Element: BitwiseCopyable>: Sequence {
  @usableFromInline let count: Int

  @inlinable init(count: Int) { self.count = count }

  @inlinable package var underestimatedCount: Int { 0 }

  @inlinable package func makeIterator() -> EmptyCollection<Element>.Iterator {
    EmptyCollection().makeIterator()
  }

  @inlinable package func _copyContents(initializing buffer: UnsafeMutableBufferPointer<Element>) -> (
    EmptyCollection<Element>.Iterator, Int
  ) {
    precondition(buffer.count >= count)
    return (makeIterator(), count)
  }
}

extension Array {
  /// Empties the array and keeps its storage, without a call where it is empty already:
  /// `removeAll(keepingCapacity:)` goes through `replaceSubrange` whatever the count, about 60
  /// instructions (the shaping cache empties its batch's six arrays for each run of a paragraph,
  /// most of them empty: with its other arrays emptied so, 97.4 M → 95.1 M instructions a pass
  /// over the mixed text's paragraphs on HarfBuzz 15.0.0, callgrind).
  @inlinable @inline(__always)
  package mutating func removeAllKeepingCapacity() {
    if !isEmpty { removeAll(keepingCapacity: true) }
  }
}
