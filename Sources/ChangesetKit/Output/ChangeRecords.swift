/// The changes of a comparison as JSON objects, one per change, shared by the
/// `json` and `ndjson` formats. Each object (written on one line):
///
///     {"kind": "deleted",  "id": "4", "old": {"index": 3}, "record": {...}}
///     {"kind": "inserted", "id": "8", "new": {"index": 3}, "record": {...}}
///     {"kind": "moved",    "id": "5", "old": {"index": 4}, "new": {"index": 0}}
///     {"kind": "updated",  "id": "2", "old": {"index": 1}, "new": {"index": 2},
///      "fields": [{"path": "price", "old": 12.50, "new": 13.00}]}
///     {"kind": "section-inserted", "section": "history", "new": {"index": 2}}
///     {"kind": "section-deleted",  "section": "poetry",  "old": {"index": 3}}
///     {"kind": "section-moved",    "section": "science", "old": {"index": 1}, "new": {"index": 0}}
///
/// - `id` is the id as text (`"4"`), an array of texts for a composite id,
///   or null without `--id` (the record's content is its identity).
/// - A position is `{"index": i}`, or `{"section": name, "index": i}` with
///   `--section` (name null for records without the field). `old` positions
///   are in the old file's coordinates, `new` ones in the new file's.
/// - `record` (deleted and inserted records) is the whole record.
/// - `fields` lists each changed field: `path` as `--id` would write it,
///   `old` and `new` its values, numbers exactly as in the input. A side is
///   left out when the field is absent there.
/// - Order: section changes, then deleted, inserted, moved and updated
///   records, each by position. A record both moved and updated has both.
public struct ChangeRecords {
    public let comparison: Comparison

    public init(_ comparison: Comparison) {
        self.comparison = comparison
    }

    /// Calls `body` with each change object's JSON text, in order.
    public func forEach(_ body: (String) throws -> Void) throws {
        let changeset = comparison.changeset
        for index in changeset.deletedSections {
            var object = JSONObjectWriter()
            object.add("kind", string: "section-deleted")
            object.add("section", raw: ChangeRecords.sectionJSON(comparison.oldSections[index].id))
            object.add("old", raw: "{\"index\":\(index)}")
            try body(object.text)
        }
        for inserted in changeset.insertedSections {
            var object = JSONObjectWriter()
            object.add("kind", string: "section-inserted")
            object.add("section", raw: ChangeRecords.sectionJSON(inserted.id))
            object.add("new", raw: "{\"index\":\(inserted.index)}")
            try body(object.text)
        }
        for move in comparison.reportedSectionMoves {
            var object = JSONObjectWriter()
            object.add("kind", string: "section-moved")
            object.add("section", raw: ChangeRecords.sectionJSON(comparison.oldSections[move.from].id))
            object.add("old", raw: "{\"index\":\(move.from)}")
            object.add("new", raw: "{\"index\":\(move.to)}")
            try body(object.text)
        }
        // Records are read again, and updates compared field by field, on all cores (in order).
        let old = comparison.old
        try OrderedConcurrentMap.forEach(changeset.deletions, transform: { deletion in
            try old.value(ofRecord: comparison.oldSections[deletion.at.section].elements[deletion.at.item].row).jsonText
        }) { deletion, record in
            let ref = comparison.oldSections[deletion.at.section].elements[deletion.at.item]
            var object = JSONObjectWriter()
            object.add("kind", string: "deleted")
            object.add("id", raw: idJSON(ref, comparison.old))
            object.add("old", raw: position(deletion.at, comparison.oldSections))
            object.add("record", raw: record)
            try body(object.text)
        }
        let new = comparison.new
        try OrderedConcurrentMap.forEach(changeset.insertions, transform: { try new.value(ofRecord: $0.element.row).jsonText }) { insertion, record in
            var object = JSONObjectWriter()
            object.add("kind", string: "inserted")
            object.add("id", raw: idJSON(insertion.element, comparison.new))
            object.add("new", raw: position(insertion.at, comparison.newSections))
            object.add("record", raw: record)
            try body(object.text)
        }
        for move in comparison.reportedMoves {
            var object = JSONObjectWriter()
            object.add("kind", string: "moved")
            object.add("id", raw: idJSON(move.element, comparison.new))
            object.add("old", raw: position(move.from, comparison.oldSections))
            object.add("new", raw: position(move.to, comparison.newSections))
            try body(object.text)
        }
        try OrderedConcurrentMap.forEach(changeset.updates, transform: comparison.fieldChanges) { update, changes in
            var object = JSONObjectWriter()
            object.add("kind", string: "updated")
            object.add("id", raw: idJSON(update.element, comparison.new))
            object.add("old", raw: position(update.old, comparison.oldSections))
            object.add("new", raw: position(update.new, comparison.newSections))
            var fields = "["
            for (index, field) in changes.enumerated() {
                var entry = JSONObjectWriter()
                entry.add("path", string: field.path.description)
                if let old = field.old { entry.add("old", raw: old.jsonText) }
                if let new = field.new { entry.add("new", raw: new.jsonText) }
                fields += (index > 0 ? "," : "") + entry.text
            }
            object.add("fields", raw: fields + "]")
            try body(object.text)
        }
    }

    func idJSON(_ ref: RecordRef, _ dataset: Dataset) -> String {
        guard !dataset.records.keys.isEmpty else { return "null" }
        let parts = RecordKey.parts(dataset.records.keys[ref.row])
        var output = ""
        if parts.count == 1 {
            Value.writeJSONString(parts[0], to: &output)
            return output
        }
        output = "["
        for (index, part) in parts.enumerated() {
            if index > 0 { output += "," }
            Value.writeJSONString(part, to: &output)
        }
        return output + "]"
    }

    func position(_ path: IndexPath, _ sections: [Section<SectionName, RecordRef>]) -> String {
        guard comparison.options.records.section != nil else { return "{\"index\":\(path.item)}" }
        return "{\"section\":\(ChangeRecords.sectionJSON(sections[path.section].id)),\"index\":\(path.item)}"
    }

    static func sectionJSON(_ name: SectionName) -> String {
        guard let name else { return "null" }
        var output = ""
        Value.writeJSONString(name, to: &output)
        return output
    }
}

/// Builds one JSON object's text, member by member, in the order added.
struct JSONObjectWriter {
    private var members = ""

    /// The object so far, closed.
    var text: String { "{" + members + "}" }

    mutating func add(_ name: String, raw json: String) {
        if !members.isEmpty { members += "," }
        Value.writeJSONString(name, to: &members)
        members += ":" + json
    }

    mutating func add(_ name: String, string: String) {
        var json = ""
        Value.writeJSONString(string, to: &json)
        add(name, raw: json)
    }

    mutating func add(_ name: String, int: Int) {
        add(name, raw: String(int))
    }
}
