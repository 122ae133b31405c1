import CFontconfig
import HarfBuzz
import SwiftShape

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finds installed fonts by fontconfig pattern (`DejaVu Sans:bold`, `Noto Sans Arabic`,
/// `monospace`, `:lang=hi`), as `fc-match` and `fc-list` do.
///
/// fontconfig's objects are made and destroyed inside each call; only Swift values come out.
public enum FontLocator {
  /// The version of the fontconfig library (`2.14.1`), or nil when it cannot be loaded.
  public static var fontconfigVersion: String? {
    var error: UnsafePointer<CChar>?
    guard let fc = swiftshape_fontconfig(&error)?.pointee else { return nil }
    let version = Int(fc.FcGetVersion())
    return "\(version / 10000).\(version / 100 % 100).\(version % 100)"
  }

  /// An installed font face.
  public struct Match: Sendable, Hashable, Codable {
    /// The font file.
    public var file: String
    /// The face index in the file.
    public var faceIndex: Int
    /// For a named instance of a variable font, its index in `fvar` (fontconfig lists each
    /// instance as a face of its own); nil for the font as a whole.
    public var namedInstance: Int?
    /// The family names, the first in the font's default language.
    public var families: [String]
    /// The style (`Bold`, `Regular`).
    public var style: String?
    /// For `match`: whether the font is a substitute, because the family asked for is not
    /// installed (a generic family such as `monospace` is never a substitute).
    public var isSubstitute: Bool = false

    /// The first family name.
    public var family: String { families.first ?? "" }

    /// For a substitute: the note that says so, or with `strict` the error, which calls the
    /// pattern by `name` (`--font 'Name'`); nil for a font that is what was asked for.
    ///
    /// - Throws: `ShapingError` of kind `.badFont` for a substitute when `strict`.
    public func substituteNote(for pattern: String, strict: Bool, name: String = "--font") throws -> String? {
      guard isSubstitute else { return nil }
      if strict {
        throw ShapingError(
          .badFont, input: name.isEmpty ? "'\(pattern)'" : "\(name) '\(pattern)'",
          reason: "no such family installed (--strict); fontconfig would substitute \(family)")
      }
      return "'\(pattern)' is not installed; fontconfig substitutes \(family) (\(file))"
    }
  }

  /// The font fontconfig picks for a pattern, as `fc-match PATTERN` does.
  ///
  /// - Throws: `ShapingError` of kind `.invalidArgument` when the pattern does not parse, `.badFont`
  ///   when no font matches (no fonts are installed) or fontconfig cannot start.
  public static func match(_ pattern: String) throws -> Match {
    try withConfiguration { fc, config in
      guard let parsed = fc.FcNameParse(pattern) else {
        throw ShapingError(.invalidArgument, input: pattern, reason: "not a fontconfig pattern")
      }
      defer { fc.FcPatternDestroy(parsed) }
      let requestedFamilies = strings(fc, parsed, FC_FAMILY)
      _ = fc.FcConfigSubstitute(config, parsed, FcMatchPattern)
      fc.FcDefaultSubstitute(parsed)
      var result = FcResultNoMatch
      guard let matched = fc.FcFontMatch(config, parsed, &result), result == FcResultMatch else {
        throw ShapingError(.badFont, input: pattern, reason: "no installed font matches")
      }
      defer { fc.FcPatternDestroy(matched) }
      guard var match = Self.match(fc, from: matched) else {
        throw ShapingError(.badFont, input: pattern, reason: "the matching font has no file")
      }
      let generic: Set<String> = [
        "sans-serif", "sans", "serif", "monospace", "mono", "cursive", "fantasy", "system-ui", "emoji",
        "math",
      ]
      let installed = Set(match.families.map { $0.lowercased() })
      match.isSubstitute =
        !requestedFamilies.isEmpty
        && !requestedFamilies.contains {
          generic.contains($0.lowercased()) || installed.contains($0.lowercased())
        }
      return match
    }
  }

  /// What a `--font` value (or a fixture's or request's `{"pattern": …}`) names.
  public enum Resolution: Sendable, Hashable {
    /// A font file, by the path given; `note` says when the value is also an installed family's
    /// name.
    case file(String, note: String?)
    /// The font fontconfig picks for the value as a pattern.
    case match(Match)
  }

  /// What a `--font` value names: the font file itself when the value is the path of an existing
  /// file, else the font fontconfig picks for it as a pattern (`match(_:)`). A path without a `/`
  /// that is also the name of an installed family is ambiguous: the file is taken, with a note.
  ///
  /// - Throws: as `match(_:)`, for a value that names no file.
  public static func resolve(_ value: String) throws -> Resolution {
    var info = stat()
    guard stat(value, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return .match(try match(value)) }
    guard !value.contains("/"), let family = try? match(value), !family.isSubstitute,
      family.families.contains(where: { $0.lowercased() == value.lowercased() })
    else { return .file(value, note: nil) }
    return .file(
      value,
      note:
        "'\(value)' names a file and an installed family; the file is used (write ./\(value) for the file)")
  }

  /// Every installed font face matching a pattern (all of them for an empty pattern), as
  /// `fc-list PATTERN` does, sorted by family, style, file and face.
  ///
  /// - Throws: `ShapingError` of kind `.invalidArgument` when the pattern does not parse.
  public static func list(_ pattern: String = "") throws -> [Match] {
    try withConfiguration { fc, config in
      guard let parsed = pattern.isEmpty ? fc.FcPatternCreate() : fc.FcNameParse(pattern) else {
        throw ShapingError(.invalidArgument, input: pattern, reason: "not a fontconfig pattern")
      }
      defer { fc.FcPatternDestroy(parsed) }
      guard let objects = fc.FcObjectSetCreate() else {
        throw ShapingError(.internalFailure, input: pattern, reason: "fontconfig cannot allocate")
      }
      defer { fc.FcObjectSetDestroy(objects) }
      for object in [FC_FAMILY, FC_STYLE, FC_FILE, FC_INDEX] { _ = fc.FcObjectSetAdd(objects, object) }
      guard let set = fc.FcFontList(config, parsed, objects) else { return [] }
      defer { fc.FcFontSetDestroy(set) }
      let fonts = (0..<Int(set.pointee.nfont)).compactMap { index in
        set.pointee.fonts[index].flatMap { match(fc, from: $0) }
      }
      return fonts.sorted {
        ($0.family, $0.style ?? "", $0.file, $0.faceIndex, $0.namedInstance ?? -1)
          < ($1.family, $1.style ?? "", $1.file, $1.faceIndex, $1.namedInstance ?? -1)
      }
    }
  }

  /// The fonts fontconfig would fall back on for a pattern, best first, as `fc-match --sort`
  /// lists them with fonts that add no characters left out (`FcFontSort` with trimming): each
  /// with its family, whether it is a color font, and its characters. `language` (a BCP 47 tag)
  /// joins the pattern, so fonts for that language come first.
  ///
  /// - Throws: `ShapingError` of kind `.invalidArgument` when the pattern does not parse,
  ///   `.badFont` when no font matches.
  public static func fallbackCandidates(for pattern: String, language: String? = nil) throws
    -> [FontFallback.Candidate]
  {
    try withConfiguration { fc, config in
      guard let parsed = fc.FcNameParse(pattern) else {
        throw ShapingError(.invalidArgument, input: pattern, reason: "not a fontconfig pattern")
      }
      defer { fc.FcPatternDestroy(parsed) }
      if let language, !language.isEmpty { _ = fc.FcPatternAddString(parsed, FC_LANG, language) }
      _ = fc.FcConfigSubstitute(config, parsed, FcMatchPattern)
      fc.FcDefaultSubstitute(parsed)
      var result = FcResultNoMatch
      guard let set = fc.FcFontSort(config, parsed, 1, nil, &result), set.pointee.nfont > 0 else {
        throw ShapingError(.badFont, input: pattern, reason: "no installed font matches")
      }
      defer { fc.FcFontSetDestroy(set) }
      return (0..<Int(set.pointee.nfont)).compactMap { index -> FontFallback.Candidate? in
        guard let font = set.pointee.fonts[index], let match = match(fc, from: font) else { return nil }
        var color: FcBool = 0
        let isColor = fc.FcPatternGetBool(font, FC_COLOR, 0, &color) == FcResultMatch && color != 0
        var charset: OpaquePointer?
        var coverage: CharacterCoverage?
        if fc.FcPatternGetCharSet(font, FC_CHARSET, 0, &charset) == FcResultMatch, let charset {
          coverage = CharacterCoverage(pages: pages(fc, charset))
        }
        return FontFallback.Candidate(
          file: match.file, faceIndex: match.faceIndex, family: match.families.first, isColor: isColor,
          coverage: coverage)
      }
    }
  }

  /// The pages of a charset: each page's number and its 256 bits.
  private static func pages(_ fc: Fontconfig, _ charset: OpaquePointer) -> [(page: UInt32, bits: [UInt32])] {
    var pages: [(page: UInt32, bits: [UInt32])] = []
    var map = [FcChar32](repeating: 0, count: 8)
    var next: FcChar32 = 0
    var base = fc.FcCharSetFirstPage(charset, &map, &next)
    while base != FcChar32.max {
      pages.append((base >> 8, map))
      base = fc.FcCharSetNextPage(charset, &map, &next)
    }
    return pages
  }

  /// fontconfig's functions: on Linux the library is loaded on first use, not at start-up.
  private typealias Fontconfig = swiftshape_fontconfig_functions

  /// Runs `body` with fontconfig's functions and its current configuration, loaded on first use.
  private static func withConfiguration<T>(_ body: (Fontconfig, OpaquePointer) throws -> T) throws -> T {
    var error: UnsafePointer<CChar>?
    guard let fc = swiftshape_fontconfig(&error)?.pointee else {
      let reason = error.map { String(cString: $0) } ?? "cannot be loaded"
      throw ShapingError(.internalFailure, input: "fontconfig", reason: reason)
    }
    // FcConfigReference(NULL) takes a reference to the current configuration, loading it (and
    // the list of installed fonts) on first use; later calls are cheap.
    guard let config = fc.FcConfigReference(nil) else {
      throw ShapingError(.internalFailure, input: "fontconfig", reason: "cannot load the configuration")
    }
    defer { fc.FcConfigDestroy(config) }
    return try body(fc, config)
  }

  private static func match(_ fc: Fontconfig, from pattern: OpaquePointer) -> Match? {
    var file: UnsafeMutablePointer<FcChar8>?
    guard fc.FcPatternGetString(pattern, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
    var index: Int32 = 0
    if fc.FcPatternGetInteger(pattern, FC_INDEX, 0, &index) != FcResultMatch { index = 0 }
    // fontconfig numbers a variable font's named instances (instance + 1) << 16 | face.
    let instance = Int(index >> 16)
    return Match(
      file: String(cString: file), faceIndex: Int(index & 0xFFFF),
      namedInstance: instance > 0 ? instance - 1 : nil,
      families: strings(fc, pattern, FC_FAMILY), style: strings(fc, pattern, FC_STYLE).first)
  }

  private static func strings(_ fc: Fontconfig, _ pattern: OpaquePointer, _ object: String) -> [String] {
    var values: [String] = []
    var value: UnsafeMutablePointer<FcChar8>?
    while fc.FcPatternGetString(pattern, object, Int32(values.count), &value) == FcResultMatch, let value {
      values.append(String(cString: value))
    }
    return values
  }
}

extension FontLocator {
  /// The design coordinates of a variable font's named instance, as variations.
  ///
  /// - Throws: `ShapingError` as `FontInfo.init(file:faceIndex:)` does.
  public static func variations(ofInstance instance: Int, file: String, faceIndex: Int) throws -> [Variation]
  {
    let info = try FontInfo(file: file, faceIndex: faceIndex)
    guard info.namedInstances.indices.contains(instance) else { return [] }
    return zip(info.variationAxes, info.namedInstances[instance].coordinates).map { Variation($0.tag, $1) }
  }
}
