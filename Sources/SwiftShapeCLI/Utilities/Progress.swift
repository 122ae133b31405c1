import SwiftShapeRequests

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A progress bar on standard error, shown only when standard error is a terminal.
final class Progress {
  private let total: Int
  private var shown = -1

  /// A bar for `total` bytes, or nil when standard error is not a terminal.
  init?(total: Int) {
    guard isatty(2) != 0, total > 0 else { return nil }
    self.total = total
  }

  func update(_ done: Int) {
    let percent = min(100, done * 100 / total)
    guard percent != shown else { return }
    shown = percent
    let filled = percent * 30 / 100
    IO.writeError(
      "\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: 30 - filled)
        + "] \(percent)%")
  }

  /// Clears the bar.
  func finish() {
    guard shown >= 0 else { return }
    IO.writeError("\r" + String(repeating: " ", count: 40) + "\r")
  }
}
