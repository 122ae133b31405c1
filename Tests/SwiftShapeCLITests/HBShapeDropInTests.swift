import Foundation
import HarfBuzz
import SwiftShapeCommandLine
import Testing

/// Run through a link named `hb-shape`, SwiftShape reads every option value as the hb-shape of the
/// engine it runs with reads it and prints the same bytes; under its own name it refuses what it
/// refuses.
@Suite("hb-shape drop-in", .enabled(if: HarfBuzzTools.hbShape != nil, HarfBuzzTools.absence("hb-shape")))
struct HBShapeDropInTests {
  /// A folder holding a link named `hb-shape` to the built binary.
  static let dropIn: URL = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swiftshape-drop-in-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let link = folder.appendingPathComponent("hb-shape")
    try? FileManager.default.removeItem(at: link)
    try? FileManager.default.createSymbolicLink(at: link, withDestinationURL: Repository.binary)
    return link
  }()

  /// Values hb-shape takes and `swiftshape` refuses, each with the drop-in's output equal to
  /// hb-shape's: quoted feature lists and items HarfBuzz cannot parse (skipped), sizes of 0, below
  /// 0, with trailing text, 2147483647 (the units per em) and past an int, ppem and point sizes
  /// below 0, font functions in capitals, C's integer syntax, directions, scripts and languages
  /// HarfBuzz reads as "guess" or as a tag of its own, undefined cluster levels, glyph IDs that
  /// wrap, no iterations, a face past the last, and code points that are not characters.
  static let accepted: [[String]] = [
    ["--features=\"-liga,kern\"", "--text=office"],
    ["--features='-liga'", "--text=office"],
    ["--features=\"-liga", "--text=office"],
    ["--features=xx,-liga,\"yy", "--text=office"],
    ["--features=liga off", "--text=office"],
    ["--features=kern=2x,-liga", "--text=office"],
    ["--features=\"", "--text=office"],
    ["--font-size=0", "--text=office"],
    ["--font-size=-3", "--text=office"],
    ["--font-size=12abc", "--text=office"],
    ["--font-size=2147483647", "--text=office"],
    ["--font-size=1e20", "--text=office"],
    ["--font-size=nan", "--text=office"],
    ["--font-size=5 nan", "--text=office"],
    ["--font-size=1,2,3", "--text=office"],
    ["--font-size=0x10", "--text=office"],
    ["--font-size=16777217", "--text=office"],
    ["--font-ppem=-1", "--text=office"],
    ["--font-ppem=12x", "--text=office"],
    ["--font-ptem=-3", "--text=office"],
    ["--font-ptem=inf", "--text=office"],
    ["--font-ptem= 3", "--text=office"],
    ["--font-slant=100", "--text=office"],
    ["--font-funcs=OT", "--text=office"],
    ["--font-funcs=Ft", "--text=office"],
    ["--ft-load-flags=0x2", "--font-funcs=ft", "--text=office"],
    ["--face-index=5", "--text=office"],
    ["--face-index=0x0", "--text=office"],
    ["--direction=xyz", "--text=office"],
    ["--direction=", "--text=office"],
    ["--script=xyz", "--text=office"],
    ["--script=latin", "--text=office"],
    ["--script=", "--text=office"],
    ["--language=", "--text=office"],
    ["--language=a b", "--text=office"],
    ["--cluster-level=3", "--text=office"],
    ["--cluster-level=-1", "--show-flags", "--text=ffi"],
    ["--invisible-glyph=-1", "--preserve-default-ignorables", "-u", "61,200B"],
    ["--not-found-glyph=0x10", "-u", "61,E000"],
    ["--invisible-glyph= 5", "--text=office"],
    ["-n", "0", "--show-text", "--show-line-num", "--text=a\nb"],
    ["-n", "010", "--text=office"],
    ["-u", "D800"],
    ["-u", "110000"],
    ["-u", "FFFFFFFF"],
    ["-u", "100000041"],
    ["-u", "*"],
    ["-u", "41,a,42"],
    ["--unicodes-before=D800", "--text=office"],
    ["--variations=wght=700,zzz", "--text=office"],
  ]

  /// `--version` through the drop-in prints hb-shape's two lines, the same bytes.
  @Test func versionIsHBShapes() throws {
    let ours = try run(Self.dropIn, ["--version"])
    let theirs = try run(HarfBuzzTools.hbShape!, ["--version"])
    #expect(ours.status == 0 && ours.stdout == theirs.stdout, "\(ours.out)")
  }

  @Test(arguments: accepted)
  func acceptsWhatHBShapeAccepts(_ arguments: [String]) throws {
    let full = ["fonts/NotoSans-Latin.ttf"] + arguments
    let theirs = try run(HarfBuzzTools.hbShape!, full)
    let ours = try run(Self.dropIn, full)
    if theirs.status == 0 {
      #expect(ours.status == 0, "\(ours.err)")
      #expect(ours.out == theirs.out)
      #expect(ours.err.isEmpty)
    } else {
      // Newer releases refuse some of these (from 10.1.0 a face past the last; from 11.0.0
      // --font-funcs in another case): the drop-in follows the engine's hb-shape.
      #expect(HarfBuzzTools.engine != "6.0.0", "hb-shape 6.0.0 takes \(arguments): \(theirs.err)")
      #expect(ours.status == 64 || ours.status == 65, "\(ours.err)")
      #expect(ours.stdout.isEmpty && ours.err.split(separator: "\n").count == 1, "\(ours.err)")
    }
  }

  @Test func variationsAndJSONAsHBShape() throws {
    for arguments in [
      ["fonts/InterVariable-Subset.ttf", "--variations=\"wght=700\"", "--text=office"],
      ["fonts/InterVariable-Subset.ttf", "--variations=wght=700,zz,wdth=3", "-O", "json", "--text=office"],
      ["fonts/NotoSansArabic-Subset.ttf", "--cluster-level=5", "--show-flags", "-u", "633,64E,628,632"],
      // Code points of one to six hex digits, in both syntaxes, the trace's included.
      ["fonts/NotoSans-Latin.ttf", "--show-unicode", "-u", "1,61,A0,1F600,10348,10FFFD"],
      ["fonts/NotoSans-Latin.ttf", "--show-unicode", "-O", "json", "-u", "1,61,1F600,10FFFD"],
      ["fonts/NotoSans-Latin.ttf", "-V", "-u", "61,1F600,62"],
    ] {
      let theirs = try run(HarfBuzzTools.hbShape!, arguments)
      let ours = try run(Self.dropIn, arguments)
      #expect(theirs.status == 0 && ours.status == 0)
      #expect(ours.out == theirs.out, "\(arguments)")
    }
  }

  /// hb-shape 6.0.0 dies with a segmentation fault on `--face-index=-1` (face 4294967295); the
  /// drop-in does with it what the engine's hb-shape does with any face past the last: shapes with
  /// the empty face (up to HarfBuzz 10.0), or refuses the font (from 10.1.0).
  @Test func aNegativeFaceIndexIsAFacePastTheLast() throws {
    let ours = try run(Self.dropIn, ["fonts/NotoSans-Latin.ttf", "--face-index=-1", "--text=ab"])
    let pastTheLast = try run(
      HarfBuzzTools.hbShape!, ["fonts/NotoSans-Latin.ttf", "--face-index=9", "--text=ab"])
    if pastTheLast.status == 0 {
      #expect(ours.status == 0 && ours.out == pastTheLast.out)
    } else {
      #expect(ours.status == 65 && ours.stdout.isEmpty, "\(ours.err)")
    }
  }

  /// Absolute positions (`--ned`, `--no-advances`) of a line longer than hb-shape's buffer of
  /// 32,768 bytes: before HarfBuzz 13.0.0 they start again from 0 in each buffer, from 13.0.0 they
  /// go on; the same bytes as the engine's hb-shape.
  @Test(arguments: [
    ["--ned"], ["--no-advances"], ["--ned", "--output-format=json"],
    ["--no-advances", "--show-flags", "--no-glyph-names", "--output-format=json"],
  ])
  func absolutePositionsOfALongLineAsHBShape(_ options: [String]) throws {
    let full =
      ["fonts/NotoSans-Latin.ttf", "--text=" + String(repeating: "office affine waffles ", count: 300)]
      + options
    let theirs = try run(HarfBuzzTools.hbShape!, full)
    let ours = try run(Self.dropIn, full)
    #expect(theirs.status == 0 && ours.status == 0, "\(ours.err)")
    // Past one buffer: the case where the positions may start again.
    #expect(theirs.out.utf8.count > 32_768)
    #expect(ours.out == theirs.out, "\(options)")
  }

  /// `--glyphs` (hb-shape from HarfBuzz 7.0.0): glyph strings read onto the font, not shaped —
  /// advances from the font where none are written, written positions scaled to the size, reading
  /// stopped at an unknown glyph; the same bytes as the engine's hb-shape, which before 7.0.0 has
  /// no such option (nor has the drop-in).
  @Test(arguments: [
    ["[o=0+605|f_f_i=1+946]"], ["o|f_f_i|c"], ["o|f_f_i|c", "--font-size=2048"],
    ["[o=0@10,20+605|gid5=1]", "--font-size=2000", "-O", "json"], ["[o=0+605|xyz=1+946]"], ["garbage[["],
    ["o|f", "--direction=ttb"], ["o|f", "--direction=rtl", "--show-flags"],
    ["[o=0+605|f=1+344]", "--show-text"],
    ["[a=3+5,7|b=1@-3,4+9]", "--font-size=1000 500", "-O", "json", "--ned"],
  ])
  func glyphInputAsHBShape(_ arguments: [String]) throws {
    let full = ["fonts/NotoSans-Latin.ttf", "--glyphs"] + arguments
    let theirs = try run(HarfBuzzTools.hbShape!, full)
    let ours = try run(Self.dropIn, full)
    guard HBShapeRelease.linked.hasGlyphInput else {
      #expect(theirs.status != 0 && ours.status == 64, "\(ours.err)")
      return
    }
    #expect(theirs.status == 0 && ours.status == 0, "\(ours.err)")
    #expect(ours.out == theirs.out, "\(arguments)")
  }

  /// The lists of shapers, font functions and face loaders, as the engine's hb-shape prints them
  /// (font functions and face loaders from HarfBuzz 11.0.0; before, both refuse the options).
  @Test(arguments: ["--list-shapers", "--list-font-funcs", "--list-face-loaders"])
  func listsAsHBShape(_ option: String) throws {
    let theirs = try run(HarfBuzzTools.hbShape!, [option])
    let ours = try run(Self.dropIn, [option])
    if theirs.status == 0 {
      #expect(ours.status == 0 && ours.out == theirs.out, "\(ours.err)")
    } else {
      #expect(ours.status == 64 && ours.stdout.isEmpty, "\(ours.out)")
    }
  }

  /// From HarfBuzz 11.0.0, hb-shape without `--font-funcs` uses the library's default font
  /// functions, which the environment's HB_FONT_FUNCS chooses (an unknown name: the first); so does
  /// the drop-in. A variable font at a size, where FreeType's and HarfBuzz's advances differ.
  @Test(arguments: ["ft", "ot", "nonesuch"])
  func fontFunctionsFromTheEnvironmentAsHBShape(_ name: String) throws {
    let arguments = [
      "fonts/InterVariable-Subset.ttf", "--font-size=13", "--variations=wght=650", "--text=office",
    ]
    let theirs = try run(HarfBuzzTools.hbShape!, arguments, environment: ["HB_FONT_FUNCS": name])
    let ours = try run(Self.dropIn, arguments, environment: ["HB_FONT_FUNCS": name])
    #expect(theirs.status == 0 && ours.status == 0, "\(ours.err)")
    #expect(ours.out == theirs.out, "HB_FONT_FUNCS=\(name)")
  }

  /// What hb-shape refuses, the drop-in refuses too (with its own message and status 64).
  @Test(arguments: [
    ["--font-size=abc"], ["--font-ptem=3x"], ["--font-ptem=1e999"], ["--invisible-glyph=5 "],
    ["--shapers=ot,"], ["-u", "41zz"], ["-u", "10000000000000000041"], ["--font-funcs=xx"],
  ])
  func refusesWhatHBShapeRefuses(_ arguments: [String]) throws {
    let full =
      ["fonts/NotoSans-Latin.ttf", "--text=ab"].filter { _ in !arguments.contains("-u") } + arguments
    let theirs = try run(HarfBuzzTools.hbShape!, full)
    let ours = try run(Self.dropIn, full)
    #expect(theirs.status != 0)
    #expect(ours.status == 64 && ours.stdout.isEmpty, "\(ours.out)")
    #expect(ours.err.split(separator: "\n").count == 1, "\(ours.err)")
  }

  /// Under its own name SwiftShape keeps refusing these values: each is a one-line error naming
  /// the option, status 64.
  @Test(arguments: [
    "--features=\"-liga,kern\"", "--font-size=0", "--font-size=-3", "--font-size=2147483647",
    "--font-ptem=-3",
    "--font-funcs=OT", "--direction=xyz", "--script=latin",
    EngineFeature.clusterLevelGraphemes.isAvailable ? "--cluster-level=4" : "--cluster-level=3",
    "--invisible-glyph=-1",
  ])
  func swiftshapeStaysStrict(_ option: String) throws {
    let ours = try swiftshape(["-O", "text", "fonts/NotoSans-Latin.ttf", option, "--text=ab"])
    #expect(ours.status == 64 && ours.stdout.isEmpty)
    let name = String(option.prefix { $0 != "=" })
    #expect(ours.err.hasPrefix("swiftshape: error: ") && ours.err.contains(name), "\(ours.err)")
  }

  /// The font size rule, the same on the command line, in requests and in fixtures.
  @Test func oneFontSizeRuleEverywhere() throws {
    let rule = "not a font size ('upem', or one or two numbers (x, y) from 1 to 2147483520)"
    for size in ["0", "-5", "2147483647"] {
      let command = try swiftshape(["fonts/NotoSans-Latin.ttf", "--font-size=\(size)", "--text=a"])
      #expect(command.status == 64 && command.err.contains(rule), "\(command.err)")
      let request = try swiftshape(
        ["--requests", "-"], stdin: Data("{\"id\": 1, \"text\": \"a\", \"font_size\": \(size)}\n".utf8))
      #expect(
        request.out.contains(rule) && request.out.contains("\"input\":\"font_size \(size)\""),
        "\(request.out)")
    }
    let points = try swiftshape(["fonts/NotoSans-Latin.ttf", "--size=-12", "--text=a"])
    #expect(points.status == 64 && points.err.contains("not a point size"), "\(points.err)")
    let fine = try swiftshape([
      "-O", "text", "fonts/NotoSans-Latin.ttf", "--font-size=12.7 2147483520", "--text=a",
    ])
    #expect(fine.status == 0, "\(fine.err)")
  }

  /// A batch request cannot ask for more shapings than `--max-iterations` (1000 by default): it is
  /// answered at once with an error, and the batch goes on.
  @Test func aBatchRequestsWorkIsBounded() throws {
    let requests = [
      "fonts/NotoSans-Latin.ttf;--text=a;--num-iterations=999999999",
      "fonts/NotoSans-Latin.ttf;--text=b;--max-iterations=2000000000;-n;5000",
      "fonts/NotoSans-Latin.ttf;--text=c;-n;3",
    ]
    let started = Date()
    let result = try swiftshape(["--batch"], stdin: Data((requests.joined(separator: "\n") + "\n").utf8))
    #expect(Date().timeIntervalSince(started) < 60)
    let lines = result.out.split(separator: "\n")
    #expect(lines.count == 3, "\(result.out)")
    #expect(lines[0].hasPrefix("error: --num-iterations=999999999: more than a request may ask for (1000"))
    #expect(lines[1].hasPrefix("error: --num-iterations=5000"))
    #expect(lines[2] == "[c=0+480]")
    // As hb-shape, -1 is 4294967295 iterations; the limit can be lowered.
    let lowered = try run(
      Self.dropIn, ["--batch", "--max-iterations=10"],
      stdin: Data("fonts/NotoSans-Latin.ttf;--text=a;-n;-1\nfonts/NotoSans-Latin.ttf;--text=b;-n;10\n".utf8))
    #expect(lowered.out.hasPrefix("error: --num-iterations=4294967295: more than a request may ask for (10"))
    #expect(lowered.out.hasSuffix("\n[b=0+615]\n"), "\(lowered.out)")
  }

  /// `--font` given the path of a font file shapes with that file, as `--font-file` would.
  @Test func fontNamesAFileByItsPath() throws {
    let byFile = try swiftshape(["-O", "text", "--font-file", "fonts/NotoSans-Latin.ttf", "--text=office"])
    let byFont = try swiftshape(["-O", "text", "--font", "fonts/NotoSans-Latin.ttf", "--text=office"])
    #expect(byFont.status == 0 && byFont.out == byFile.out && byFont.err.isEmpty, "\(byFont.err)")
    let inFolder = try swiftshape(
      ["-O", "text", "--font", "NotoSans-Latin.ttf", "--face-index=0", "--text=office"],
      in: Repository.fixtures.appendingPathComponent("fonts"))
    #expect(inFolder.status == 0 && inFolder.out == byFile.out, "\(inFolder.err)")
    let request = try swiftshape(
      ["--requests", "-"],
      stdin: Data(
        "{\"id\": 1, \"text\": \"office\", \"font\": {\"pattern\": \"fonts/NotoSans-Latin.ttf\"}}\n".utf8))
    #expect(request.out.contains("\"name\":\"f_f_i\""), "\(request.out)")
  }
}
