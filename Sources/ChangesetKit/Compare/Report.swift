/// A comparison resolved for output: what `write(_:to:)` and
/// `Comparison.write` turn into text. Everything in it is data (counts,
/// names, resolved changes); the changes of `Comparison.report()` are read
/// again from the inputs, a batch at a time, as they are written.
public struct Report: Sendable {
    /// The old input (OLD), as the report names it.
    public var old: InputSummary
    /// The new input (NEW), as the report names it.
    public var new: InputSummary
    /// The `--id` fields (empty: records are matched by content).
    public var id: [FieldPath]
    /// The `--section` field, if any.
    public var section: FieldPath?
    /// The counts, of every change whether or not `changes` holds it.
    public var summary: Summary
    /// Fields in one input's schema and not the other's.
    public var schema: SchemaChanges
    /// The changes in order (section changes, then deleted, inserted, moved
    /// and updated records), produced as they are read.
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
    /// What a change stream (`--format ndjson`) says of the comparison
    /// beyond the report: its rules, the inputs' fingerprints (see `ChangeStreamFacts`).
    package var stream = ChangeStreamFacts()

    /// A report of `changes` between `old` and `new`, counted by `summary`;
    /// `kindsShown` says which kinds `changes` was limited to (nil: all).
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
        return "showing \(TerminalText.sentence(names)) changes only (--kinds): the counts are of every change"
    }

    /// Are records grouped into sections (`--section`)?
    public var sectioned: Bool { section != nil }
}
