import SwiftShape

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One option of a shaping command, declared once: its names, its value's name, its help, and
/// what it does to the settings (reading the value into a typed one, as the settings' persona
/// reads it). The command's arguments are parsed with these declarations and its `--help` is
/// written from them; ArgumentParser, whose reflection would cost milliseconds at every start,
/// only dispatches to the subcommand.
package struct OptionDeclaration<Settings>: Sendable {
  /// What the option does to the settings.
  package enum Action: Sendable {
    case flag(@Sendable (inout Settings) -> Void)
    case value(@Sendable (inout Settings, String) throws -> Void)
  }

  /// `--font-size`, `-u`, …: every name the option answers to, the long one last.
  package var name: StaticString
  /// A second name (`-u` beside `--unicodes`), if any.
  package var alias: StaticString?
  /// The value's name in the help (`path`, `list`); nil for a flag.
  package var valueName: String?
  /// One sentence or two.
  package var help: String
  package var action: Action

  /// A flag: an option without a value.
  package static func flag(
    _ name: StaticString, _ alias: StaticString? = nil, help: String,
    _ apply: @escaping @Sendable (inout Settings) -> Void
  )
    -> Self
  {
    Self(name: name, alias: alias, valueName: nil, help: help, action: .flag(apply))
  }

  /// Every name the option answers to.
  package var names: [String] { [name.description] + (alias.map { [$0.description] } ?? []) }

  /// Whether the option answers to `argument` (compared as bytes: the names are ASCII).
  func answers(to argument: String) -> Bool {
    func equal(_ name: StaticString) -> Bool {
      var argument = argument
      return argument.withUTF8 { bytes in
        bytes.count == name.utf8CodeUnitCount
          && (bytes.isEmpty || memcmp(bytes.baseAddress!, name.utf8Start, bytes.count) == 0)
      }
    }
    return equal(name) || alias.map(equal) == true
  }

  /// An option with a value, given as `--name=value` or `--name value`.
  package static func value(
    _ name: StaticString, _ alias: StaticString? = nil, valueName: String, help: String,
    _ apply: @escaping @Sendable (inout Settings, String) throws -> Void
  ) -> Self {
    Self(name: name, alias: alias, valueName: valueName, help: help, action: .value(apply))
  }
}

// The setters are closures, not key paths: a key path is made at run time at its first use, about
// 60,000 instructions each at start-up (counted with callgrind).

extension OptionDeclaration where Settings: ShapingCommandSettings {
  /// An option whose value is read as the settings' persona reads it, leniently as hb-shape does
  /// (`asHBShape`) or strictly (`strictly`, its errors naming the option), and given to `set`.
  static func parsed<Value>(
    _ name: StaticString, valueName: String, help: String,
    asHBShape: @escaping @Sendable (String) -> Value, strictly: @escaping @Sendable (String) throws -> Value,
    set: @escaping @Sendable (inout Settings, Value) -> Void
  ) -> Self {
    .value(name, valueName: valueName, help: help) { settings, value in
      set(
        &settings,
        settings.persona == .hbShape
          ? asHBShape(value) : try ShapingError.parsing(name.description) { try strictly(value) })
    }
  }
}

extension OptionDeclaration {
  /// An option whose value names one of `Value`'s cases (`--align end`), given to `set`; any other
  /// value is an error naming the option, the value and the cases.
  static func choice<Value: RawRepresentable & CaseIterable & SendableMetatype>(
    _ name: StaticString, valueName: String, help: String, named what: String,
    set: @escaping @Sendable (inout Settings, Value) -> Void
  ) -> Self where Value.RawValue == String {
    // The cases are listed only for an error: a list made here, at start-up, would instantiate
    // generic metadata for each type (about 15,000 instructions each).
    .value(name, valueName: valueName, help: help) { settings, value in
      guard let choice = Value(rawValue: value) else {
        let names = Value.allCases.map(\.rawValue)
        throw ShapingError(
          .invalidArgument, input: "\(name)=\(value)",
          reason: "not \(what) (\(names.dropLast().joined(separator: ", ")) or \(names.last ?? ""))")
      }
      set(&settings, choice)
    }
  }
}

/// A titled group of options, for the help.
package struct OptionSection<Settings>: Sendable {
  /// A section of `options` under `title`.
  package init(title: String, options: [OptionDeclaration<Settings>]) {
    self.title = title
    self.options = options
  }

  package var title: String
  package var options: [OptionDeclaration<Settings>]
}

extension OptionSection where Settings: ShapingCommandSettings {
  /// The font, text and shaping options every shaping command takes.
  package static var shapingSections: [OptionSection<Settings>] {
    [
      OptionSection(title: "Font options", options: FontSettings.declarations()),
      OptionSection(title: "Text options", options: TextSettings.declarations()),
      OptionSection(title: "Shaping options", options: ShapingSettings.declarations()),
    ]
  }
}

/// A shaping command's options: parses its arguments in hb-shape's syntax and writes its help.
// The settings type is not constrained on the types themselves: a generic type with a protocol
// requirement has its metadata made at run time by looking the conformance up through every
// conformance in the program (a tenth of the command's start-up, measured with callgrind).
package struct CommandOptions<Settings>: Sendable {
  package let sections: [OptionSection<Settings>]
  /// How many positional arguments the command takes (a font and a text, or only a text).
  package let positionalLimit: Int
  /// Every declaration, in order: looked through at each option (a few dozen byte comparisons,
  /// cheaper at start-up than hashing every name into a table first).
  private let all: [OptionDeclaration<Settings>]

  package init(positionalLimit: Int = 2, _ sections: [OptionSection<Settings>]) {
    self.sections = sections
    self.positionalLimit = positionalLimit
    all = sections.flatMap(\.options)
  }

  /// What the option of a name does; nil for an unknown option.
  package func action(_ name: String) -> OptionDeclaration<Settings>.Action? {
    // By index: `first(where:)` here, unspecialized, looked its iterator type up at run time.
    for index in all.indices where all[index].answers(to: name) { return all[index].action }
    return nil
  }

  /// Every option's declaration.
  package var declarations: [OptionDeclaration<Settings>] { all }

  /// The options part of the help: a section a group, an option a line (its help wrapped to
  /// `columns`, the widest line ArgumentParser leaves whole when not on a terminal).
  package func help(columns: Int = 79) -> String {
    var text = "\n"
    for section in sections {
      text += "\n\(section.title.uppercased()):\n"
      for option in section.options {
        let names = option.names.joined(separator: ", ")
        let label = "  " + names + (option.valueName.map { " <\($0)>" } ?? "")
        let column = 34
        var lines: [String] = []
        var line = ""
        for word in option.help.split(separator: " ") {
          if !line.isEmpty, column + line.count + word.count + 1 > columns {
            lines.append(line)
            line = ""
          }
          line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(line)
        let pad = String(repeating: " ", count: column)
        if label.count < column - 1 {
          text += label + String(repeating: " ", count: column - label.count) + lines[0] + "\n"
        } else {
          text += label + "\n" + pad + lines[0] + "\n"
        }
        for rest in lines.dropFirst() { text += pad + rest + "\n" }
      }
    }
    return text
  }
}

extension CommandOptions where Settings: ShapingCommandSettings {
  /// The settings for `arguments`, in hb-shape's syntax: `--name=value`, `--name value`,
  /// `-u value`, flags, and positional arguments (`--` ends the options). Values are read as
  /// `persona` reads them: strictly, or as hb-shape does (`HBShapeSyntax`).
  ///
  /// - Throws: `ShapingError` of kind `.invalidArgument` for an unknown option, a missing or
  ///   malformed value, or a positional argument too many; the settings' validation errors.
  /// - Parameter base: settings the arguments add to (a batch's options, which every request
  ///   starts from); by default every option at its default.
  package func parse(_ arguments: [String], persona: Persona = .swiftshape, over base: Settings? = nil) throws
    -> Settings
  {
    var settings = base ?? Settings()
    settings.persona = persona
    var positionals = [settings.first, settings.second].compactMap { $0 }
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      guard !optionsEnded, argument.hasPrefix("-"), argument != "-" else {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      var name = argument
      var attached: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        attached = String(argument[argument.index(after: equals)...])
      }
      guard let action = action(name) else {
        throw ShapingError(.invalidArgument, input: name, reason: "unknown option")
      }
      switch action {
      case .flag(let apply):
        guard attached == nil else {
          throw ShapingError(.invalidArgument, input: argument, reason: "\(name) takes no value")
        }
        apply(&settings)
      case .value(let apply):
        if let attached {
          try apply(&settings, attached)
        } else {
          guard index < arguments.count else {
            throw ShapingError(.invalidArgument, input: name, reason: "missing value")
          }
          try apply(&settings, arguments[index])
          index += 1
        }
      }
    }
    guard positionals.count <= positionalLimit else {
      throw ShapingError(
        .invalidArgument, input: positionals[positionalLimit],
        reason: positionalLimit == 2
          ? "unexpected argument (at most a font and a text)" : "unexpected argument")
    }
    settings.first = positionals.first
    settings.second = positionals.count > 1 ? positionals[1] : nil
    try settings.validate()
    return settings
  }
}

// MARK: Reading values

/// An option's number in Swift's syntax, or the error for it.
package func number<T: LosslessStringConvertible>(_ value: String, _ option: String) throws -> T {
  guard let number = T(value) else {
    throw ShapingError(
      .invalidArgument, input: "\(option) '\(value)'",
      reason: "not a valid \(T.self == Double.self ? "number" : "integer")")
  }
  return number
}

/// A whole-number option as `persona` reads it: decimal and in the type's range, or, as hb-shape,
/// C's syntax for an `int` (GLib's option parser), wrapped to unsigned where HarfBuzz stores it so
/// (`--face-index=-1` is 4294967295).
package func integer<T: FixedWidthInteger & LosslessStringConvertible>(
  _ value: String, _ option: String, _ persona: Persona, wrapsToUnsigned: Bool
) throws -> T {
  guard persona == .hbShape else { return try number(value, option) }
  guard let parsed = HBShapeSyntax.integer(value) else {
    throw ShapingError(.invalidArgument, input: "\(option) '\(value)'", reason: "cannot parse the number")
  }
  return wrapsToUnsigned ? T(truncatingIfNeeded: UInt32(bitPattern: parsed)) : T(truncatingIfNeeded: parsed)
}

/// A number option as `persona` reads it: Swift's syntax, or GLib's (`strtod` over the whole
/// string; out of range is an error).
package func decimal(_ value: String, _ option: String, _ persona: Persona) throws -> Double {
  guard persona == .hbShape else { return try number(value, option) }
  guard let parsed = HBShapeSyntax.double(value) else {
    throw ShapingError(.invalidArgument, input: "\(option) '\(value)'", reason: "cannot parse the number")
  }
  return parsed
}
