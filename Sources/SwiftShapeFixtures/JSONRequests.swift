import HarfBuzz
import SwiftShape

/// Shaping requests as JSON Lines, for programs that drive SwiftShape without paying its start-up
/// for every call: each request is one JSON object on a line, each answer one line.
///
/// A request: `{"id": 7, "font": "fonts/Noto.ttf", "text": "office", "features": ["-liga"]}`, with
/// the settings keys of a fixture case (`font` as a file, `{"file", "face_index", "variations"}` or
/// `{"pattern"}`; `features`, `variations`, `direction`, `script`, `language`, `font_size`,
/// `points`, `font_funcs`, `cluster_level`, `cluster_unit`), `text` or `unicodes`, and
/// `glyph_names` and `extents` (booleans). The answer is SwiftShape's JSON document for the text
/// with `"id"` first, or `{"id": …, "error": {"kind", "input", "message"}}`; the `id` comes back
/// as it was written (any JSON value), `null` when the request has none or is not JSON.
public enum JSONRequests {
  /// The answer to one request line, without its newline.
  ///
  /// - Parameters:
  ///   - line: the request, one line of JSON, without its newline.
  ///   - folder: the folder relative font paths are relative to.
  ///   - cache: fonts loaded once for many requests.
  public static func answer(_ line: [UInt8], folder: String = ".", cache: FontCache) -> [UInt8] {
    var id: [UInt8] = Array("null".utf8)
    do {
      _ = try TextInput.decode(line, name: "request")
      let json: SourceJSON
      do {
        json = try SourceJSON.parse(line)
      } catch let error as SourceJSON.SyntaxError {
        throw ShapingError(
          .invalidArgument, input: "request", reason: "not JSON: \(error.message) at byte \(error.offset)")
      }
      guard json.members != nil else {
        throw ShapingError(.invalidArgument, input: "request", reason: "a request must be a JSON object")
      }
      if let value = json["id"] { id = Array(line[value.range]) }
      let settings = try FixtureSettings(
        json: json, context: "request", allowing: ["id", "text", "unicodes", "glyph_names", "extents"])
      let text: String
      switch (json["text"], json["unicodes"]) {
      case (let value?, nil):
        guard let string = value.string else {
          throw ShapingError(.invalidArgument, input: "request", reason: "\"text\" must be a string")
        }
        text = string
      case (nil, let value?):
        guard let list = value.string else {
          throw ShapingError(.invalidArgument, input: "request", reason: "\"unicodes\" must be a string")
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: try TextInput.scalars(fromUnicodesList: list))
        text = String(view)
      default:
        throw ShapingError(
          .invalidArgument, input: "request", reason: "a request needs \"text\" or \"unicodes\" (one of them)"
        )
      }
      var (font, options) = try Fixture.setup(settings, folder: folder, font: nil, cache: cache)
      if let names = json["glyph_names"] {
        guard let value = names.bool else {
          throw ShapingError(
            .invalidArgument, input: "request", reason: "\"glyph_names\" must be true or false")
        }
        options.includeGlyphNames = value
      }
      if let extents = json["extents"] {
        guard let value = extents.bool else {
          throw ShapingError(.invalidArgument, input: "request", reason: "\"extents\" must be true or false")
        }
        options.includeExtents = value
      }
      let result = try font.shape(text, options: options)
      var document = ShapeDocument(font: font, options: options, entries: [.init(line: 1, result: result)])
      document.pattern = settings.fontPattern
      var answer = Array("{\"id\":".utf8) + id + [UInt8(ascii: ",")]
      answer.append(contentsOf: document.json(.compact).utf8.dropFirst())
      return answer
    } catch {
      let failure =
        error as? ShapingError ?? ShapingError(.internalFailure, input: "request", reason: "\(error)")
      var w = JSONWriter(spaced: false)
      w.beginObject()
      w.key("id")
      w.rawValue { $0.append(id) }
      w.key("error")
      w.beginObject()
      w.member("kind", failure.kind.rawValue)
      w.member("input", failure.input)
      w.member("message", failure.description)
      w.endObject()
      w.endObject()
      return w.finish()
    }
  }
}
