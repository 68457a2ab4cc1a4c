/// A field named by a setting (``RecordOptions/ignore``, ``RecordOptions/only``,
/// ``RecordOptions/renames``, a tolerance's field, a report's context
/// fields) that no record has. That is almost always a typo, and silently
/// comparing without it would let a CI gate pass that should fail. So it is
/// an error that names the setting and the field and suggests the closest
/// names the snapshots do have.
///
/// `description` names the setting as the library spells it
/// (`RecordOptions.ignore "pricee": no record of old.json or new.json has
/// this field; did you mean "price"?`); the `changeset` command names its flag.
public struct FieldCheckError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The setting that named the field.
    public var setting: LibrarySetting
    /// The field as the setting names it, as the message writes it: in
    /// quotes (`"price"`), or a rename's `OLD=NEW`.
    public var field: String
    /// What is wrong and the closest names there are, settings named in it as parts.
    package var problemParts: [MessagePart]

    package init(_ setting: LibrarySetting, field: String, _ problem: [MessagePart]) {
        self.setting = setting
        self.field = field
        problemParts = problem
    }

    package init(_ setting: LibrarySetting, field: String, _ problem: String) {
        self.init(setting, field: field, [.text(problem)])
    }

    /// What is wrong, and the closest names the inputs have, in the library's words.
    public var problem: String { problemParts.rendered(naming: \.description) }

    /// `SETTING FIELD: problem`, the setting as the library spells it.
    public var description: String { message(naming: \.description) }

    /// The message with each setting named by `name` (the command passes its flags).
    package func message(naming name: (LibrarySetting) -> String, asArguments: Bool = false) -> String {
        "\(name(setting)) \(field): " + problemParts.rendered(naming: name, asArguments: asArguments)
    }
}

extension FieldCheckError: SettingNamingError {
    package func description(naming name: (LibrarySetting) -> String, asArguments: Bool) -> String {
        message(naming: name, asArguments: asArguments)
    }
}

enum FieldCheck {
    static func check(_ options: RecordOptions, old: Snapshot, new: Snapshot) throws {
        // A side with no records (and no CSV header) knows no fields: it can neither confirm nor refute.
        func knowsFields(_ side: Snapshot) -> Bool { side.records.count > 0 || side.records.fieldNames != nil }
        let sides = "\(old.input.name) or \(new.input.name)"
        guard knowsFields(old) || knowsFields(new) else { return }
        let names = Array(Set(old.records.schema + new.records.schema))
        let named = options.ignore.map { (LibrarySetting.ignore, $0) } + options.only.map { (LibrarySetting.only, $0) }
            + options.notedFields.map { ($0.setting, $0.path) }
        for (option, path) in named
        where !old.records.fieldsFound.contains(path) && !new.records.fieldsFound.contains(path) {
            let isTolerance = !Self.takesPatterns(option)
            // A tolerance reaches into array elements (a member of each
            // element is compared under its path without the index); the readers note no field there.
            if isTolerance, try elementsHold(path, in: [old, new]) { continue }
            if !isTolerance, let array = try? arrayOnTheWay(to: path, in: [old, new]) {
                // A field inside array elements: the rules stop at the array.
                throw FieldCheckError(option, field: "\"\(path)\"", [
                    .text("\(array) holds arrays, and "), .setting(.ignore), .text(" and "), .setting(.only),
                    .text(" name fields outside arrays (inside an element every member counts); "), .setting(option),
                    .text(" \(ShellWord.quoted(array.argument(.pattern))) takes in the whole array"),
                ])
            }
            throw FieldCheckError(option, field: "\"\(path)\"", "no record of \(sides) has this field; " + hint(path, names, option: option))
        }
        for rename in options.renames {
            if knowsFields(old) && !old.records.fieldsFound.contains(rename.old) {
                throw FieldCheckError(.rename, field: rename.argument, "no record of \(old.input.name) has the field \"\(rename.old)\"; "
                    + hint(rename.old, old.records.schema, option: .rename))
            }
            if knowsFields(new) && !new.records.fieldsFound.contains(rename.new) {
                throw FieldCheckError(.rename, field: rename.argument, "no record of \(new.input.name) has the field \"\(rename.new)\"; "
                    + hint(rename.new, new.records.schema, option: .rename))
            }
        }
    }

    /// The same check for a merge's three snapshots: a field counts when any
    /// of them has it, and a rename's old and new names must each occur in one.
    static func check(_ options: RecordOptions, snapshots: [Snapshot]) throws {
        let knowing = snapshots.filter { $0.records.count > 0 || $0.records.fieldNames != nil }
        guard !knowing.isEmpty else { return }
        let sides = snapshots.map(\.input.name).joined(separator: ", ")
        let names = Array(Set(knowing.flatMap(\.records.schema)))
        func found(_ path: FieldPath) -> Bool { knowing.contains { $0.records.fieldsFound.contains(path) } }
        let named = options.ignore.map { (LibrarySetting.ignore, $0) } + options.only.map { (LibrarySetting.only, $0) }
            + options.notedFields.map { ($0.setting, $0.path) }
        for (option, path) in named where !found(path) {
            throw FieldCheckError(option, field: "\"\(path)\"", "no record of \(sides) has this field; " + hint(path, names, option: option))
        }
        for rename in options.renames {
            for path in [rename.old, rename.new] where !found(path) {
                throw FieldCheckError(.rename, field: rename.argument, "no record of \(sides) has the field \"\(path)\"; "
                    + hint(path, names, option: .rename))
            }
        }
    }

    /// `--show`'s paths: a glob matched against the top-level names of NEW,
    /// then OLD; a field no record has is a typo, and an error, as for
    /// `--ignore`, whatever the run prints (`--stat` and `-q` show no
    /// context, but a typo that passed there would fail the report run).
    static func shownFields(_ paths: [FieldPath], options: RecordOptions, old: Snapshot, new: Snapshot) throws -> [Comparison.ShownField] {
        guard !paths.isEmpty else { return [] }
        // NEW's schema is held under OLD's names (the renames made them comparable).
        var names = new.records.schema
        for name in old.records.schema where !names.contains(where: { ExactText.same($0, name) }) { names.append(name) }
        let renames = options.renames
        func field(_ path: FieldPath) -> Comparison.ShownField {
            let inOld = options.oldName(path)
            let inNew = renames.first { $0.old == path }.map(\.new) ?? path
            return Comparison.ShownField(path: path, inOld: inOld, inNew: inNew)
        }
        func fail(_ path: FieldPath, _ what: String) -> FieldCheckError {
            FieldCheckError(.context, field: "\"\(path)\"", "\(what); " + NameHint.hint(path, names, syntax: .pattern))
        }
        var fields: [Comparison.ShownField] = []
        for path in paths {
            if path.components.count == 1, GlobPattern.isPattern(path.components[0]) {
                let pattern = GlobPattern(path.components[0])
                let matched = names.filter(pattern.matches)
                guard !matched.isEmpty else { throw fail(path, "no field of \(old.input.name) or \(new.input.name) matches") }
                fields += matched.map { field(FieldPath([$0])) }
                continue
            }
            guard !path.components.dropFirst().contains(where: GlobPattern.isPattern) else {
                throw FieldCheckError(.context, field: "\"\(path)\"", "a pattern names top-level fields only")
            }
            let shown = field(path)
            let top = shown.inOld.components[0]
            let known = names.isEmpty || names.contains { ExactText.same($0, top) || ExactText.same($0, shown.inOld.flatName) }
            guard known else { throw fail(path, "no record of \(old.input.name) or \(new.input.name) has this field") }
            if shown.inOld.components.count > 1, !names.contains(where: { ExactText.same($0, shown.inOld.flatName) }) {
                // Nested: some of the first records must have it (records of both are read under OLD's names).
                let found = try [old, new].contains { side in
                    try (0..<min(side.records.count, 1000)).contains { row in
                        shown.value(in: try side.value(ofRecord: row), new: false) != nil
                    }
                }
                guard found else { throw fail(path, "no record of \(old.input.name) or \(new.input.name) has this field") }
            }
            fields.append(shown)
        }
        return fields
    }

    /// `--ignore` and `--only` read patterns; the per-field tolerances do not.
    private static func takesPatterns(_ option: LibrarySetting) -> Bool {
        option == .ignore || option == .only
    }

    /// Whether an element of an array on `path` holds the rest of it, in
    /// one of the first records of `sides` (`t.y` for `{"t": [{"y": 1}]}`).
    private static func elementsHold(_ path: FieldPath, in sides: [Snapshot]) throws -> Bool {
        func holds(_ value: Value, _ names: ArraySlice<String>) -> Bool {
            guard let name = names.first else { return true }
            switch value {
            case .object(let members): return members.contains { ExactText.same($0.name, name) && holds($0.value, names.dropFirst()) }
            case .array(let elements): return elements.contains { holds($0, names) }
            default: return false
            }
        }
        guard path.components.count > 1 else { return false }
        for side in sides {
            for row in 0..<min(side.records.count, 1000) where holds(try side.value(ofRecord: row), path.components[...]) {
                return true
            }
        }
        return false
    }

    /// The start of `path` that holds an array in one of the first records
    /// of `sides` (`subdivisions` for `subdivisions.name`), if any.
    private static func arrayOnTheWay(to path: FieldPath, in sides: [Snapshot]) throws -> FieldPath? {
        guard path.components.count > 1 else { return nil }
        for side in sides {
            for row in 0..<min(side.records.count, 1000) {
                let record = try side.value(ofRecord: row)
                for length in 1..<path.components.count {
                    if case .array? = record.member(at: Array(path.components.prefix(length))) {
                        return FieldPath(Array(path.components.prefix(length)))
                    }
                }
            }
        }
        return nil
    }

    /// The closest names, written as `option` takes them.
    static func hint(_ path: FieldPath, _ names: [String], option: LibrarySetting) -> String {
        NameHint.hint(path, names, syntax: takesPatterns(option) ? .pattern : .beforeEquals)
    }
}
