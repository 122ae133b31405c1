import HarfBuzz

/// SwiftShape's version.
public let swiftShapeVersion = "0.2.0"

/// The version of the HarfBuzz library SwiftShape runs with (`6.0.0`).
public var harfBuzzVersion: String { HarfBuzz.version }
