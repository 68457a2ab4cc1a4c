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
///   there. Fields only one schema has are not listed (see `schema`). A
///   change inside an array (`--arrays elements`) also has `pointer`, its
///   place in the record as RFC 6901 writes it (`/tags/2`); there a side
///   left out is an element inserted (no `old`) or deleted (no `new`): a
///   deleted element's last index is in OLD, every other index in NEW.
///   A keyed element that moved within its array is its deletion with
///   `movedTo` (its index in NEW) and its insertion with `movedFrom` (its
///   index in OLD).
/// - Order: section changes, then deleted, inserted, moved and updated
///   records, each by position. A record both moved and updated has both.
package enum ChangeJSON {
    /// One change object's JSON text; `inside`: as a change stream writes
    /// it, where a keyed element that moved also lists what changed inside
    /// it (`"inside": [...]`, field changes as `fields` writes them) and the
    /// `--show` fields the record lacks are listed (`"absent": [...]`).
    package static func object(_ change: Change, sectioned: Bool, inside: Bool = false) -> String {
        var object = JSONObjectWriter()
        object.add("kind", string: change.kind.rawValue)
        if change.kind.isSectionChange {
            object.add("section", raw: sectionJSON(change.section))
            if let old = change.old { object.add("old", object: { $0.add("index", int: old.index) }) }
            if let new = change.new { object.add("new", object: { $0.add("index", int: new.index) }) }
            return object.text
        }
        object.add("id", raw: idJSON(change.id))
        if let old = change.old { object.add("old", object: { place(old, sectioned: sectioned, into: &$0) }) }
        if let new = change.new { object.add("new", object: { place(new, sectioned: sectioned, into: &$0) }) }
        if change.hasRecord { object.add("record", json: change.appendRecordJSON) }
        if !change.context.isEmpty {
            // `--show`: each field's value, null where the record has no such field.
            object.add("show", object: { shown in
                for (path, value) in change.context {
                    if let value { shown.add(path.description, value: value) } else { shown.add(path.description, raw: "null") }
                }
            })
            // A change stream tells a field the record lacks from one holding null, as the text report does.
            let absent = change.context.filter { $0.value == nil }
            if inside && !absent.isEmpty {
                object.add("absent", value: .array(absent.map { .string($0.path.description) }))
            }
        }
        if change.kind == .updated {
            object.add("fields", array: change.fields) { fieldObject(&$0, $1, inside: inside) }
        }
        return object.text
    }

    private static func fieldObject(_ entry: inout JSONObjectWriter, _ field: FieldChange, inside: Bool) {
        entry.add("path", string: field.path.description)
        if !field.elements.isEmpty {
            entry.add("pointer", string: field.pointer)
        }
        if let old = field.old { entry.add("old", value: old) }
        if let new = field.new { entry.add("new", value: new) }
        // A keyed element that moved: each half names the other's index.
        switch field.move {
        case .to(let index)?: entry.add("movedTo", int: index)
        case .from(let index)?: entry.add("movedFrom", int: index)
        case nil: break
        }
        if inside && !field.inside.isEmpty {
            entry.add("inside", array: field.inside) { fieldObject(&$0, $1, inside: true) }
        }
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

    static func place(_ place: RecordPlace, sectioned: Bool, into object: inout JSONObjectWriter) {
        if sectioned { object.add("section", raw: sectionJSON(place.section)) }
        object.add("index", int: place.index)
        if let line = place.line { object.add("line", int: line) }
    }

    static func sectionJSON(_ name: String?) -> String {
        guard let name else { return "null" }
        var output = ""
        Value.writeJSONString(name, to: &output)
        return output
    }
}

/// Builds one JSON object's text, member by member, in the order added, as
/// UTF-8 bytes made a String once: values, numbers and nested objects are
/// written straight in (a large report's change objects were mostly small
/// Strings made and joined).
struct JSONObjectWriter {
    private var bytes: [UInt8] = [UInt8(ascii: "{")]
    /// Where the members of the object being written start (nested objects write into the same bytes).
    private var membersStart = 1

    /// The object so far, closed.
    var text: String {
        var closed = bytes
        closed.append(UInt8(ascii: "}"))
        return String(decoding: closed, as: UTF8.self)
    }

    private mutating func name(_ name: String) {
        if bytes.count > membersStart { bytes.append(UInt8(ascii: ",")) }
        Value.writeJSONString(name, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func add(_ name: String, raw json: String) {
        self.name(name)
        bytes.append(contentsOf: json.utf8)
    }

    mutating func add(_ name: String, string: String) {
        self.name(name)
        Value.writeJSONString(string, into: &bytes)
    }

    mutating func add(_ name: String, int: Int) {
        self.name(name)
        bytes.appendDecimal(int)
    }

    mutating func add(_ name: String, value: Value) {
        self.name(name)
        value.writeJSON(into: &bytes)
    }

    /// A member whose value is JSON text that `write` appends.
    mutating func add(_ name: String, json write: (inout [UInt8]) -> Void) {
        self.name(name)
        write(&bytes)
    }

    /// A member whose value is an object, its members added by `build`.
    mutating func add(_ name: String, object build: (inout JSONObjectWriter) -> Void) {
        self.name(name)
        nested(build)
    }

    /// A member whose value is an array of objects, one for each element, its members added by `build`.
    mutating func add<Element>(_ name: String, array elements: [Element], _ build: (inout JSONObjectWriter, Element) -> Void) {
        self.name(name)
        bytes.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            nested { build(&$0, element) }
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// An object written in place, its members added by `build`; the enclosing object's own members go on after it.
    private mutating func nested(_ build: (inout JSONObjectWriter) -> Void) {
        let outer = membersStart
        bytes.append(UInt8(ascii: "{"))
        membersStart = bytes.count
        build(&self)
        bytes.append(UInt8(ascii: "}"))
        membersStart = outer
    }
}
