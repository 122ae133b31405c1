import HarfBuzz

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

#if FUZZING
  // SwiftPM links an executable's entry as `SwiftShapeFuzz_main`; hand control to libFuzzer's
  // driver from there, with the target SWIFTSHAPE_FUZZ_TARGET names.
  @_silgen_name("LLVMFuzzerRunDriver")
  func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
  ) -> CInt

  /// The target of this run, read once before libFuzzer starts.
  nonisolated(unsafe) var selectedTarget = FuzzTarget.shaping

  /// libFuzzer's entry for one input (its own `main`, linked but not used, names it).
  @_cdecl("LLVMFuzzerTestOneInput")
  public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    selectedTarget.run(UnsafeBufferPointer(start: data, count: size))
    return 0
  }

  @_cdecl("SwiftShapeFuzz_main")
  func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    let name = getenv("SWIFTSHAPE_FUZZ_TARGET").map { String(cString: $0) } ?? "shaping"
    guard let target = FuzzTarget(rawValue: name) else {
      let message =
        "SwiftShapeFuzz: no target '\(name)' (\(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")))\n"
      _ = message.withCString { write(2, $0, strlen($0)) }
      return 64
    }
    selectedTarget = target
    var count = argc
    var vector = argv
    return LLVMFuzzerRunDriver(&count, &vector) { fuzzOneInput($0, $1) }
  }
#else
  /// Without libFuzzer: `SwiftShapeFuzz TARGET FILE...` runs the target on each file, to replay
  /// findings and seeds.
  @main
  struct Replay {
    static func main() {
      let arguments = Array(CommandLine.arguments.dropFirst())
      guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
        print(
          "usage: SwiftShapeFuzz TARGET FILE... (targets: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")))"
        )
        exit(64)
      }
      for path in arguments.dropFirst() {
        guard let blob = try? Blob(contentsOfFile: path) else {
          print("\(path): cannot read")
          exit(66)
        }
        blob.bytes.withUnsafeBufferPointer { target.run($0) }
        print("\(path): ok")
      }
    }
  }
#endif
