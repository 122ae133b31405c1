// swift-tools-version:6.0
//
// SwiftShape: text shaping on top of the system HarfBuzz.
//
// Layers, bottom to top (see `ls Sources`):
//   CHarfBuzz, CFreeType, CFontconfig   system libraries found through pkg-config
//   CPNG, SwiftShapePNG                 libpng through pkg-config, and PNG encoding in C (its errors longjmp)
//   CICU, CUnicodeAlgorithms            ICU's common library through pkg-config, behind a plain C interface
//   HarfBuzz                            safe Swift owners of HarfBuzz's objects (library product)
//   SwiftShapeUnicode                   Unicode's text algorithms from ICU: bidi (library product)
//   CHyphen, SwiftShapeHyphenation      libhyphen, and where words may be hyphenated (library product)
//   SwiftShapeDefaultFont               the font used when none is given, embedded at build time
//   SwiftShape                          the shaping API users call (library product)
//   SwiftShapeFonts                     fonts by name (fontconfig) and what is in a font (library product)
//   SwiftShapeRequests                  one shaping request as a typed value, resolved to a font (library product)
//   SwiftShapeFontbakery                fontbakery's shaping checks: collisions, pattern inputs (library product)
//   SwiftShapeFixtures                  expected shaping results: record, check, update (library product)
//   SwiftShapeRender                    SVG and PNG of shaped text through FreeType (library product)
//   SwiftShapeCommandLine               the shaping commands' options (hb-shape's syntax), read into requests
//   SwiftShapeConformance               HarfBuzz's `.tests` format
//   SwiftShapeCLI                       the `swiftshape` command (thin: parses and prints)
//   SwiftShapeArguments                 its arguments handed to the Swift runtime (see Arguments.c)
//
// Beside them, not layers: Benchmarks/ (the benchmark runner and the C limits it measures against)
// and Fuzz/ (the fuzz target).

import PackageDescription

// The argument hand-off (Sources/SwiftShapeArguments/Arguments.c) defines two private functions of
// the Swift runtime, to keep the runtime's own from being linked: it is linked only with the
// toolchains it was checked against (their runtime declares those functions with the signatures
// it defines); with any other toolchain the command uses the runtime's own, a little slower to
// start, and just as right.
#if compiler(>=6.3) && compiler(<6.4)
  let argumentHandOff: [Target.Dependency] = ["SwiftShapeArguments"]
#else
  let argumentHandOff: [Target.Dependency] = []
#endif

let package = Package(
  name: "SwiftShape",
  products: [
    .library(name: "SwiftShape", targets: ["SwiftShape"]),
    .library(name: "HarfBuzz", targets: ["HarfBuzz"]),
    .library(name: "SwiftShapeUnicode", targets: ["SwiftShapeUnicode"]),
    .library(name: "SwiftShapeHyphenation", targets: ["SwiftShapeHyphenation"]),
    .library(name: "SwiftShapeFonts", targets: ["SwiftShapeFonts"]),
    .library(name: "SwiftShapeFixtures", targets: ["SwiftShapeFixtures"]),
    .library(name: "SwiftShapeFontbakery", targets: ["SwiftShapeFontbakery"]),
    .library(name: "SwiftShapeRequests", targets: ["SwiftShapeRequests"]),
    .library(name: "SwiftShapeRender", targets: ["SwiftShapeRender"]),
    // The target is not called `swiftshape`: `Sources/swiftshape` and `Sources/SwiftShape` would be
    // the same folder on a case-insensitive file system.
    .executable(name: "swiftshape", targets: ["SwiftShapeCLI"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
  ],
  targets: [
    .systemLibrary(
      name: "CHarfBuzz",
      pkgConfig: "harfbuzz",
      providers: [.apt(["libharfbuzz-dev"]), .brew(["harfbuzz"])]
    ),
    .systemLibrary(
      name: "CFreeType",
      pkgConfig: "freetype2",
      providers: [.apt(["libfreetype-dev"]), .brew(["freetype"])]
    ),
    .systemLibrary(
      name: "CICU",
      pkgConfig: "icu-uc",
      providers: [.apt(["libicu-dev"]), .brew(["icu4c"])]
    ),
    .systemLibrary(
      name: "CPNG",
      pkgConfig: "libpng",
      providers: [.apt(["libpng-dev"]), .brew(["libpng"])]
    ),
    // PNG encoding in C, where libpng's longjmp error handling can be caught.
    .target(
      name: "SwiftShapePNG",
      dependencies: ["CPNG"]
    ),
    // libhyphen has no pkg-config file: its header and library are in the default paths.
    .systemLibrary(
      name: "CHyphen",
      providers: [.apt(["libhyphen-dev"]), .brew(["hyphen"])]
    ),
    .target(
      name: "SwiftShapeHyphenation",
      dependencies: ["CHyphen"]
    ),
    .systemLibrary(
      name: "CFontconfig",
      pkgConfig: "fontconfig",
      providers: [.apt(["libfontconfig-dev"]), .brew(["fontconfig"])]
    ),
    .target(
      name: "HarfBuzz",
      dependencies: ["CHarfBuzz", "CThreadSlots"]
    ),
    .target(
      name: "CUnicodeAlgorithms",
      dependencies: ["CICU"]
    ),
    .target(
      name: "SwiftShapeUnicode",
      dependencies: ["CUnicodeAlgorithms"]
    ),
    .target(name: "CPrefetch"),
    .target(name: "CThreadSlots"),
    .target(
      name: "SwiftShapeDefaultFont",
      exclude: ["DejaVuSans.ttf", "LICENSE-DejaVu.txt"]
    ),
    .target(
      name: "SwiftShape",
      dependencies: [
        "HarfBuzz", "SwiftShapeUnicode", "SwiftShapeHyphenation", "SwiftShapeDefaultFont", "CPrefetch",
        "CThreadSlots",
      ],
      exclude: ["Schemas"]
    ),
    .target(
      name: "SwiftShapeFonts",
      dependencies: ["HarfBuzz", "SwiftShape", "CFontconfig"]
    ),
    .target(
      name: "SwiftShapeRender",
      dependencies: ["HarfBuzz", "SwiftShape", "CFreeType", "SwiftShapeDefaultFont", "SwiftShapePNG"]
    ),
    .target(
      name: "SwiftShapeRequests",
      dependencies: ["SwiftShape", "SwiftShapeFonts", "SwiftShapeHyphenation"]
    ),
    .target(
      name: "SwiftShapeCommandLine",
      dependencies: ["SwiftShape", "SwiftShapeFonts", "SwiftShapeRequests"]
    ),
    .target(
      name: "SwiftShapeConformance",
      dependencies: ["HarfBuzz", "SwiftShape", "SwiftShapeRequests", "SwiftShapeCommandLine"]
    ),
    .target(
      name: "SwiftShapeFontbakery",
      dependencies: ["HarfBuzz", "SwiftShape"]
    ),
    .target(
      name: "SwiftShapeFixtures",
      dependencies: [
        "HarfBuzz", "SwiftShape", "SwiftShapeFonts", "SwiftShapeRequests", "SwiftShapeFontbakery",
      ],
      exclude: ["Schemas"]
    ),
    .executableTarget(
      name: "SwiftShapeCLI",
      dependencies: [
        "HarfBuzz",
        "SwiftShape",
        "SwiftShapeFonts",
        "SwiftShapeFixtures",
        "SwiftShapeRender",
        "SwiftShapeConformance",
        "SwiftShapeRequests",
        "SwiftShapeCommandLine",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ] + argumentHandOff
    ),
    // The command's arguments from the C library at start (see Arguments.c).
    .target(name: "SwiftShapeArguments"),
    // The benchmarks: the C limits they measure against, and the runner.
    .target(
      name: "CShapeBaseline",
      dependencies: ["CHarfBuzz"],
      path: "Benchmarks/CShapeBaseline"
    ),
    .executableTarget(
      name: "shape-baseline",
      dependencies: ["CHarfBuzz"],
      path: "Benchmarks/shape-baseline"
    ),
    // The least a cache of shaped segments can cost, in C, without its exactness checks.
    .executableTarget(
      name: "naive-cache",
      dependencies: ["CHarfBuzz"],
      path: "Benchmarks/naive-cache"
    ),
    .systemLibrary(
      name: "CRaqm",
      path: "Benchmarks/CRaqm",
      pkgConfig: "raqm",
      providers: [.apt(["libraqm-dev"]), .brew(["libraqm"])]
    ),
    .executableTarget(
      name: "raqm-shape",
      dependencies: ["CRaqm"],
      path: "Benchmarks/raqm-shape"
    ),
    .executableTarget(
      name: "SwiftShapeBenchmarks",
      dependencies: ["SwiftShape", "SwiftShapeHyphenation", "HarfBuzz", "CShapeBaseline"],
      path: "Benchmarks/SwiftShapeBenchmarks"
    ),
    // The fuzz targets: a replay driver, or libFuzzer's entry with -DFUZZING (see .ci/fuzz).
    .executableTarget(
      name: "SwiftShapeFuzz",
      dependencies: [
        "SwiftShape", "SwiftShapeRender", "HarfBuzz", "SwiftShapeFixtures", "SwiftShapeCommandLine",
        "SwiftShapeRequests", "SwiftShapeHyphenation",
      ],
      path: "Fuzz/SwiftShapeFuzz"
    ),
    // Where the test fonts are, for every test target.
    .target(
      name: "TestFixtures",
      path: "Tests/TestFixtures"
    ),
    .testTarget(
      name: "HarfBuzzTests",
      dependencies: ["HarfBuzz", "TestFixtures"]
    ),
    .testTarget(
      name: "SystemLibraryTests",
      dependencies: ["CHarfBuzz", "CFreeType", "CFontconfig"]
    ),
    .testTarget(
      name: "SwiftShapeTests",
      dependencies: ["HarfBuzz", "SwiftShape", "TestFixtures"]
    ),
    .testTarget(
      name: "SwiftShapeHyphenationTests",
      dependencies: ["SwiftShapeHyphenation", "TestFixtures"]
    ),
    .testTarget(
      name: "SwiftShapeUnicodeTests",
      dependencies: ["SwiftShapeUnicode", "TestFixtures"]
    ),
    .testTarget(
      name: "SwiftShapeFontsTests",
      dependencies: ["HarfBuzz", "SwiftShape", "SwiftShapeFonts", "TestFixtures"]
    ),
    .testTarget(
      name: "SwiftShapeRequestsTests",
      dependencies: ["SwiftShape", "SwiftShapeRequests", "TestFixtures"]
    ),
    .testTarget(
      name: "SwiftShapeFontbakeryTests",
      // SwiftShape for its JSON reader, which keeps the order of an object's keys.
      dependencies: ["SwiftShapeFontbakery", "SwiftShape", "TestFixtures"]
    ),
    .testTarget(
      name: "SwiftShapeFixturesTests",
      dependencies: ["SwiftShape", "SwiftShapeFixtures", "SwiftShapeRequests", "TestFixtures"]
    ),
    .testTarget(
      name: "SwiftShapeCLITests",
      dependencies: [
        "HarfBuzz", "SwiftShape", "SwiftShapeRender", "SwiftShapeCommandLine", "SwiftShapeRequests",
        "SwiftShapeCLI", "TestFixtures",
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
