import ArgumentParser
import SwiftShape

extension SwiftShapeCommand {
  struct Shape: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Shape text and print the glyphs (the default subcommand).",
      discussion: """
        Arguments as hb-shape takes them: [FONT-FILE] [TEXT]. With one argument and no --font-file, \
        it is the font when it names an existing file, else the text (shaped with the built-in \
        font). Without text, standard input is read. Each input line is shaped on its own.
        """
    )

    @Argument(help: ArgumentHelp("The font file (or, alone, the text).", valueName: "font-file"))
    var first: String?

    @Argument(help: ArgumentHelp("The text.", valueName: "text"))
    var second: String?

    @OptionGroup(title: "Font options") var font: FontOptions
    @OptionGroup(title: "Text options") var text: TextOptions
    @OptionGroup(title: "Shaping options") var shaping: ShapingOptions
    @OptionGroup(title: "Output options") var output: OutputOptions

    /// Sorts the positional arguments into a font and a text, as described in the discussion.
    private func positionals() -> (font: String?, text: String?) {
      switch (first, second) {
      case (let first?, let second?): return (first, second)
      case (let first?, nil):
        let textGiven = text.text != nil || text.textFile != nil || text.unicodes != nil
        if font.fontFile == nil && (textGiven || IO.isRegularFile(first)) { return (first, nil) }
        return (nil, first)
      default: return (nil, nil)
      }
    }

    func validate() throws {
      if second != nil && font.fontFile != nil {
        throw ValidationError("a font was given both by --font-file and as an argument")
      }
    }

    func run() throws {
      let (fontPath, positionalText) = positionals()
      var options = try shaping.shapeOptions()
      options.textBefore = text.textBefore ?? ""
      options.textAfter = text.textAfter ?? ""
      options.includeGlyphNames = !output.noGlyphNames
      options.includeExtents = output.showExtents
      let shapingFont = try font.load(positionalFont: fontPath)
      let lines = try text.lines(positionalText: positionalText)

      switch output.format {
      case .text:
        var format = HBTextFormat()
        format.glyphNames = !output.noGlyphNames
        format.extents = output.showExtents
        format.glyphFlags = output.showFlags
        var out = ""
        for line in lines {
          out += format.line(for: try shapingFont.shape(line, options: options))
          out += "\n"
        }
        IO.write(out)
      case .json:
        let entries = try lines.enumerated().map { index, line in
          ShapeDocument.Entry(line: index + 1, result: try shapingFont.shape(line, options: options))
        }
        IO.write(ShapeDocument(font: shapingFont, options: options, entries: entries).json(.pretty) + "\n")
      case .jsonl:
        for (index, line) in lines.enumerated() {
          let entry = ShapeDocument.Entry(
            line: index + 1, result: try shapingFont.shape(line, options: options))
          IO.write(ShapeDocument(font: shapingFont, options: options, entries: [entry]).json(.compact) + "\n")
        }
      }
    }
  }
}
