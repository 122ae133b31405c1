import SwiftShape

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// File and stream access for the command, through the C library (no Foundation on the start-up
/// path).
package enum IO {
  /// Reads a whole file, or standard input for `-`.
  ///
  /// - Throws: `ShapingError` of kind `.unreadableFile` naming the path and the system's reason.
  package static func readAll(path: String) throws -> [UInt8] {
    if path == "-" { return try readAll(descriptor: 0, name: "standard input") }
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw unreadable(path) }
    defer { close(descriptor) }
    var info = stat()
    if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
      errno = EISDIR
      throw unreadable(path)
    }
    return try readAll(descriptor: descriptor, name: path)
  }

  package static func readAll(descriptor: Int32, name: String) throws -> [UInt8] {
    var bytes: [UInt8] = []
    try withUnsafeTemporaryAllocation(byteCount: 65536, alignment: 16) { buffer in
      while true {
        let count = try readSome(descriptor, into: buffer, name: name)
        if count == 0 { return }
        bytes.append(contentsOf: buffer[..<count])
      }
    }
    return bytes
  }

  /// Whether reading `descriptor` now would return at once (input is there, or its end).
  package static func hasInput(descriptor: Int32) -> Bool {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, 0) > 0
  }

  /// Reads what is available, up to 64 KiB; empty at the end of the input.
  package static func readChunk(descriptor: Int32, name: String) throws -> [UInt8] {
    try withUnsafeTemporaryAllocation(byteCount: 65536, alignment: 16) { buffer in
      Array(buffer[..<(try readSome(descriptor, into: buffer, name: name))])
    }
  }

  /// One `read` into `buffer` (retried when interrupted): the number of bytes read, 0 at the end.
  private static func readSome(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, name: String)
    throws
    -> Int
  {
    while true {
      let count = read(descriptor, buffer.baseAddress, buffer.count)
      if count >= 0 { return count }
      if errno != EINTR { throw unreadable(name) }
    }
  }

  private static func unreadable(_ name: String) -> ShapingError {
    ShapingError(.unreadableFile, input: name, reason: String(cString: strerror(errno)))
  }

  /// The current folder.
  /// Opens a file for reading, standard input (0, not to be closed) for `-`.
  ///
  /// - Throws: `ShapingError` of kind `.unreadableFile` naming the path: a folder, a missing or
  ///   unreadable file.
  package static func openForReading(_ path: String) throws -> Int32 {
    if path == "-" { return 0 }
    guard !isDirectory(path) else {
      throw ShapingError(.unreadableFile, input: path, reason: String(cString: strerror(EISDIR)))
    }
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw unreadable(path) }
    return descriptor
  }

  package static func currentDirectory() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return "." }
    return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Whether `path` names an existing folder.
  package static func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }

  /// The names in a folder, `.` and `..` left out.
  package static func listDirectory(_ path: String) throws -> [String] {
    guard let directory = opendir(path) else { throw unreadable(path) }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  /// Whether `path` names an existing regular file.
  package static func isRegularFile(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
  }

  /// Writes text to standard error, unbuffered.
  package static func writeError(_ text: String) {
    try? writeAll(Array(text.utf8), to: 2, name: "standard error")
  }

  /// Writes all of `bytes` to a file descriptor, retrying short and interrupted writes.
  ///
  /// - Throws: `ShapingError` of kind `.unreadableFile` naming `name` when the write fails (a
  ///   full disk, a closed pipe).
  package static func writeAll(_ bytes: [UInt8], to descriptor: Int32, name: String) throws {
    try bytes.withUnsafeBufferPointer { try writeAll($0, to: descriptor, name: name) }
  }

  /// Writes all of `bytes`, as `writeAll(_:to:name:)` does.
  package static func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32, name: String) throws
  {
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
      let written = systemWrite(descriptor, base + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        throw ShapingError(
          .unreadableFile, input: name, reason: "cannot write: \(String(cString: strerror(errno)))")
      }
      offset += written
    }
  }
}

/// A file written whole beside the one it replaces and renamed over it when finished, so that the
/// file is always either the old one or all of the new one. A symbolic link is followed: the file
/// it names is replaced, and the link stays a link.
package struct ReplacementFile: Sendable {
  /// The file replaced.
  package let path: String
  /// The temporary file written, beside it.
  package let temporary: String
  /// Open for writing.
  package let descriptor: Int32

  /// A new temporary file beside `given`, with the mode the file has, or a new file's.
  ///
  /// - Throws: `ShapingError` of kind `.unreadableFile` when the folder cannot be written.
  package init(replacing given: String) throws {
    var path = given
    var info = stat()
    if lstat(given, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK, let target = realpath(given, nil) {
      path = String(cString: target)
      free(target)
    }
    var template = Array("\(path).tmp-XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { throw ReplacementFile.failure(path) }
    // mkstemp makes the file private (0600): give it the mode the file has, or a new file's.
    if stat(path, &info) == 0 {
      fchmod(descriptor, info.st_mode & 0o7777)
    } else {
      let mask = umask(0)
      umask(mask)
      fchmod(descriptor, 0o666 & ~mask)
    }
    self.path = path
    self.temporary = String(cString: template.withUnsafeBufferPointer { $0.baseAddress! })
    self.descriptor = descriptor
  }

  /// Syncs and closes the new file and renames it over the old one.
  ///
  /// - Throws: `ShapingError` of kind `.unreadableFile` (the temporary file is then removed).
  package func commit() throws {
    guard fsync(descriptor) == 0 || errno == EINVAL, close(descriptor) == 0 else {
      let error = ReplacementFile.failure(path)
      unlink(temporary)
      throw error
    }
    guard rename(temporary, path) == 0 else {
      let error = ReplacementFile.failure(path)
      unlink(temporary)
      throw error
    }
  }

  /// Closes and removes the new file; the old one stays.
  package func discard() {
    close(descriptor)
    unlink(temporary)
  }

  private static func failure(_ path: String) -> ShapingError {
    ShapingError(.unreadableFile, input: path, reason: "cannot write: \(String(cString: strerror(errno)))")
  }
}

/// The C library's `write`, under a name that does not clash with `IO.write`.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
  #else
    Darwin.write(descriptor, bytes, count)
  #endif
}
