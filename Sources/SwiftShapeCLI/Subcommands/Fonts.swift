import ArgumentParser
import SwiftShape
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
          w.key("family")
          w.string(font.family)
          w.key("style")
          if let style = font.style { w.string(style) } else { w.null() }
          w.key("file")
          w.string(font.file)
          w.key("face_index")
          w.number(font.faceIndex)
          w.key("named_instance")
          if let instance = font.namedInstance { w.number(instance) } else { w.null() }
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
