import Foundation
import Testing

@Suite("Trace and verify")
struct TraceAndVerifyTests {
  /// The engine decides whether this result holds: where it does not (HarfBuzz 6.0.0 and 15.0.0),
  /// the check that fails is named; where it does (8.3.0, 10.2.0), the glyphs are printed.
  @Test(
    .enabled(
      if: EngineExpectations.verifyFailsOnForcedLTRArabic != nil,
      "no expectation recorded for this engine"))
  func verificationFailureNamesTheCheck() throws {
    let result = try swiftshape([
      "-O", "text", "fonts/NotoSansArabic-Subset.ttf", "--verify", "--unsafe-to-concat", "--direction=ltr",
      "-u",
      "633,628,632",
    ])
    if EngineExpectations.verifyFailsOnForcedLTRArabic == false {
      #expect(result.status == 0 && result.out == "[uniFEB2=0+1269|uniFE91=1+269|uni0632=2+367]\n")
      return
    }
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
    #expect(messages.count == trace.count && !messages.isEmpty)
    // The messages are the engine's: the same as its hb-shape's trace lines, in order.
    if let hbShape = HarfBuzzTools.hbShape {
      let theirs = try run(hbShape, ["fonts/NotoSansArabic-Subset.ttf", "-V", "--text", "سل"])
      let lines = (theirs.out + theirs.err).split(separator: "\n").filter { $0.hasPrefix("trace: ") }
      #expect(messages == lines.map { String($0.dropFirst(7).prefix { $0 != "\t" }) })
    }
    // The step that formed the final lam shows its glyph, named, in the buffer after it, before
    // positioning.
    let replaced = try #require(
      trace.first {
        (($0["glyphs"] as? [[String: Any]])?.map { $0["name"] as? String }) == ["uni0633", "uniFEDE"]
      })
    let glyphs = try #require(replaced["glyphs"] as? [[String: Any]])
    #expect(glyphs[0]["x_advance"] == nil, "no positions during substitution")
    #expect(trace.allSatisfy { ($0["codepoints"] != nil) != ($0["glyphs"] != nil) }, "code points or glyphs")
    let positioned = try #require(trace.last?["glyphs"] as? [[String: Any]])
    #expect(positioned.allSatisfy { $0["x_advance"] is Int })
  }

  @Test(.enabled(if: HarfBuzzTools.hbShape != nil, HarfBuzzTools.absence("hb-shape")))
  func textTraceIsHBShapesTrace() throws {
    for arguments in [
      ["fonts/NotoSansArabic-Subset.ttf", "-V", "--text", "سلام"],
      ["fonts/NotoSansDevanagari-Subset.ttf", "-V", "-v", "--text", "क्षि"],
      ["fonts/NotoSans-Latin.ttf", "--trace", "-n", "2", "--show-flags", "--text", "office"],
    ] {
      // The engine's hb-shape prints the trace on standard output up to HarfBuzz 6, on standard
      // error from 7.0.0: both streams must be the same.
      let ours = try swiftshape(["-O", "text"] + arguments)
      let theirs = try run(HarfBuzzTools.hbShape!, arguments)
      #expect(ours.out == theirs.out)
      #expect(ours.err == theirs.err)
      let ourJSON = try swiftshape(["-O", "hb-json"] + arguments)
      let theirJSON = try run(HarfBuzzTools.hbShape!, ["-O", "json"] + arguments)
      #expect(ourJSON.out == theirJSON.out)
      #expect(ourJSON.err == theirJSON.err)
      #expect((ours.out + ours.err).contains("trace: "))
    }
  }
}
