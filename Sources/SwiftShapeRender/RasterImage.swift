import SwiftShape
import SwiftShapePNG

/// A picture of pixels, top row first: rows of RGBA, 8 bits a channel, not premultiplied; or, for a
/// picture with no color on an opaque background, one gray byte a pixel.
public struct RasterImage: Sendable, Equatable {
  /// Pixels across.
  public let width: Int
  /// Pixels down.
  public let height: Int
  /// 4 (RGBA) or 1 (gray, opaque).
  public let channels: Int
  /// `height` rows of `width` × `channels` bytes.
  public internal(set) var pixels: [UInt8]

  /// An image filled with `color` (transparent when nil).
  public init(width: Int, height: Int, color: RGBA? = nil) {
    self.width = width
    self.height = height
    channels = 4
    let fill = color ?? RGBA(red: 0, green: 0, blue: 0, alpha: 0)
    pixels = [UInt8](repeating: 0, count: width * height * 4)
    guard fill.alpha != 0 || fill.red != 0 || fill.green != 0 || fill.blue != 0 else { return }
    // One 32-bit store a pixel (a byte at a time took 5% of writing a paragraph as PNG).
    let word = [fill.red, fill.green, fill.blue, fill.alpha].withUnsafeBytes { $0.load(as: UInt32.self) }
    pixels.withUnsafeMutableBufferPointer { bytes in
      bytes.withMemoryRebound(to: UInt32.self) { $0.update(repeating: word) }
    }
  }

  /// A gray picture filled with `level` (0 black, 255 white): a quarter of the memory of RGBA, for
  /// pictures of text in gray on gray (a 20-line paragraph at 256 pixels an em is 52 million
  /// pixels).
  init(width: Int, height: Int, gray level: UInt8) {
    self.width = width
    self.height = height
    channels = 1
    pixels = [UInt8](repeating: level, count: width * height)
  }

  /// Whether a color is a gray (red, green and blue equal).
  static func isGray(_ color: RGBA) -> Bool { color.red == color.green && color.green == color.blue }

  /// A color with alpha.
  public struct RGBA: Sendable, Hashable {
    /// 0…255.
    public var red: UInt8
    /// 0…255.
    public var green: UInt8
    /// 0…255.
    public var blue: UInt8
    /// 0 (transparent) …255 (opaque).
    public var alpha: UInt8

    /// A color from its channels; opaque unless `alpha` says otherwise.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
      self.red = red
      self.green = green
      self.blue = blue
      self.alpha = alpha
    }

    /// `#rrggbb` or `#rrggbbaa` (the `#` optional).
    public init?(hex: String) {
      let digits = hex.hasPrefix("#") ? hex.dropFirst() : Substring(hex)
      guard digits.count == 6 || digits.count == 8, let value = UInt32(digits, radix: 16) else { return nil }
      let full = digits.count == 6 ? value << 8 | 0xFF : value
      self.init(
        red: UInt8(full >> 24), green: UInt8(full >> 16 & 0xFF), blue: UInt8(full >> 8 & 0xFF),
        alpha: UInt8(full & 0xFF))
    }
  }

  /// The pixel at a column and row.
  public func pixel(x: Int, y: Int) -> RGBA {
    if channels == 1 {
      let level = pixels[y * width + x]
      return RGBA(red: level, green: level, blue: level)
    }
    let index = (y * width + x) * 4
    return RGBA(
      red: pixels[index], green: pixels[index + 1], blue: pixels[index + 2], alpha: pixels[index + 3])
  }

  /// Paints `color` through a coverage mask whose top-left pixel lands at (`x`, `y`) (parts
  /// outside the image are cut off), source over destination.
  mutating func paint(_ mask: GlyphCoverage, x: Int, y: Int, color: RGBA) {
    let left = max(0, x + mask.left)
    let right = min(width, x + mask.left + mask.width)
    let top = max(0, y + mask.top)
    let bottom = min(height, y + mask.top + mask.rows)
    guard left < right, top < bottom else { return }
    let colorAlpha = Int(color.alpha)
    if channels == 1 {
      // Gray over an opaque gray: the level moves toward the color's by the coverage.
      let level = Int(color.red)
      let imageWidth = width
      pixels.withUnsafeMutableBufferPointer { out in
        mask.pixels.withUnsafeBufferPointer { coverage in
          for row in top..<bottom {
            let maskRow = (row - y - mask.top) * mask.width - (x + mask.left)
            for column in left..<right {
              let alpha = Int(coverage[maskRow + column]) * colorAlpha
              guard alpha > 0 else { continue }
              let index = row * imageWidth + column
              let old = Int(out[index])
              out[index] = UInt8(old + ((level - old) * alpha + (level >= old ? 32512 : -32512)) / 65025)
            }
          }
        }
      }
      return
    }
    pixels.withUnsafeMutableBufferPointer { out in
      mask.pixels.withUnsafeBufferPointer { coverage in
        for row in top..<bottom {
          let maskRow = (row - y - mask.top) * mask.width - (x + mask.left)
          for column in left..<right {
            let alpha = Int(coverage[maskRow + column]) * colorAlpha / 255
            guard alpha > 0 else { continue }
            let index = (row * width + column) * 4
            RasterImage.blend(
              into: out, at: index, red: Int(color.red), green: Int(color.green), blue: Int(color.blue),
              alpha: alpha)
          }
        }
      }
    }
  }

  /// Source over destination for one pixel, straight alpha.
  static func blend(
    into out: UnsafeMutableBufferPointer<UInt8>, at index: Int, red: Int, green: Int, blue: Int, alpha: Int
  ) {
    let destinationAlpha = Int(out[index + 3])
    if alpha == 255 || destinationAlpha == 0 {
      out[index] = UInt8(red)
      out[index + 1] = UInt8(green)
      out[index + 2] = UInt8(blue)
      out[index + 3] = UInt8(alpha)
      return
    }
    // Alphas in 0…255; the result's alpha is a + d(1 − a).
    let kept = destinationAlpha * (255 - alpha)
    let resultAlpha255 = alpha * 255 + kept  // × 255
    func channel(_ source: Int, _ destination: Int) -> UInt8 {
      UInt8((source * alpha * 255 + destination * kept + resultAlpha255 / 2) / resultAlpha255)
    }
    out[index] = channel(red, Int(out[index]))
    out[index + 1] = channel(green, Int(out[index + 1]))
    out[index + 2] = channel(blue, Int(out[index + 2]))
    out[index + 3] = UInt8((resultAlpha255 + 127) / 255)
  }

  /// The image encoded as PNG (libpng).
  ///
  /// - Throws: `ShapingError` of kind `.internalFailure` when libpng fails (out of memory).
  public func pngBytes() throws -> [UInt8] {
    var data: UnsafeMutablePointer<UInt8>?
    var size = 0
    var message = [CChar](repeating: 0, count: 256)
    let status = pixels.withUnsafeBufferPointer { rgba in
      swiftshape_png_encode(
        rgba.baseAddress, UInt32(width), UInt32(height), Int32(channels), width * channels, &data, &size,
        &message, message.count)
    }
    guard status == 0, let data else {
      let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw ShapingError(.internalFailure, input: "PNG", reason: reason.isEmpty ? "libpng failed" : reason)
    }
    defer { swiftshape_png_free(data) }
    return Array(UnsafeBufferPointer(start: data, count: size))
  }
}

extension RasterImage {
  /// Paints a color bitmap scaled to cover the rectangle from (`x`, `y`) of `width` × `height`
  /// pixels, source over destination: each pixel takes the mean (premultiplied) of the bitmap
  /// pixels under it, or the nearest one when enlarging.
  mutating func paint(_ bitmap: ColorBitmap, x: Double, y: Double, width: Double, height: Double) {
    guard channels == 4, width > 0, height > 0, bitmap.width > 0, bitmap.rows > 0 else { return }
    let left = max(0, Int(x.rounded(.down)))
    let top = max(0, Int(y.rounded(.down)))
    let right = min(self.width, Int((x + width).rounded(.up)))
    let bottom = min(self.height, Int((y + height).rounded(.up)))
    guard left < right, top < bottom else { return }
    let scaleX = Double(bitmap.width) / width
    let scaleY = Double(bitmap.rows) / height
    let imageWidth = self.width
    pixels.withUnsafeMutableBufferPointer { out in
      bitmap.pixels.withUnsafeBufferPointer { source in
        for row in top..<bottom {
          let sy0 = max(0, Int(((Double(row) - y) * scaleY).rounded(.down)))
          let sy1 = min(bitmap.rows, max(sy0 + 1, Int(((Double(row + 1) - y) * scaleY).rounded(.up))))
          guard sy0 < bitmap.rows else { continue }
          for column in left..<right {
            let sx0 = max(0, Int(((Double(column) - x) * scaleX).rounded(.down)))
            let sx1 = min(bitmap.width, max(sx0 + 1, Int(((Double(column + 1) - x) * scaleX).rounded(.up))))
            guard sx0 < bitmap.width else { continue }
            var sum = (0, 0, 0, 0)
            for sy in sy0..<sy1 {
              for sx in sx0..<sx1 {
                let index = (sy * bitmap.width + sx) * 4
                let alpha = Int(source[index + 3])
                sum.0 += Int(source[index]) * alpha
                sum.1 += Int(source[index + 1]) * alpha
                sum.2 += Int(source[index + 2]) * alpha
                sum.3 += alpha
              }
            }
            guard sum.3 > 0 else { continue }
            let count = (sy1 - sy0) * (sx1 - sx0)
            RasterImage.blend(
              into: out, at: (row * imageWidth + column) * 4, red: sum.0 / sum.3, green: sum.1 / sum.3,
              blue: sum.2 / sum.3, alpha: min(255, sum.3 / count))
          }
        }
      }
    }
  }
}
