/// A fingerprint of a whole snapshot, as data: every record's full content
/// (no `--ignore`, `--only` or `--section`), in order. A patch carries the
/// fingerprint of the snapshot it was made from, and `apply` refuses a base
/// whose fingerprint differs. Key order and whitespace do not change it;
/// any change of a value or of record order does.
public struct SnapshotFingerprint: Equatable, Sendable, CustomStringConvertible {
    public var records: Int
    public var hash: UInt64

    public init(records: Int, hash: UInt64) {
        self.records = records
        self.hash = hash
    }

    /// The options a snapshot is read with for its fingerprint: whole records,
    /// compared the way its own format compares (typed JSON, text CSV).
    public static func options(for format: InputFormat, recordsAt: FieldPath?) -> RecordOptions {
        RecordOptions(recordsAt: recordsAt, mode: format.isJSON ? .typed : .text)
    }

    public init(of table: RecordTable) {
        var hash: UInt64 = 0x736E_6170_7368_6F74
        for fingerprint in table.fingerprints { hash = StableHash.combine(hash, fingerprint) }
        self.init(records: table.count, hash: StableHash.combine(hash, UInt64(table.count)))
    }

    /// The fingerprint of a dataset, reading it again if it was read with
    /// options that leave fields out.
    public init(of dataset: Dataset, readWith options: RecordOptions) throws {
        let plain = SnapshotFingerprint.options(for: dataset.input.format, recordsAt: options.recordsAt)
        if options.ignore.isEmpty && options.only.isEmpty && options.section == nil && options.mode == plain.mode {
            self.init(of: dataset.records)
        } else {
            self.init(of: try dataset.input.readRecords(plain, delimiter: dataset.delimiter))
        }
    }

    /// Sixteen hex digits.
    public var description: String {
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
