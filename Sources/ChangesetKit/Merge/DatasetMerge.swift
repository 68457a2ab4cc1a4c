/// Everything a merge needs besides the three files.
public struct MergeOptions: Sendable {
    /// `--id`, `--section`, `--ignore`, `--only`, `--rename`, `--duplicates`, `--records-at`.
    public var records = RecordOptions()
    public var baseFormat: InputFormat?
    public var oursFormat: InputFormat?
    public var theirsFormat: InputFormat?
    /// The field delimiter for CSV and TSV input; nil means `,` (tab for TSV).
    public var delimiter: UInt8?
    public var prefer: MergePreference?

    public init() {}
}

/// `changeset merge BASE OURS THEIRS`: three snapshots read and merged (see
/// `ThreeWayMerge` for the rules). The result is written in OURS's format by
/// `MergeWriter`.
public struct DatasetMerge: Sendable {
    public let base: Snapshot
    public let ours: Snapshot
    public let theirs: Snapshot
    public let options: MergeOptions
    public let result: MergeResult
    /// BASE's rows by key, and THEIRS's keys by row.
    let baseRows: [String: Int]
    let theirsKeys: [String]
    /// Whose JSON document surrounds the records in the result (`--records-at`).
    public let documentFrom: MergeSide
    /// `--rename`s the result writes under the new name, because OURS or THEIRS uses it.
    public let renamesInResult: [Rename]

    public static func run(basePath: String, oursPath: String, theirsPath: String, options: MergeOptions) throws -> DatasetMerge {
        var options = options
        options.records.nameRulesByOldNames()
        let inputs = try [
            InputFile.open(basePath, format: options.baseFormat, recordsAt: options.records.recordsAt),
            InputFile.open(oursPath, format: options.oursFormat, recordsAt: options.records.recordsAt),
            InputFile.open(theirsPath, format: options.theirsFormat, recordsAt: options.records.recordsAt),
        ]
        if let odd = inputs.first(where: { $0.format.isJSON != inputs[1].format.isJSON }) {
            throw InputError(
                source: odd.name, location: nil,
                message: "this is \(odd.format.rawValue) but OURS (\(inputs[1].name)) is \(inputs[1].format.rawValue); "
                    + "a merge needs three JSON/NDJSON snapshots or three CSV/TSV ones")
        }
        options.records.mode = inputs[1].format.isJSON ? .typed : .text
        // Every side reads a renamed field's new name as its old one.
        options.records.appliesRenames = true
        let records = options.records
        let delimiterOption = options.delimiter
        let datasets = try Snapshot.read(inputs) { side, input in
            let delimiter = delimiterOption ?? (input.format == .tsv ? 0x09 : UInt8(ascii: ","))
            // An empty BASE (git's add/add merge has none) is a snapshot without records.
            if side == 0 && input.bytes.isEmpty {
                return Snapshot(input: InputFile(name: input.name, bytes: input.bytes, format: inputs[1].format),
                               records: RecordTable(), delimiter: delimiter)
            }
            let table = try input.readRecords(records, delimiter: delimiter)
            return Snapshot(input: input, records: table, delimiter: delimiter,
                           renames: input.format.isJSON ? records.renames : [])
        }
        return try DatasetMerge(base: datasets[0], ours: datasets[1], theirs: datasets[2], options: options)
    }

    public init(base: Snapshot, ours: Snapshot, theirs: Snapshot, options: MergeOptions) throws {
        self.base = base
        self.ours = ours
        self.theirs = theirs
        self.options = options
        try FieldCheck.check(options.records, snapshots: [base, ours, theirs])
        renamesInResult = options.records.renames.filter {
            ours.records.fieldsFound.contains($0.new) || theirs.records.fieldsFound.contains($0.new)
        }
        let flat = !ours.input.format.isJSON
        let fields = FieldMerge(mode: options.records.mode, options: options.records, flat: flat)
        let datasets = [base, ours, theirs]
        let snapshots = datasets.map { DatasetMerge.snapshot($0, options: options.records) }
        baseRows = ThreeWayMerge.rowsByKey(snapshots[0])
        theirsKeys = snapshots[2].keys
        var result = try ThreeWayMerge.merge(
            base: snapshots[0], ours: snapshots[1], theirs: snapshots[2],
            fields: fields, prefer: options.prefer
        ) { side, row in
            let dataset = switch side { case .base: datasets[0]; case .ours: datasets[1]; case .theirs: datasets[2] }
            return try dataset.value(ofRecord: row)
        }
        // The document around the records merges as one value: a change on one side is taken.
        var documentFrom = MergeSide.ours
        if let baseDocument = try DatasetMerge.documentAround(base), let oursDocument = try DatasetMerge.documentAround(ours),
            let theirsDocument = try DatasetMerge.documentAround(theirs), theirsDocument != baseDocument, theirsDocument != oursDocument
        {
            if oursDocument == baseDocument {
                documentFrom = .theirs
            } else {
                result.conflicts.insert(MergeConflict(kind: .document, key: "", path: nil, base: nil, ours: nil, theirs: nil), at: 0)
                if options.prefer == .theirs { documentFrom = .theirs }
            }
        }
        self.documentFrom = documentFrom
        self.result = result
    }

    /// A JSON document's bytes before and after its records array, when the records are inside one.
    static func documentAround(_ dataset: Snapshot) throws -> [UInt8]? {
        guard dataset.input.format == .json, let container = dataset.records.containerRange,
            container.count < dataset.input.bytes.count
        else { return nil }
        let bytes = dataset.input.bytes
        return try bytes.copy(0..<container.lowerBound) + [0] + bytes.copy(container.upperBound..<bytes.count)
    }

    /// A dataset's keys (its ids, or its records' content without `--id`;
    /// numbered by occurrence when ids repeat) and versions (the fingerprint,
    /// with the section's name when there are sections: a record that moved
    /// to another section has changed).
    static func snapshot(_ dataset: Snapshot, options: RecordOptions) -> MergeSnapshot {
        let table = dataset.records
        var keys: [String] = []
        keys.reserveCapacity(table.count)
        var versions = table.fingerprints
        var counter = MergeKey.Counter()
        for row in 0..<table.count {
            let identity = options.id.isEmpty ? String(table.fingerprints[row], radix: 16) : table.keys[row]
            keys.append(counter.key(for: identity))
            if options.section != nil {
                let name = table.sectionNames[Int(table.sections[row])]
                versions[row] = StableHash.combine(versions[row], StableHash.string(name ?? "", seed: name == nil ? 0x6E6F_6E65 : 0x7365_6374))
            }
        }
        return MergeSnapshot(keys: keys, versions: versions)
    }

    /// BASE's record matching THEIRS's at `row`, if any.
    func baseRow(ofTheirs row: Int) -> Int? { baseRows[theirsKeys[row]] }

    /// How a conflict's record is named to a person: its id, or its content without `--id`.
    public func displayID(_ conflict: MergeConflict) -> String {
        if options.records.id.isEmpty {
            return (conflict.ours ?? conflict.theirs ?? conflict.base)?.jsonText ?? "?"
        }
        return RecordKey.display(MergeKey.identity(conflict.key))
    }
}
