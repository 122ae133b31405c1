import HarfBuzz

/// Fonts loaded once and reused: the file's face by path and face index, and the ready font by its
/// options too. For programs that shape many requests with few fonts (a batch, a test suite).
///
/// Safe to use from several threads.
public final class FontCache: Sendable {
  private struct FaceKey: Hashable {
    var path: String
    var faceIndex: Int
    var allowingMissingFace: Bool
  }

  private struct FontKey: Hashable {
    var face: FaceKey
    var options: ShapingFont.Options
  }

  private let faces = Protected<[FaceKey: Face]>([:])
  private let fonts = Protected<[FontKey: ShapingFont]>([:])
  private let limit: Int

  /// A cache that keeps at most `limit` fonts (and their faces); past that it starts afresh.
  public init(limit: Int = 256) { self.limit = limit }

  /// The font for a file, face index and options, loaded on first use.
  ///
  /// - Throws: `ShapingError` as `ShapingFont.init(file:faceIndex:options:)` does; a failure is not
  ///   cached, so a file that appears later is found.
  public func font(
    file path: String, faceIndex: Int = 0, options: ShapingFont.Options = .init(),
    allowingMissingFace: Bool = false
  ) throws -> ShapingFont {
    let faceKey = FaceKey(path: path, faceIndex: faceIndex, allowingMissingFace: allowingMissingFace)
    let key = FontKey(face: faceKey, options: options)
    if let font = fonts.withLock({ $0[key] }) { return font }
    let face: Face
    if let cached = faces.withLock({ $0[faceKey] }) {
      face = cached
    } else {
      face = try ShapingFont.loadFace(
        file: path, faceIndex: faceIndex, allowingMissingFace: allowingMissingFace)
      faces.withLock {
        if $0.count >= limit { $0.removeAll() }
        $0[faceKey] = face
      }
    }
    let font = try ShapingFont(face: face, file: path, options: options)
    fonts.withLock {
      if $0.count >= limit { $0.removeAll() }
      $0[key] = font
    }
    return font
  }
}
