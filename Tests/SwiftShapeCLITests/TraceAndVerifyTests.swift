import Foundation
import Testing

@Suite("Trace and verify")
struct TraceAndVerifyTests {
  @Test func verificationFailureNamesTheCheck() throws {
    let result = try swiftshape([
      "-O", "text", "fonts/NotoSansArabic-Subset.ttf", "--verify", "--unsafe-to-concat", "--direction=ltr",
      "-u",
      "633,628,632",
    ])
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(
      result.err
        == "swiftshape: error: سبز: verification failed: unsafe-to-break test failed; unsafe-to-concat test failed\n"
    )
  }

  @Test func verificationThatHoldsChangesNothing() throws {
    let plain = try swiftshape(["-O", "text", "fonts/NotoSansArabic-Subset.ttf", "سلام عليكم"])
    let verified = try swiftshape(["-O", "text", "fonts/NotoSansArabic-Subset.ttf", "--verify", "سلام عليكم"])
    #expect(verified.status == 0 && verified.out == plain.out)
  }

  @Test func jsonTraceIsAListOfEventsWithTheBufferAfterEach() throws {
    let result = try swiftshape(["fonts/NotoSansArabic-Subset.ttf", "--trace", "--text", "سل"])
    let document = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
    let entry = try #require((document["results"] as? [[String: Any]])?.first)
    let trace = try #require(entry["trace"] as? [[String: Any]])
    let messages = trace.compactMap { $0["message"] as? String }
    #expect(messages.first == "start table GSUB" || messages.first == "start reorder")
    #expect(messages.contains("start lookup 6 feature 'fina'"))
    // The step that formed the final lam shows its glyph, named, in the buffer after it.
    let replaced = try #require(
      trace.first { ($0["message"] as? String)?.hasPrefix("replaced glyph at 1") == true })
    let glyphs = try #require(replaced["glyphs"] as? [[String: Any]])
    #expect(glyphs.map { $0["name"] as? String } == ["uni0633", "uniFEDE"])
    #expect(glyphs[0]["x_advance"] == nil, "no positions during substitution")
    let positioned = try #require(trace.last?["glyphs"] as? [[String: Any]])
    #expect(positioned.allSatisfy { $0["x_advance"] is Int })
  }

  @Test(.enabled(if: HarfBuzzTools.hbShape != nil, "hb-shape is not installed"))
  func textTraceIsHBShapesTrace() throws {
    for arguments in [
      ["fonts/NotoSansArabic-Subset.ttf", "-V", "--text", "سلام"],
      ["fonts/NotoSansDevanagari-Subset.ttf", "-V", "-v", "--text", "क्षि"],
      ["fonts/NotoSans-Latin.ttf", "--trace", "-n", "2", "--show-flags", "--text", "office"],
    ] {
      let ours = try swiftshape(["-O", "text"] + arguments)
      let theirs = try run(HarfBuzzTools.hbShape!, arguments)
      #expect(ours.out == theirs.out)
      let ourJSON = try swiftshape(["-O", "hb-json"] + arguments)
      let theirJSON = try run(HarfBuzzTools.hbShape!, ["-O", "json"] + arguments)
      #expect(ourJSON.out == theirJSON.out)
      #expect(ours.out.contains("trace: "))
    }
  }
}
