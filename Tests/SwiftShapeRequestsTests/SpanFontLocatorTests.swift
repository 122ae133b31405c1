import SwiftShape
import TestFixtures
import Testing

@testable import SwiftShapeRequests

/// The locators spans' font patterns are resolved with (`TextSpan.fontLocator`,
/// `TextSpan.fallbackLocator`), read for each style of each paragraph.
@Suite("Span font locators")
struct SpanFontLocatorTests {
  /// Reading a locator leaves it as it was: a call after many reads goes as deep into the stack as
  /// a call before them. (Kept in a generic container and read through its `inout`, each read
  /// wrapped the stored closure in two more conversion thunks: every later call two frames
  /// deeper, paragraphs with `<b>` words in time quadratic in their number.)
  @Test func readingALocatorLeavesItAsItWas() throws {
    ShapingRequest.installSpanFontLocator()
    let font = try #require(TextSpan.fontLocator)
    let fallback = try #require(TextSpan.fallbackLocator)
    let probe = "swiftshape-locator-depth-probe"
    // Probes that answer the probe pattern with where their frame is, and pass every other call
    // on to the installed locators (other suites may shape with patterns meanwhile).
    TextSpan.fontLocator = { pattern in
      guard pattern == probe else { return try font(pattern) }
      return (String(Self.stackAddress()), 0)
    }
    TextSpan.fallbackLocator = { pattern, language, primary in
      guard pattern == probe else { return try fallback(pattern, language, primary) }
      throw ShapingError(.invalidArgument, input: String(Self.stackAddress()), reason: "probe")
    }
    defer {
      TextSpan.fontLocator = font
      TextSpan.fallbackLocator = fallback
    }
    let primary = try ShapingFont(file: Paths.latin)
    /// How far below this frame the probes run.
    func depths() throws -> (font: Int, fallback: Int) {
      let here = Self.stackAddress()
      let locateFont = try #require(TextSpan.fontLocator)
      let locateFallback = try #require(TextSpan.fallbackLocator)
      let inFont = Int(try locateFont(probe).file) ?? 0
      var inFallback = 0
      do {
        _ = try locateFallback(probe, nil, primary)
      } catch let error as ShapingError {
        inFallback = Int(error.input) ?? 0
      }
      return (here - inFont, here - inFallback)
    }
    let before = try depths()
    for _ in 0..<2_000 {
      _ = TextSpan.fontLocator
      _ = TextSpan.fallbackLocator
    }
    let after = try depths()
    #expect(before.font > 0 && before.fallback > 0)
    // Two thousand reads made each call at least 4,000 frames deeper before.
    #expect(after.font - before.font < 256)
    #expect(after.fallback - before.fallback < 256)
  }

  /// The address of a local variable of the caller's frame.
  @inline(never)
  static func stackAddress() -> Int {
    var local = 0
    return withUnsafeMutablePointer(to: &local) { Int(bitPattern: $0) }
  }
}
