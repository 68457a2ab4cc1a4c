/// Everything a merge needs besides the three snapshots.
public struct MergeOptions: Sendable {
    /// How records are read and matched: the id, sections, the fields that
    /// count, renames, duplicates, where the records sit in a JSON document.
    public var records = RecordOptions()
    /// BASE's format (nil: its source's own, else its extension's, else a look at its content).
    public var baseFormat: InputFormat?
    /// OURS's format (nil: as for ``baseFormat``). The result is written in OURS's format.
    public var oursFormat: InputFormat?
    /// THEIRS's format (nil: as for ``baseFormat``).
    public var theirsFormat: InputFormat?
    /// What errors call BASE instead of its source's own name (nil: that
    /// name): for files that stand for others, such as the temporary copies
    /// git hands a merge driver. The source is still what is read.
    public var baseName: String?
    /// What errors call OURS instead of its source's own name (see ``baseName``).
    public var oursName: String?
    /// What errors call THEIRS instead of its source's own name (see ``baseName``).
    public var theirsName: String?
    /// The field delimiter for CSV and TSV input; nil means `,` (tab for TSV).
    public var delimiter: UInt8?
    /// Which side wins a conflict (nil: none does; conflicts are kept and reported).
    public var prefer: MergePreference?

    /// Options for a merge by content (no id), every format from its source.
    public init() {}
}

/// `changeset merge BASE OURS THEIRS`: three snapshots read and merged (see
/// `ThreeWayMerge` for the rules). The result is written in OURS's format by
/// `MergeWriter`.
public struct DatasetMerge: Sendable {
    package let base: Snapshot
    package let ours: Snapshot
    package let theirs: Snapshot
    /// The options the merge ran with.
    public let options: MergeOptions
    /// The merged records, the conflicts and who resolved them (see ``MergeResult``).
    public let result: MergeResult
    /// BASE's rows by key, and THEIRS's keys by row.
    let baseRows: [String: Int]
    let theirsKeys: [String]
    /// Whose JSON document surrounds the records in the result (`--records-at`).
    package let documentFrom: MergeSide
    /// The document around the records as the merge resolved it, when it is
    /// not `documentFrom`'s as it stands: written into OURS's text.
    package let mergedDocument: MergedDocument?
    /// `--rename`s the result writes under the new name, because OURS or THEIRS uses it.
    package let renamesInResult: [Rename]

    /// Reads the files at the three paths (one may be `-`, standard input)
    /// and merges them: `run(base: .path(basePath), ours: .path(oursPath), theirs: .path(theirsPath), options:)`.
    ///
    /// - Throws: ``InputError`` for an input that cannot be read, holds bad
    ///   data, or does not fit the others (JSON beside CSV); ``FieldCheckError``
    ///   for a field named in the options that no record has.
    public static func run(basePath: String, oursPath: String, theirsPath: String, options: MergeOptions) throws -> DatasetMerge {
        try run(base: .path(basePath), ours: .path(oursPath), theirs: .path(theirsPath), options: options)
    }

    /// Reads the three snapshots (files, `Data` or records in memory, by the
    /// same readers) and merges OURS's and THEIRS's changes to BASE, record
    /// by record and field by field (see ``ThreeWayMerge``). A source's own
    /// format comes before the options' (`baseFormat`, ...), and
    /// `options.baseName` (...), when set, names a source instead of its own name.
    /// `MergeWriter` writes the result in OURS's format and layout.
    ///
    /// - Throws: ``InputError`` for a source that cannot be read, holds bad
    ///   data, or does not fit the others (JSON beside CSV); ``FieldCheckError``
    ///   for a field named in the options that no record has.
    public static func run(base: DatasetSource, ours: DatasetSource, theirs: DatasetSource, options: MergeOptions) throws -> DatasetMerge {
        var options = options
        options.records.nameRulesByOldNames()
        let inputs = try [
            InputFile.open(base, format: options.baseFormat, recordsAt: options.records.recordsAt, displayName: options.baseName),
            InputFile.open(ours, format: options.oursFormat, recordsAt: options.records.recordsAt, displayName: options.oursName),
            InputFile.open(theirs, format: options.theirsFormat, recordsAt: options.records.recordsAt, displayName: options.theirsName),
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
        // A merge refuses `--duplicates occurrence`: a repeated id's error must not advise it.
        options.records.acceptsDuplicatesOccurrence = false
        let datasets: [Snapshot]
        do {
            datasets = try read(inputs, options: options)
        } catch var error as InputError where error.repeatsID && options.records.duplicates == .error {
            if let keys = try? compositeKeys(inputs, options: options), !keys.isEmpty {
                error.append(KeyHint.uniqueKeyAdvice(keys, in: "every file"))
            }
            throw error
        }
        if options.records.id.isEmpty, let field = try uniqueField(in: datasets) {
            // By content, a record edited on both sides is two records: both edits would be kept, silently.
            throw InputError(
                source: inputs[1].name, location: nil,
                parts: [.text("without "), .setting(.id), .text(" a merge matches records by their whole content, so a record edited on both "
                            + "sides would be kept twice; \"\(TerminalText.datum(field))\" is unique in each file: merge with "),
                        .assignment(.id, library: "\([field])", argument: ShellWord.quoted(FieldPath([field]).argument()))])
        }
        return try DatasetMerge(base: datasets[0], ours: datasets[1], theirs: datasets[2], options: options)
    }

    /// The three snapshots read as a merge reads them.
    private static func read(_ inputs: [InputFile], options: MergeOptions) throws -> [Snapshot] {
        let records = options.records
        let delimiterOption = options.delimiter
        return try Snapshot.read(inputs) { side, input in
            let delimiter = input.format.delimiter(delimiterOption)
            // An empty BASE (git's add/add merge has none) is a snapshot without records.
            if side == 0 && input.bytes.isEmpty {
                return Snapshot(input: InputFile(name: input.name, bytes: input.bytes, format: inputs[1].format),
                               records: RecordTable(), delimiter: delimiter)
            }
            let table = try input.readRecords(records, delimiter: delimiter)
            return Snapshot(input: input, records: table, delimiter: delimiter,
                           renames: input.format.isJSON ? records.renames : [])
        }
    }

    /// With an `--id` that repeats: the keys (the id and a field) unique in
    /// every file, as the comparison finds them for a diff
    /// (`Comparison.compositeKeys`), OURS against THEIRS and, when BASE has
    /// records, BASE against OURS; the ones both find, in OURS's order.
    private static func compositeKeys(_ inputs: [InputFile], options: MergeOptions) throws -> [[String]] {
        var comparing = ComparisonOptions()
        comparing.records = options.records
        comparing.records.duplicates = .occurrence
        comparing.delimiter = options.delimiter
        let pairs = inputs[0].bytes.isEmpty ? [(inputs[1], inputs[2])] : [(inputs[1], inputs[2]), (inputs[0], inputs[1])]
        var found: [[String]]?
        for (old, new) in pairs {
            let keys = try Comparison.run(old, new, options: comparing).compositeKeys()
            found = found.map { earlier in earlier.filter { key in keys.contains(key) } } ?? keys
        }
        return found ?? []
    }

    /// A top-level field that every record of every snapshot holds, with a
    /// value no other record of its snapshot holds (as id text, so `1` and
    /// `"1"` are one value): the `--id` a merge without one should use.
    /// The first such field of OURS's first record; nil when there is none.
    /// Snapshots without records (git's BASE of an add/add merge) say nothing.
    static func uniqueField(in snapshots: [Snapshot]) throws -> String? {
        var candidates: [String]?
        // OURS first: its first record orders the candidates.
        for snapshot in snapshots.indices.map({ snapshots[($0 + 1) % snapshots.count] }) where snapshot.records.count > 0 {
            var alive: [String] = []
            var seen: [ExactTextKey: Set<ExactTextKey>] = [:]
            for row in 0..<snapshot.records.count {
                guard case .object(let members) = try snapshot.value(ofRecord: row) else { return nil }
                if row == 0 {
                    alive = members.map(\.name).filter { name in candidates?.contains { ExactText.same($0, name) } ?? true }
                }
                alive = alive.filter { name in
                    guard let member = members.first(where: { ExactText.same($0.name, name) }) else { return false }
                    switch member.value {
                    case .string, .number:
                        let text = ThreeWayMerge.keyText(member.value)
                        return !text.isEmpty && seen[ExactTextKey(name), default: []].insert(ExactTextKey(text)).inserted
                    default:
                        return false
                    }
                }
                if alive.isEmpty { return nil }
            }
            candidates = (candidates ?? alive).filter { name in alive.contains { ExactText.same($0, name) } }
            if candidates!.isEmpty { return nil }
        }
        return candidates?.first
    }

    package init(base: Snapshot, ours: Snapshot, theirs: Snapshot, options: MergeOptions) throws {
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
        let snapshots = try DatasetMerge.snapshots(datasets, options: options.records)
        baseRows = ThreeWayMerge.rowsByKey(snapshots[0])
        theirsKeys = snapshots[2].keys
        var result = try ThreeWayMerge.merge(
            base: snapshots[0], ours: snapshots[1], theirs: snapshots[2],
            fields: fields, prefer: options.prefer, baseRows: baseRows
        ) { side, row in
            let dataset = switch side { case .base: datasets[0]; case .ours: datasets[1]; case .theirs: datasets[2] }
            let record = try dataset.value(ofRecord: row)
            // A record merged field by field: its arrays must hold the keys --array-key gives them.
            try fields.elementKeys.check(record, row: row, of: dataset, options: options.records)
            return record
        }
        // The document around the records merges member by member, as a record does.
        var documentFrom = MergeSide.ours
        var mergedDocument: MergedDocument?
        if let baseFrame = try DatasetMerge.documentFrame(base), let oursFrame = try DatasetMerge.documentFrame(ours),
            let theirsFrame = try DatasetMerge.documentFrame(theirs)
        {
            let baseDocument = try baseFrame.value(), oursDocument = try oursFrame.value(), theirsDocument = try theirsFrame.value()
            if theirsDocument != baseDocument && theirsDocument != oursDocument {
                if oursDocument == baseDocument && oursFrame == baseFrame {
                    // OURS left it as it was, bytes and all: THEIRS's, as THEIRS writes it.
                    documentFrom = .theirs
                } else {
                    let outcome = DatasetMerge.documentMerge(options.records).merge(baseDocument, oursDocument, theirsDocument, key: "")
                    result.conflicts.insert(contentsOf: outcome.conflicts.map { conflict in
                        var conflict = conflict
                        conflict.kind = .document
                        return conflict
                    }, at: 0)
                    if !outcome.conflicts.isEmpty || outcome.ours != oursDocument {
                        mergedDocument = MergedDocument(ours: outcome.ours, theirs: outcome.theirs)
                    }
                }
            }
        }
        self.documentFrom = documentFrom
        self.mergedDocument = mergedDocument
        self.result = result
    }

    /// The JSON document around the records as the merge resolved it: as
    /// OURS and as THEIRS would have it (equal when nothing in it conflicts;
    /// each with the other side's changes that do not conflict), `null`
    /// where the records are.
    package struct MergedDocument: Sendable {
        package var ours: Value
        package var theirs: Value
    }

    /// How the document around the records merges: member by member, arrays
    /// element by element, as `FieldMerge` merges a record. `--ignore` and
    /// `--only` name fields of records, not of the document; arrays of objects
    /// that hold the `--id` fields are matched by them, as in records.
    static func documentMerge(_ options: RecordOptions) -> FieldMerge {
        FieldMerge(mode: .typed, options: RecordOptions(id: options.id))
    }

    /// The JSON document around the records array, when the records are
    /// inside one: its text with `null` where the records array is and
    /// without a byte-order mark, and whether it had one.
    package struct DocumentFrame: Equatable, Sendable {
        package var text: [UInt8]
        package var hasByteOrderMark: Bool

        /// The document's value. A value, not bytes, so that framing (a
        /// byte-order mark, line ends, indentation) is not a change; a member
        /// spelled otherwise (`2.50` -> `2.5`, another key order) is, as it is
        /// for a record.
        func value() throws -> Value { try JSONValueReader.read(text.span) }
    }

    package static func documentFrame(_ dataset: Snapshot) throws -> DocumentFrame? {
        guard dataset.input.format == .json, let container = dataset.records.containerRange,
            container.count < dataset.input.bytes.count
        else { return nil }
        let bytes = dataset.input.bytes
        var before = try bytes.copy(0..<container.lowerBound)
        let hasByteOrderMark = before.starts(with: byteOrderMark)
        if hasByteOrderMark { before.removeFirst(byteOrderMark.count) }
        return DocumentFrame(text: before + Array("null".utf8) + (try bytes.copy(container.upperBound..<bytes.count)),
                             hasByteOrderMark: hasByteOrderMark)
    }

    /// The snapshots' keys (ids, or records' content without `--id`;
    /// numbered by occurrence when ids repeat, OURS's and THEIRS's paired
    /// with BASE's: see `MergeKey.keys`) and versions (the fingerprint, with
    /// the section's name when there are sections: a record that moved to
    /// another section has changed).
    static func snapshots(_ sides: [Snapshot], options: RecordOptions) throws -> [RecordVersions] {
        let identified = sides.map { side -> (identities: [String], versions: [UInt64]) in
            let table = side.records
            var versions = table.fingerprints
            var identities: [String] = []
            identities.reserveCapacity(table.count)
            for row in 0..<table.count {
                identities.append(MergeKey.encoded(options.id.isEmpty ? String(table.fingerprint(row), radix: 16) : table.keys[row]))
                if options.section != nil {
                    versions[row] = StableHash.combine(versions[row], SectionName(table.sectionNames[Int(table.sections[row])]).contentHash)
                }
            }
            return (identities, versions)
        }
        return try identified.enumerated().map { index, side in
            let snapshot = sides[index]
            let spellings = try snapshot.spellings()
            return RecordVersions(
                keys: MergeKey.keys(side.identities, versions: side.versions, pairedWith: index == 0 ? nil : identified[0]),
                versions: side.versions, spellings: spellings)
        }
    }

    /// BASE's record matching THEIRS's at `row`, if any.
    func baseRow(ofTheirs row: Int) -> Int? { baseRows[theirsKeys[row]] }
}

extension DatasetMerge {
    /// A note when OURS or THEIRS only re-indented a JSON file: its records
    /// and document equal BASE's by value, but its lines are indented with
    /// another unit (tabs for spaces, two spaces for four). The result is
    /// written in OURS's file, so THEIRS's layout is not kept: said, so a
    /// re-indentation nobody sees in the result is not lost silently. Nil
    /// when no side only re-indented.
    public func layoutNote() throws -> String? {
        guard ours.input.format == .json, base.records.count > 0 else { return nil }
        // OURS is BASE byte for byte: the result is THEIRS whole, layout and all (`MergeWriter`).
        if try base.input.bytes.sameBytes(as: ours.input.bytes) { return nil }
        guard let baseUnit = try SnapshotWriter.ownStyle(of: base).indent else { return nil }
        let oursUnit = try SnapshotWriter.ownStyle(of: ours).indent
        for (side, name) in [(theirs, "THEIRS"), (ours, "OURS")] {
            guard side.records.count == base.records.count, side.records.fingerprints == base.records.fingerprints,
                  try DatasetMerge.documentFrame(side)?.value() == DatasetMerge.documentFrame(base)?.value(),
                  let unit = name == "THEIRS" ? try SnapshotWriter.ownStyle(of: side).indent : oursUnit, unit != baseUnit
            else { continue }
            // Both re-indented alike: the result has THEIRS's layout too, nothing to say.
            if name == "THEIRS" && oursUnit == unit { continue }
            let change = "\(JSONStyle.describe(indent: baseUnit)) -> \(JSONStyle.describe(indent: unit))"
            return "note: \(name) re-indented the file (\(change)); the result keeps OURS's layout"
        }
        return nil
    }
}
