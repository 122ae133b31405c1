import Foundation
import TestFixtures
import Testing

/// `swiftshape render` as PNG (FreeType's rasterizer, libpng), and shown in place on a terminal.
@Suite("swiftshape render: PNG and the terminal")
struct PNGRenderTests {
  /// Latin, Arabic with marks and Devanagari, drawn as PNG at 64 pixels an em, against
  /// `hb-view -O png` at the same size: each cropped to its ink, the same size within two pixels,
  /// and under 3% of the pixels differ.
  @Test(
    .enabled(
      if: Raster.available && Raster.hbView != nil,
      "python3-pil or the running engine's hb-view is not installed"),
    arguments: RenderCase.all.filter { ["latin", "arabic-marks", "devanagari"].contains($0.name) })
  func pngMatchesHBView(_ render: RenderCase) throws {
    let folder = try RenderTests.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let ours = folder.appendingPathComponent("ours.png").path
    let theirs = folder.appendingPathComponent("theirs.png").path
    let result = try swiftshape(["render"] + render.args + ["--em-pixels", "64", "-o", ours])
    try #require(result.status == 0, "\(result.err)")
    let hb = try run(Raster.hbView!, render.args + ["--font-size", "64", "-O", "png", "-o", theirs])
    try #require(hb.status == 0, "hb-view: \(hb.err)")
    let (w1, h1, w2, h2, difference) = try Raster.compare(ours, theirs)
    #expect(
      abs(w1 - w2) <= 2 && abs(h1 - h2) <= 2, "\(render.name): ink \(w1)×\(h1) against hb-view's \(w2)×\(h2)")
    #expect(difference < 0.03, "\(render.name): \(difference * 100)% of the pixels differ")
  }

  /// The PNG is one a second decoder reads (Python's imaging library): RGBA, the SVG's size, the
  /// background and foreground asked for.
  @Test(.enabled(if: Raster.available, "python3-pil is not installed"))
  func pngIsValidAndTheSVGsSize() throws {
    let args = ["render", "--font-file", "fonts/NotoSans-Latin.ttf", "--text", "Ta", "--em-pixels", "40"]
    let png = try swiftshape(args + ["-O", "png", "--background", "102030", "--foreground", "F0E0D0"])
    try #require(png.status == 0, "\(png.err)")
    #expect(png.stdout.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    let svg = try swiftshape(args)
    let size = try #require(svg.out.firstMatch(of: /width="([0-9.]+)" height="([0-9.]+)"/))
    let folder = try RenderTests.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("ta.png")
    try png.stdout.write(to: file)
    let read = try run(
      Raster.python,
      [
        "-c",
        """
        import sys
        from PIL import Image
        image = Image.open(sys.argv[1])
        image.load()
        colors = sorted(image.getcolors(1 << 20), reverse=True)
        print(image.mode, image.size[0], image.size[1], colors[0][1])
        """,
        file.path,
      ])
    let width = Int(Double(size.1)!.rounded(.up))
    let height = Int(Double(size.2)!.rounded(.up))
    // The most common color is the background; the glyphs' ink is in the foreground color.
    #expect(read.out == "RGBA \(width) \(height) (16, 32, 48, 255)\n", "\(read.err)")
  }

  /// Gray text on an opaque gray is drawn and written in gray (one byte a pixel); with a
  /// transparent background or a color, in RGBA; the gray picture is the RGBA one's gray.
  @Test(.enabled(if: Raster.available, "python3-pil is not installed"))
  func grayPicturesAreWrittenInGray() throws {
    let folder = try RenderTests.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let args = ["render", "--font-file", "fonts/NotoSans-Latin.ttf", "--text", "office", "--em-pixels", "40"]
    let gray = folder.appendingPathComponent("gray.png").path
    let clear = folder.appendingPathComponent("clear.png").path
    #expect(try swiftshape(args + ["-o", gray]).status == 0)
    #expect(try swiftshape(args + ["--background", "none", "-o", clear]).status == 0)
    let read = try run(
      Raster.python,
      [
        "-c",
        """
        import sys
        from PIL import Image, ImageChops
        gray, clear = Image.open(sys.argv[1]), Image.open(sys.argv[2])
        white = Image.new('RGBA', clear.size, (255, 255, 255, 255))
        white.alpha_composite(clear.convert('RGBA'))
        difference = ImageChops.difference(gray.convert('L'), white.convert('L')).getextrema()[1]
        print(gray.mode, clear.mode, difference)
        """,
        gray, clear,
      ])
    // At most a level apart, from rounding.
    let parts = read.out.split(separator: " ")
    #expect(parts.count == 3 && parts[0] == "L" && parts[1] == "LA", "\(read.out) \(read.err)")
    #expect((Int(parts.last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 99) <= 2)
  }

  /// Under a pseudo-terminal with no -o, the picture is shown in place: kitty's graphics protocol,
  /// iTerm2's inline image, or half blocks in 24-bit or 256 colors, as the environment says.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "no python3"))
  func terminalPreviewSpeaksEachProtocol() throws {
    let args = ["render", "--font-file", "fonts/NotoSans-Latin.ttf", "--text", "Ta", "--em-pixels", "24"]
    let kitty = try Self.underTerminal(args, ["TERM": "xterm-kitty"])
    #expect(kitty.hasPrefix("\u{1B}_Gf=100,a=T,m="))
    #expect(kitty.hasSuffix("\u{1B}\\\r\n"))
    let firstChunk = kitty.dropFirst("\u{1B}_Gf=100,a=T,m=0;".count).prefix(12)
    #expect(Data(base64Encoded: String(firstChunk))?.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
    let iterm = try Self.underTerminal(args, ["TERM_PROGRAM": "iTerm.app"])
    #expect(iterm.hasPrefix("\u{1B}]1337;File=inline=1;size="))
    #expect(iterm.contains(";preserveAspectRatio=1:iVBORw0KGgo") && iterm.hasSuffix("\u{07}\r\n"))
    let trueColor = try Self.underTerminal(args, ["COLORTERM": "truecolor", "COLUMNS": "30"])
    #expect(trueColor.hasPrefix("\u{1B}[38;2;255;255;255m\u{1B}[48;2;255;255;255m\u{2580}"))
    #expect(trueColor.contains("\u{2580}\u{1B}[0m\r\n"))
    let lines = trueColor.split(separator: "\r\n")
    #expect(lines.allSatisfy { $0.components(separatedBy: "\u{2580}").count - 1 <= 30 })
    let palette = try Self.underTerminal(args, ["COLUMNS": "30"])
    #expect(palette.hasPrefix("\u{1B}[38;5;231m\u{1B}[48;5;231m\u{2580}"))
    // Asked for by name, whatever the environment says; -O svg still prints the SVG.
    let forced = try Self.underTerminal(args + ["--terminal", "blocks"], ["TERM": "xterm-kitty"])
    #expect(forced.contains("\u{2580}") && !forced.contains("\u{1B}_G"))
    let svg = try Self.underTerminal(args + ["-O", "svg"], ["TERM": "xterm-kitty"])
    #expect(svg.hasPrefix("<?xml"))
  }

  /// `--jobs` shapes lines on several threads; the drawing is the same bytes.
  @Test func jobsDrawTheSamePicture() throws {
    let text = (1...300).map { "line \($0) office AVATAR" }.joined(separator: "\n")
    let args = ["render", "--font-file", "fonts/NotoSans-Latin.ttf", "--text-file", "-"]
    let one = try swiftshape(args, stdin: Data(text.utf8))
    let two = try swiftshape(args + ["--jobs", "2"], stdin: Data(text.utf8))
    #expect(one.status == 0 && one.stdout.count > 100_000)
    #expect(one.stdout == two.stdout)
    let bad = try swiftshape(args + ["--jobs", "0"], stdin: Data(text.utf8))
    #expect(bad.status == 64 && bad.err.contains("--jobs=0: must be from 1 to 256"))
  }

  /// A picture past `SVGRenderer.maximumPixels` is a one-line error naming its size, with no file
  /// written; the SVG of the same text is fine (it holds no pixels).
  @Test func tooLargeAPictureIsAnError() throws {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("huge-\(getpid()).png").path
    let args = [
      "render", "--font-file", "fonts/NotoSans-Latin.ttf", "--text", "office", "--em-pixels", "90000",
    ]
    let png = try swiftshape(args + ["-o", output])
    #expect(png.status == 64, "\(png.err)")
    #expect(png.err.contains("the picture:") && png.err.contains("pixels is more than 268435456"))
    #expect(png.err.split(separator: "\n").count == 1)
    #expect(!FileManager.default.fileExists(atPath: output))
    #expect(try swiftshape(args + ["-o", "/dev/null"]).status == 0)
  }

  @Test func badFormatAndTerminalNamesAreErrors() throws {
    let args = ["render", "--font-file", "fonts/NotoSans-Latin.ttf", "--text", "Ta"]
    let format = try swiftshape(args + ["-O", "gif"])
    #expect(format.status == 64 && format.err.contains("--output-format=gif: must be svg or png"))
    let terminal = try swiftshape(args + ["--terminal", "sixel"])
    #expect(
      terminal.status == 64
        && terminal.err.contains("--terminal=sixel: must be auto, kitty, iterm2 or blocks"))
    let annotated = try swiftshape(args + ["--annotate", "-O", "png"])
    #expect(annotated.status == 64 && annotated.err.contains("annotations are drawn in SVG only"))
  }

  /// Runs swiftshape with a pseudo-terminal as its standard output (Python's pty module) and the
  /// environment given on top of a plain one, and returns what it wrote.
  static func underTerminal(_ arguments: [String], _ environment: [String: String]) throws -> String {
    let script = """
      import os, pty, sys
      separator = sys.argv.index('--')
      environment = {'PATH': '/usr/bin:/bin', 'LC_ALL': 'C.UTF-8', 'TERM': 'xterm-256color'}
      environment.update(pair.split('=', 1) for pair in sys.argv[1:separator])
      pid, fd = pty.fork()
      if pid == 0:
          os.execve(sys.argv[separator + 1], sys.argv[separator + 1:], environment)
      out = b''
      while True:
          try:
              data = os.read(fd, 65536)
          except OSError:
              break
          if not data:
              break
          out += data
      os.waitpid(pid, 0)
      sys.stdout.buffer.write(out)
      """
    let pairs = environment.map { "\($0.key)=\($0.value)" }
    let result = try run(
      URL(fileURLWithPath: "/usr/bin/python3"),
      ["-c", script] + pairs + ["--", Repository.binary.path] + arguments)
    return result.out
  }
}
