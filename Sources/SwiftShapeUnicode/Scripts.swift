import CUnicodeAlgorithms

/// A maximal span of text in one script.
public struct ScriptRun: Sendable, Hashable {
  /// The span, in indices of the text's Unicode scalars.
  public var range: Range<Int>
  /// The script's ISO 15924 code: `Latn`, `Arab`, `Hani`; `Zyyy` (Common) for text with no
  /// character of a specific script.
  public var script: String

  /// A run of `script` over `range`.
  public init(range: Range<Int>, script: String) {
    self.range = range
    self.script = script
  }
}

/// Splits text into runs of one script each (Unicode's script itemization, UAX #24), with each
/// character's Script and Script_Extensions from ICU (Unicode 15.0):
///
/// - a character of a specific script starts a run of that script, or goes on the current run
///   when the current script is among its Script_Extensions;
/// - Common and Inherited characters (spaces, punctuation, digits, emoji, combining marks, joiners,
///   variation selectors) take the script of the run they are in — at the start of the text, of
///   the first run after them — unless their Script_Extensions name specific scripts that exclude
///   it (U+060C ARABIC COMMA after Latin starts an Arabic run);
/// - a nonspacing or enclosing mark (General_Category Mn, Me) takes the script of the run it is
///   in whatever its own (a Hebrew point on an Arabic letter stays in the Arabic run, as libraqm
///   keeps it), so that the font can attach it to its base;
/// - a closing paired bracket takes the script of its opening bracket (`(`…`)` around a word of
///   another script stay with the text around them), up to 63 open brackets.
public enum ScriptItemizer {
  private static let common: Int32 = 0
  private static let inherited: Int32 = 1
  /// No script yet: Common and Inherited characters before the first of a specific script.
  private static let unresolved: Int32 = -1
  /// Extensions read per character, at most: no character has more than a few dozen.
  private static let extensionsPerCharacter = 32

  /// The script runs of `scalars`, in order, covering all of them.
  ///
  /// - Throws: `UnicodeAlgorithmError` when ICU fails.
  public static func runs(_ scalars: [Unicode.Scalar]) throws -> [ScriptRun] {
    let count = scalars.count
    guard count > 0 else { return [] }
    // `scripts` gets each character's properties (its Script and flags), and then, as the loop
    // below passes it, the script it is resolved to (`unresolved` until one is known): one array
    // for both, as an array allocated costs as much as itemizing a short word.
    var status: Int32 = 0
    var scripts = [Int32](capacity: count) { properties in
      // Unicode.Scalar is its UInt32 value.
      status = scalars.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: UInt32.self) { text in
          swiftshape_script_properties(text.baseAddress, Int32(count), properties.baseAddress)
        }
      }
      return status == 0 ? count : 0
    }
    guard status == 0 else { throw UnicodeAlgorithmError(status, "reading script properties") }
    // Allocated for the first character whose extensions are read.
    var extensionBuffer: [Int32] = []

    var current: Int32?
    // Open brackets: the bracket that closes each, and the script of the text it opened in; at
    // most 63, in memory of the call's own (an array of them was allocated for each paragraph
    // with a bracket, a `malloc` and a `free`).
    withUnsafeTemporaryAllocation(
      of: (closer: UInt32, script: Int32?).self, capacity: BracketStack.capacity
    ) { brackets in
      var open = BracketStack(storage: brackets)
      // (Through a buffer pointer: each script written through the array was checked for a
      // second owner, 22 instructions a character in all, callgrind.)
      scripts.withUnsafeMutableBufferPointer { scripts in
        for index in 0..<count {
          let properties = scripts[index]
          // Speed: most characters are, with no bracket or extensions, of the current script, or
          // Common or Inherited; either way they take the current script, as the rules below would
          // give them (about a third of the itemizer's instructions on mixed text).
          if let current, properties == current || properties == common || properties == inherited {
            scripts[index] = current
            continue
          }
          // A nonspacing or enclosing mark stays with its base, whatever its own script (Hebrew
          // points written on Arabic letters): the font attaches it only when they are shaped
          // together.
          if let current, properties & SWIFTSHAPE_COMBINING_MARK != 0 {
            scripts[index] = current
            continue
          }
          let script = properties & 0xFFFF
          let isOpening = properties & SWIFTSHAPE_OPENING_BRACKET != 0
          let isClosing = properties & SWIFTSHAPE_CLOSING_BRACKET != 0
          let isSpecific = script != common && script != inherited
          // A character's Script_Extensions are read only when they say more than its Script.
          var extensionCount = 0
          if properties & SWIFTSHAPE_MORE_SCRIPTS != 0 {
            if extensionBuffer.isEmpty {
              extensionBuffer = [Int32](repeating: 0, count: extensionsPerCharacter)
            }
            extensionCount = Int(
              swiftshape_script_extensions(
                scalars[index].value, &extensionBuffer, Int32(extensionsPerCharacter)))
          }
          func extensionsContain(_ wanted: Int32) -> Bool {
            for slot in 0..<extensionCount where extensionBuffer[slot] == wanted { return true }
            return false
          }
          /// The first specific script among the extensions.
          func firstSpecificExtension() -> Int32? {
            for slot in 0..<extensionCount
            where extensionBuffer[slot] != common && extensionBuffer[slot] != inherited {
              return extensionBuffer[slot]
            }
            return nil
          }
          var chosen: Int32?
          if isClosing, let match = open.lastIndex(closedBy: scalars[index].value) {
            chosen = open.script(at: match) ?? current
            open.removeFrom(match)
          } else if isSpecific {
            chosen = current.map { $0 == script || extensionsContain($0) } == true ? current : script
          } else if let current,
            extensionCount == 0 || firstSpecificExtension() == nil || extensionsContain(current)
          {
            chosen = current
          } else if let first = firstSpecificExtension() {
            chosen = first
          } else {
            chosen = current
          }
          if isOpening, open.count < BracketStack.capacity {
            open.push(closer: swiftshape_paired_bracket(scalars[index].value), script: chosen)
          }
          scripts[index] = chosen ?? unresolved
          if let chosen, current == nil {
            // Common characters at the start take the script of the first run after them.
            for earlier in 0..<index where scripts[earlier] == unresolved { scripts[earlier] = chosen }
            open.resolveUnknownScripts(to: chosen)
          }
          if let chosen { current = chosen }
        }
      }
    }

    var runs: [ScriptRun] = []
    // (Through a buffer pointer: through the array, with its bounds checked, 10 instructions a
    // character.)
    scripts.withUnsafeBufferPointer { scripts in
      // (Room for a few runs made at once: grown by appending, the array was allocated twice or
      // more a paragraph of the mixed text, a `malloc` and a `free` each; counted first, the
      // pass over the scripts cost more than the allocations, callgrind.)
      runs.reserveCapacity(8)
      var start = 0
      var script = scripts[0]
      for index in 1..<count where scripts[index] != script {
        runs.append(ScriptRun(range: start..<index, script: name(of: script)))
        (start, script) = (index, scripts[index])
      }
      runs.append(ScriptRun(range: start..<count, script: name(of: script)))
    }
    return runs
  }

  /// ISO 15924 codes of ICU's script codes below 256, read once (a run's code made from ICU's C
  /// string each time cost 140 instructions).
  private static let names: [String] = (0..<256).map { code in
    swiftshape_script_code(Int32(code)).map { String(cString: $0) } ?? "Zzzz"
  }

  /// The ISO 15924 code of ICU's script `code` (`unresolved` is Common).
  private static func name(of code: Int32) -> String {
    let code = code == unresolved ? common : code
    guard code >= 0, code < names.count else {
      return swiftshape_script_code(code).map { String(cString: $0) } ?? "Zzzz"
    }
    return names[Int(code)]
  }

  /// The script runs of `text`, in indices of its Unicode scalars.
  public static func runs(_ text: String) throws -> [ScriptRun] {
    try runs(Array(text.unicodeScalars))
  }
}

/// The open brackets of `ScriptItemizer.runs`, innermost last: for each, the bracket that closes
/// it and the script of the text it opened in (nil while unknown), in memory the caller lends
/// (`capacity` of them at most).
private struct BracketStack {
  static let capacity = 63
  private let storage: UnsafeMutableBufferPointer<(closer: UInt32, script: Int32?)>
  private(set) var count = 0

  init(storage: UnsafeMutableBufferPointer<(closer: UInt32, script: Int32?)>) {
    precondition(storage.count >= Self.capacity)
    self.storage = storage
  }

  mutating func push(closer: UInt32, script: Int32?) {
    precondition(count < Self.capacity)
    (storage.baseAddress! + count).initialize(to: (closer, script))
    count += 1
  }

  /// The innermost open bracket `closer` closes.
  func lastIndex(closedBy closer: UInt32) -> Int? {
    var index = count - 1
    while index >= 0 {
      if storage[index].closer == closer { return index }
      index -= 1
    }
    return nil
  }

  func script(at index: Int) -> Int32? { storage[index].script }

  /// Closes the bracket at `index` and those opened after it.
  mutating func removeFrom(_ index: Int) { count = index }

  /// Gives the brackets whose script is not known yet `script`.
  func resolveUnknownScripts(to script: Int32) {
    for index in 0..<count where storage[index].script == nil { storage[index].script = script }
  }
}
