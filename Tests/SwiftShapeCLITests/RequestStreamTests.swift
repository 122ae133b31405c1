import Foundation
import Testing

@Suite("swiftshape shape --requests")
struct RequestStreamTests {
  static func answers(_ output: String) throws -> [[String: Any]] {
    try output.split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }

  @Test func eachRequestIsAnsweredInOrderAndBadOnesDoNotStopTheStream() throws {
    let requests = [
      #"{"id": 1, "font": "fonts/NotoSans-Latin.ttf", "text": "office", "features": ["-liga"]}"#,
      "garbage",
      #"{"id": "two", "font": "missing.ttf", "text": "a"}"#,
      #"{"id": {"nested": [1, 2]}, "text": "Hi", "glyph_names": false}"#,
      #"{"id": 4, "font": "fonts/NotoSansArabic-Subset.ttf", "unicodes": "U+0633,U+0644", "direction": "rtl"}"#,
      #"{"id": 5, "font": "fonts/NotoSans-Latin.ttf", "text": "a", "features": ["liga[x"]}"#,
      #"{"id": 6, "font": "fonts/NotoSans-Latin.ttf"}"#,
      "[1, 2]",
    ]
    let result = try swiftshape(
      ["shape", "--requests", "-"], stdin: Data((requests.joined(separator: "\n") + "\n").utf8))
    #expect(result.status == 0)
    let answers = try Self.answers(result.out)
    #expect(answers.count == requests.count)
    #expect(answers[0]["id"] as? Int == 1)
    let glyphs = ((answers[0]["results"] as? [[String: Any]])?.first?["glyphs"] as? [[String: Any]]) ?? []
    #expect(glyphs.map { $0["name"] as? String } == ["o", "f", "f", "i", "c", "e"])
    #expect(answers[1]["id"] is NSNull)
    #expect((answers[1]["error"] as? [String: Any])?["kind"] as? String == "invalid-argument")
    #expect(answers[2]["id"] as? String == "two")
    #expect(
      (answers[2]["error"] as? [String: Any])?["message"] as? String
        == "missing.ttf: No such file or directory")
    #expect((answers[3]["id"] as? [String: Any])?["nested"] as? [Int] == [1, 2])
    #expect(
      ((answers[3]["results"] as? [[String: Any]])?.first?["glyphs"] as? [[String: Any]])?.first?["name"]
        == nil)
    #expect((answers[4]["results"] as? [[String: Any]])?.first?["direction"] as? String == "rtl")
    #expect(
      (answers[5]["error"] as? [String: Any])?["message"] as? String
        == "features 'liga[x': not a feature (e.g. kern, -liga, aalt=2, kern[3:5])")
    #expect((answers[6]["error"] as? [String: Any]) != nil)
    #expect(
      (answers[7]["error"] as? [String: Any])?["message"] as? String
        == "request: a request must be a JSON object")
  }

  @Test func manyRequestsOnTwoThreadsKeepTheirOrder() throws {
    let words = ["office", "Ta", "AV", "fjord", "Wave"]
    let requests = (0..<2000).map { index in
      #"{"id": \#(index), "font": "fonts/NotoSans-Latin.ttf", "text": "\#(words[index % words.count])"}"#
    }
    let input = Data((requests.joined(separator: "\n") + "\n").utf8)
    let two = try swiftshape(["shape", "--requests", "-", "--jobs", "2"], stdin: input)
    let one = try swiftshape(["shape", "--requests", "-"], stdin: input)
    #expect(two.status == 0 && two.out == one.out)
    let ids = try Self.answers(two.out).map { $0["id"] as? Int }
    #expect(ids == (0..<2000).map { $0 })
  }

  /// The request stream under GNU parallel (Debian's `parallel`): the stream cut into blocks of
  /// whole lines, each block answered by a process of its own, four at a time, the answers put back
  /// in input order — the same bytes as one process's, bad lines and all. This is how SwiftShape runs
  /// past one process (or, with `--sshlogin`, past one machine); see the README.
  @Test(.enabled(if: HarfBuzzTools.find("parallel") != nil, "GNU parallel is not installed"))
  func gnuParallelAnswersAsOneProcessDoes() throws {
    let fonts = [
      "fonts/NotoSans-Latin.ttf", "fonts/NotoSansArabic-Subset.ttf", "fonts/NotoSansDevanagari-Subset.ttf",
    ]
    let texts = ["office", "Ta AV", "سلام عليكم", "क्षत्रिय", "fjord Wave", "مرحبا"]
    var requests = (0..<3000).map { index in
      #"{"id": \#(index), "font": "\#(fonts[index % fonts.count])", "text": "\#(texts[index % texts.count])"}"#
    }
    requests[1234] = "garbage"
    requests[2345] = #"{"id": "missing", "font": "missing.ttf", "text": "a"}"#
    let input = Data((requests.joined(separator: "\n") + "\n").utf8)
    let one = try swiftshape(["shape", "--requests", "-"], stdin: input)
    #expect(one.status == 0)
    let parallel = try run(
      HarfBuzzTools.find("parallel")!,
      [
        "--will-cite", "--pipe", "--keep-order", "--block", "20k", "-j", "4", Repository.binary.path, "shape",
        "--requests", "-",
      ], stdin: input)
    #expect(parallel.status == 0, "\(parallel.err)")
    #expect(parallel.out == one.out)
    #expect(parallel.out.split(separator: "\n").count == 3000)
  }

  @Test func anAnswerComesBeforeTheNextRequestIsSent() throws {
    // A client that sends one request and waits for its answer must get it.
    let conversation = try Conversation(["shape", "--requests", "-", "--jobs", "2"])
    conversation.send(#"{"id": 1, "text": "a"}"# + "\n")
    let answer = conversation.answers(lines: 1)
    #expect(answer != nil, "no answer while the stream stays open")
    #expect(answer?.hasPrefix(#"{"id":1,"format":"swiftshape-shape""#) == true)
    #expect(try conversation.finish() == 0)
  }

  @Test func aMissingRequestsFileIsAnError() throws {
    let result = try swiftshape(["shape", "--requests", "/nonexistent/requests.jsonl"])
    #expect(result.status == 66 && result.stdout.isEmpty)
    #expect(result.err == "swiftshape: error: /nonexistent/requests.jsonl: No such file or directory\n")
  }

  /// Each request holds its options: a shaping or output option beside `--requests` is an error
  /// (it would be dropped), and `--no-cache` is honoured (the statistics count nothing).
  @Test func optionsBesideRequestsAreErrorsButTheCacheSwitch() throws {
    let request = #"{"id": 1, "font": "fonts/NotoSans-Latin.ttf", "text": "the same words"}"# + "\n"
    for option in [["--font-size", "20"], ["--features", "-kern"], ["-o", "/tmp/x.json"], ["--paragraph"]] {
      let result = try swiftshape(["shape", "--requests", "-"] + option, stdin: Data(request.utf8))
      #expect(result.status == 64 && result.stdout.isEmpty, "\(option)")
      #expect(result.err.hasPrefix("swiftshape: error: --requests: each request holds its options"))
    }
    let input = Data(String(repeating: request, count: 8).utf8)
    let cached = try swiftshape(["shape", "--requests", "-", "--cache-stats"], stdin: input)
    let plain = try swiftshape(["shape", "--requests", "-", "--cache-stats", "--no-cache"], stdin: input)
    #expect(cached.status == 0 && plain.status == 0 && cached.stdout == plain.stdout)
    #expect(!cached.err.contains(" 0 lines,"))
    #expect(plain.err.contains(" 0 lines,"))
  }
}
