// A fixture's fontbakery checks are written in the fontbakery profile's values — `CollisionRules`,
// `Collision`, `StringPattern` — so `import SwiftShapeFixtures` brings them too.
@_exported import SwiftShapeFontbakery
