import SwiftShape
import SwiftShapeFonts

/// Which font to shape with, as a value: a file, a fontconfig pattern or the built-in font, with
/// the face, the size and the other settings a `ShapingFont` is made with. The command line,
/// fixtures and JSON requests each map their own syntax onto it; `resolve` is the one place that
/// turns it into a font.
public struct FontSpecification: Sendable, Hashable {
  /// Where the font comes from.
  public enum Source: Sendable, Hashable {
    /// The font built into SwiftShape.
    case builtIn
    /// A font file, by path.
    case file(String)
    /// An installed font by fontconfig pattern (or the path of a font file: see
    /// `FontLocator.resolve`).
    case pattern(String)
  }

  /// Where the font comes from.
  public var source: Source
  /// The face of a collection; nil for the first (or, for a pattern, the face fontconfig picks).
  public var faceIndex: Int?
  /// The size, variations and the rest of the font's settings. A pattern's named instance puts its
  /// coordinates before these variations.
  public var options: ShapingFont.Options
  /// For a pattern: a family that is not installed is an error instead of a substitute.
  public var strict: Bool
  /// A face index past the last face gives HarfBuzz's empty face, as hb-shape does, instead of an
  /// error.
  public var allowsMissingFace: Bool
  /// What errors call the pattern (`--font`, `font.pattern`).
  public var patternName: String
  /// Fonts a paragraph falls back on, in order, after this one (`--fallback-font-file`); when
  /// empty, a pattern's font falls back on fontconfig's sorted list for the pattern.
  public var fallbackFiles: [String] = []
  /// Whether paragraphs fall back on other fonts at all (`--no-fallback` turns it off).
  public var usesFallback = true

  /// A specification; by default the built-in font at its units per em.
  public init(
    _ source: Source = .builtIn, faceIndex: Int? = nil, options: ShapingFont.Options = .init(),
    strict: Bool = false, allowsMissingFace: Bool = false, patternName: String = "--font"
  ) {
    (self.source, self.faceIndex, self.options, self.strict) = (source, faceIndex, options, strict)
    (self.allowsMissingFace, self.patternName) = (allowsMissingFace, patternName)
  }

  /// A font made from a specification, and what was said on the way.
  public struct Resolved: Sendable {
    /// The font.
    public var font: ShapingFont
    /// The fontconfig pattern it was found by, when it was.
    public var pattern: String?
    /// Notes for the user: a substitute family, a pattern that is also a file's name.
    public var notes: [String]
  }

  /// The font this names, loaded through `cache` (or afresh without one).
  ///
  /// - Throws: `ShapingError`: a file that cannot be read or is not a font (`ShapingFont`'s
  ///   errors), a face index with the built-in font or with a pattern's match, a pattern that
  ///   matches nothing, a substitute with `strict`.
  public func resolve(cache: FontCache?) throws -> Resolved {
    var options = self.options
    switch source {
    case .builtIn:
      guard (faceIndex ?? 0) == 0 else {
        throw ShapingError(
          .invalidArgument, input: "--face-index=\(faceIndex ?? 0)",
          reason: "the built-in font has one face (index 0)")
      }
      return Resolved(font: try ShapingFont.defaultFont(options: options), pattern: nil, notes: [])
    case .file(let path):
      return Resolved(
        font: try load(path, faceIndex: faceIndex ?? 0, options, cache), pattern: nil, notes: [])
    case .pattern(let pattern):
      switch try Self.resolved(pattern) {
      case .file(let path, let note):
        let font = try load(path, faceIndex: faceIndex ?? 0, options, cache)
        return Resolved(font: font, pattern: nil, notes: note.map { [$0] } ?? [])
      case .match(let match):
        guard faceIndex == nil else {
          throw ShapingError(
            .invalidArgument, input: "--face-index",
            reason: "the face comes from the pattern's match with --font")
        }
        let notes =
          try match.substituteNote(for: pattern, strict: strict, name: patternName).map { [$0] } ?? []
        if let instance = match.namedInstance {
          options.variations =
            try FontLocator.variations(ofInstance: instance, file: match.file, faceIndex: match.faceIndex)
            + options.variations
        }
        let font = try load(match.file, faceIndex: match.faceIndex, options, cache)
        return Resolved(font: font, pattern: pattern, notes: notes)
      }
    }
  }

  fileprivate func load(_ path: String, faceIndex: Int, _ options: ShapingFont.Options, _ cache: FontCache?)
    throws
    -> ShapingFont
  {
    try cache?.font(
      file: path, faceIndex: faceIndex, options: options, allowingMissingFace: allowsMissingFace)
      ?? ShapingFont(
        file: path, faceIndex: faceIndex, options: options, allowingMissingFace: allowsMissingFace)
  }
}

extension FontSpecification {
  /// The fallback fonts of a paragraph shaped with `font` (this specification resolved) in
  /// `language`: the `fallbackFiles`, loaded now at `font`'s size; else, for a font found by a
  /// pattern, fontconfig's sorted list for the pattern and the language, loaded as needed and
  /// kept for the life of the process; else none.
  ///
  /// - Throws: `ShapingError` of kind `.badFont` naming `--fallback-font-file PATH` for a file
  ///   that cannot be read or is not a font; `.invalidArgument` for an empty path.
  public func fallback(for resolved: Resolved, language: Language?, cache: FontCache?) throws -> FontFallback?
  {
    guard usesFallback else { return nil }
    if !fallbackFiles.isEmpty {
      var options = resolved.font.options
      if options.size == .unitsPerEm {
        options.size = .scale(x: resolved.font.scale.x, y: resolved.font.scale.y)
      }
      let fonts = try fallbackFiles.map { path in
        guard !path.isEmpty else {
          throw ShapingError(.invalidArgument, input: "--fallback-font-file ''", reason: "an empty path")
        }
        do {
          return try load(path, faceIndex: 0, options, cache)
        } catch let error as ShapingError {
          throw ShapingError(error.kind, input: "--fallback-font-file \(path)", reason: error.reason)
        }
      }
      return FontFallback(fonts: fonts)
    }
    guard let pattern = resolved.pattern else { return nil }
    return try Self.fallback(
      pattern: pattern, language: (language ?? Language.processDefault)?.identifier,
      excluding: resolved.font.identity, cache: cache ?? FontCache())
  }

  /// What `pattern` names (`FontLocator.resolve`), asked of fontconfig once a process: a request
  /// names its font, and each paragraph's spans their styles' fonts, by pattern. (Asked each time,
  /// 1,000 requests of the English text naming `DejaVu Sans` took 10 times as long as the same
  /// naming the file, and a `<b>` every other word of the text 32 times as long as no markup,
  /// fontconfig 55% of it, `perf`.) Failures are not kept (the request fails); up to 1,024
  /// patterns, all dropped when full.
  static func resolved(_ pattern: String) throws -> FontLocator.Resolution {
    if let known = resolvedPatterns.withLock({ $0[pattern] }) { return known }
    let resolution = try FontLocator.resolve(pattern)
    resolvedPatterns.withLock {
      if $0.count >= 1024 { $0.removeAll() }
      $0[pattern] = resolution
    }
    return resolution
  }

  /// (Internal, not private: tests add patterns of their own for fixture fonts.)
  static let resolvedPatterns = Protected<[String: FontLocator.Resolution]>([:])

  /// The fallback list of `pattern` (fontconfig's sort, for `language`), less `primary`: sorted
  /// once a pattern and language, and kept.
  static func fallback(pattern: String, language: String?, excluding primary: FontIdentity, cache: FontCache)
    throws -> FontFallback
  {
    let key = FallbackKey(pattern: pattern, language: language)
    if let known = FontSpecification.fallbacks.withLock({ $0[key] }) { return known }
    let candidates = try FontLocator.fallbackCandidates(for: pattern, language: language).filter {
      !($0.file == primary.file && $0.faceIndex == primary.faceIndex)
    }
    let fallback = FontFallback(candidates: candidates, cache: cache)
    FontSpecification.fallbacks.withLock { $0[key] = fallback }
    return fallback
  }

  private struct FallbackKey: Hashable {
    var pattern: String
    var language: String?
  }

  /// The fallback lists of patterns met so far, kept so that fontconfig sorts each once and each
  /// font is loaded once, across requests.
  private static let fallbacks = Protected<[FallbackKey: FontFallback]>([:])
}

/// One shaping request as a value: the font and how to shape. Every entry point — the command's
/// options, hb-shape's syntax, a fixture case, a JSON request line — maps its syntax onto this.
public struct ShapingRequest: Sendable, Hashable {
  /// The font.
  public var font: FontSpecification
  /// How to shape: features, direction, script, language, clusters, flags, output choices.
  public var options: ShapeOptions

  /// A request; by default the built-in font with the default options.
  public init(font: FontSpecification = .init(), options: ShapeOptions = .init()) {
    self.font = font
    self.options = options
  }

  /// The font the request names (`FontSpecification.resolve`), with its fallback fonts for a
  /// paragraph (`ShapeOptions.paragraph`; `FontSpecification.fallback`).
  ///
  /// - Throws: what `resolve` and `fallback` throw.
  public func resolveFont(cache: FontCache?) throws -> FontSpecification.Resolved {
    if options.readsMarkup || options.spans.contains(where: { $0.fontPattern != nil }) {
      Self.installSpanFontLocator()
    }
    var resolved = try font.resolve(cache: cache)
    if options.paragraph != nil,
      let fallback = try font.fallback(for: resolved, language: options.language, cache: cache)
    {
      resolved.font = resolved.font.withFallback(fallback)
    }
    return resolved
  }
}

extension ShapingRequest {
  /// Lets spans name their fonts by fontconfig pattern (`TextSpan.fontLocator`): a path of an
  /// existing file as it is, else the face fontconfig matches, as `--font` takes them.
  ///
  /// A pattern's span falls back on the pattern's own list (`TextSpan.fallbackLocator`), as
  /// fontconfig sorts it for the span's language, as `--font` does for the paragraph; a path has
  /// none (the paragraph's list serves).
  static func installSpanFontLocator() {
    guard TextSpan.fontLocator == nil else { return }
    TextSpan.fontLocator = { pattern in
      switch try FontSpecification.resolved(pattern) {
      case .file(let path, _): (path, 0)
      case .match(let match): (match.file, match.faceIndex)
      }
    }
    TextSpan.fallbackLocator = { pattern, language, font in
      guard case .match = try FontSpecification.resolved(pattern) else { return nil }
      return try FontSpecification.fallback(
        pattern: pattern, language: (language ?? Language.processDefault)?.identifier,
        excluding: font.identity, cache: spanFallbackFonts)
    }
  }

  /// The fonts of spans' fallback lists, loaded once across requests.
  private static let spanFallbackFonts = FontCache()
}
