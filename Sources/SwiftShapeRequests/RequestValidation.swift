import HarfBuzz
import SwiftShape
import SwiftShapeHyphenation

extension ShapingRequest {
  /// How a syntax names the settings in its messages.
  public enum Naming: Sendable {
    /// By command-line option (`--width`).
    case options
    /// By JSON key (`width`).
    case keys

    /// The name of the setting `key` (a ``RequestKey`` name).
    func name(_ key: String) -> String {
      switch self {
      case .options: RequestKey.named(key)?.options.first ?? key
      case .keys: key
      }
    }

    /// The setting `key` with its value (`--cluster-level=4`, `cluster_level 4`).
    func name(_ key: String, value: String) -> String {
      switch self {
      case .options: "\(name(key))=\(value)"
      case .keys: "\(key) \(value)"
      }
    }

    /// How to turn paragraphs on, in this syntax.
    var addParagraph: String {
      switch self {
      case .options: "add --paragraph"
      case .keys: "add \"paragraph\": true"
      }
    }
  }

  /// Checks the rules that hold across settings, the same for every syntax (the command line, a
  /// batch line, a JSON request line, a fixture case, a `.tests` line): line breaking and fallback
  /// fonts need a paragraph, alignment and cutting words need a width, settings this HarfBuzz does
  /// not have, shapers it does not have. Values hb-shape's syntax lets through to HarfBuzz
  /// (`ShapingFont.Options.allowsAnyValue`) are not refused.
  ///
  /// - Throws: `ShapingError` of kind `.invalidArgument` naming the setting as `naming` names it.
  public func validate(naming: Naming) throws {
    func fail(_ key: String, _ reason: String) -> ShapingError {
      ShapingError(.invalidArgument, input: naming.name(key), reason: reason)
    }
    let options = self.options
    if options.paragraph == nil, !font.fallbackFiles.isEmpty || !font.usesFallback {
      throw fail(
        font.usesFallback ? "fallback_font_files" : "fallback",
        "fallback fonts are for paragraphs: \(naming.addParagraph)")
    }
    if options.paragraph == nil,
      options.lineWidth != nil || options.breaksAnywhere || options.hyphenates || options.alignment != .start
    {
      throw fail(
        options.lineWidth != nil
          ? "width" : options.breaksAnywhere ? "break_anywhere" : options.hyphenates ? "hyphenate" : "align",
        "lines are broken in paragraphs: \(naming.addParagraph)")
    }
    if options.lineWidth == nil, options.breaksAnywhere || options.hyphenates || options.alignment != .start {
      throw fail(
        options.breaksAnywhere ? "break_anywhere" : options.hyphenates ? "hyphenate" : "align",
        "needs \(naming.name("width"))")
    }
    if options.kashida != nil, options.alignment != .justify {
      throw fail("kashida", "needs \(naming.name("align", value: "justify"))")
    }
    if options.hyphenates {
      guard let language = options.language else {
        throw fail("hyphenate", "needs \(naming.name("language")) to choose its dictionary")
      }
      if Hyphenator.dictionaryPath(for: language.identifier) == nil {
        throw fail(
          "language",
          "'\(language.identifier)' has no hyphenation dictionary (hyph_*.dic in "
            + "\(Hyphenator.folders.joined(separator: ", ")))")
      }
    }
    if !font.fallbackFiles.isEmpty, !font.usesFallback {
      throw fail("fallback", "cannot be combined with \(naming.name("fallback_font_files"))")
    }
    if let bold = font.options.syntheticBold, !EngineFeature.syntheticBold.isAvailable {
      throw fail(bold.inPlace ? "grade" : "bold", EngineFeature.syntheticBold.unavailableReason)
    }
    if options.notFoundVariationSelectorGlyph != nil,
      !EngineFeature.notFoundVariationSelectorGlyph.isAvailable
    {
      throw fail(
        "not_found_variation_selector_glyph", EngineFeature.notFoundVariationSelectorGlyph.unavailableReason)
    }
    guard !font.options.allowsAnyValue else { return }
    if options.clusterLevel != .monotoneGraphemes, !options.clusterLevel.isDefined {
      throw ShapingError(
        .invalidArgument, input: naming.name("cluster_level", value: "\(options.clusterLevel.rawValue)"),
        reason: options.clusterLevel == .graphemes
          ? EngineFeature.clusterLevelGraphemes.unavailableReason
          : "the cluster level must be \(Buffer.ClusterLevel.allCases.map { "\($0.rawValue)" }.joined(separator: ", "))"
      )
    }
    let available = HarfBuzz.shapers
    for shaper in options.shapers ?? [] where !available.contains(shaper) {
      throw ShapingError(
        .invalidArgument, input: naming.name("shapers", value: shaper),
        reason: "unknown or unavailable shaper (available: \(available.joined(separator: ", ")))")
    }
  }
}
