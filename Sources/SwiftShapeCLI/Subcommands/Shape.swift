import ArgumentParser
import HarfBuzz
import SwiftShape
import SwiftShapeCommandLine
import SwiftShapeFixtures
import SwiftShapeRequests

extension SwiftShapeCommand {
  struct Shape: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Shape text and print the glyphs (the default subcommand).",
      usage: "swiftshape shape [<font-file>] [<text>] [<options>]",
      discussion: """
        Arguments as hb-shape takes them: [FONT-FILE] [TEXT]. With one argument and no --font-file, \
        it is the font when it names an existing file or ends in a font extension, else the text \
        (shaped with the built-in font). Without text, standard input is read. Each input line is \
        shaped on its own.

        --requests reads JSON requests, one per line ({"id": 1, "font": "f.ttf", "text": "office", \
        "features": ["-liga"]}), and answers each with one line of SwiftShape's JSON carrying the \
        same id, or {"id": …, "error": {…}}; the stream goes on after a bad request.

        --batch reads requests from standard input, one per line, each a list of these options \
        separated by ';' (hb-shape's batch protocol), and answers each with its output, or with one \
        'error: ...' line, and goes on. Options given with --batch apply to every request.
        """ + ShapeSettings.options.help() + Examples.shape
    )

    /// The arguments, read by the options' declarations (see `OptionDeclaration`).
    @Argument(declaredBy: { ShapeSettings.options.declarations.flatMap(\.names) })
    var arguments: [String] = []

    func run() throws { try ShapeSettings.options.parse(arguments, persona: Persona.current).run() }
  }
}

extension ShapeSettings {
  /// Runs the command: lists shapers, answers requests or a batch, or shapes the text; with
  /// `--cache-stats`, then says what the shaping cache did.
  func run() throws {
    defer { if output.cacheStatistics { Diagnostics.printCacheStatistics() } }
    if persona == .hbShape, font.listFontFunctions || font.listFaceLoaders,
      !HBShapeRelease.linked.hasBackendLists
    {
      // As the hb-shape of a release before 11.0.0, which has neither list.
      throw ShapingError(
        .invalidArgument, input: font.listFontFunctions ? "--list-font-funcs" : "--list-face-loaders",
        reason: "unknown option")
    }
    if shaping.listShapers || font.listFontFunctions || font.listFaceLoaders {
      let list =
        shaping.listShapers ? HarfBuzz.shapers : font.listFontFunctions ? Font.Functions.listed : Face.loaders
      let out = Output.standardOutput()
      out.write(list.map { $0 + "\n" }.joined())
      try out.commit()
      return
    }
    if let requests {
      guard first == nil, second == nil, !batch else {
        throw ValidationError("--requests takes its requests from the file, not as arguments")
      }
      try output.check(persona: persona)
      // Each request carries its own options: any other on the command line is an error.
      var alone = ShapeSettings()
      (alone.requests, alone.persona) = (requests, persona)
      (alone.output.jobs, alone.output.cacheStatistics) = (output.jobs, output.cacheStatistics)
      alone.text.maximumLength = text.maximumLength
      alone.shaping.options.usesCache = shaping.options.usesCache
      guard self == alone else {
        throw ShapingError(
          .invalidArgument, input: "--requests",
          reason: "each request holds its options; only --jobs, --max-text-length, --no-cache and "
            + "--cache-stats go with it")
      }
      let out = Output.standardOutput()
      try JSONRequests.serve(
        requests, jobs: output.jobs, maximumLength: text.maximumLength,
        usesCache: shaping.options.usesCache, to: out)
      try out.commit()
      return
    }
    if batch {
      guard first == nil, second == nil else {
        throw ValidationError("--batch takes its requests from standard input, not as arguments")
      }
      var defaults = self
      defaults.batch = false
      var batch = Batch(defaults: defaults)
      batch.maximumLength = text.maximumLength
      batch.maximumIterations = output.maximumIterations
      try batch.run()
      return
    }
    let request = try ShapeJob(self, fonts: nil, standardInputAllowed: true, note: Diagnostics.printNote)
    let out = try output.outputFile.map(Output.file) ?? .standardOutput()
    do {
      var bar: Progress?
      defer { bar?.finish() }
      try request.run(to: out) { read, size in
        if bar == nil { bar = Progress(total: size) }
        bar?.update(read)
      }
      try out.commit()
    } catch {
      out.discard()
      throw error
    }
  }
}
