/// A change as a JSON object, shared by the `json` and `ndjson` formats.
/// Each object (written on one line):
///
///     {"kind": "deleted",  "id": "4", "old": {"index": 3, "line": 5}, "record": {...}}
///     {"kind": "inserted", "id": "8", "new": {"index": 3, "line": 5}, "record": {...}}
///     {"kind": "moved",    "id": "5", "old": {"index": 4, "line": 6}, "new": {"index": 0, "line": 2}}
///     {"kind": "updated",  "id": "2", "old": {"index": 1, "line": 3}, "new": {"index": 2, "line": 4},
///      "fields": [{"path": "price", "old": 12.50, "new": 13.00}]}
///     {"kind": "section-inserted", "section": "history", "new": {"index": 2}}
///     {"kind": "section-deleted",  "section": "poetry",  "old": {"index": 3}}
///     {"kind": "section-moved",    "section": "science", "old": {"index": 1}, "new": {"index": 0}}
///
/// - `id` is the id as text (`"4"`), an array of texts for a composite id,
///   or null without `--id` (the record's content is its identity).
/// - A record's position is `{"index": i, "line": l}`, or
///   `{"section": name, "index": i, "line": l}` with `--section` (name null
///   for records without the field): `index` counts records from 0 (within
///   the section), `line` is the file line the record starts on (from 1).
///   `old` positions are in the old file, `new` ones in the new file. A
///   section change's positions are section indices.
/// - `record` is the whole record: the old one for deleted, the new one for
///   inserted, and for moved records when there is no `--id`.
/// - `fields` lists each changed field: `path` as `--id` would write it
///   (renamed fields by their old name), `old` and `new` its values, numbers
///   exactly as in the input. A side is left out when the field is absent
///   there. Fields only one schema has are not listed (see `schema`).
/// - Order: section changes, then deleted, inserted, moved and updated
///   records, each by position. A record both moved and updated has both.
public enum ChangeJSON {
    /// One change object's JSON text.
    public static func object(_ change: Change, sectioned: Bool) -> String {
        var object = JSONObjectWriter()
        object.add("kind", string: change.kind.rawValue)
        if change.kind.isSectionChange {
            object.add("section", raw: sectionJSON(change.section))
            if let old = change.old { object.add("old", raw: "{\"index\":\(old.index)}") }
            if let new = change.new { object.add("new", raw: "{\"index\":\(new.index)}") }
            return object.text
        }
        object.add("id", raw: idJSON(change.id))
        if let old = change.old { object.add("old", raw: placeJSON(old, sectioned: sectioned)) }
        if let new = change.new { object.add("new", raw: placeJSON(new, sectioned: sectioned)) }
        if let record = change.record { object.add("record", raw: record.jsonText) }
        if change.kind == .updated {
            var fields = "["
            for (index, field) in change.fields.enumerated() {
                var entry = JSONObjectWriter()
                entry.add("path", string: field.path.description)
                if let old = field.old { entry.add("old", raw: old.jsonText) }
                if let new = field.new { entry.add("new", raw: new.jsonText) }
                fields += (index > 0 ? "," : "") + entry.text
            }
            object.add("fields", raw: fields + "]")
        }
        return object.text
    }

    static func idJSON(_ parts: [String]?) -> String {
        guard let parts else { return "null" }
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

    static func placeJSON(_ place: Place, sectioned: Bool) -> String {
        var object = JSONObjectWriter()
        if sectioned { object.add("section", raw: sectionJSON(place.section)) }
        object.add("index", int: place.index)
        if let line = place.line { object.add("line", int: line) }
        return object.text
    }

    static func sectionJSON(_ name: String?) -> String {
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
