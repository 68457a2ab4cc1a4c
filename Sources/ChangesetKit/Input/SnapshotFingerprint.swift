/// A fingerprint of a whole snapshot, as data: every record's full content
/// (no `--ignore`, `--only` or `--section`), in order. A patch carries the
/// fingerprint of the snapshot it was made from and of the one it builds;
/// `apply` refuses a base whose fingerprint differs, and a patch whose
/// result would differ. Key order and whitespace do not change it; any
/// change of a value or of record order does.
package struct SnapshotFingerprint: Equatable, Sendable, CustomStringConvertible {
    package var records: Int
    package var hash: UInt64

    package init(records: Int, hash: UInt64) {
        self.records = records
        self.hash = hash
    }

    /// The options a snapshot is read with for its fingerprint: whole records,
    /// compared the way its own format compares (typed JSON, text CSV).
    package static func options(for format: InputFormat, recordsAt: FieldPath?) -> RecordOptions {
        RecordOptions(recordsAt: recordsAt, mode: format.isJSON ? .typed : .cellText)
    }

    package init(of table: RecordTable) {
        self.init(recordFingerprints: table.fingerprints)
    }

    /// The fingerprint of a snapshot whose records, in order, have these
    /// fingerprints (as its reader, with `options(for:recordsAt:)`, has them).
    package init(recordFingerprints: some Collection<UInt64>) {
        var hash: UInt64 = 0x736E_6170_7368_6F74
        for fingerprint in recordFingerprints { hash = StableHash.combine(hash, fingerprint) }
        self.init(records: recordFingerprints.count, hash: StableHash.combine(hash, UInt64(recordFingerprints.count)))
    }

    /// The fingerprint of a dataset, reading it again if it was read with
    /// options that leave fields out.
    package init(of dataset: Snapshot, readWith options: RecordOptions) throws {
        self.init(of: try SnapshotFingerprint.records(of: dataset, readWith: options))
    }

    /// The dataset's records as its fingerprint sees them: its own table when
    /// it was read that way, else the file read again.
    static func records(of dataset: Snapshot, readWith options: RecordOptions) throws -> RecordTable {
        let plain = SnapshotFingerprint.options(for: dataset.input.format, recordsAt: options.recordsAt)
        if options.ignore.isEmpty && options.only.isEmpty && options.section == nil && options.mode == plain.mode {
            return dataset.records
        }
        return try dataset.input.readRecords(plain, delimiter: dataset.delimiter)
    }

    /// Sixteen hex digits.
    package var description: String {
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
