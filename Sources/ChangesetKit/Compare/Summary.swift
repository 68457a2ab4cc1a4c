/// The counts a run reports.
public struct Summary: Equatable, Sendable {
    /// Records only NEW holds.
    public var inserted = 0
    /// Records only OLD holds.
    public var deleted = 0
    /// Matched records with at least one changed field under the comparison's rules.
    public var updated = 0
    /// Matched records off the longest run of records that kept their order
    /// (within their section, with `--section`).
    public var moved = 0
    /// Matched records that were not updated (moved ones included).
    public var unchanged = 0
    /// Sections only NEW holds (`--section`).
    public var sectionsInserted = 0
    /// Sections only OLD holds (`--section`).
    public var sectionsDeleted = 0
    /// Sections in both whose order changed (`--section`).
    public var sectionsMoved = 0
    /// Records in OLD.
    public var oldCount = 0
    /// Records in NEW.
    public var newCount = 0
    /// Fields added plus fields removed.
    public var schema = 0
    /// Per field, how many updated records changed it: most first, then by path.
    public var fieldCounts: [FieldCount] = []
    /// Per changed field (in `fieldCounts`' order), its most frequent value
    /// transitions and how far its numbers moved, where there is something
    /// to say (a transition made twice or more, a number changed).
    public var transitions: [FieldTransitions] = []

    /// Records inserted, deleted, updated or moved (a record both moved and updated counts once).
    public var changed = 0
    /// Updated records whose every changed field changed only its value's
    /// type (`"3"` -> `3`, `"true"` -> `true`): what `--loose-types` would
    /// leave unchanged. Counted in typed comparisons (both inputs JSON).
    public var typeOnlyUpdates = 0
    /// The first field change of the first such update, the note's example.
    public var typeOnlyExample: FieldChange?
    /// Updated records whose every changed field is a number spelled
    /// another way (`6199` -> `6.199e3`): what `--numbers-by-value` would
    /// leave unchanged. Counted when both inputs are CSV.
    public var respelledNumberUpdates = 0
    /// The first field change of the first such update, the note's example.
    public var respelledNumberExample: FieldChange?
    /// Per changed field (in `fieldCounts`' order) that some updated record
    /// changed only in its value's type: in how many records (of the field's
    /// `fieldCounts` ones) every change of the field was so. Counted in typed
    /// comparisons, like `typeOnlyUpdates`, which misses a field whose
    /// records changed other fields too.
    public var typeOnlyFields: [TypeOnlyField] = []
    /// The arrays inside records whose elements were matched by a key (the
    /// `--id` fields, a member named `id`, or an `--array-key`), each with
    /// the key and how many updated records it was so in, in the order first
    /// met. Filled by every report (`--stat` too); empty in the counts
    /// alone (`Comparison.counts()`, what `--quiet` and the replay formats use).
    public var keyedArrays: [KeyedArray] = []
    /// Deleted records equal to an inserted record in every field but the
    /// `--id` fields (one to one, within a section): probably records whose
    /// key was changed. A note; they still count as deleted and inserted.
    public var rekeyed = 0
    /// The first of those pairs (at most 3), in OLD's order: the note's examples.
    public var rekeyedExamples: [RekeyedRecord] = []

    /// No records and no changes; a comparison fills the counts in.
    public init() {}

    /// Does anything differ? Exit status 1 when so (without `--assert`).
    public var hasDifferences: Bool {
        inserted + deleted + updated + moved + sectionsInserted + sectionsDeleted + sectionsMoved + schema > 0
    }
}

extension Summary {
    /// Said once when most updates change only a value's type, with an
    /// example from the data that `example` writes as its format shows data:
    /// `248 of the 250 updates change only a value's type ("3" -> 3); --loose-types ...`.
    package func typeOnlyNote(example: (String) -> String) -> String? {
        guard typeOnlyUpdates > 0, typeOnlyUpdates * 2 >= updated else { return nil }
        let shown = typeOnlyExample.map { " (" + example(Self.exampleText($0)) + ")" } ?? ""
        return "\(typeOnlyUpdates) of the \(updated) updates change only a value's type\(shown); --loose-types compares by text and leaves them unchanged"
    }

    /// Said once when most updates only respell numbers, with an example
    /// from the data that `example` writes as its format shows data:
    /// `2 of the 3 updates only respell a number (6199 -> 6.199e3); --numbers-by-value ...`.
    package func respelledNumberNote(example: (String) -> String) -> String? {
        guard respelledNumberUpdates > 0, respelledNumberUpdates * 2 >= updated else { return nil }
        let shown = respelledNumberExample.map { change in
            " (" + example(Summary.exampleText(change.old?.cellText ?? "") + " -> " + Summary.exampleText(change.new?.cellText ?? "")) + ")"
        } ?? ""
        return "\(respelledNumberUpdates) of the \(updated) updates only respell a number\(shown); "
            + "--numbers-by-value compares numbers by value and leaves them unchanged"
    }

    /// Which arrays' elements were matched by which member, said once:
    /// `arrays matched by key: states[] by "id" (250 records)`; `name`
    /// writes an array or a key as the format shows names. Nil when none was.
    package func keyedArraysNote(name: (String) -> String = { $0 }) -> String? {
        guard !keyedArrays.isEmpty else { return nil }
        let arrays = keyedArrays.map { keyed in
            "\(name(keyed.array)) by \(name("\"" + FieldPath.listArgument(keyed.key) + "\"")) (\(keyed.records) record\(keyed.records == 1 ? "" : "s"))"
        }
        return "arrays matched by key: " + arrays.joined(separator: ", ")
    }

    /// Said when deleted records look re-keyed, with the first pairs, each
    /// id written by `id` as its format shows an id's text:
    /// `looks re-keyed: 24 of the 26 deleted records equal an inserted record but for their id ("Terrant County College" -> "Tarrant County College", ...)`.
    package func rekeyedNote(id: (String) -> String) -> String? {
        guard rekeyed > 0 else { return nil }
        let pairs = rekeyedExamples.map { id(Self.idText($0.old)) + " -> " + id(Self.idText($0.new)) }
        let more = rekeyed > rekeyedExamples.count ? ", …" : ""
        return "looks re-keyed: \(rekeyed) of the \(deleted) deleted \(deleted == 1 ? "record equals" : "records equal") an inserted record "
            + "in every field but the id (\(pairs.joined(separator: ", "))\(more)); each still counts as a deletion and an insertion"
    }

    /// An id in a note: its parts as the text report writes them (`a,b`), quoted as a JSON string and cut.
    static func idText(_ parts: [String]) -> String {
        var text = ""
        let joined = parts.joined(separator: ",")
        Value.writeJSONString(joined.count <= 40 ? joined : String(joined.prefix(39)) + "…", to: &text)
        return text
    }

    /// A value's text in a note, cut: an example, not the value.
    static func exampleText(_ text: String) -> String {
        text.count <= 24 ? text : String(text.prefix(23)) + "…"
    }

    /// The same note per field, for each field (at most `limit`, most changed
    /// first) most of whose changes are only of a value's type, said
    /// whether or not the updates are (a record that changed another field too is
    /// no type-only update): `region_id changes only a value's type in 248 of its
    /// 248 updated records ("3" -> 3); --loose-types ...`. `name` writes the
    /// field's name as the format shows names, `option` the option's.
    package func typeOnlyFieldNotes(
        limit: Int, name: (String) -> String, example: (String) -> String, option: (String) -> String = { $0 }
    ) -> [String] {
        let changed = Dictionary(fieldCounts.map { ($0.path, $0.records) }, uniquingKeysWith: { first, _ in first })
        return typeOnlyFields.filter { field in changed[field.path].map { field.records * 2 >= $0 } ?? false }
            .prefix(limit)
            .map { field in
                "\(name(field.path.description)) changes only a value's type in \(field.records) of its \(changed[field.path]!) updated records "
                    + "(\(example(Self.exampleText(field.example)))); \(option("--loose-types")) compares by text and counts these changes as none"
            }
    }

    /// A change as a note's example: compact JSON text, each side cut (an example, not the value).
    static func exampleText(_ change: FieldChange) -> String {
        exampleText(change.old?.jsonText ?? "(absent)") + " -> " + exampleText(change.new?.jsonText ?? "(absent)")
    }

    /// How many changes of a kind there are.
    public func count(of kind: Change.Kind) -> Int {
        switch kind {
        case .sectionDeleted: sectionsDeleted
        case .sectionInserted: sectionsInserted
        case .sectionMoved: sectionsMoved
        case .deleted: deleted
        case .inserted: inserted
        case .moved: moved
        case .updated: updated
        }
    }
}
