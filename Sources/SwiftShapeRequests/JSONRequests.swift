import HarfBuzz
@_spi(Writers) import SwiftShape

/// Shaping requests as JSON Lines, for programs that drive SwiftShape without paying its start-up
/// for every call: each request is one JSON object on a line, each answer one line.
///
/// A request: `{"id": 7, "font": "fonts/Noto.ttf", "text": "office", "features": ["-liga"]}`: the
/// settings keys (`RequestKey.all`: those of a fixture case, and `glyph_names` and `extents`),
/// `text` or `unicodes`. The answer is SwiftShape's JSON document for the text
/// with `"id"` first, or `{"id": …, "error": {"kind", "input", "message"}}`; the `id` comes back
/// as it was written (any JSON value), `null` when the request has none or is not JSON.
public enum JSONRequests {
  /// The answer to one request line, without its newline.
  ///
  /// - Parameters:
  ///   - line: the request, one line of JSON, without its newline.
  ///   - folder: the folder relative font paths are relative to.
  ///   - cache: fonts loaded once for many requests.
  ///   - usesCache: false to shape without the shaping cache (`ShapeOptions.usesCache`).
  public static func answer(
    _ line: [UInt8], folder: String = ".", cache: FontCache, usesCache: Bool = true
  ) -> [UInt8] {
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
      var request = ShapingRequest()
      try request.read(
        json, syntax: .request, context: "request", kind: .invalidArgument, folder: folder,
        allowing: ["id", "text", "unicodes"])
      let text = try json.inputText(context: "request", kind: .invalidArgument, of: "a request")
      try request.validate(naming: .keys)
      let resolved = try request.resolveFont(cache: cache)
      let font = resolved.font
      var options = request.options
      options.usesCache = usesCache
      let result = try font.shape(text, options: options)
      var document = ShapeDocument(font: font, options: options, entries: [.init(line: 1, result: result)])
      document.pattern = resolved.pattern
      var answer = Array("{\"id\":".utf8) + id + [UInt8(ascii: ",")]
      // The document's bytes after its opening brace. (Appending `json(.compact).utf8.dropFirst()`
      // copied byte by byte through the generic path: 39% of `--requests` on English lines.)
      answer.append(contentsOf: document.jsonBytes(.compact).dropFirst())
      return answer
    } catch {
      let failure =
        error as? ShapingError ?? ShapingError(.internalFailure, input: "request", reason: "\(error)")
      return errorAnswer(id: id, failure)
    }
  }
}

extension JSONRequests {
  /// The answer to a request that failed: `{"id": …, "error": {"kind", "input", "message"}}`.
  static func errorAnswer(id: [UInt8], _ failure: ShapingError) -> [UInt8] {
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

extension SourceJSON {
  /// The text of an object's `text` member, or of its `unicodes` (`U+0041,U+0301`): one of them.
  ///
  /// - Throws: `ShapingError` of kind `kind` at `context`: neither or both given, a value that is
  ///   not a string, a list of code points that does not parse.
  package func inputText(context: String, kind: ShapingError.Kind, of owner: String) throws -> String {
    switch (self["text"], self["unicodes"]) {
    case (let text?, nil):
      guard let value = text.string else {
        throw ShapingError(kind, input: context, reason: "\"text\" must be a string")
      }
      return value
    case (nil, let unicodes?):
      guard let list = unicodes.string else {
        throw ShapingError(kind, input: context, reason: "\"unicodes\" must be a string (U+0041,U+0301)")
      }
      var view = String.UnicodeScalarView()
      do {
        view.append(contentsOf: try TextInput.scalars(fromUnicodesList: list))
      } catch let error as ShapingError {
        throw ShapingError(kind, input: context, reason: "\"unicodes\": \(error.description)")
      }
      return String(view)
    default:
      throw ShapingError(
        kind, input: context, reason: "\(owner) needs \"text\" or \"unicodes\" (one of them)")
    }
  }
}
