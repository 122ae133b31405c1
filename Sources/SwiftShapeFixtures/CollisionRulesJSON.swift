import SwiftShape
import SwiftShapeFontbakery
import SwiftShapeRequests

extension CollisionRules {
  /// Reads a `collidoscope` object. Unknown keys are errors, so a misspelt rule is not silently
  /// ignored; `comment…` keys are allowed.
  init(json: SourceJSON, context: String) throws {
    self.init()
    guard let members = json.members else {
      throw ShapingError(.badText, input: context, reason: "\"collidoscope\" must be an object")
    }
    for (key, value) in members {
      func flag() throws -> Bool {
        // Python's truth: fontbakery files write true/false, sometimes 0/1.
        if let bool = value.bool { return bool }
        if let number = value.number { return number != 0 }
        throw ShapingError(.badText, input: context, reason: "\"collidoscope.\(key)\" must be true or false")
      }
      switch key {
      case "bases": bases = try flag()
      case "marks": marks = try flag()
      case "faraway": faraway = try flag()
      case "adjacent_clusters": adjacentClusters = try flag()
      case "cursive": cursive = try flag()
      case "area":
        guard let number = value.number ?? value.bool.map({ $0 ? 1 : 0 }), number >= 0, number <= 1 else {
          throw ShapingError(
            .badText, input: context,
            reason: "\"collidoscope.area\" must be a fraction from 0 to 1 (0.05 is 5 %)")
        }
        area = number
      default:
        guard key.hasPrefix("comment") else {
          throw ShapingError(
            .badText, input: context,
            reason:
              "unknown collidoscope rule \"\(key)\" (known: bases, marks, faraway, adjacent_clusters, cursive, area)"
          )
        }
      }
    }
  }
}
