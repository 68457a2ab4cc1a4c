/// The `json` format: one document for `jq`.
///
///     {
///       "format": "changeset/1",
///       "old": {"file": "old.json", "format": "json", "records": 7},
///       "new": {"file": "new.json", "format": "json", "records": 7},
///       "id": ["id"],
///       "section": null,
///       "summary": {"inserted": 1, "deleted": 1, "updated": 3, "moved": 1, "unchanged": 3,
///                   "schema": 0, "fields": {"price": 1, "pages": 1}},
///       "schema": {"added": [], "removed": [], "renamed": []},
///       "changes": [
///         {"kind": "deleted", ...},
///         ...
///       ]
///     }
///
/// `format` names this schema and its version; a change that breaks readers
/// of it gets a new number. `id` lists the `--id` fields (empty without one);
/// `section` is the `--section` field or null. With `--section`, `summary`
/// also has `"sections": {"inserted": i, "deleted": d, "moved": m}`; it
/// always has `schema` (fields added plus removed) and `fields` (per changed
/// field, how many updated records changed it). `schema` lists the fields
/// added and removed between the schemas (see `SchemaChanges`) and the
/// renames that matched. `layout`, only when the files differ apart from
/// their records, says how (see `layoutJSON`). The change objects are those
/// of `ChangeJSON`, one per line.
package struct JSONFormatter: ReportFormatter {
    package static let formatVersion = "changeset/1"

    package init() {}

    package var showsEveryChange: Bool { true }

    /// The report's fields, up to the opening of `changes`; the progress is whether no change was written yet.
    package func begin(_ report: Report, to output: inout some TextOutputStream) -> Bool {
        output.write("{\n")
        output.write("  \"format\": \"\(JSONFormatter.formatVersion)\",\n")
        output.write("  \"old\": \(JSONFormatter.inputJSON(report.old)),\n")
        output.write("  \"new\": \(JSONFormatter.inputJSON(report.new)),\n")
        output.write("  \"id\": \(Value.array(report.id.map { .string($0.description) }).jsonText),\n")
        output.write("  \"section\": \(report.section.map { Value.string($0.description).jsonText } ?? "null"),\n")
        output.write("  \"summary\": \(JSONFormatter.summaryJSON(report.summary, sections: report.sectioned)),\n")
        output.write("  \"schema\": \(JSONFormatter.schemaJSON(report.schema)),\n")
        if !report.layout.isEmpty {
            // Only when the files differ apart from their records: line breaks, byte order mark, final newline, column order.
            output.write("  \"layout\": \(JSONFormatter.layoutJSON(report.layout)),\n")
        }
        if let kinds = report.kindsShown {
            // `changes` holds these kinds only (`--kinds`); `summary` counts every change.
            output.write("  \"kinds\": \(Value.array(kinds.map { .string($0.rawValue) }).jsonText),\n")
        }
        output.write("  \"changes\": [")
        return true
    }

    package func render(_ change: Change, in report: Report) -> String {
        ChangeJSON.object(change, sectioned: report.sectioned)
    }

    package func write(_ change: Change, rendered: () -> String, in report: Report, progress first: inout Bool, to output: inout some TextOutputStream) {
        output.write(first ? "\n    " : ",\n    ")
        output.write(rendered())
        first = false
    }

    package func finish(_ report: Report, progress first: Bool, to output: inout some TextOutputStream) {
        output.write(first ? "]\n}\n" : "\n  ]\n}\n")
    }

    static func inputJSON(_ input: InputSummary) -> String {
        var object = JSONObjectWriter()
        object.add("file", string: input.name)
        object.add("format", string: input.format.rawValue)
        object.add("records", int: input.records)
        return object.text
    }

    /// `{"added": [{"path": "color", "records": 2}], "removed": [...], "renamed": [{"old": "a", "new": "b"}]}`,
    /// and `"ignored": {"added": [...], "removed": [...]}` when `--ignore` or `--only` leave some out.
    package static func schemaJSON(_ schema: SchemaChanges) -> String {
        func fields(_ fields: [SchemaField]) -> String {
            "[" + fields.map { field in
                var entry = JSONObjectWriter()
                entry.add("path", string: field.path.description)
                entry.add("records", int: field.records)
                return entry.text
            }.joined(separator: ",") + "]"
        }
        var object = JSONObjectWriter()
        object.add("added", raw: fields(schema.added))
        object.add("removed", raw: fields(schema.removed))
        object.add("renamed", raw: "[" + schema.renamed.map { rename in
            var entry = JSONObjectWriter()
            entry.add("old", string: rename.old.description)
            entry.add("new", string: rename.new.description)
            return entry.text
        }.joined(separator: ",") + "]")
        if !schema.suggestedRenames.isEmpty {
            object.add("suggested", array: schema.suggestedRenames) { entry, suggestion in
                entry.add("old", string: suggestion.old.description)
                entry.add("new", string: suggestion.new.description)
                entry.add("compared", int: suggestion.compared)
                entry.add("equal", int: suggestion.equal)
            }
        }
        if !schema.ignoredAdded.isEmpty || !schema.ignoredRemoved.isEmpty {
            var ignored = JSONObjectWriter()
            ignored.add("added", raw: fields(schema.ignoredAdded))
            ignored.add("removed", raw: fields(schema.ignoredRemoved))
            object.add("ignored", raw: ignored.text)
        }
        return object.text
    }

    /// The counts; `fields` maps each changed field to the number of updated
    /// records that changed it, most first.
    package static func summaryJSON(_ summary: Summary, sections: Bool) -> String {
        var object = JSONObjectWriter()
        addCounts(summary, sections: sections, to: &object)
        var fields = JSONObjectWriter()
        for count in summary.fieldCounts { fields.add(count.path.description, int: count.records) }
        object.add("fields", raw: fields.text)
        if summary.typeOnlyUpdates > 0 { object.add("typeOnly", int: summary.typeOnlyUpdates) }
        if summary.respelledNumberUpdates > 0 { object.add("respelledNumbers", int: summary.respelledNumberUpdates) }
        JSONFormatter.addRekeyed(summary, to: &object)
        if !summary.typeOnlyFields.isEmpty {
            // Per field, with `fields`' counts: what a script needs to say the note per field.
            var typeOnly = JSONObjectWriter()
            for field in summary.typeOnlyFields { typeOnly.add(field.path.description, int: field.records) }
            object.add("typeOnlyFields", raw: typeOnly.text)
        }
        if !summary.keyedArrays.isEmpty {
            // Which arrays' elements were matched by which member: the key as --array-key writes it.
            object.add("keyedArrays", array: summary.keyedArrays) { entry, keyed in
                entry.add("array", string: keyed.array)
                entry.add("key", string: FieldPath.listArgument(keyed.key))
                entry.add("records", int: keyed.records)
            }
        }
        if !summary.transitions.isEmpty {
            // Per field, its most frequent transitions and how far its numbers moved.
            object.add("transitions", array: summary.transitions) { entry, field in
                entry.add("path", string: field.path.description)
                if let pattern = field.elementPattern { entry.add("elements", string: pattern) }
                entry.add("top", array: field.top) { item, transition in
                    if let old = transition.old { item.add("old", value: old) }
                    if let new = transition.new { item.add("new", value: new) }
                    item.add("records", int: transition.records)
                    // Only where it is so: a count is exact unless it says otherwise.
                    if !transition.exact { item.add("exact", raw: "false") }
                }
                entry.add("exact", raw: field.exact ? "true" : "false")
                if let numbers = field.numbers {
                    entry.add("numbers", object: { numbers.add(into: &$0) })
                }
            }
        }
        return object.text
    }
}

/// The `ndjson` format, a change stream: one object per line, written as
/// each is made, for very large deltas, `jq -c` and `changeset report`:
///
/// 1. a header, `{"kind": "stream", "stream": 1, "changeset": "changeset 0.1.0",
///    "old": {...}, "new": {...}, "id": [...], "section": null, "options": {...},
///    "fingerprints": {"old": hex, "new": hex}, ...}`: what the stream is, the
///    inputs as `json` names them, the rules the comparison ran under, and
///    per side the sum of its records' fingerprints (see `ChangeStreamFacts`);
/// 2. a `{"kind": "schema", "added": [...], "removed": [...], "renamed": [...]}`
///    object when the schemas differ or a rename matched, then a
///    `{"kind": "layout", ...}` object when the files differ apart from their
///    records (the `layout` member of `json`);
/// 3. one change object per line (see `ChangeJSON`); a keyed element that
///    moved also carries `inside`, what changed inside it;
/// 4. an end line, `{"kind": "end", "changes": n, "summary": {...}, "digest": hex}`:
///    how many change lines there are, the counts, and the stream's digest
///    (`ChangeStreamDigest`). A stream without it was cut.
package struct NDJSONFormatter: ReportFormatter {
    package init() {}

    package var showsEveryChange: Bool { true }

    /// The change lines written so far and the digest of every line so far.
    package struct Progress {
        var changes = 0
        var digest = ChangeStreamDigest()
    }

    package func begin(_ report: Report, to output: inout some TextOutputStream) -> Progress {
        var progress = Progress()
        func line(_ text: String) {
            progress.digest.add(line: Array(text.utf8), isChange: false)
            output.write(text)
        }
        line(Self.headerJSON(report) + "\n")
        if report.schema.isWorthListing {
            line("{\"kind\":\"schema\"," + JSONFormatter.schemaJSON(report.schema).dropFirst() + "\n")
        }
        if !report.layout.isEmpty {
            line("{\"kind\":\"layout\"," + JSONFormatter.layoutJSON(report.layout).dropFirst() + "\n")
        }
        return progress
    }

    package func render(_ change: Change, in report: Report) -> String {
        ChangeJSON.object(change, sectioned: report.sectioned, inside: true) + "\n"
    }

    package func write(_ change: Change, rendered: () -> String, in report: Report, progress: inout Progress, to output: inout some TextOutputStream) {
        let text = rendered()
        progress.digest.add(line: Array(text.utf8), isChange: true)
        progress.changes += 1
        output.write(text)
    }

    package func finish(_ report: Report, progress: Progress, to output: inout some TextOutputStream) {
        var end = JSONObjectWriter()
        end.add("kind", string: "end")
        end.add("changes", int: progress.changes)
        end.add("summary", raw: Self.endSummaryJSON(report))
        // The digest covers the end line's own counts too: everything before its digest member.
        let counts = String(end.text.dropLast())
        var digest = progress.digest
        digest.add(line: Array(counts.utf8), isChange: false)
        output.write(counts + String(decoding: ChangeStreamDigest.endLineDigestMember, as: UTF8.self) + digest.hex + "\"}\n")
    }

    /// The header line's object (see the type's comment).
    static func headerJSON(_ report: Report) -> String {
        let facts = report.stream
        var header = JSONObjectWriter()
        header.add("kind", string: "stream")
        header.add("stream", int: ChangeStreamFacts.formatVersion)
        header.add("changeset", string: ChangesetRelease.versionLine)
        header.add("old", raw: JSONFormatter.inputJSON(report.old))
        header.add("new", raw: JSONFormatter.inputJSON(report.new))
        header.add("id", raw: Value.array(report.id.map { .string($0.description) }).jsonText)
        header.add("section", raw: report.section.map { Value.string($0.description).jsonText } ?? "null")
        var options = String(facts.options.dropLast())
        if let kinds = report.kindsShown {
            // Only these kinds were written; the counts are of every change.
            options += ",\"kinds\":" + Value.array(kinds.map { .string($0.rawValue) }).jsonText
        }
        if !facts.show.isEmpty { options += ",\"show\":" + Value.array(facts.show.map { .string($0) }).jsonText }
        header.add("options", raw: options + "}")
        if let fingerprints = facts.fingerprints {
            header.add("fingerprints", object: { sums in
                sums.add("old", string: ChangeStreamFacts.hex(fingerprints.old))
                sums.add("new", string: ChangeStreamFacts.hex(fingerprints.new))
            })
        }
        header.add("keyless", raw: Value.array(facts.keyless.map { .string($0) }).jsonText)
        if let hint = facts.keyHint {
            header.add("keyHint", object: { entry in
                entry.add("keys", raw: Value.array(hint.keys.map { .array($0.map { .string($0) }) }).jsonText)
                entry.add("checkedAll", raw: hint.checkedAll ? "true" : "false")
            })
        }
        return header.text
    }

    /// The end line's counts: those `json`'s summary has but the per-field
    /// ones (a reader counts those again from the change lines), the record
    /// counts, and the notes only the inputs could tell (re-keyed records,
    /// keyed arrays with the update each was first met in).
    static func endSummaryJSON(_ report: Report) -> String {
        let summary = report.summary
        var object = JSONObjectWriter()
        JSONFormatter.addCounts(summary, sections: report.sectioned, to: &object)
        object.add("oldRecords", int: summary.oldCount)
        object.add("newRecords", int: summary.newCount)
        JSONFormatter.addRekeyed(summary, to: &object)
        if !summary.keyedArrays.isEmpty {
            let firstUpdates = report.stream.keyedArrayFirstUpdates
            object.add("keyedArrays", array: Array(summary.keyedArrays.enumerated())) { entry, numbered in
                entry.add("array", string: numbered.element.array)
                entry.add("key", string: FieldPath.listArgument(numbered.element.key))
                entry.add("records", int: numbered.element.records)
                if numbered.offset < firstUpdates.count { entry.add("firstUpdate", int: firstUpdates[numbered.offset]) }
            }
        }
        return object.text
    }
}

extension JSONFormatter {
    /// The counts the json summary and a change stream's end line both
    /// begin with: the kinds of change, changed, unchanged, the sections'
    /// (with `sections`) and schema.
    static func addCounts(_ summary: Summary, sections: Bool, to object: inout JSONObjectWriter) {
        object.add("inserted", int: summary.inserted)
        object.add("deleted", int: summary.deleted)
        object.add("updated", int: summary.updated)
        object.add("moved", int: summary.moved)
        // Not the sum of the four: a record both moved and updated is one changed record.
        object.add("changed", int: summary.changed)
        object.add("unchanged", int: summary.unchanged)
        if sections {
            object.add("sections", object: { counts in
                counts.add("inserted", int: summary.sectionsInserted)
                counts.add("deleted", int: summary.sectionsDeleted)
                counts.add("moved", int: summary.sectionsMoved)
            })
        }
        object.add("schema", int: summary.schema)
    }

    /// `"rekeyed"`, when deleted records equal an inserted one but for the
    /// id: the count and the first pairs, ids as a change's `id` (the json
    /// summary's and a change stream's end line's).
    static func addRekeyed(_ summary: Summary, to object: inout JSONObjectWriter) {
        guard summary.rekeyed > 0 else { return }
        object.add("rekeyed", object: { rekeyed in
            rekeyed.add("records", int: summary.rekeyed)
            rekeyed.add("examples", array: summary.rekeyedExamples) { entry, pair in
                entry.add("old", raw: ChangeJSON.idJSON(pair.old))
                entry.add("new", raw: ChangeJSON.idJSON(pair.new))
            }
        })
    }
}

extension NumericChanges {
    /// `"records": n, "largest": x, "mean": y`, numbers as `TransitionText` writes them (valid JSON: finite).
    func add(into object: inout JSONObjectWriter) {
        object.add("records", int: records)
        object.add("largest", raw: TransitionText.number(largest))
        object.add("mean", raw: TransitionText.number(mean))
    }
}
