/// A path to a field inside a record: `meta.key` names the `key` member of the
/// `meta` object. A backslash makes the next character literal, so a field
/// whose name holds a dot, a comma or a backslash is written `a\.b`, `a\,b`, `a\\b`.
/// (Any character may be escaped: `--rename` writes an `=` in a name `a\=b`.)
/// A name that is empty (a CSV column without a header, pandas' index
/// column) is written `""`; a name that is two quote characters, `\"\"`.
public struct FieldPath: Hashable, Sendable, CustomStringConvertible {
    /// The member names, outermost first (`["meta", "key"]` for `meta.key`), unescaped.
    public var components: [String]

    /// The path through the members `components`, outermost first (names as they are, nothing escaped).
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

/// Paths written as an option takes them, for a hint that suggests an
/// option: a hint the user cannot paste back is no help.
extension FieldPath {
    /// What an option makes of a path's text, beyond the escapes of `description`.
    package enum Syntax: Sendable {
        /// `--id`, `--section`: the description as it is.
        case plain
        /// `--ignore`, `--only`, `--show`: `*`, `?` and `[` are pattern
        /// characters, so a name holding one writes it as a set of one: `[*]`, `[?]`, `[[]`.
        case pattern
        /// `--rename OLD=NEW`, `--tolerance FIELD=X`: an `=` in a name is
        /// written `\=`, since the first `=` not escaped ends the field.
        case beforeEquals
    }

    /// The path as an option written `syntax` reads it back: `description`
    /// with the escapes `syntax` needs, and a leading `-` escaped too (the
    /// argument parser would take `-x` for an option).
    package func argument(_ syntax: Syntax = .plain) -> String {
        Self.argument(description, syntax)
    }

    /// Paths as a comma list that `parseList` reads back (`a,b\,c`), for `--id`.
    package static func listArgument(_ paths: [FieldPath]) -> String {
        argument(paths.map(\.description).joined(separator: ","), .plain)
    }

    private static func argument(_ described: String, _ syntax: Syntax) -> String {
        var text = ""
        for character in described {
            switch (syntax, character) {
            case (.pattern, "*"), (.pattern, "?"), (.pattern, "["): text += "[\(character)]"
            case (.beforeEquals, "="): text += "\\="
            default: text.append(character)
            }
        }
        return text.hasPrefix("-") ? "\\" + text : text
    }
}

/// A field matched under another name (`--rename OLD=NEW`).
extension FieldPath {
    /// Whether a name holds a control character (below U+0020, or U+007F):
    /// such a path cannot stand on a line of a patch as text.
    package var holdsControlCharacter: Bool {
        components.contains { $0.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } }
    }
}

extension FieldPath {
    /// Where the first `=` that no backslash escapes stands in an option's
    /// `LEFT=RIGHT` (`--rename`, `--array-key`): a name holding an `=` is
    /// written `a\=b`, as a backslash escapes any character in a path.
    static func unescapedEquals(in text: String) -> String.Index? {
        var escaped = false
        for index in text.indices {
            if escaped {
                escaped = false
            } else if text[index] == "\\" {
                escaped = true
            } else if text[index] == "=" {
                return index
            }
        }
        return nil
    }
}

/// A field the new snapshot holds under another name: NEW in the new
/// snapshot is OLD in the old one (both in the same object). Records are
/// compared, and reports name the field, as OLD.
public struct Rename: Equatable, Sendable {
    /// The field's path in the old snapshot.
    public var old: FieldPath
    /// The field's path in the new snapshot.
    public var new: FieldPath

    /// The rename of `old` (the old snapshot's path) to `new` (the new one's).
    public init(old: FieldPath, new: FieldPath) {
        self.old = old
        self.new = new
    }

    /// `OLD=NEW` as `--rename` takes it: two paths in the same object. The
    /// first `=` that no backslash escapes ends OLD, so a name holding an `=`
    /// is written `a\=b` (a backslash escapes any character, as in every path).
    public init(parsing text: String) throws {
        let separator = FieldPath.unescapedEquals(in: text)
        guard let equals = separator, equals != text.startIndex, text.index(after: equals) != text.endIndex else {
            throw OptionError([.text("invalid "), .setting(.rename), .text(" \"\(text)\": write OLD=NEW, the old snapshot's field name, then the new one's (an = in a name is written \\=)")])
        }
        let old = try FieldPath(parsing: String(text[..<equals]))
        let new = try FieldPath(parsing: String(text[text.index(after: equals)...]))
        guard old.components.dropLast() == new.components.dropLast() else {
            throw OptionError([.text("invalid "), .setting(.rename), .text(" \"\(text)\": a renamed field stays in the same object (\(old) and \(new) are not)")])
        }
        self.init(old: old, new: new)
    }

    /// `OLD=NEW` as `--rename` reads it back (not quoted for a shell).
    package var argument: String {
        old.argument(.beforeEquals) + "=" + new.argument(.beforeEquals)
    }
}

/// An option's value that does not say what it must (`--rename`, `--tolerance`, ...).
public struct OptionError: Error, Equatable, CustomStringConvertible {
    /// What is wrong with the value, and how to write it, in the library's words.
    public var description: String {
        // A message written over no longer holds the parts it was made of.
        didSet { messageParts = nil }
    }
    /// The message's parts, when it names a setting, so the command can name its flag instead.
    package var messageParts: [MessagePart]?

    /// An error saying `description`.
    public init(_ description: String) {
        self.description = description
    }

    /// An error whose message names settings (`parts`): `description` names them as the library spells them.
    package init(_ parts: [MessagePart]) {
        self.init(parts.rendered(naming: \.description))
        messageParts = parts
    }
}

extension OptionError: SettingNamingError {
    package func description(naming name: (LibrarySetting) -> String, asArguments: Bool) -> String {
        messageParts?.rendered(naming: name, asArguments: asArguments) ?? description
    }
}

/// A field path's text that is not a path (``FieldPath/init(parsing:)``):
/// an unfinished escape, an empty name where none may be.
public struct FieldPathError: Error, Equatable, CustomStringConvertible {
    /// The text as given.
    public var text: String
    /// Why it is not a path.
    public var reason: String
    /// `invalid field path "TEXT": reason`.
    public var description: String { "invalid field path \"\(text)\": \(reason)" }
}
