#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Benchmarks {
  /// fontbakery's collision check of a file of pattern inputs (tens of thousands of strings):
  /// `swiftshape check` against `fontbakery check-profile` running only `shaping/collides`, whole
  /// processes, paired trials. Both find the same failing strings (the fontbakery comparison
  /// test). Nil, with a note, when fontbakery is not installed.
  func collisionCheck(file: String, font: String, scratch: String) -> Figure? {
    guard let fontbakery = Benchmarks.onPath("fontbakery") else {
      printError(
        "swiftshape-benchmarks: fontbakery is not installed (pip install 'fontbakery[shaping]'): no figure for collision checks"
      )
      return nil
    }
    // fontbakery reads every .json file of a folder named by a configuration file, and runs the
    // checks a profile lists.
    let folder = String(file[..<(file.lastIndex(of: "/") ?? file.startIndex)])
    let configuration = scratch + ".yaml"
    let profile = scratch + "_profile.py"
    write("shaping:\n  test_directory: \(folder)\n", to: configuration)
    write("PROFILE = {\"sections\": {\"Shaping\": [\"shaping/collides\"]}}\n", to: profile)
    defer {
      unlink(configuration)
      unlink(profile)
    }
    func run(_ arguments: [String]) -> Measure.Run {
      // fontbakery warns about optional modules on standard error.
      let run = Measure.run(arguments, quiet: true)
      // Failing tests are the point: exit status 1 is a finished check.
      if run.status != 0 && run.status != 1 {
        printError("swiftshape-benchmarks: \(arguments.joined(separator: " ")) exited with \(run.status)")
        exit(70)
      }
      return run
    }
    var ours: [Double] = []
    var theirs: [Double] = []
    for _ in 0..<trials {
      ours.append(run([swiftshape, "check", "--font-file", font, file]).wall)
      theirs.append(run([fontbakery, "check-profile", "--configuration", configuration, profile, font]).wall)
    }
    let ratio = Measure.median(zip(theirs, ours).map { $0 / $1 })
    return Figure(
      name: "collision check, pattern inputs", value: ratio, target: "≥ 10× fontbakery", met: ratio >= 10,
      detail:
        "swiftshape \(fixed(Measure.median(ours) * 1e3)) ms, fontbakery \(fixed(Measure.median(theirs) * 1e3)) ms"
    )
  }

  static func onPath(_ name: String) -> String? {
    let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") where access("\(folder)/\(name)", X_OK) == 0 {
      return "\(folder)/\(name)"
    }
    return nil
  }

  private func write(_ text: String, to path: String) {
    guard let file = fopen(path, "wb") else { return }
    let bytes = Array(text.utf8)
    bytes.withUnsafeBytes { _ = fwrite($0.baseAddress, 1, $0.count, file) }
    fclose(file)
  }
}

/// The working folder.
enum WorkingFolder {
  static var path: String {
    var buffer = [CChar](repeating: 0, count: 4096)
    guard getcwd(&buffer, buffer.count) != nil else { return "." }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
