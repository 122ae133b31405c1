import ArgumentParser
import SwiftShape
import SwiftShapeCommandLine
import SwiftShapeFonts

extension SwiftShapeCommand {
  struct Fonts: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List installed fonts matching a fontconfig pattern (all of them without one).",
      discussion: "As fc-list does: 'DejaVu Sans', ':lang=hi', ':style=Bold', 'Noto Sans:weight=200'."
    )

    @Argument(help: ArgumentHelp("A fontconfig pattern.", valueName: "pattern"))
    var pattern: String = ""

    @OptionGroup var report: ReportFormatOptions

    func run() throws {
      let json = try report.isJSON()
      let fonts = try FontLocator.list(pattern)
      let out = Output.standardOutput()
      if json {
        var w = JSONWriter(spaced: true)
        w.beginArray()
        for font in fonts {
          w.beginObject(lineBreak: 2)
          w.member("family", font.family)
          w.member("style", font.style)
          w.member("file", font.file)
          w.member("face_index", font.faceIndex)
          w.member("named_instance", font.namedInstance)
          w.endObject()
        }
        w.endArray(lineBreak: fonts.isEmpty ? nil : 0)
        out.write(w.output + "\n")
      } else {
        for font in fonts {
          let instance = font.namedInstance.map { " (named instance \($0))" } ?? ""
          out.write("\(font.family)\t\(font.style ?? "")\t\(font.file)\t\(font.faceIndex)\(instance)\n")
        }
      }
      try out.commit()
    }
  }
}
