/// A comparison resolved for output: what `write(_:to:)` and
/// `Comparison.write` turn into text. Everything in it is data (counts,
/// names, resolved changes); the changes of `Comparison.report()` are read
/// again from the inputs, a batch at a time, as they are written.
public struct Report: Sendable {
    public var old: InputSummary
    public var new: InputSummary
    /// The `--id` fields (empty: records are matched by content).
    public var id: [FieldPath]
    /// The `--section` field, if any.
    public var section: FieldPath?
    public var summary: Summary
    public var schema: SchemaChanges
    public var changes: ChangeStream
    /// The kinds of change `changes` holds when `--kinds` chose some (nil:
    /// every kind); `summary` counts every change all the same.
    public var kindsShown: [Change.Kind]?
    /// What changed in the files apart from their records (line breaks,
    /// byte order mark, final newline, column order); never counted in `summary`.
    public var layout = FileLayoutChanges()
    /// Without `--id`, a field that would make a good one, said where the
    /// report is read (`OutputSettings.reportCarriesKeyHint`), near its top.
    package var keyHint: KeyHint?

    public init(
        old: InputSummary, new: InputSummary, id: [FieldPath] = [], section: FieldPath? = nil,
        summary: Summary, schema: SchemaChanges = SchemaChanges(), changes: ChangeStream, kindsShown: [Change.Kind]? = nil,
        layout: FileLayoutChanges = FileLayoutChanges()
    ) {
        self.old = old
        self.new = new
        self.id = id
        self.section = section
        self.summary = summary
        self.schema = schema
        self.changes = changes
        self.kindsShown = kindsShown
        self.layout = layout
    }

    /// "showing deleted and inserted changes only (--kinds): the counts are of every change", when `--kinds` chose some.
    package var kindsNote: String? {
        kindsShown.map(Report.kindsNote)
    }

    package static func kindsNote(_ kinds: [Change.Kind]) -> String {
        let names = kinds.map(\.rawValue)
        return "showing \(VisibleText.sentence(names)) changes only (--kinds): the counts are of every change"
    }

    /// Are records grouped into sections (`--section`)?
    public var sectioned: Bool { section != nil }
}

/// One input as a report names it.
public struct InputSummary: Equatable, Sendable {
    /// The name as the user gave it (`<stdin>` for standard input).
    public var name: String
    public var format: InputFormat
    public var records: Int

    public init(name: String, format: InputFormat, records: Int) {
        self.name = name
        self.format = format
        self.records = records
    }
}

/// Fields in one snapshot's schema and not the other's, reported once
/// instead of in every record. A field is in a snapshot's schema when its
/// CSV header names it, or when any of its JSON records has it as a
/// top-level member (nested members are compared as part of their parent).
public struct SchemaChanges: Equatable, Sendable {
    public var added: [SchemaField] = []
    public var removed: [SchemaField] = []
    /// `--rename OLD=NEW` pairs that matched a field, as old and new paths.
    public var renamed: [Rename] = []
    /// Fields added and removed that `--ignore` or `--only` leave out of
    /// the comparison: listed, never counted as differences.
    public var ignoredAdded: [SchemaField] = []
    public var ignoredRemoved: [SchemaField] = []
    /// A removed and an added field that hold equal values in most matched
    /// records: probably one field renamed (`--rename OLD=NEW` would say so).
    public var suggestedRenames: [RenameSuggestion] = []

    public init(
        added: [SchemaField] = [], removed: [SchemaField] = [], renamed: [Rename] = [],
        ignoredAdded: [SchemaField] = [], ignoredRemoved: [SchemaField] = []
    ) {
        self.added = added
        self.removed = removed
        self.renamed = renamed
        self.ignoredAdded = ignoredAdded
        self.ignoredRemoved = ignoredRemoved
    }

    /// No field added or removed that counts (ignored ones aside).
    public var isEmpty: Bool { added.isEmpty && removed.isEmpty }
    /// Fields added plus fields removed that count (`--assert 'schema == 0'`).
    public var count: Int { added.count + removed.count }
    /// Whether a report has anything to say about the schema: changes, ignored ones or renames.
    public var isWorthListing: Bool {
        !isEmpty || !renamed.isEmpty || !ignoredAdded.isEmpty || !ignoredRemoved.isEmpty || !suggestedRenames.isEmpty
    }
}

/// A removed field and an added one whose values agree in matched records.
public struct RenameSuggestion: Equatable, Sendable {
    public var old: FieldPath
    public var new: FieldPath
    /// Matched records compared (both fields present) and how many of them hold equal values.
    public var compared: Int
    public var equal: Int

    public init(old: FieldPath, new: FieldPath, compared: Int, equal: Int) {
        self.old = old
        self.new = new
        self.compared = compared
        self.equal = equal
    }

    /// `looks renamed: state_code -> iso2 (5076 of 5076 values equal); --rename state_code=iso2 says so`
    package var sentence: String {
        "looks renamed: \(old) -> \(new) (\(equal) of \(compared) values equal); --rename \(renameArgument) compares them as one field"
    }

    /// `OLD=NEW` as `--rename` takes it (an `=` in a name escaped), quoted for a shell when it must be.
    package var renameArgument: String {
        ShellWord.quoted(Rename(old: old, new: new).argument)
    }
}

/// A deleted record and the inserted record equal to it in every field but
/// the `--id` fields: the ids as a change carries them (`Change.id`).
public struct RekeyedRecord: Equatable, Sendable {
    /// The deleted record's id parts, in `--id`'s order.
    public var old: [String]
    /// The inserted record's id parts.
    public var new: [String]

    /// A pair from the two records' ids.
    public init(old: [String], new: [String]) {
        self.old = old
        self.new = new
    }
}

/// A field added to or removed from the schema, with how many records of the
/// side that has it hold a value for it (not null, not an empty cell).
public struct SchemaField: Equatable, Sendable {
    public var path: FieldPath
    public var records: Int

    public init(path: FieldPath, records: Int) {
        self.path = path
        self.records = records
    }
}

/// How many updated records changed a field.
public struct FieldCount: Equatable, Sendable {
    public var path: FieldPath
    public var records: Int

    public init(path: FieldPath, records: Int) {
        self.path = path
        self.records = records
    }
}

/// A field some of whose changes were only of a value's type (`"3"` -> `3`).
public struct TypeOnlyField: Equatable, Sendable {
    public var path: FieldPath
    /// Updated records whose every change of the field changed only a value's type.
    public var records: Int
    /// The first such change, the note's example.
    public var example: FieldChange

    public init(path: FieldPath, records: Int, example: FieldChange) {
        self.path = path
        self.records = records
        self.example = example
    }
}

/// The counts a run reports.
public struct Summary: Equatable, Sendable {
    public var inserted = 0
    public var deleted = 0
    /// Matched records with at least one changed field under the comparison's rules.
    public var updated = 0
    public var moved = 0
    /// Matched records that were not updated (moved ones included).
    public var unchanged = 0
    public var sectionsInserted = 0
    public var sectionsDeleted = 0
    public var sectionsMoved = 0
    public var oldCount = 0
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

extension Snapshot {
    /// The input as a report names it.
    package var summary: InputSummary {
        InputSummary(name: input.name, format: input.format, records: recordCount)
    }
}
