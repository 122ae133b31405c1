#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Clocks and child processes for the benchmarks.
enum Measure {
  /// The process's CPU time in seconds.
  static func cpuTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// Wall-clock time in seconds.
  static func wallTime() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// What one run of a program cost.
  struct Run {
    var wall: Double
    /// User plus system CPU time.
    var cpu: Double
    /// Peak resident set size, in KiB.
    var maxRSS: Int
    var status: Int32
  }

  /// Runs a program with standard output to /dev/null (or to the file `stdoutPath`) and measures it.
  /// With `quiet`, standard error goes to /dev/null as well.
  static func run(
    _ arguments: [String], stdinPath: String? = nil, stdoutPath: String? = nil, quiet: Bool = false
  )
    -> Run
  {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(
      &actions, 1, stdoutPath ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    if let stdinPath { posix_spawn_file_actions_addopen(&actions, 0, stdinPath, O_RDONLY, 0) }
    if quiet { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let start = wallTime()
    guard posix_spawnp(&pid, arguments[0], &actions, nil, &argv, environ) == 0 else {
      return Run(wall: 0, cpu: 0, maxRSS: 0, status: -1)
    }
    var status: Int32 = 0
    var usage = rusage()
    _ = wait4(pid, &status, 0, &usage)
    let wall = wallTime() - start
    let cpu =
      Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
      + Double(usage.ru_stime.tv_usec) / 1e6
    return Run(wall: wall, cpu: cpu, maxRSS: Int(usage.ru_maxrss), status: (status >> 8) & 0xFF)
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted.count % 2 == 1
      ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
  }
}

/// `value` with `decimals` digits after the point.
func fixed(_ value: Double, _ decimals: Int = 2) -> String {
  var scale = 1.0
  for _ in 0..<decimals { scale *= 10 }
  let rounded = (value * scale).rounded() / scale
  var text = String(rounded)
  if let dot = text.firstIndex(of: ".") {
    let fraction = text.distance(from: dot, to: text.endIndex) - 1
    if decimals == 0 {
      text = String(text[..<dot])
    } else if fraction < decimals {
      text += String(repeating: "0", count: decimals - fraction)
    }
  }
  return text
}

/// Writes a line to standard error.
func printError(_ message: String) {
  let line = Array((message + "\n").utf8)
  line.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
}
