/// The `json` format: one document for `jq`.
///
///     {
///       "format": "changeset/1",
///       "old": {"file": "old.json", "format": "json", "records": 7},
///       "new": {"file": "new.json", "format": "json", "records": 7},
///       "id": ["id"],
///       "section": null,
///       "summary": {"inserted": 1, "deleted": 1, "updated": 3, "moved": 1, "unchanged": 3},
///       "changes": [
///         {"kind": "deleted", ...},
///         ...
///       ]
///     }
///
/// `format` names this schema and its version; a change that breaks readers
/// of it gets a new number. `id` lists the `--id` fields (empty without one);
/// `section` is the `--section` field or null. With `--section`, `summary`
/// also has `"sections": {"inserted": i, "deleted": d, "moved": m}`. The
/// change objects are those of `ChangeRecords`, one per line.
public struct JSONFormatter {
    public static let formatVersion = "changeset/1"

    public init() {}

    public func write(_ comparison: Comparison, to output: inout some TextOutputStream) throws {
        output.write("{\n")
        output.write("  \"format\": \"\(JSONFormatter.formatVersion)\",\n")
        output.write("  \"old\": \(JSONFormatter.inputJSON(comparison.old)),\n")
        output.write("  \"new\": \(JSONFormatter.inputJSON(comparison.new)),\n")
        let options = comparison.options.records
        var ids = "["
        for (index, path) in options.id.enumerated() {
            if index > 0 { ids += "," }
            Value.writeJSONString(path.description, to: &ids)
        }
        output.write("  \"id\": \(ids)],\n")
        var section = "null"
        if let path = options.section {
            section = ""
            Value.writeJSONString(path.description, to: &section)
        }
        output.write("  \"section\": \(section),\n")
        output.write("  \"summary\": \(JSONFormatter.summaryJSON(comparison.summary, sections: options.section != nil)),\n")
        output.write("  \"changes\": [")
        var first = true
        try ChangeRecords(comparison).forEach { change in
            output.write(first ? "\n    " : ",\n    ")
            output.write(change)
            first = false
        }
        output.write(first ? "]\n}\n" : "\n  ]\n}\n")
    }

    static func inputJSON(_ dataset: Dataset) -> String {
        var object = JSONObjectWriter()
        object.add("file", string: dataset.input.name)
        object.add("format", string: dataset.input.format.rawValue)
        object.add("records", int: dataset.records.count)
        return object.text
    }

    public static func summaryJSON(_ summary: Summary, sections: Bool) -> String {
        var object = JSONObjectWriter()
        object.add("inserted", int: summary.inserted)
        object.add("deleted", int: summary.deleted)
        object.add("updated", int: summary.updated)
        object.add("moved", int: summary.moved)
        object.add("unchanged", int: summary.unchanged)
        if sections {
            var counts = JSONObjectWriter()
            counts.add("inserted", int: summary.sectionsInserted)
            counts.add("deleted", int: summary.sectionsDeleted)
            counts.add("moved", int: summary.sectionsMoved)
            object.add("sections", raw: counts.text)
        }
        return object.text
    }
}

/// The `ndjson` format: one change object per line (see `ChangeRecords`),
/// written as each is made, for very large deltas and `jq -c`. No summary
/// line: every line is a change.
public struct NDJSONFormatter {
    public init() {}

    public func write(_ comparison: Comparison, to output: inout some TextOutputStream) throws {
        try ChangeRecords(comparison).forEach { change in
            output.write(change)
            output.write("\n")
        }
    }
}
