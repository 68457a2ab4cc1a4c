/// The changes in the files' record order (sections play no part), resolved
/// for the replay formats (`patch`, `jsonpatch`): indices up front, and the
/// records and field changes they carry as a stream, read again once, on all
/// cores, in order.
///
/// A replay carries every difference the fingerprints see, including fields
/// only one schema has, so it rebuilds NEW exactly (options that would count
/// some of those differences as none, a tolerance or `--ignore-order`, are
/// refused with a replay format); fields left out by `--ignore`, `--only` or
/// `--section` are not in the fingerprints, so a record whose only changes
/// are there is not in it.
package struct Replay: Sendable {
    /// What a replay format needs of each change.
    package enum Detail: Sendable {
        /// New records whole (`patch`).
        case records
        /// Field changes of updated records, and inserted records whole (`jsonpatch`).
        case fields
    }

    /// One resolved step. The stream gives inserted records by new index,
    /// then moves and updates in the changeset's order (old index).
    package enum Step: Sendable {
        case inserted(new: Int, record: Value, line: Int)
        /// `record` (with `.records`) when the moved record also changed.
        case moved(old: Int, new: Int, record: Value?, line: Int)
        /// `record` with `.records` (nil when the record also moved: its move
        /// carries it), `fields` with `.fields`.
        case updated(old: Int, new: Int, record: Value?, fields: [FieldChange], line: Int)
    }

    package var old: InputSummary
    package var new: InputSummary
    /// The base snapshot's fingerprint (every record's full content, in order).
    package var base: SnapshotFingerprint
    /// With `.records`: the fingerprint of the snapshot `apply` builds from
    /// the patch, in the base's format (see `Comparison.resultFingerprint`).
    package var result: SnapshotFingerprint?
    /// JSON: the `--records-at` path of the base document.
    package var recordsAt: FieldPath?
    /// CSV/TSV base: its delimiter when not the default one.
    package var delimiter: UInt8?
    /// Both CSV/TSV: NEW's header.
    package var columns: [String]?
    /// A CSV/TSV base's columns (what a record may hold), nil for JSON.
    package var baseColumns: [String]?
    /// With `.records`, both sides JSON: what NEW's file shows of its
    /// layout, for `apply` to take what OLD's cannot show (a file of one
    /// record on one line has no line break to copy).
    package var newStyle: JSONStyle?
    /// Old indices of deleted records, ascending.
    package var deleted: [Int]
    /// Moves as (old index, new index), in the changeset's order.
    package var moves: [(old: Int, new: Int)]
    /// New indices of inserted records, ascending.
    package var inserted: [Int]
    package var steps: ReplayStream
    /// A record of OLD by its old index, read again (what a JSON Patch's
    /// `test` before a record's `remove` carries).
    package var oldRecord: @Sendable (Int) throws -> Value
}

/// The ordered steps of a `Replay` (see `Replay.Step`).
package struct ReplayStream: Sendable {
    private let produce: @Sendable (_ body: (Replay.Step) throws -> Void) throws -> Void

    init(producer: @escaping @Sendable (_ body: (Replay.Step) throws -> Void) throws -> Void) {
        produce = producer
    }

    package func forEach(_ body: (Replay.Step) throws -> Void) throws {
        try produce(body)
    }
}

extension Comparison {
    /// The replay of this comparison, resolving what `detail` asks for.
    package func replay(_ detail: Replay.Detail) throws -> Replay {
        let flat = try fileOrderChangeset()
        let old = self.old
        let new = self.new
        let records = options.records
        let rules = fieldRules
        let arrays = options.arrays
        let elementKeys = ElementKeys(records)
        let defaultDelimiter = old.input.format.defaultDelimiter
        let updatedOld = Set(flat.updates.map(\.old.item))
        let movedOld = Set(flat.moves.map(\.from.item))
        let steps = ReplayStream { body in
            try OrderedConcurrentMap.forEach(flat.insertions, transform: { try new.value(ofRecord: $0.element.row) }) { insertion, record in
                try body(.inserted(new: insertion.at.item, record: record, line: new.records.line(insertion.element.row)))
            }
            try OrderedConcurrentMap.forEach(flat.moves, transform: { move -> Value? in
                detail == .records && updatedOld.contains(move.from.item) ? try new.value(ofRecord: move.element.row) : nil
            }) { move, record in
                try body(.moved(old: move.from.item, new: move.to.item, record: record, line: new.records.line(move.element.row)))
            }
            try OrderedConcurrentMap.forEach(flat.updates, transform: { update -> (Value?, [FieldChange]) in
                switch detail {
                case .records:
                    return (movedOld.contains(update.old.item) ? nil : try new.value(ofRecord: update.element.row), [])
                case .fields:
                    // In file order a record's old index is its row.
                    let oldRecord = try old.value(ofRecord: update.old.item), newRecord = try new.value(ofRecord: update.element.row)
                    try elementKeys.check(oldRecord, row: update.old.item, of: old, options: records)
                    try elementKeys.check(newRecord, row: update.element.row, of: new, options: records)
                    let fields = FieldChange.keyed(oldRecord, newRecord, rules: rules, mode: records.mode, arrays: arrays, elementKeys: elementKeys).changes
                    return (nil, fields)
                }
            }) { update, resolved in
                try body(.updated(old: update.old.item, new: update.new.item, record: resolved.0, fields: resolved.1,
                                  line: new.records.line(update.element.row)))
            }
            try old.input.bytes.checkUnchanged()
            try new.input.bytes.checkUnchanged()
        }
        let base = try SnapshotFingerprint.records(of: old, readWith: records)
        let columns = !old.input.format.isJSON && !new.input.format.isJSON ? new.records.fieldNames : nil
        let baseColumns = old.input.format.isJSON ? nil : old.records.fieldNames ?? []
        return Replay(
            old: old.summary, new: new.summary,
            base: SnapshotFingerprint(of: base),
            result: detail == .records ? try resultFingerprint(flat, base: base, csvColumns: baseColumns.map { columns ?? $0 }) : nil,
            recordsAt: old.input.format == .json ? records.recordsAt : nil,
            delimiter: !old.input.format.isJSON && old.delimiter != defaultDelimiter ? old.delimiter : nil,
            columns: columns,
            baseColumns: baseColumns,
            newStyle: detail == .records && old.input.format.isJSON && new.input.format.isJSON ? try SnapshotWriter.ownStyle(of: new) : nil,
            deleted: flat.deletions.map(\.at.item).sorted(),
            moves: flat.moves.map { (old: $0.from.item, new: $0.to.item) },
            inserted: flat.insertions.map(\.at.item),
            steps: steps,
            // In file order a record's old index is its row.
            oldRecord: { try old.value(ofRecord: $0) })
    }
}

extension Comparison {
    /// The fingerprint of the snapshot `changeset apply` builds from this
    /// comparison's patch, read as its base is (`SnapshotFingerprint`): each
    /// record the patch carries (inserted, or updated) as the base's format
    /// holds it, and the base's own record wherever the patch leaves one
    /// alone. `apply` works it out the same way from the patch and refuses a
    /// patch whose result differs (see `PatchApplier`).
    ///
    /// `base` is OLD as its fingerprint reads it; `csvColumns` the header of
    /// a CSV or TSV result (nil for JSON).
    func resultFingerprint(_ flat: SectionedChangeset<Int, RecordRef>, base: RecordTable, csvColumns: [String]?) throws -> SnapshotFingerprint {
        let records = options.records
        let wholeRecordMode = SnapshotFingerprint.options(for: old.input.format, recordsAt: nil).mode
        // Both sides held alike (JSON and JSON, or CSV and CSV) and compared
        // whole: then NEW's own fingerprint is the result's. A record the patch
        // leaves alone has the fingerprint of its NEW counterpart (that is
        // what made it unchanged), and a record it carries is written with the
        // content NEW's reader hashed. (`PatchResultFingerprintTests` checks the
        // two ways agree.)
        if old.input.format.isJSON == new.input.format.isJSON && records.ignore.isEmpty && records.only.isEmpty
            && records.section == nil && records.mode == wholeRecordMode && new.renames.isEmpty && !new.flattensObjects {
            return SnapshotFingerprint(of: new.records)
        }
        return try resultFingerprintRecordByRecord(flat, base: base, csvColumns: csvColumns)
    }

    /// `resultFingerprint` the long way: the result replayed as slots (a base
    /// row, or a NEW row the patch carries) by the engine's `apply`, as
    /// `PatchApplier` replays the patch, and each slot's fingerprint worked
    /// out. Carried records are read again, once, on every core.
    func resultFingerprintRecordByRecord(
        _ flat: SectionedChangeset<Int, RecordRef>, base: RecordTable, csvColumns: [String]?
    ) throws -> SnapshotFingerprint {
        enum Slot {
            case base(Int)
            case carried(newRow: Int)
        }
        // The patch's operations, as `PatchFormatter` writes them: a record
        // that moved and changed travels with its move, not as an update.
        let updatedOld = Set(flat.updates.map(\.old.item))
        let movedOld = Set(flat.moves.map(\.from.item))
        var slots = SectionedChangeset<Int, Slot>()
        slots.oldSectionCount = 1
        slots.newSectionCount = 1
        slots.oldCount = flat.oldCount
        slots.newCount = flat.newCount
        slots.deletions = flat.deletions.map { .init(at: $0.at) }
        slots.insertions = flat.insertions.map { .init(at: $0.at, element: .carried(newRow: $0.element.row)) }
        slots.moves = flat.moves.map {
            .init(from: $0.from, to: $0.to, element: updatedOld.contains($0.from.item) ? .carried(newRow: $0.element.row) : .base($0.from.item),
                  isAcrossSections: false)
        }
        slots.updates = flat.updates.filter { !movedOld.contains($0.old.item) }.map {
            .init(old: $0.old, new: $0.old, element: .carried(newRow: $0.element.row))
        }
        // In file order a record's old index is its row.
        let result = try slots.apply(to: (0..<base.count).map(Slot.base))

        let old = self.old
        let new = self.new
        let baseColumns = base.fieldNames ?? []
        let fingerprints = try OrderedConcurrentMap.map(result) { slot -> UInt64 in
            switch slot {
            case .base(let row):
                guard let csvColumns, csvColumns != baseColumns else { return base.fingerprint(row) }
                // Under another header, `apply` writes the row's cells by column name.
                let cells = try old.input.bytes.withBytes(in: base.byteRange(row)) {
                    try CSVRecordReader.cells(of: $0, delimiter: old.delimiter)
                }
                let byName = Dictionary(zip(baseColumns, cells), uniquingKeysWith: { first, _ in first })
                return WrittenRecordFingerprint.csv(cells: csvColumns.map { byName[$0] ?? "" }, columns: csvColumns)
            case .carried(let row):
                let record = try new.value(ofRecord: row)
                return csvColumns.map { WrittenRecordFingerprint.csv(record, columns: $0) } ?? WrittenRecordFingerprint.json(record)
            }
        }
        return SnapshotFingerprint(recordFingerprints: fingerprints)
    }
}
