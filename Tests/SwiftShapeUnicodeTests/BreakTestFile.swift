import Foundation

/// The cases of one of Unicode's break test files (`GraphemeBreakTest.txt`, `LineBreakTest.txt`):
/// each line's code points, and the boundaries it lists (`÷` a boundary, `×` none) as indices into
/// them, 0 and the end included; with the line's number.
func breakTestCases(_ path: String) throws -> [(line: Int, scalars: [Unicode.Scalar], boundaries: [Int])] {
  let text = try String(contentsOfFile: path, encoding: .utf8)
  var cases: [(line: Int, scalars: [Unicode.Scalar], boundaries: [Int])] = []
  for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
    guard !line.hasPrefix("#"), let data = line.split(separator: "#", maxSplits: 1).first, data.contains("÷")
    else { continue }
    var scalars: [Unicode.Scalar] = []
    var boundaries: [Int] = []
    for token in data.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
      if token == "÷" {
        boundaries.append(scalars.count)
      } else if token != "×", let value = UInt32(token, radix: 16), let scalar = Unicode.Scalar(value) {
        scalars.append(scalar)
      }
    }
    cases.append((number + 1, scalars, boundaries))
  }
  return cases
}
