import SwiftShapeRender

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Shows a picture in the terminal: as an image where the terminal says it takes one (the kitty
/// graphics protocol; iTerm2's inline images, which WezTerm reads too), else as Unicode upper half
/// blocks, each character cell two pixels, in 24-bit color (or the 256-color palette when
/// `COLORTERM` does not say truecolor), scaled down to the terminal's width.
enum TerminalPreview: String, CaseIterable {
  case kitty
  case iterm2
  case blocks

  /// What the environment says the terminal supports.
  static func detect(environment: (String) -> String? = TerminalPreview.environment) -> TerminalPreview {
    if environment("KITTY_WINDOW_ID") != nil || environment("TERM") == "xterm-kitty" { return .kitty }
    if environment("TERM_PROGRAM") == "iTerm.app" || environment("LC_TERMINAL") == "iTerm2"
      || environment("TERM_PROGRAM") == "WezTerm"
    {
      return .iterm2
    }
    return .blocks
  }

  static func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

  /// The escape sequences (and text) that show `image`, encoded as `png` for the image protocols.
  func bytes(for image: RasterImage, png: [UInt8], columns: Int, trueColor: Bool) -> [UInt8] {
    switch self {
    case .kitty:
      // Transmit and display (a=T) PNG data (f=100), in chunks of at most 4096 base64 bytes.
      let encoded = Base64.encode(png)
      var out: [UInt8] = []
      var start = 0
      repeat {
        let end = min(encoded.count, start + 4096)
        let more = end < encoded.count ? 1 : 0
        out += Array((start == 0 ? "\u{1B}_Gf=100,a=T,m=\(more);" : "\u{1B}_Gm=\(more);").utf8)
        out += encoded[start..<end]
        out += Array("\u{1B}\\".utf8)
        start = end
      } while start < encoded.count
      return out + [0x0A]
    case .iterm2:
      return Array("\u{1B}]1337;File=inline=1;size=\(png.count);preserveAspectRatio=1:".utf8)
        + Base64.encode(png)
        + [0x07, 0x0A]
    case .blocks:
      return halfBlocks(image, columns: columns, trueColor: trueColor)
    }
  }

  /// Two pixel rows a text line: the upper half block in the top pixel's color over the bottom
  /// pixel's as background; transparent pixels show white.
  private func halfBlocks(_ image: RasterImage, columns: Int, trueColor: Bool) -> [UInt8] {
    let scale = max(1, Double(image.width) / Double(max(1, columns)))
    let width = max(1, Int(Double(image.width) / scale))
    let height = max(1, Int(Double(image.height) / scale))
    // The mean of the source pixels under each cell, over white.
    func sample(_ column: Int, _ row: Int) -> (Int, Int, Int) {
      let x0 = Int(Double(column) * scale)
      let x1 = max(x0 + 1, min(image.width, Int(Double(column + 1) * scale)))
      let y0 = Int(Double(row) * scale)
      let y1 = max(y0 + 1, min(image.height, Int(Double(row + 1) * scale)))
      var sum = (0, 0, 0)
      for y in y0..<min(y1, image.height) {
        for x in x0..<min(x1, image.width) {
          let pixel = image.pixel(x: x, y: y)
          let alpha = Int(pixel.alpha)
          sum.0 += (Int(pixel.red) * alpha + 255 * (255 - alpha)) / 255
          sum.1 += (Int(pixel.green) * alpha + 255 * (255 - alpha)) / 255
          sum.2 += (Int(pixel.blue) * alpha + 255 * (255 - alpha)) / 255
        }
      }
      let count = max(1, (min(y1, image.height) - y0) * (min(x1, image.width) - x0))
      return (sum.0 / count, sum.1 / count, sum.2 / count)
    }
    func color(_ rgb: (Int, Int, Int), background: Bool) -> String {
      let layer = background ? 48 : 38
      if trueColor { return "\u{1B}[\(layer);2;\(rgb.0);\(rgb.1);\(rgb.2)m" }
      // The 6×6×6 cube of the 256-color palette.
      func level(_ value: Int) -> Int { (value * 5 + 127) / 255 }
      return "\u{1B}[\(layer);5;\(16 + 36 * level(rgb.0) + 6 * level(rgb.1) + level(rgb.2))m"
    }
    var out = ""
    for row in stride(from: 0, to: height, by: 2) {
      for column in 0..<width {
        let top = sample(column, row)
        let bottom = row + 1 < height ? sample(column, row + 1) : (255, 255, 255)
        out += color(top, background: false) + color(bottom, background: true) + "\u{2580}"
      }
      out += "\u{1B}[0m\n"
    }
    return Array(out.utf8)
  }

  /// The terminal's width in columns: the window's, else `COLUMNS`, else 80.
  static func columns() -> Int {
    var size = winsize()
    // A pointer, which is a C variadic argument on every platform.
    let status = withUnsafeMutablePointer(to: &size) { ioctl(1, UInt(TIOCGWINSZ), $0) }
    if status == 0, size.ws_col > 0 { return Int(size.ws_col) }
    return environment("COLUMNS").flatMap { Int($0) }.map { max(1, $0) } ?? 80
  }
}
