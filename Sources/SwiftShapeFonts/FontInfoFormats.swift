import HarfBuzz
import SwiftShape

extension FontInfo {
  /// The info as a JSON document (format `swiftshape-info`, version 1), keys in a fixed order.
  public func json() -> String {
    var w = JSONWriter(spaced: true)
    w.beginObject()
    w.key("format", lineBreak: 2)
    w.string("swiftshape-info")
    w.member("version", 1)
    w.key("file", lineBreak: 2)
    w.string(file)
    w.member("face_index", faceIndex)
    w.member("face_count", faceCount)
    w.key("names", lineBreak: 2)
    w.beginObject()
    for (key, value) in [
      ("family", names.family), ("subfamily", names.subfamily), ("full_name", names.fullName),
      ("version", names.version), ("postscript_name", names.postScriptName),
    ] {
      w.key(key)
      if let value { w.string(value) } else { w.null() }
    }
    w.endObject()
    w.key("upem", lineBreak: 2)
    w.number(unitsPerEm)
    w.member("glyph_count", glyphCount)
    w.key("tables", lineBreak: 2)
    w.beginArray()
    for tag in tables { w.string(tag.description) }
    w.endArray()
    w.key("extents", lineBreak: 2)
    w.beginObject()
    for (key, extents) in [("horizontal", horizontalExtents), ("vertical", verticalExtents)] {
      w.key(key)
      w.beginObject()
      w.member("ascender", extents.ascender)
      w.member("descender", extents.descender)
      w.member("line_gap", extents.lineGap)
      w.endObject()
    }
    w.endObject()
    for (key, scripts, features) in [("gsub", gsub, gsubFeatures), ("gpos", gpos, gposFeatures)] {
      w.key(key, lineBreak: 2)
      w.beginObject()
      w.key("features")
      w.beginArray()
      for feature in features { w.string(feature.description) }
      w.endArray()
      w.key("scripts")
      w.beginArray()
      for script in scripts {
        w.beginObject(lineBreak: 4)
        w.member("tag", script.tag.description)
        w.key("default_features")
        w.beginArray()
        for feature in script.defaultFeatures { w.string(feature.description) }
        w.endArray()
        w.key("languages")
        w.beginArray()
        for language in script.languages {
          w.beginObject()
          w.member("tag", language.tag.description)
          w.key("features")
          w.beginArray()
          for feature in language.features { w.string(feature.description) }
          w.endArray()
          w.endObject()
        }
        w.endArray()
        w.endObject()
      }
      w.endArray(lineBreak: scripts.isEmpty ? nil : 2)
      w.endObject()
    }
    w.key("axes", lineBreak: 2)
    w.beginArray()
    for axis in variationAxes {
      w.beginObject(lineBreak: 4)
      w.member("tag", axis.tag.description)
      w.member("name", axis.name)
      w.member("min", Double(axis.minimum))
      w.member("default", Double(axis.defaultValue))
      w.member("max", Double(axis.maximum))
      w.member("hidden", axis.isHidden)
      w.endObject()
    }
    w.endArray(lineBreak: variationAxes.isEmpty ? nil : 2)
    w.key("named_instances", lineBreak: 2)
    w.beginArray()
    for instance in namedInstances {
      w.beginObject(lineBreak: 4)
      w.member("name", instance.name)
      w.member("postscript_name", instance.postScriptName)
      w.key("coordinates")
      w.beginObject()
      for (axis, value) in zip(variationAxes, instance.coordinates) {
        w.key(axis.tag.description)
        w.number(Double(value))
      }
      w.endObject()
      w.endObject()
    }
    w.endArray(lineBreak: namedInstances.isEmpty ? nil : 2)
    w.key("unicode", lineBreak: 2)
    w.beginObject()
    w.member("count", unicodeCount)
    w.key("ranges")
    w.beginArray()
    for range in unicodeRanges { w.string(FontInfo.describe(range)) }
    w.endArray()
    w.endObject()
    w.key("color", lineBreak: 2)
    w.beginObject()
    for (key, value) in [
      ("colr", color.layers), ("cpal", color.palettes), ("svg", color.svg), ("bitmaps", color.bitmaps),
    ] {
      w.key(key)
      w.bool(value)
    }
    w.endObject()
    w.key("aat", lineBreak: 2)
    w.beginArray()
    for tag in aatTables { w.string(tag.description) }
    w.endArray()
    w.endObject(lineBreak: 0)
    return w.output
  }

  /// `U+0041` or `U+0020-U+007E`.
  static func describe(_ range: ClosedRange<UInt32>) -> String {
    func hex(_ value: UInt32) -> String {
      let digits = String(value, radix: 16, uppercase: true)
      return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
    return range.lowerBound == range.upperBound
      ? hex(range.lowerBound) : "\(hex(range.lowerBound))-\(hex(range.upperBound))"
  }

  /// The info as text for people: one fact a line, lists folded.
  public func text() -> String {
    func tags(_ list: [OpenTypeTag]) -> String {
      list.isEmpty ? "(none)" : list.map(\.description).joined(separator: " ")
    }
    var lines: [String] = []
    lines.append("File:            \(file) (face \(faceIndex) of \(faceCount))")
    lines.append("Family:          \(names.family ?? "(none)")")
    lines.append("Subfamily:       \(names.subfamily ?? "(none)")")
    lines.append("Full name:       \(names.fullName ?? "(none)")")
    lines.append("Version:         \(names.version ?? "(none)")")
    lines.append("PostScript name: \(names.postScriptName ?? "(none)")")
    lines.append("Units per em:    \(unitsPerEm)")
    lines.append("Glyphs:          \(glyphCount)")
    lines.append("Tables:          \(tags(tables))")
    for (label, extents) in [("Horizontal:     ", horizontalExtents), ("Vertical:       ", verticalExtents)] {
      lines.append(
        "\(label) ascender \(extents.ascender), descender \(extents.descender), line gap \(extents.lineGap)")
    }
    for (label, scripts, features) in [("GSUB", gsub, gsubFeatures), ("GPOS", gpos, gposFeatures)] {
      lines.append("\(label) features:   \(tags(features))")
      for script in scripts {
        lines.append("  script \(script.tag): \(tags(script.defaultFeatures))")
        for language in script.languages {
          lines.append("    language \(language.tag): \(tags(language.features))")
        }
      }
    }
    if variationAxes.isEmpty {
      lines.append("Variation axes:  (none)")
    } else {
      lines.append("Variation axes:")
      for axis in variationAxes {
        lines.append(
          "  \(axis.tag) \(axis.name ?? ""): \(FontInfo.number(axis.minimum)) … \(FontInfo.number(axis.defaultValue)) … \(FontInfo.number(axis.maximum))\(axis.isHidden ? " (hidden)" : "")"
        )
      }
      lines.append("Named instances:")
      for instance in namedInstances {
        let coordinates = zip(variationAxes, instance.coordinates).map { "\($0.tag)=\(FontInfo.number($1))" }
        lines.append("  \(instance.name ?? "(unnamed)"): \(coordinates.joined(separator: " "))")
      }
    }
    lines.append("Unicode:         \(unicodeCount) code points in \(unicodeRanges.count) ranges")
    let shown = unicodeRanges.prefix(40).map(FontInfo.describe).joined(separator: " ")
    lines.append("  \(shown)\(unicodeRanges.count > 40 ? " …" : "")")
    let colors = [
      ("COLR", color.layers), ("CPAL", color.palettes), ("SVG", color.svg), ("bitmaps", color.bitmaps),
    ]
    .filter(\.1).map(\.0)
    lines.append("Color:           \(colors.isEmpty ? "(none)" : colors.joined(separator: " "))")
    lines.append("AAT tables:      \(tags(aatTables))")
    return lines.joined(separator: "\n") + "\n"
  }

  static func number(_ value: Float) -> String {
    value.rounded() == value && abs(value) < 1e9 ? String(Int(value)) : "\(value)"
  }
}
