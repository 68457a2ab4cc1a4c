/// A merge's conflicts for people (one line each, for standard error) and
/// as JSON (`--conflicts FILE`):
///
///     {"resolvedBy": null, "conflicts": [
///       {"kind": "document", "path": "created", "base": "2024-11-03", "ours": "2024-12-01", "theirs": "2024-12-02"},
///       {"kind": "field", "id": "3", "path": "price", "base": 1.5, "ours": 1.75, "theirs": 1.6},
///       {"kind": "deleted-by-theirs", "id": "7", "base": {...}, "ours": {...}}
///     ]}
///
/// `kind` is `field`, `deleted-by-ours` (OURS deleted the record, THEIRS
/// changed it), `deleted-by-theirs`, `inserted-by-both` (different
/// content under one id) or `document` (with `--records-at`, both changed
/// a member of the JSON document around the records differently; it has no
/// `id`). `id` as in the diff's JSON (an array for a composite id; null
/// without `--id`). `path` for field and document conflicts, as a person
/// reads it, array positions and all (`licenses[0].path`); inside an array
/// also `pointer`, the place as RFC 6901 writes it (`/licenses/0/path`). A
/// position is an index in the array as OURS's resolution has it. `base`,
/// `ours`, `theirs`: the field's (or member's, element's, record's) three
/// versions, left out where absent. `resolvedBy`: `"ours"` or `"theirs"`
/// with `--prefer`.
package struct MergeConflictFormatter {
    /// Values longer than this are cut in the one-line form.
    package var width: Int

    package init(width: Int = 120) {
        self.width = width
    }

    package func lines(_ conflicts: [MergeConflict], resolvedBy: MergePreference?, byID: Bool) -> [String] {
        conflicts.map { conflict in
            let id = byID ? "id " + ReportValueText.id(RecordKey.parts(MergeKey.identity(conflict.key))) : "record"
            let resolution = resolvedBy.map { " (resolved with --prefer \($0.rawValue))" } ?? ""
            func show(_ value: Value?) -> String { ReportValueText.shownValue(value, width: width) }
            switch conflict.kind {
            case .field:
                let path = conflict.location ?? ""
                return "conflict: \(id), field \(ReportValueText.visible(path)): base \(show(conflict.base)), ours \(show(conflict.ours)), theirs \(show(conflict.theirs))\(resolution)"
            case .deletedByOurs:
                return "conflict: \(id): deleted by ours, changed by theirs to \(show(conflict.theirs))\(resolution)"
            case .deletedByTheirs:
                return "conflict: \(id): deleted by theirs, changed by ours to \(show(conflict.ours))\(resolution)"
            case .document:
                guard let location = conflict.location else {
                    return "conflict: the JSON document around the records changed on both sides\(resolution)"
                }
                return "conflict: the JSON document around the records changed on both sides, member \(ReportValueText.visible(location)): "
                    + "base \(show(conflict.base)), ours \(show(conflict.ours)), theirs \(show(conflict.theirs))\(resolution)"
            case .insertedByBoth:
                return "conflict: \(id): inserted by both, ours \(show(conflict.ours)), theirs \(show(conflict.theirs))\(resolution)"
            }
        }
    }

    package func json(_ conflicts: [MergeConflict], resolvedBy: MergePreference?, byID: Bool) -> String {
        var entries: [String] = []
        for conflict in conflicts {
            var object = JSONObjectWriter()
            object.add("kind", string: conflict.kind.rawValue)
            // A member of the document around the records belongs to no record.
            if conflict.kind != .document {
                object.add("id", raw: byID ? ChangeJSON.idJSON(RecordKey.parts(MergeKey.identity(conflict.key))) : "null")
            }
            if let location = conflict.location { object.add("path", string: location) }
            if !conflict.elements.isEmpty, let pointer = conflict.pointer { object.add("pointer", string: pointer) }
            if let base = conflict.base { object.add("base", raw: base.jsonText) }
            if let ours = conflict.ours { object.add("ours", raw: ours.jsonText) }
            if let theirs = conflict.theirs { object.add("theirs", raw: theirs.jsonText) }
            entries.append(object.text)
        }
        var document = JSONObjectWriter()
        document.add("resolvedBy", raw: resolvedBy.map { "\"\($0.rawValue)\"" } ?? "null")
        document.add("conflicts", raw: entries.isEmpty ? "[]" : "[\n" + entries.joined(separator: ",\n") + "\n]")
        return document.text + "\n"
    }
}
