// SwiftShape's API is written in the HarfBuzz layer's typed values — `Feature`, `Variation`,
// `Direction`, `Script`, `Language`, `OpenTypeTag`, `Buffer.ClusterLevel`, `Buffer.Flags`,
// `Font.Functions` — so `import SwiftShape` brings them too: a user needs no second import to
// fill in `ShapeOptions`.
@_exported import HarfBuzz
// And the paragraph's base direction (`BaseDirection`) and the bidi and script layer under it.
@_exported import SwiftShapeUnicode
