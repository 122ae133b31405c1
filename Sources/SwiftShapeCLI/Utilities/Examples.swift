/// The examples each command's help ends with: real commands, as the README gives them (the fonts
/// are the repository's test fonts, from its `Fixtures` folder).
enum Examples {
  static func section(_ lines: [(command: String, what: String)]) -> String {
    "\n\nEXAMPLES:\n" + lines.map { "  \($0.what):\n    $ \($0.command)\n" }.joined()
  }

  static let shape = section([
    ("swiftshape fonts/NotoSans-Latin.ttf office", "Shape a word (SwiftShape's JSON)"),
    ("swiftshape -O text fonts/NotoSans-Latin.ttf office", "The same in hb-shape's text form"),
    ("swiftshape -O json --font sans --paragraph \"Hello שלום\"", "A paragraph in both directions, as JSON"),
  ])

  static let render = section([
    ("swiftshape render --annotate \"Ta ffi\" -o ta.svg", "Draw with the built-in font, annotated"),
    (
      "swiftshape render --paragraph --font sans \"Emoji 😀👩‍💻 and text\" -o out.png",
      "A paragraph with color emoji from fallback fonts, as PNG"
    ),
    ("swiftshape render --font-file fonts/NotoSansArabic-Subset.ttf \"بِسْمِ\"", "Show it in the terminal"),
  ])

  static let check = section([
    ("swiftshape check fixtures/", "Check every fixture of a folder"),
    ("swiftshape check --update fixtures/latin.json", "Re-record the expectations that changed"),
    (
      "swiftshape check --font-file MyFont.ttf --svg failures/ shaping/collisions.json",
      "A fontbakery file, with a picture of each failure"
    ),
  ])

  static let record = section([
    (
      "swiftshape record -o fixtures/latin.json --name ligature --font-file fonts/NotoSans-Latin.ttf office",
      "Record a case"
    )
  ])

  static let info = section([
    ("swiftshape info fonts/NotoSansCJK-Subset.ttc", "What is in a font"),
    ("swiftshape info -O json \"Noto Sans:bold\"", "A font by name, as JSON"),
  ])

  static let conformance = section([
    ("swiftshape conformance harfbuzz-6.0.0/in-house/tests", "HarfBuzz's in-house suite, from its source")
  ])
}
