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

extension Array {
  /// `count` copies of `value`, allocated through `reserveCapacity`.
  @inline(__always)
  init(filledWith value: Element, count: Int) {
    self.init()
    reserveCapacity(count)
    append(contentsOf: repeatElement(value, count: count))
  }
}
