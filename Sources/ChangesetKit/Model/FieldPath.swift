/// A path to a field inside a record: `meta.key` names the `key` member of the
/// `meta` object. A backslash makes the next character literal, so a field
/// whose name holds a dot, a comma or a backslash is written `a\.b`, `a\,b`, `a\\b`.
/// A name that is empty (a CSV column without a header, pandas' index
/// column) is written `""`; a name that is two quote characters, `\"\"`.
public struct FieldPath: Hashable, Sendable, CustomStringConvertible {
    public var components: [String]

    public init(_ components: [String]) {
        self.components = components
    }

    /// Parses one path (`a.b`); a comma is an ordinary character here only when escaped.
    public init(parsing text: String) throws {
        let paths = try FieldPath.parseList(text)
        guard paths.count == 1 else { throw FieldPathError(text: text, reason: "expected one field, found \(paths.count)") }
        self = paths[0]
    }

    /// Parses a comma list of paths (`country,code`), as `--id` takes for a
    /// composite key. Spaces around a name are not part of it (`--id "Country
    /// Code, Year"` names `Year`); a backslash keeps one (`\ Year`).
    package static func parseList(_ text: String) throws -> [FieldPath] {
        var paths: [FieldPath] = []
        var components: [String] = []
        // The name being read, each character with whether a backslash made it literal.
        var current: [(character: Character, literal: Bool)] = []
        var escaped = false
        var emptyNames: Set<[Int]> = []
        func endName() {
            while let first = current.first, first.character == " ", !first.literal { current.removeFirst() }
            while let last = current.last, last.character == " ", !last.literal { current.removeLast() }
            // `""` unescaped is the empty name; `\"\"` is two quote characters.
            if current.count == 2, current.allSatisfy({ $0.character == "\"" && !$0.literal }) {
                current = []
                emptyNames.insert([paths.count, components.count])
            }
            components.append(String(current.map(\.character)))
            current = []
        }
        for character in text {
            if escaped {
                current.append((character, true))
                escaped = false
                continue
            }
            switch character {
            case "\\": escaped = true
            case ".":
                endName()
            case ",":
                endName()
                paths.append(FieldPath(components))
                components = []
            default: current.append((character, false))
            }
        }
        if escaped { throw FieldPathError(text: text, reason: "it ends with a lone backslash") }
        endName()
        paths.append(FieldPath(components))
        for (pathIndex, path) in paths.enumerated() {
            for (index, name) in path.components.enumerated() where name.isEmpty && !emptyNames.contains([pathIndex, index]) {
                throw FieldPathError(text: text, reason: "a field name is empty (write \"\" for a field whose name is empty)")
            }
        }
        return paths
    }

    /// A name as a JSON Pointer reference token (RFC 6901): `~` is `~0`, `/` is `~1`.
    package static func pointerToken(_ name: String) -> String {
        name.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// The path as the user writes it, with `.`, `,` and `\` inside names
    /// escaped, a space at either end of a name too (reading trims them),
    /// and an empty name as `""`.
    public var description: String {
        // The usual path, one plain name, is its own text (reports ask for it once per changed field).
        if components.count == 1, let name = components.first, !name.isEmpty, name != "\"\"",
            name.withBytes({ !$0.containsByte { $0 == 0x2E || $0 == 0x2C || $0 == 0x5C } && $0[0] != 0x20 && $0[$0.count - 1] != 0x20 }) {
            return name
        }
        let text = components.map { name in
            if name.isEmpty { return "\"\"" }
            if name == "\"\"" { return "\\\"\\\"" }
            var escaped = ""
            let last = name.count - 1
            for (offset, character) in name.enumerated() {
                if character == " " && (offset == 0 || offset == last) {
                    escaped.append("\\")
                    escaped.append(character)
                    continue
                }
                if character == "." || character == "," || character == "\\" { escaped.append("\\") }
                escaped.append(character)
            }
            return escaped
        }.joined(separator: ".")
        // Spaces at either end of a name are trimmed when read: kept by a backslash.
        return text
    }

    /// The column name a CSV file would use for this path: its names joined by dots.
    package var flatName: String { components.joined(separator: ".") }
}

/// A field matched under another name (`--rename OLD=NEW`).
extension FieldPath {
    /// Whether a name holds a control character (below U+0020, or U+007F):
    /// such a path cannot stand on a line of a patch as text.
    package var holdsControlCharacter: Bool {
        components.contains { $0.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } }
    }
}

public struct Rename: Equatable, Sendable {
    public var old: FieldPath
    public var new: FieldPath

    public init(old: FieldPath, new: FieldPath) {
        self.old = old
        self.new = new
    }

    /// `OLD=NEW` as `--rename` takes it: two paths in the same object.
    public init(parsing text: String) throws {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex, text.index(after: equals) != text.endIndex else {
            throw OptionError("invalid --rename \"\(text)\": write OLD=NEW, the old snapshot's field name, then the new one's")
        }
        let old = try FieldPath(parsing: String(text[..<equals]))
        let new = try FieldPath(parsing: String(text[text.index(after: equals)...]))
        guard old.components.dropLast() == new.components.dropLast() else {
            throw OptionError("invalid --rename \"\(text)\": a renamed field stays in the same object (\(old) and \(new) are not)")
        }
        self.init(old: old, new: new)
    }
}

/// An option's value that does not say what it must (`--rename`, `--tolerance`, ...).
public struct OptionError: Error, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

public struct FieldPathError: Error, Equatable, CustomStringConvertible {
    public var text: String
    public var reason: String
    public var description: String { "invalid field path \"\(text)\": \(reason)" }
}
