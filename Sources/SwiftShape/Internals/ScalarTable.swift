/// A test of characters answered from a table below U+0700 (the end of the Arabic block), where
/// Swift's character properties cost hundreds of instructions a call (callgrind), and by the test
/// above.
struct ScalarTable: Sendable {
  private let values: [Bool]

  init(_ test: (Unicode.Scalar) -> Bool) {
    values = (0..<0x700).map { Unicode.Scalar(UInt32($0)).map(test) ?? false }
  }

  /// The test's answer for `scalar` below U+0700; nil above.
  subscript(scalar: Unicode.Scalar) -> Bool? {
    scalar.value < 0x700 ? values[Int(scalar.value)] : nil
  }
}
