/// A field named by `--ignore`, `--only` or `--rename` that no record has is
/// almost always a typo, and silently comparing without it would let a CI
/// gate pass that should fail. So it is an error that names the field and
/// suggests the closest names the snapshots do have.
package struct FieldCheckError: Error, Equatable, CustomStringConvertible {
    package var description: String
}

enum FieldCheck {
    static func check(_ options: RecordOptions, old: Snapshot, new: Snapshot) throws {
        // A side with no records (and no CSV header) knows no fields: it can neither confirm nor refute.
        func knowsFields(_ side: Snapshot) -> Bool { side.records.count > 0 || side.records.fieldNames != nil }
        let sides = "\(old.input.name) or \(new.input.name)"
        guard knowsFields(old) || knowsFields(new) else { return }
        let names = Array(Set(old.records.schema + new.records.schema))
        let named = options.ignore.map { ("--ignore", $0) } + options.only.map { ("--only", $0) }
            + options.notedFields.map { ($0.option, $0.path) }
        for (option, path) in named
        where !old.records.fieldsFound.contains(path) && !new.records.fieldsFound.contains(path) {
            throw FieldCheckError(description: "\(option) \"\(path)\": no record of \(sides) has this field; " + hint(path, names))
        }
        for rename in options.renames {
            if knowsFields(old) && !old.records.fieldsFound.contains(rename.old) {
                throw FieldCheckError(description: "--rename \(rename.old)=\(rename.new): no record of \(old.input.name) has the field \"\(rename.old)\"; "
                    + hint(rename.old, old.records.schema))
            }
            if knowsFields(new) && !new.records.fieldsFound.contains(rename.new) {
                throw FieldCheckError(description: "--rename \(rename.old)=\(rename.new): no record of \(new.input.name) has the field \"\(rename.new)\"; "
                    + hint(rename.new, new.records.schema))
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
        let named = options.ignore.map { ("--ignore", $0) } + options.only.map { ("--only", $0) }
            + options.notedFields.map { ($0.option, $0.path) }
        for (option, path) in named where !found(path) {
            throw FieldCheckError(description: "\(option) \"\(path)\": no record of \(sides) has this field; " + hint(path, names))
        }
        for rename in options.renames {
            for path in [rename.old, rename.new] where !found(path) {
                throw FieldCheckError(description: "--rename \(rename.old)=\(rename.new): no record of \(sides) has the field \"\(path)\"; "
                    + hint(path, names))
            }
        }
    }

    /// "did you mean ...?" with the closest names, or the names there are.
    static func hint(_ path: FieldPath, _ names: [String]) -> String {
        if path.components.contains(where: GlobPattern.isPattern), names.contains(path.flatName) {
            return "a name with *, ? or [ is a pattern; write [*], [?] and [[] for the characters themselves"
        }
        let wanted = path.flatName.lowercased()
        // Names far longer than the one wanted cannot be close (and a huge one would cost its length squared).
        let longest = 4 * max(wanted.utf8.count, 16)
        let near: [String] = names.filter { $0.utf8.count <= longest }
        let scored: [(String, Int)] = near.map { ($0, editDistance(wanted, $0.lowercased())) }
            .filter { $0.1 <= max(2, wanted.count / 3) }
            .sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
        if !scored.isEmpty {
            return "did you mean " + scored.prefix(3).map { "\"\(VisibleText.datum(FieldPath([$0.0]).description))\"" }.joined(separator: " or ") + "?"
        }
        return names.isEmpty ? "the records have no fields" : "the top-level fields are: " + VisibleText.list(names.sorted().map { FieldPath([$0]).description })
    }

    /// Levenshtein distance over characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
