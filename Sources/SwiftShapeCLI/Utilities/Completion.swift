import ArgumentParser
import SwiftShapeCommandLine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Shell completion for the commands whose options are read with their own declarations (`shape`,
/// `render`, `record`): ArgumentParser's completion scripts call back (`---completion`) with the
/// word being completed, and get the declared option names that start with it, or else the files
/// that do.
enum Completion {
  static func candidates(names: [String], prefix: String) -> [String] {
    if prefix.hasPrefix("-") { return names.filter { $0.hasPrefix(prefix) }.sorted() }
    // Files: the entries of the prefix's folder that start with the rest of it.
    let slash = prefix.lastIndex(of: "/")
    let folder = slash.map { String(prefix[...$0]) } ?? ""
    let start = slash.map { String(prefix[prefix.index(after: $0)...]) } ?? prefix
    guard let directory = opendir(folder.isEmpty ? "." : folder) else { return [] }
    defer { closedir(directory) }
    var found: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard name != ".", name != "..", name.hasPrefix(start), !(start.isEmpty && name.hasPrefix(".")) else {
        continue
      }
      found.append(folder + name)
    }
    return found.sorted()
  }
}

extension Argument where Value == [String] {
  /// A shaping command's arguments, all taken as they come (the options' declarations read them:
  /// see `OptionDeclaration`), kept out of the help, and completed from the declared names.
  init(wrappedValue: [String], declaredBy names: @escaping @Sendable () -> [String]) {
    self.init(
      wrappedValue: wrappedValue, parsing: .allUnrecognized, help: .hidden,
      completion: .custom { _, _, prefix in Completion.candidates(names: names(), prefix: prefix) })
  }
}
