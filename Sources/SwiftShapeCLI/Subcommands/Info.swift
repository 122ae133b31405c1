import ArgumentParser
import SwiftShape
import SwiftShapeCommandLine
import SwiftShapeFonts
import SwiftShapeRequests

extension SwiftShapeCommand {
  struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Show what is in a font: names, metrics, tables, OpenType features, axes, coverage.",
      discussion: """
        FONT is a font file, or, when no such file exists, a fontconfig pattern ('DejaVu Sans:bold') \
        resolved as fc-match resolves it.
        """ + Examples.info
    )

    @Argument(help: ArgumentHelp("A font file or a fontconfig pattern.", valueName: "font"))
    var font: String

    @Option(
      name: .customLong("face-index"), help: ArgumentHelp("The face of a collection.", valueName: "index"))
    var faceIndex: Int?

    @Flag(name: .customLong("strict"), help: "For a pattern: fail instead of using a substitute.")
    var strict = false

    @OptionGroup var report: ReportFormatOptions

    func run() throws {
      let json = try report.isJSON()
      var file = font
      var index = faceIndex ?? 0
      if !IO.isRegularFile(font)
        && !ShapeSettings.fontExtensions.contains(where: { font.lowercased().hasSuffix($0) })
      {
        let match = try FontLocator.match(font)
        if let note = try match.substituteNote(for: font, strict: strict, name: "") {
          Diagnostics.printNote(note)
        }
        file = match.file
        index = faceIndex ?? match.faceIndex
      }
      let info = try FontInfo(file: file, faceIndex: index)
      let out = Output.standardOutput()
      out.write(json ? info.json() + "\n" : info.text())
      try out.commit()
    }
  }
}
