import CHarfBuzz

/// A HarfBuzz release number, `major.minor.micro`, ordered as releases are.
///
/// SwiftShape builds against any HarfBuzz from 6.0.0 on. Two versions matter: the one whose
/// headers it was compiled against (``built``), which decides the calls it can make, and the one
/// it runs with (``running``), which decides what the library does and how the drop-in hb-shape
/// reads its options. They are the same unless the library was replaced after the build.
public struct EngineVersion: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
  /// The major number: 6 in 6.0.0.
  public var major: Int
  /// The minor number.
  public var minor: Int
  /// The micro number.
  public var micro: Int

  /// The release `major.minor.micro`.
  public init(_ major: Int, _ minor: Int, _ micro: Int) {
    self.major = major
    self.minor = minor
    self.micro = micro
  }

  /// Reads `6.0.0` (three numbers separated by dots); nil for anything else.
  public init?(_ string: String) {
    let parts = string.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let major = Int(parts[0]), let minor = Int(parts[1]), let micro = Int(parts[2]),
      major >= 0, minor >= 0, micro >= 0
    else { return nil }
    self.init(major, minor, micro)
  }

  /// `6.0.0`.
  public var description: String { "\(major).\(minor).\(micro)" }

  /// Orders releases.
  public static func < (a: EngineVersion, b: EngineVersion) -> Bool {
    (a.major, a.minor, a.micro) < (b.major, b.minor, b.micro)
  }

  /// The HarfBuzz the program runs with.
  ///
  /// The corresponding C function is `hb_version`.
  public static let running: EngineVersion = {
    var major: UInt32 = 0
    var minor: UInt32 = 0
    var micro: UInt32 = 0
    hb_version(&major, &minor, &micro)
    return EngineVersion(Int(major), Int(minor), Int(micro))
  }()

  /// The HarfBuzz whose headers SwiftShape was compiled against (`HB_VERSION_MAJOR`, …): the calls
  /// newer releases added are made only when it has them (see ``EngineFeature``).
  public static let built = EngineVersion(
    Int(swiftshape_hb_built_major()), Int(swiftshape_hb_built_minor()), Int(swiftshape_hb_built_micro()))

  /// Encodes as the string `6.0.0`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  /// Decodes the string `6.0.0`.
  public init(from decoder: any Decoder) throws {
    let string = try decoder.singleValueContainer().decode(String.self)
    guard let version = EngineVersion(string) else {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath, debugDescription: "'\(string)' is not a HarfBuzz version (6.0.0)"))
    }
    self = version
  }
}

/// What a newer HarfBuzz offers that 6.0.0 does not, and that SwiftShape uses where the engine it
/// was built against has it (chosen at build time in `CHarfBuzz/shim.h` with `HB_VERSION_ATLEAST`).
public enum EngineFeature: String, Sendable, CaseIterable {
  /// Synthetic bold and grade: outlines widened, with advances grown or kept
  /// (`hb_font_set_synthetic_bold`, 7.0.0).
  case syntheticBold = "synthetic bold and grade"
  /// Cluster level 3, graphemes without monotone order (`HB_BUFFER_CLUSTER_LEVEL_GRAPHEMES`, 11.0.0).
  case clusterLevelGraphemes = "cluster level 3 (graphemes)"
  /// The glyph a variation selector the font does not map becomes
  /// (`hb_buffer_set_not_found_variation_selector_glyph`, 10.0.0).
  case notFoundVariationSelectorGlyph = "a glyph for unmapped variation selectors"
  /// Font functions chosen by name, from the list the library was built with
  /// (`hb_font_set_funcs_using`, `hb_font_list_funcs`, 11.0.0).
  case fontFunctionsByName = "font functions by name"

  /// The first release that has it.
  public var since: EngineVersion {
    switch self {
    case .syntheticBold: EngineVersion(7, 0, 0)
    case .clusterLevelGraphemes: EngineVersion(11, 0, 0)
    case .notFoundVariationSelectorGlyph: EngineVersion(10, 0, 0)
    case .fontFunctionsByName: EngineVersion(11, 0, 0)
    }
  }

  /// Whether this build of SwiftShape has it: the HarfBuzz it was compiled against does.
  public var isAvailable: Bool { EngineVersion.built >= since }

  /// Why an option that asks for it cannot be honoured by this build: the feature and the HarfBuzz
  /// it needs.
  public var unavailableReason: String {
    "\(rawValue) needs HarfBuzz \(since) or later; SwiftShape was built with HarfBuzz \(EngineVersion.built)"
  }
}
