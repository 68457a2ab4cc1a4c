/// A record's fingerprint as a snapshot of one kind holds it, worked out from
/// its value: for records that exist only as values until they are written
/// (the records a patch carries). It is what a reader of the written snapshot
/// computes, under the fingerprint rules of the snapshot's own format
/// (`SnapshotFingerprint.options`: typed JSON, CSV cells as text; see `ValueHasher`),
/// so `--format patch` can state the fingerprint of the snapshot `apply`
/// builds, and `apply` can check it before it writes a byte.
enum WrittenRecordFingerprint {
    /// In a JSON or NDJSON snapshot: the record as it is, typed.
    static func json(_ record: Value) -> UInt64 {
        record.contentHash(mode: .typed)
    }

    /// In a CSV or TSV snapshot whose header is `columns`: each column's cell
    /// (`Value.cellText`; empty for a member the record lacks), as text. A
    /// member the header lacks is not held; callers refuse such a record.
    static func csv(_ record: Value, columns: [String]) -> UInt64 {
        guard case .object(let members) = record else { return csv(cells: columns.map { _ in "" }, columns: columns) }
        return csv(cells: columns.map { column in members.first { ExactText.same($0.name, column) }?.value.cellText ?? "" }, columns: columns)
    }

    /// A CSV or TSV row: `cells[i]` under `columns[i]`, as the CSV reader
    /// hashes it (by their text as written; empty cells left out).
    static func csv(cells: [String], columns: [String]) -> UInt64 {
        Value.object(zip(columns, cells).map { Value.Member(name: $0, value: .string($1)) }).contentHash(mode: .cellText)
    }
}
