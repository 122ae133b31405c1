import Foundation
import Testing

/// `swiftshape shape -O text` against `hb-shape` on the same arguments: the bytes must be equal.
@Suite("hb-shape parity", .enabled(if: HarfBuzzTools.hbShape != nil, HarfBuzzTools.absence("hb-shape")))
struct HBShapeParityTests {
  struct Sample: Sendable, CustomTestStringConvertible {
    var font: String
    var text: String
    var testDescription: String { "\(font) \(text)" }
  }

  static let samples = [
    Sample(font: "fonts/NotoSans-Latin.ttf", text: "office Ta AVATAR fjord"),
    Sample(font: "fonts/NotoSansArabic-Subset.ttf", text: "بِسْمِ ٱللَّهِ ٱلرَّحْمَٰنِ"),
    Sample(font: "fonts/NotoSansDevanagari-Subset.ttf", text: "क्षत्रिय र्क द्ध हिन्दी"),
    Sample(font: "fonts/NotoSansCJK-Subset.ttc", text: "「縦書き」のテスト、日本語。"),
    Sample(font: "fonts/InterVariable-Subset.ttf", text: "Wave Tofu 1/2"),
  ]

  static let optionSets: [[String]] = [
    [],
    ["--features=-liga,-kern"],
    ["--features=+smcp,onum,liga[2:4]=0"],
    ["--direction=rtl"],
    ["--direction=ltr"],
    ["--direction=ttb"],
    ["--script=Latn"],
    ["--script=Arab", "--language=ur"],
    ["--language=tr"],
    ["--language=mr", "--script=Deva"],
    ["--font-size=16"],
    ["--font-size=36", "--features=-kern", "--direction=rtl"],
    ["--font-size=3000 1500"],
    ["--cluster-level=2"],
    ["--utf8-clusters"],
    ["--font-funcs=ft"],
    ["--font-funcs=ft", "--font-size=20"],
    ["--variations=wght=900"],
    ["--font-ptem=72", "--font-size=4608"],
  ]

  @Test(arguments: samples)
  func textOutputMatches(_ sample: Sample) throws {
    for options in Self.optionSets {
      let arguments = ["--font-file", sample.font] + options + ["--text", sample.text]
      let ours = try swiftshape(["shape", "-O", "text"] + arguments)
      let theirs = try run(HarfBuzzTools.hbShape!, arguments)
      #expect(ours.status == 0, "\(options): \(ours.err)")
      #expect(ours.out == theirs.out, "\(options)")
    }
  }

  @Test func standardInputLinesMatch() throws {
    let input = Data("office\n\nTa Wa\r\nlast".utf8)
    let ours = try swiftshape(["fonts/NotoSans-Latin.ttf", "-O", "text"], stdin: input)
    let theirs = try run(HarfBuzzTools.hbShape!, ["fonts/NotoSans-Latin.ttf"], stdin: input)
    #expect(ours.status == 0)
    #expect(ours.out == theirs.out)
    #expect(ours.out.split(separator: "\n", omittingEmptySubsequences: false).count == 5)
  }

  @Test func textFileAndUnicodesMatch() throws {
    let ours = try swiftshape([
      "-O", "text", "--font-file", "fonts/NotoSans-Latin.ttf", "-u", "U+0066,U+0069 41 0x56",
    ])
    let theirs = try run(
      HarfBuzzTools.hbShape!, ["--font-file", "fonts/NotoSans-Latin.ttf", "-u", "U+0066,U+0069 41 0x56"])
    #expect(ours.out == theirs.out)
    #expect(ours.out == "[fi=0+602|A=2+599|V=3+600]\n")
  }

  @Test func extentsAndFlagsMatch() throws {
    let arguments = [
      "--font-file", "fonts/NotoSansArabic-Subset.ttf", "--show-extents", "--show-flags", "--text", "سلام",
    ]
    let ours = try swiftshape(["-O", "text"] + arguments)
    let theirs = try run(HarfBuzzTools.hbShape!, arguments)
    #expect(ours.out == theirs.out)
    #expect(ours.out.contains("#1") && ours.out.contains("<"))
  }
}

@Suite(
  "hb-shape parity: whole-invocation options",
  .enabled(if: HarfBuzzTools.hbShape != nil, HarfBuzzTools.absence("hb-shape")))
struct HBShapeInvocationParityTests {
  @Test(arguments: [
    ["--list-shapers"],
    ["fonts/NotoSans-Latin.ttf", "--single-par", "--text", "Ta\nWo"],
    ["fonts/NotoSans-Latin.ttf", "-n", "3", "--text", "office"],
    ["fonts/NotoSans-Latin.ttf", "-v", "--text", "a\n\nb"],
    ["fonts/NotoSans-Latin.ttf", "--show-line-num", "--show-text", "--text-before=o", "--text", "ffi"],
    ["fonts/NotoSans-Latin.ttf", "--shapers=fallback", "--show-extents", "--text", "Ta"],
    ["fonts/NotoSansArabic-Subset.ttf", "--safe-to-insert-tatweel", "--show-flags", "--text", "سلام"],
    ["fonts/NotoSansDevanagari-Subset.ttf", "--normalize-glyphs", "--cluster-level=1", "--text", "क्षि"],
    ["fonts/NotoSans-Latin.ttf", "--remove-default-ignorables", "-u", "200B"],
    [
      "fonts/NotoSans-Latin.ttf", "--preserve-default-ignorables", "--invisible-glyph=3", "-u",
      "61,200B,E000",
    ],
    ["fonts/NotoSans-Latin.ttf", "--not-found-glyph=5", "-u", "61,E000"],
  ])
  func outputMatches(_ arguments: [String]) throws {
    let ours = try swiftshape(["-O", "text"] + arguments)
    let theirs = try run(HarfBuzzTools.hbShape!, arguments)
    #expect(ours.status == 0 && theirs.status == 0)
    #expect(ours.out == theirs.out)
  }

  @Test func outputFileIsWrittenAtomically() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swiftshape-o-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let target = folder.appendingPathComponent("out.txt").path
    let written = try swiftshape(["-O", "text", "fonts/NotoSans-Latin.ttf", "-o", target, "--text", "Ta"])
    #expect(written.status == 0 && written.stdout.isEmpty)
    let theirs = try run(HarfBuzzTools.hbShape!, ["fonts/NotoSans-Latin.ttf", "--text", "Ta"])
    #expect(try String(contentsOfFile: target, encoding: .utf8) == theirs.out)
    // A failing run leaves the earlier file as it was, and no temporary file behind.
    let failed = try swiftshape([
      "-O", "text", "fonts/NotoSans-Latin.ttf", "-o", target, "--features=bad[", "--text", "x",
    ])
    #expect(failed.status == 64)
    #expect(try String(contentsOfFile: target, encoding: .utf8) == theirs.out)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.txt"])
  }

  /// `-o` names what to write, not a file to replace: a pipe (or `/dev/null`) is written in place,
  /// and a symbolic link keeps pointing to the file, which gets the output.
  @Test(arguments: ["shape", "render"])
  func outputToAPipeOrThroughALink(_ command: String) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "swiftshape-o-\(command)-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let expected = try swiftshape([command, "fonts/NotoSans-Latin.ttf", "--text", "Ta"]).stdout
    #expect(!expected.isEmpty)

    let fifo = folder.appendingPathComponent("pipe").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let reader = Process()
    reader.executableURL = URL(fileURLWithPath: "/bin/cat")
    reader.arguments = [fifo]
    let piped = Pipe()
    reader.standardOutput = piped
    try reader.run()
    let written = try swiftshape([command, "fonts/NotoSans-Latin.ttf", "--text", "Ta", "-o", fifo])
    // Had the pipe been replaced, `cat` would wait for a writer forever.
    let deadline = Date().addingTimeInterval(20)
    while reader.isRunning && Date() < deadline { usleep(10_000) }
    if reader.isRunning { reader.terminate() }
    let received = piped.fileHandleForReading.readDataToEndOfFile()
    reader.waitUntilExit()
    #expect(written.status == 0, "\(written.err)")
    #expect(received == expected)
    var info = stat()
    #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the pipe is still a pipe")

    let file = folder.appendingPathComponent("file").path
    let link = folder.appendingPathComponent("link").path
    #expect(FileManager.default.createFile(atPath: file, contents: Data("old".utf8)))
    #expect(symlink("file", link) == 0)
    let linked = try swiftshape([command, "fonts/NotoSans-Latin.ttf", "--text", "Ta", "-o", link])
    #expect(linked.status == 0, "\(linked.err)")
    #expect(lstat(link, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK, "the link is still a link")
    #expect(FileManager.default.contents(atPath: file) == expected)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["file", "link", "pipe"])
  }
}
