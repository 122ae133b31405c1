import CHyphen

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where words may be hyphenated, by libhyphen with one of LibreOffice's pattern dictionaries
/// (`hyph_LANG_REGION.dic`, Debian's `hyphen-*` packages).
///
/// libhyphen rather than patterns applied by hand: it is what LibreOffice hyphenates with, it
/// reads the dictionaries' own settings (their character set, `LEFTHYPHENMIN`,
/// `RIGHTHYPHENMIN`) and their non-standard points, and its results are checked here against
/// pyphen's, an independent reading of the same dictionaries.
///
/// ```swift
/// let english = try Hyphenator(language: "en-US")
/// english.points(in: "hyphenation")  // [2, 6]: hy-phen-ation
/// ```
public final class Hyphenator: @unchecked Sendable {
  // @unchecked: libhyphen reads its dictionary and never writes it once loaded
  // (`hnj_hyphen_hyphenate2` keeps its state in its arguments), so threads may share one.

  /// The dictionary's file.
  public let path: String
  /// The fewest characters before a hyphen: the dictionary's `LEFTHYPHENMIN` (2 where it has
  /// none), or the caller's.
  public let leftMinimum: Int
  /// The fewest characters after a hyphen: the dictionary's `RIGHTHYPHENMIN` (2 where it has
  /// none), or the caller's.
  public let rightMinimum: Int
  /// The shortest word hyphenated, in characters (`leftMinimum + rightMinimum` at least).
  public let minimumWordLength: Int

  private let dictionary: UnsafeMutablePointer<HyphenDict>
  /// The dictionary's character set: UTF-8, or one byte a character (ISO 8859-1 and the like),
  /// converted to through iconv.
  private let isUTF8: Bool
  private let charset: String

  /// The folders dictionaries are looked for in: `SWIFTSHAPE_HYPHEN_DIR` when set, then Debian's
  /// and Homebrew's.
  public static var folders: [String] {
    var folders = ["/usr/share/hyphen", "/usr/local/share/hyphen", "/opt/homebrew/share/hyphen"]
    if let given = getenv("SWIFTSHAPE_HYPHEN_DIR") { folders.insert(String(cString: given), at: 0) }
    return folders
  }

  /// The dictionary for a BCP 47 language tag (`en-US`, `de`, `fr-CA`): `hyph_en_US.dic`, else
  /// the language's own (`hyph_de.dic`), else the first of the language with a region
  /// (`hyph_de_DE.dic`), in `folders`; nil when there is none.
  public static func dictionaryPath(for language: String, in folders: [String] = folders) -> String? {
    let parts = language.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
    guard let primary = parts.first?.lowercased(), !primary.isEmpty, primary.allSatisfy(\.isLetter) else {
      return nil
    }
    let region = parts.dropFirst().first { $0.count == 2 }?.uppercased()
    for folder in folders {
      var names = ["hyph_\(primary).dic"]
      if let region { names.insert("hyph_\(primary)_\(region).dic", at: 0) }
      for name in names where access("\(folder)/\(name)", R_OK) == 0 { return "\(folder)/\(name)" }
    }
    for folder in folders {
      guard let directory = opendir(folder) else { continue }
      defer { closedir(directory) }
      var found: [String] = []
      while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) {
          String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name.hasPrefix("hyph_\(primary)_"), name.hasSuffix(".dic") { found.append(name) }
      }
      if let first = found.sorted().first { return "\(folder)/\(first)" }
    }
    return nil
  }

  /// Loads the dictionary for `language` (see `dictionaryPath(for:in:)`).
  ///
  /// - Throws: `HyphenationError.unknownLanguage` naming it when no dictionary is installed for
  ///   it; `HyphenationError.unreadableDictionary` when the file cannot be loaded.
  public convenience init(language: String, leftMinimum: Int? = nil, rightMinimum: Int? = nil) throws {
    guard let path = Self.dictionaryPath(for: language) else {
      throw HyphenationError.unknownLanguage(language, folders: Self.folders)
    }
    try self.init(dictionary: path, leftMinimum: leftMinimum, rightMinimum: rightMinimum)
  }

  /// Loads the dictionary at `path`.
  ///
  /// - Throws: `HyphenationError.unreadableDictionary` when the file cannot be loaded.
  public init(dictionary path: String, leftMinimum: Int? = nil, rightMinimum: Int? = nil) throws {
    guard access(path, R_OK) == 0, let dictionary = hnj_hyphen_load(path) else {
      throw HyphenationError.unreadableDictionary(path)
    }
    self.path = path
    self.dictionary = dictionary
    isUTF8 = dictionary.pointee.utf8 != 0
    charset = withUnsafeBytes(of: dictionary.pointee.cset) {
      String(decoding: $0.prefix { $0 != 0 && $0 != 0x0A && $0 != 0x0D }, as: UTF8.self)
    }
    let left = Int(dictionary.pointee.lhmin)
    let right = Int(dictionary.pointee.rhmin)
    self.leftMinimum = max(1, leftMinimum ?? (left > 0 ? left : 2))
    self.rightMinimum = max(1, rightMinimum ?? (right > 0 ? right : 2))
    minimumWordLength = self.leftMinimum + self.rightMinimum
  }

  deinit { hnj_hyphen_free(dictionary) }

  /// Where `word` may be hyphenated: the indices of the Unicode scalars a hyphen may go before,
  /// ascending, at least `leftMinimum` from the start and `rightMinimum` from the end. Letters
  /// are matched in lowercase (one scalar for one). A word the dictionary's character set cannot
  /// write, or shorter than `minimumWordLength`, has none; so do the points where the dictionary
  /// would change the letters around the hyphen (German's old `Schiff-fahrt`), which are left
  /// out.
  public func points(in word: some StringProtocol) -> [Int] {
    points(inScalars: ArraySlice(word.unicodeScalars))
  }

  /// Where the word of `scalars` may be hyphenated, as `points(in:)` gives it.
  public func points(inScalars word: ArraySlice<Unicode.Scalar>) -> [Int] {
    guard word.count >= minimumWordLength, word.count < 1024 else { return [] }
    // Speed: ASCII letters lowered and written as UTF-8 without a string (asked of their
    // properties and made a string, a line's word cost more to prepare than libhyphen takes to
    // hyphenate it, callgrind).
    var scalars: [Unicode.Scalar] = []
    scalars.reserveCapacity(word.count)
    for scalar in word {
      if scalar.value < 0x80 {
        scalars.append(
          (0x41...0x5A).contains(scalar.value) ? Unicode.Scalar(UInt8(scalar.value) | 0x20) : scalar)
      } else {
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        scalars.append(lower.count == 1 ? lower.first! : scalar)
      }
    }
    var bytes: [UInt8]
    if isUTF8 {
      bytes = []
      bytes.reserveCapacity(scalars.count * 4 + 1)
      for scalar in scalars { UTF8.encode(scalar) { bytes.append($0) } }
    } else {
      guard let converted = Self.convert(scalars, to: charset), converted.count == scalars.count else {
        return []
      }
      bytes = converted
    }
    // libhyphen reads the word as a C string as well (`strstr`): it ends with a NUL, not counted.
    let length = bytes.count
    bytes.append(0)
    var hyphens = [CChar](repeating: 0, count: length + 5)
    var replacements: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    var positions: UnsafeMutablePointer<Int32>?
    var cuts: UnsafeMutablePointer<Int32>?
    let status = bytes.withUnsafeBufferPointer { text in
      text.withMemoryRebound(to: CChar.self) { text in
        hnj_hyphen_hyphenate3(
          dictionary, text.baseAddress, Int32(length), &hyphens, nil, &replacements, &positions, &cuts,
          Int32(leftMinimum), Int32(rightMinimum), Int32(leftMinimum), Int32(rightMinimum))
      }
    }
    defer {
      if let replacements {
        for index in 0..<length { free(replacements[index]) }
        free(replacements)
      }
      free(positions)
      free(cuts)
    }
    guard status == 0 else { return [] }
    // `hyphens[i]` odd: a hyphen may go after character `i` (characters, not bytes, in UTF-8).
    var points: [Int] = []
    for index in 0..<(scalars.count - 1) where hyphens[index] & 1 == 1 {
      if let replacements, replacements[index] != nil { continue }
      let point = index + 1
      if point >= leftMinimum, scalars.count - point >= rightMinimum { points.append(point) }
    }
    return points
  }

  /// `scalars` in a charset of one byte a character, through iconv; nil where one has no byte.
  private static func convert(_ scalars: [Unicode.Scalar], to charset: String) -> [UInt8]? {
    if charset.uppercased().filter({ $0 != "-" }) == "ISO88591" {
      guard scalars.allSatisfy({ $0.value < 0x100 }) else { return nil }
      return scalars.map { UInt8($0.value) }
    }
    let converter = iconv_open(charset, "UTF-8")
    guard let converter, converter != iconv_t(bitPattern: -1) else { return nil }
    defer { iconv_close(converter) }
    var input = Array(String(String.UnicodeScalarView(scalars)).utf8).map { CChar(bitPattern: $0) }
    var output = [CChar](repeating: 0, count: input.count * 4 + 4)
    let written: Int? = input.withUnsafeMutableBufferPointer { inputBuffer in
      output.withUnsafeMutableBufferPointer { outputBuffer in
        var inPointer: UnsafeMutablePointer<CChar>? = inputBuffer.baseAddress
        var inLeft = inputBuffer.count
        var outPointer: UnsafeMutablePointer<CChar>? = outputBuffer.baseAddress
        var outLeft = outputBuffer.count
        guard iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft) != -1, inLeft == 0 else {
          return nil
        }
        return outputBuffer.count - outLeft
      }
    }
    guard let written else { return nil }
    return output.prefix(written).map { UInt8(bitPattern: $0) }
  }
}

/// Why a hyphenation dictionary could not be had.
public enum HyphenationError: Error, Equatable, CustomStringConvertible {
  /// No dictionary for the language in the folders looked in.
  case unknownLanguage(String, folders: [String])
  /// The file is missing or not a dictionary libhyphen reads.
  case unreadableDictionary(String)

  /// One line naming the language or the file.
  public var description: String {
    switch self {
    case .unknownLanguage(let language, let folders):
      "no hyphenation dictionary for '\(language)' (hyph_*.dic in \(folders.joined(separator: ", ")))"
    case .unreadableDictionary(let path): "\(path): not a hyphenation dictionary libhyphen can read"
    }
  }
}
