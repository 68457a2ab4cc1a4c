/// Where a record (or a section) is on one side: its section with
/// `--section`, its 0-based index there (in the whole file without
/// `--section`), and the 1-based line of the file its text starts on.
public struct RecordPlace: Equatable, Sendable {
    /// The section's name; nil without `--section`, or for records whose
    /// section field is missing or null (`Report.sectioned` tells which).
    public var section: String?
    /// 0-based: within the section with `--section`, else within the file.
    public var index: Int
    /// The record's first line in its file; nil for a section change.
    public var line: Int?

    /// A place at `index` in `section`, its text starting on `line`.
    public init(section: String? = nil, index: Int, line: Int? = nil) {
        self.section = section
        self.index = index
        self.line = line
    }
}

/// One resolved change, everything a formatter shows of it: no formatter
/// goes back to the inputs for more.
public struct Change: Equatable, Sendable {
    /// What happened to a record or a section; the raw value is the name the
    /// outputs and `--kinds` use (`section-deleted`, `updated`, ...).
    public enum Kind: String, Sendable, CaseIterable {
        case sectionDeleted = "section-deleted"
        case sectionInserted = "section-inserted"
        case sectionMoved = "section-moved"
        case deleted, inserted, moved, updated

        /// Whether the change is of a whole section (`--section`), not a record.
        public var isSectionChange: Bool { self == .sectionDeleted || self == .sectionInserted || self == .sectionMoved }
    }

    /// What happened.
    public var kind: Kind
    /// A record's id, one text per `--id` field; nil when records are
    /// matched by content (no `--id`) and for section changes.
    public var id: [String]?
    /// A section change's section name (nil: the section of records without the field).
    public var section: String?
    /// The old place (deleted, moved, updated; section deleted and moved).
    public var old: RecordPlace?
    /// The new place (inserted, moved, updated; section inserted and moved).
    public var new: RecordPlace?
    /// The whole record: the old one for deleted, the new one for inserted,
    /// and for moved records matched by content (so they can be shown).
    /// A report's change may hold only the record's JSON text (`recordJSON`),
    /// read into a `Value` here each time it is asked for.
    public var record: Value? {
        get {
            if let storedRecord { return storedRecord }
            // The text is what `Value.writeJSON` writes of the record, which reads back as the same value.
            return recordJSON.flatMap { json in try? JSONValueReader.readRecord(json.span) }
        }
        set {
            storedRecord = newValue
            recordJSON = nil
        }
    }
    private var storedRecord: Value?
    /// The whole record's JSON text, as `Value.writeJSON` writes `record`:
    /// a report makes it from the record's bytes (`Snapshot.appendRecordJSON`)
    /// and the formatters that show the record as JSON copy it, so no
    /// `Value` is built for it.
    package private(set) var recordJSON: [UInt8]?
    /// Updated records: the fields that changed, under the comparison's rules.
    public var fields: [FieldChange]
    /// The fields `--show` asked for, beside the id: their values in the
    /// record as it is now (the old record for a deletion); nil where the
    /// record has no such field.
    public var context: [(path: FieldPath, value: Value?)]

    /// A change of `kind`; the other members as above, empty where the kind has none.
    public init(
        kind: Kind, id: [String]? = nil, section: String? = nil, old: RecordPlace? = nil, new: RecordPlace? = nil,
        record: Value? = nil, fields: [FieldChange] = [], context: [(path: FieldPath, value: Value?)] = []
    ) {
        self.kind = kind
        self.id = id
        self.section = section
        self.old = old
        self.new = new
        self.storedRecord = record
        self.fields = fields
        self.context = context
    }

    /// A change of `kind` whose whole record is given as its JSON text, as
    /// `Value.writeJSON` writes it (see `recordJSON`).
    package init(kind: Kind, id: [String]?, old: RecordPlace? = nil, new: RecordPlace? = nil, recordJSON: [UInt8]) {
        self.init(kind: kind, id: id, old: old, new: new)
        self.recordJSON = recordJSON
    }

    /// Whether the change holds a whole record (`record` is not nil).
    package var hasRecord: Bool { storedRecord != nil || recordJSON != nil }

    /// The whole record's JSON text, as `Value.writeJSON` writes it, appended
    /// to `json`; nothing without a record.
    package func appendRecordJSON(to json: inout [UInt8]) {
        if let recordJSON {
            json.append(contentsOf: recordJSON)
        } else {
            storedRecord?.writeJSON(into: &json)
        }
    }

    /// Equal in every member, `context` compared pair by pair (a tuple is not
    /// `Equatable`).
    public static func == (a: Change, b: Change) -> Bool {
        a.kind == b.kind && a.id == b.id && a.section == b.section && a.old == b.old && a.new == b.new && a.record == b.record
            && a.fields == b.fields && a.context.count == b.context.count
            && zip(a.context, b.context).allSatisfy { $0.path == $1.path && $0.value == $1.value }
    }
}

/// The ordered changes of a report, produced on demand so a large delta is
/// never held whole: section changes, then deleted, inserted, moved and
/// updated records, each by position. Tests and library users can build one
/// from an array.
public struct ChangeStream: Sendable {
    /// Hands the changes over in order, a batch at a time.
    private let produce: @Sendable (_ body: (ChangeBatch) throws -> Void) throws -> Void

    /// A stream of `changes`, in the order given.
    public init(_ changes: [Change]) {
        produce = { body in try OrderedConcurrentMap.forEachBatch(changes) { try body(ChangeBatch(made: $0)) } }
    }

    init(batches producer: @escaping @Sendable (_ body: (ChangeBatch) throws -> Void) throws -> Void) {
        produce = producer
    }

    /// Calls `body` with each change, in order. Reading records again can
    /// fail (a file that changed meanwhile); that error ends the stream.
    public func forEach(_ body: (Change) throws -> Void) throws {
        try produce { batch in
            for change in try batch.made ?? OrderedConcurrentMap.map(Array(0..<batch.count), batch.make) { try body(change) }
        }
    }

    /// Renders each change with `render` on every core, a batch at a time,
    /// and hands the renderings to `write` in order. For formatters whose text
    /// for a change depends on that change alone: the rendering of a large
    /// report is then shared between the cores, and the writing of one
    /// batch is done while the next is rendered (one thread writes, then
    /// renders with the others). `render` runs on several threads at once:
    /// the thread that makes a change (reads its record again) renders it,
    /// so a batch waits once for its slowest stretch. `write` runs on one
    /// thread at a time, not necessarily the caller's. The first error in
    /// the changes' order ends the stream, whether making, rendering or
    /// writing threw it; the batches before it are written whole, and a
    /// stream that fails after its last batch (an input changed meanwhile)
    /// leaves that batch unwritten.
    public func forEach<Rendering>(rendering render: (Change) throws -> Rendering, _ write: (Rendering) throws -> Void) throws {
        var ready: [Rendering] = []
        try produce { batch in
            ready = try OrderedConcurrentMap.map(count: batch.count, { try render(batch.make($0)) }, afterConsuming: ready, write)
        }
        for rendering in ready { try write(rendering) }
    }

    /// Every change, collected (for tests and small deltas).
    public func collect() throws -> [Change] {
        var all: [Change] = []
        try forEach { all.append($0) }
        return all
    }
}

/// A batch of a stream's changes, made on demand: change `index` is
/// `make(index)`, which runs on several threads at once (it may read a
/// record from its file). `made`: the changes themselves when they are at
/// hand, so a walk that only reads them needs no threads.
struct ChangeBatch {
    let count: Int
    let make: (Int) throws -> Change
    let made: [Change]?

    init(count: Int, make: @escaping (Int) throws -> Change) {
        self.count = count
        self.make = make
        made = nil
    }

    init(made changes: [Change]) {
        count = changes.count
        make = { changes[$0] }
        made = changes
    }
}
