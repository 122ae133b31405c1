import ArgumentParser
import SwiftShape

extension SwiftShapeCommand {
  /// `swiftshape manual`: the manual page, written from the commands' own help, in roff.
  struct Manual: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Print the manual page (roff), made from the commands' own help.",
      discussion:
        "`swiftshape manual > swiftshape.1`; `man -l swiftshape.1` reads it. `make install` installs it.",
      shouldDisplay: false
    )

    func run() throws {
      let out = Output.standardOutput()
      out.write(Manual.page())
      try out.commit()
    }

    /// The page: name, synopsis, the root's description (with the exit statuses), then each
    /// command's help as it prints it, its examples included.
    static func page() -> String {
      var page = """
        .TH SWIFTSHAPE 1 "" "swiftshape \(swiftShapeVersion)" "User Commands"
        .SH NAME
        swiftshape \\- shape text with HarfBuzz, draw it, and check expected shaping
        .SH SYNOPSIS
        .B swiftshape
        [\\fIcommand\\fR] [\\fIoptions\\fR] [\\fIfont-file\\fR] [\\fItext\\fR]
        .SH DESCRIPTION
        \(roff(SwiftShapeCommand.configuration.abstract))
        .PP
        The default command is \\fBshape\\fR, whose arguments are hb-shape's; installed as \\fBhb-shape\\fR, \
        the command reads and prints exactly as hb-shape does.

        """
      page += ".SH COMMANDS\n"
      for command in SwiftShapeCommand.configuration.subcommands where command.configuration.shouldDisplay {
        let name = command._commandName
        page += ".SS \(name)\n\(roff(command.configuration.abstract))\n.PP\n.nf\n"
        page += roff(SwiftShapeCommand.helpMessage(for: command, columns: 78)) + "\n.fi\n"
      }
      page += ".SH EXIT STATUS\n"
      for (status, meaning) in [
        ("0", "success"),
        ("1", "a check failed (check, conformance, \\-\\-verify)"),
        ("64", "a usage error: an unknown option, a malformed or out-of-range value"),
        (
          "65",
          "unusable input: not a font, a damaged font, a face index out of range, invalid UTF-8, a malformed fixture"
        ),
        ("66", "a file cannot be opened, read or written"),
        ("70", "an internal failure"),
      ] {
        page += ".TP\n.B \(status)\n\(meaning)\n"
      }
      page += """
        .SH FILES
        The JSON format is described by the JSON Schema \\fIshape-document.schema.json\\fR in the \
        source (\\fISources/SwiftShape/Schemas\\fR) and in its README.
        .SH SEE ALSO
        .BR hb-shape (1),
        .BR hb-view (1),
        .BR fc-match (1)

        """
      return page
    }

    /// Text for roff: backslashes doubled, hyphens as the minus signs options are written with (so
    /// that a command copied from the page works), and a line that starts with `.` or `'`
    /// protected.
    static func roff(_ text: String) -> String {
      text.replacingAll("\\", with: "\\\\").replacingAll("-", with: "\\-").split(
        separator: "\n", omittingEmptySubsequences: false
      ).map { line in
        line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : String(line)
      }.joined(separator: "\n")
    }
  }
}

extension String {
  fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
    split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
