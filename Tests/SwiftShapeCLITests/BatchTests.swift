import Foundation
import Testing

@Suite("swiftshape --batch")
struct BatchTests {
  static let latin = "fonts/NotoSans-Latin.ttf"

  @Test func badRequestsAnswerWithOneErrorLineAndTheBatchGoesOn() throws {
    let requests = [
      "\(Self.latin);--text=Ta",
      "missing.ttf;--text=a",
      "\(Self.latin);--bogus;--text=a",
      "\(Self.latin);--features=liga[x];--text=a",
      "\(Self.latin)",
      "",
      ";;;",
      "\(Self.latin);--text=of;;--features=-liga",
      "\(Self.latin);-u;zz",
      "\(Self.latin);--text=x;--batch",
      "\(Self.latin);--text=x;-o;/tmp/nope",
      "\(Self.latin);-u;66,69",
    ]
    var input = Data(requests.joined(separator: "\n").utf8) + Data("\n".utf8)
    input += Data([0x66, 0x6F, 0x6E, 0x74, 0x3B, 0xFF, 0x0A])  // "font;\xFF": malformed UTF-8
    input += Data("\(Self.latin);--text=end".utf8)  // the last request has no newline
    let result = try swiftshape(["--batch"], stdin: input)
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    let lines = result.out.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(
      String.init)
    #expect(lines.count == requests.count + 2, "one answer line per request")
    #expect(lines[0] == "[T=0+476|a=1+561]")
    #expect(lines[1] == "error: missing.ttf: No such file or directory")
    #expect(lines[2].hasPrefix("error: --bogus"))
    #expect(lines[3].hasPrefix("error: --features 'liga[x]'"))
    #expect(lines[4] == "error: request: no text given (a batch request never reads standard input)")
    #expect(lines[5] == "error: request: empty request")
    #expect(lines[6] == "error: request: empty request")
    #expect(lines[7] == "[o=0+605|f=1+344]")
    #expect(lines[8].hasPrefix("error: zz: not a hexadecimal code point"))
    #expect(lines[9].hasPrefix("error: request: --batch"))
    #expect(lines[10].hasPrefix("error: request: --batch, --output-file"))
    #expect(lines[11] == "[fi=0+602]")
    #expect(lines[12].hasPrefix("error: request: invalid UTF-8 at byte 5"))
    #expect(lines[13] == "[e=0+564|n=1+618|d=2+615]")
  }

  @Test func optionsGivenWithBatchApplyToEveryRequest() throws {
    let input = Data("\(Self.latin);--text=Ta\n\(Self.latin);--text=Ta;--features=-kern\n".utf8)
    let result = try swiftshape(["--batch", "-O", "hb-json", "--no-positions"], stdin: input)
    #expect(
      result.out
        == "[{\"g\":\"T\",\"cl\":0},{\"g\":\"a\",\"cl\":1}]\n[{\"g\":\"T\",\"cl\":0},{\"g\":\"a\",\"cl\":1}]\n"
    )
  }

  @Test func jsonAnswersTakeOneLineEach() throws {
    let input = Data("\(Self.latin);--text=Ta;-O;json\n\(Self.latin);--text=x;-O;json\n".utf8)
    let result = try swiftshape(["--batch"], stdin: input)
    let lines = result.out.split(separator: "\n")
    #expect(lines.count == 2)
    for line in lines {
      #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any])
    }
  }

  @Test(.enabled(if: HarfBuzzTools.hbShape != nil, HarfBuzzTools.absence("hb-shape")))
  func goodRequestsAnswerAsHBShapeDoes() throws {
    let requests = [
      "\(Self.latin);--text=office", "fonts/NotoSansArabic-Subset.ttf;--text=سلام;--show-flags",
      "\(Self.latin);-u;41,56;--font-size=12;-v", "fonts/NotoSansDevanagari-Subset.ttf;--text=क्ष;-O;json",
    ]
    let input = Data((requests.joined(separator: "\n") + "\n").utf8)
    let theirs = try run(HarfBuzzTools.hbShape!, ["--batch"], stdin: input)
    // hb-shape's json is SwiftShape's hb-json.
    let ourRequests = requests.map { $0.replacingOccurrences(of: "-O;json", with: "-O;hb-json") }
    let ours = try swiftshape(["--batch"], stdin: Data((ourRequests.joined(separator: "\n") + "\n").utf8))
    #expect(theirs.status == 0)
    #expect(ours.out == theirs.out)
  }
}
