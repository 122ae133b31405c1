import SwiftShape

/// The hb-shape the drop-in and `swiftshape conformance` read and print as: the one of the HarfBuzz
/// the program runs with. Each rule below changed between HarfBuzz 6.0.0 and 15.0.0 and names the
/// release it changed in (HarfBuzz's `util/` sources and `test/shape/run-tests.py`, release by
/// release); the two ends, 6.0.0 and 15.0.0, are tested against their own hb-shape.
package struct HBShapeRelease: Sendable, Hashable {
  /// The release whose hb-shape this is.
  package var version: EngineVersion

  /// hb-shape of `version`.
  package init(_ version: EngineVersion) { self.version = version }

  /// The hb-shape of the HarfBuzz the program runs with.
  package static let linked = HBShapeRelease(.running)

  private func since(_ major: Int, _ minor: Int, _ micro: Int) -> Bool {
    version >= EngineVersion(major, minor, micro)
  }

  /// `-V`: the trace lines go to standard error, the glyphs to standard output (7.0.0); before,
  /// both to standard output.
  package var tracesToStandardError: Bool { since(7, 0, 0) }

  /// `--font-funcs`: the exact name of font functions HarfBuzz lists (`hb_font_set_funcs_using`,
  /// 11.0.0); before, `ot` or `ft` in any case (`g_ascii_strcasecmp`).
  package var fontFunctionsByExactName: Bool { since(11, 0, 0) }

  /// A face index past the file's last face: the font fails to load (faces made with
  /// `hb_face_create_from_file_or_fail`, 10.1.0); before, HarfBuzz's empty face is shaped with.
  package var refusesMissingFace: Bool { since(10, 1, 0) }

  /// `--font-bold`, `--font-grade`, `--named-instance` and `-y` for `--face-index` (7.0.0).
  package var hasFontBoldAndNamedInstance: Bool { since(7, 0, 0) }

  /// `--ned`, `--no-advances`: the absolute positions start again from 0 at each 32,768 bytes of a
  /// line's output (`HBFormat.restartsAbsolutePositions`); from 13.0.0, they go on.
  package var restartsAbsolutePositions: Bool { !since(13, 0, 0) }

  /// `--glyphs`: the input is glyphs in the text serialization, read, not shaped (7.0.0).
  package var hasGlyphInput: Bool { since(7, 0, 0) }

  /// `--not-found-variation-selector-glyph` (10.0.0).
  package var hasNotFoundVariationSelectorGlyph: Bool { since(10, 0, 0) }

  /// `--face-loader` (10.1.0).
  package var hasFaceLoader: Bool { since(10, 1, 0) }

  /// `--list-font-funcs` and `--list-face-loaders` (11.0.0).
  package var hasBackendLists: Bool { since(11, 0, 0) }

  /// An empty `--text` beside `--unicodes` (either order) is ignored rather than refused as a
  /// second text (10.3.0).
  package var ignoresEmptyTextBesideUnicodes: Bool { since(10, 3, 0) }

  /// `--version`'s lines: `hb-shape (HarfBuzz) X` and, before 11.4.2, the shapers after it.
  package var versionText: String {
    since(11, 4, 2)
      ? "hb-shape (HarfBuzz) \(version)"
      : "hb-shape (HarfBuzz) \(version)\nAvailable shapers: \(HarfBuzz.shapers.joined(separator: ","))"
  }

  /// How HarfBuzz's own runner runs a `.tests` file of this release (`test/shape/run-tests.py`).
  package var conformanceRunner: ConformanceRunnerRules {
    ConformanceRunnerRules(
      directives: since(11, 0, 0), safeToInsertTatweel: since(11, 3, 0))
  }

  /// What a release's runner does beyond shaping each test.
  package struct ConformanceRunnerRules: Sendable, Hashable {
    /// Directives (`@font-funcs=ot,ft`, `@shapers=ot`) choose the backends, the test's own
    /// `--shaper`, `--font-funcs` and `--face-loader` are taken out of its options to choose them,
    /// and every font-functions implementation HarfBuzz lists is tried (11.0.0); before, `ft` then
    /// `ot`, with the test's options after the runner's.
    package var directives: Bool
    /// `--safe-to-insert-tatweel` is added beside `--verify --unsafe-to-concat` (11.3.0).
    package var safeToInsertTatweel: Bool
  }
}
