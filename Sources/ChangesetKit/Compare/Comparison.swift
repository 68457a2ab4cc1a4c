import Dispatch

/// Everything a comparison needs to know besides the two snapshots.
public struct ComparisonOptions: Sendable {
    /// How records are read and matched: the id, sections, the fields that
    /// count, renames, duplicates, where the records sit in a JSON document.
    public var records = RecordOptions()
    /// OLD's format (nil: its source's own, else its extension's, else a look at its content).
    public var oldFormat: InputFormat?
    /// NEW's format (nil: as for ``oldFormat``).
    public var newFormat: InputFormat?
    /// What errors and reports call OLD instead of its source's own name
    /// (nil: that name): for files that stand for others, such as the
    /// temporary copies git hands a diff driver. The source is still what is read.
    public var oldName: String?
    /// What errors and reports call NEW instead of its source's own name (see ``oldName``).
    public var newName: String?
    /// `--table`: the tables of two SQLite databases to compare, each a name
    /// or a glob pattern (`prod*`). See ``Comparison/run(old:new:options:)``.
    public var tables: [String] = []
    /// The field delimiter for CSV and TSV input; nil means `,` (tab for TSV).
    public var delimiter: UInt8?
    /// Sections in the order of their names, not of their first records
    /// (for data whose section order means nothing).
    public var sortSections = false
    /// `--ignore-order`: reports leave out moves within sections and section
    /// moves (the changeset still has them). The replay formats refuse it.
    public var ignoreOrder = false
    /// What else counts as equal in reports (see `ValueTolerance`); the replay formats refuse it.
    public var tolerance = ValueTolerance.exact
    /// `--loose-types`: compare JSON as CSV is compared, by the text a
    /// value would have in a cell: `"3"` equals `3`, `"4.50"` equals `4.5`,
    /// `"true"` equals `true`, and `null`, `""` and a missing field are one.
    /// The replay formats refuse it (a patch would leave such changes out).
    public var looseTypes = false
    /// `--numbers-by-value`: two CSV files compare cells that spell numbers
    /// by value (`6199` equals `6.199e3`, `6696.0` equals `6696`), as a CSV
    /// cell and a JSON number always compare. Off, a CSV cell's text is its
    /// value. The replay formats refuse it (a patch would leave such
    /// respellings out, and `apply` would not rebuild NEW).
    public var numbersByValue = false
    /// `--arrays`: arrays inside records compared element by element (the
    /// default), or as one value.
    public var arrays = ArrayComparison.elements
    /// Cores the inputs are read on (nil: every core, at most 8), and the
    /// smallest part of a file worth a core of its own (tests make it small).
    package var readingWorkers: Int?
    package var minimumPartSize = InputFile.minimumPartSize
    /// `--memory-limit`: when comparing the inputs in memory would take this
    /// many bytes or more (an estimate from their sizes and samples of them,
    /// and the records counted as they are read; 0: always), and the options
    /// allow it (`--id`, no `--section`, `--duplicates error`), records go to
    /// temporary files and are matched a partition at a time; the result is
    /// the same. Nil: always in memory.
    public var memoryLimit: Int?
    /// How many partitions a comparison past the limit uses (nil: from the
    /// inputs' sizes and the limit; tests choose).
    package var partitions: Int?

    /// Options for a comparison by content (no id), exact, in memory, every format from its source.
    public init() {}
}

/// Two datasets compared: the changeset and what the formatters need to show it.
public struct Comparison: Sendable {
    package let old: Snapshot
    package let new: Snapshot
    /// The options the comparison ran with (its field rules by OLD's names).
    public let options: ComparisonOptions
    package let oldSections: [ListSection<SectionName, RecordRef>]
    package let newSections: [ListSection<SectionName, RecordRef>]
    package let changeset: SectionedChangeset<SectionName, RecordRef>
    /// Which fields count, for field-level changes: the rules the
    /// fingerprints follow (what a replay carries).
    let fieldRules: FieldRules
    /// The rules a report follows: `fieldRules`, less the fields only one schema has.
    let reportRules: FieldRules
    /// Fields in one snapshot's schema and not the other's.
    public let schema: SchemaChanges
    /// Reads an updated record's members that differ, for `fieldChanges`.
    let differingMemberReader: DifferingMemberReader
    /// A comparison in partitions: the positions of the records its tables
    /// hold (the changed ones and the first 1000 a side); nil: all of them.
    let kept: KeptPositions?

    /// Whether the records were matched in partitions, past `memoryLimit`.
    package var isPartitioned: Bool { kept != nil }

    /// Reads the files at `oldPath` and `newPath` (`-`: standard input) and
    /// compares them: `run(old: .path(oldPath), new: .path(newPath), options:)`.
    ///
    /// - Throws: ``InputError`` for an input that cannot be read or holds
    ///   bad data (it names the file, line and column), ``FieldCheckError``
    ///   for a field named in the options that no record has.
    public static func run(oldPath: String, newPath: String, options: ComparisonOptions) throws -> Comparison {
        try run(old: .path(oldPath), new: .path(newPath), options: options)
    }

    /// Reads both sources (concurrently: one per core) and compares their
    /// records. Files, `Data` and records in memory go through the same
    /// readers; a source's own format and name (``DatasetSource/data(_:format:compression:name:)``)
    /// come before `options.oldFormat`/`newFormat`, and `options.oldName`/`newName`,
    /// when set, name a source in errors and reports instead of its own name.
    ///
    /// - Throws: ``InputError`` for a source that cannot be read or holds
    ///   bad data (it names the source, line and column), ``FieldCheckError``
    ///   for a field named in the options that no record has.
    ///
    /// Two SQLite databases (known by their extension, `.db`, `.sqlite` or
    /// `.sqlite3`, or their header bytes) are compared by the tables
    /// ``ComparisonOptions/tables`` names (names, or globs such as `prod*`):
    /// rows in primary-key order, each a record mapping a column to its
    /// value (INTEGER and REAL numbers, TEXT strings, NULL null, BLOB base64
    /// text), matched by the primary key unless ``RecordOptions/id`` names a
    /// key (OLD's key when the two differ; by content when there is none).
    /// Several tables are a section each, every record holding its table's
    /// name in a member `table`, the first field of the key; a table in one
    /// database only is all inserted or all deleted.
    public static func run(old: DatasetSource, new: DatasetSource, options: ComparisonOptions) throws -> Comparison {
        var options = options
        if let (oldTable, newTable) = try tableInputs(old, new, options: &options) {
            return try run(oldTable, newTable, options: options)
        }
        let oldInput = try InputFile.open(old, format: options.oldFormat, recordsAt: options.records.recordsAt,
                                          displayName: options.oldName)
        let newInput: InputFile
        if let oldPath = old.path, let newPath = new.path {
            // One file named twice (`changeset f f`) is read once and compared with itself, as diff and cmp
            // answer at once: a FIFO opened a second time would wait for a writer that has gone.
            // (Unless NEW is to be read in another format: then it is another dataset.)
            let newFormat = options.newFormat ?? (newPath == "-" ? nil : InputFile.formatOfName(newPath))
            let same = InputFile.isSameFile(oldPath, newPath) && (newFormat.map { $0 == oldInput.format } ?? true)
            newInput = same
                ? options.newName.map { InputFile(name: $0, bytes: oldInput.bytes, format: oldInput.format) } ?? oldInput.named(newPath)
                : try InputFile.open(newPath, format: options.newFormat, recordsAt: options.records.recordsAt, displayName: options.newName)
        } else {
            newInput = try InputFile.open(new, format: options.newFormat, recordsAt: options.records.recordsAt, displayName: options.newName)
        }
        do {
            return try run(oldInput, newInput, options: options)
        } catch var error as InputError where error.repeatsID && options.records.duplicates == .error {
            // Read again, each copy of an id kept, to find a field that makes the id unique.
            var occurrence = options
            occurrence.records.duplicates = .occurrence
            if let keys = try? run(oldInput, newInput, options: occurrence).compositeKeys(), !keys.isEmpty {
                error.append(KeyHint.uniqueKeyAdvice(keys, in: "both files"))
            }
            throw error
        }
    }

    /// How two inputs' values compare (see `ComparisonMode`).
    static func mode(_ old: InputFormat, _ new: InputFormat, _ options: ComparisonOptions) -> ComparisonMode {
        switch (old.isJSON, new.isJSON) {
        case (true, true): options.looseTypes ? .text : .typed
        case (false, false): options.numbersByValue ? .text : .cellText
        default: .text
        }
    }

    /// Compares two inputs already open (tests give them from memory).
    static func run(_ oldInput: InputFile, _ newInput: InputFile, options: ComparisonOptions) throws -> Comparison {
        let comparison = try matched(oldInput, newInput, options: options)
        try comparison.checkExplicitArrayKeys()
        return comparison
    }

    private static func matched(_ oldInput: InputFile, _ newInput: InputFile, options: ComparisonOptions) throws -> Comparison {
        var options = options
        options.records.nameRulesByOldNames()
        options.tolerance.fields = Dictionary(options.tolerance.fields.map { (options.records.oldName($0.key), $0.value) },
                                              uniquingKeysWith: { first, _ in first })
        options.records.mode = Comparison.mode(oldInput.format, newInput.format, options)
        if let limit = options.memoryLimit, canPartition(options) {
            func partitioned() throws -> Comparison {
                let inputs = oldInput.isSameInput(as: newInput) ? [oldInput] : [oldInput, newInput]
                let bytes = inputs.reduce(0) { $0 + ($1.bytes.knownCount ?? 0) }
                let partitions = options.partitions ?? partitionCount(bytes: bytes, limit: limit)
                return try runPartitioned(oldInput, newInput, options: options, partitions: partitions)
            }
            if try estimatedMemory([oldInput, newInput]) >= limit { return try partitioned() }
            // The estimate is a sample's, and a stream has none: the readers count
            // their records too, and past the limit the comparison starts again in partitions.
            let budget = RecordBudget(records: limit / bytesPerRecordInMemory)
            do {
                let (old, new) = try readConcurrently(oldInput, newInput, options: options, budget: budget)
                return try Comparison(old: consume old, new: consume new, options: options)
            } catch is RecordBudget.Exceeded {
                return try partitioned()
            }
        }
        let (old, new) = try readConcurrently(oldInput, newInput, options: options)
        // Handed over, not copied: the comparison frees OLD's key index once the records are matched.
        return try Comparison(old: consume old, new: consume new, options: options)
    }

    /// Reads two inputs on two threads; the first error in argument order wins.
    package static func readConcurrently(
        _ oldInput: InputFile, _ newInput: InputFile, options: ComparisonOptions, budget: RecordBudget? = nil
    ) throws -> (Snapshot, Snapshot) {
        let inputs = [oldInput, newInput]
        let workers = options.readingWorkers ?? ProcessFacts.workerCount
        if oldInput.isSameInput(as: newInput) {
            // One input on both sides: read once (as OLD, whose ids are indexed), on every core.
            let parts = InputFile.parts(sizes: [oldInput.bytes.knownCount], workers: workers, minimumPartSize: options.minimumPartSize)
            let delimiter = oldInput.format.delimiter(options.delimiter)
            var records = options.records
            records.appliesRenames = false
            let table = try oldInput.readRecords(records, delimiter: delimiter, parts: parts[0], minimumPartSize: options.minimumPartSize,
                                                 budget: budget)
            // NEW needs no lookups of its own (see below); the index's memory stays OLD's, not copied.
            var new = Snapshot(input: newInput, records: table, delimiter: delimiter)
            new.removeKeyLookups()
            return (Snapshot(input: oldInput, records: table, delimiter: delimiter), new)
        }
        let parts = InputFile.parts(sizes: inputs.map(\.bytes.knownCount), workers: workers, minimumPartSize: options.minimumPartSize)
        let datasets = try Snapshot.read(inputs) { side, input in
            let delimiter = input.format.delimiter(options.delimiter)
            // Renames are the new side's: it reads NEW's names as OLD's.
            var records = options.records
            records.appliesRenames = side == 1
            // NEW's records are looked up in OLD's index, never the reverse: NEW
            // needs none, and its ids are checked for repeats as they are matched
            // (see `matchByKey`). Only to pair repeated ids (`--duplicates
            // occurrence`) does it keep its index's chains of repeated keys.
            let indexes = side == 0 || options.records.duplicates == .occurrence
            var table = try input.readRecords(records, delimiter: delimiter, parts: parts[side], minimumPartSize: options.minimumPartSize,
                                              indexesKeys: indexes, budget: budget)
            if side == 1 && indexes { table.keyIndex.removeLookups() }
            let mixed = inputs[0].format.isJSON != inputs[1].format.isJSON
            return Snapshot(input: input, records: table, delimiter: delimiter,
                           renames: side == 1 && input.format.isJSON ? records.renames : [],
                           flattensObjects: mixed && input.format.isJSON)
        }
        return (datasets[0], datasets[1])
    }

    package init(old: consuming Snapshot, new: consuming Snapshot, options: ComparisonOptions) throws {
        let oldSections = Comparison.sections(of: old.records, sorted: options.sortSections)
        let newSections = Comparison.sections(of: new.records, sorted: options.sortSections)
        // Each section lists its records now: which section a row is in is not asked again.
        old.removeSectionColumn()
        new.removeSectionColumn()
        // Records matched by id first: NEW's ids are checked for repeats on the
        // way, and a repeat is an input error, said before any about the options.
        var matching: [Int32]?
        var newSide = options.records
        newSide.appliesRenames = true  // as NEW was read
        if !old.records.keys.isEmpty && !new.records.keys.isEmpty {
            matching = Comparison.matchByKey(old.records, new.records, oldSections: oldSections, newSections: newSections)
            if matching == nil { throw new.repeatedIDError(newSide) }
            // The key index has done its work: its table goes before the engine's arrays come.
            old.removeKeyLookups()
        } else if new.records.keyIndex.indexedRows < new.records.count && !new.records.keys.isEmpty
                    && Comparison.repeatsKey(new.records, oldRowOfNewRow: [Int32](repeating: -1, count: new.records.count), oldCount: 0) {
            // OLD has no records: NEW's ids are checked on their own.
            throw new.repeatedIDError(newSide)
        }
        let sections = (oldSections, newSections)
        try self.init(old: old, new: new, options: options, sections: sections, kept: nil) {
            if let matching {
                return try Differ.diff(from: sections.0, to: sections.1, matching: matching)
            }
            // Identity by content: the engine matches fingerprints itself.
            return try Differ.diff(from: sections.0, to: sections.1)
        }
    }

    /// A comparison in partitions (see `runPartitioned`): its tables hold the
    /// records at `kept`, and the changeset is the files'.
    init(old: Snapshot, new: Snapshot, options: ComparisonOptions, kept: KeptPositions,
         changeset: SectionedChangeset<SectionName, RecordRef>) throws {
        let sections = [old, new].map { [ListSection<SectionName, RecordRef>(id: nil, elements: $0.records.refs)] }
        try self.init(old: old, new: new, options: options, sections: (sections[0], sections[1]), kept: kept) { changeset }
    }

    /// What follows the key join: the field checks, the schema, the changeset.
    private init(
        old: Snapshot, new: Snapshot, options: ComparisonOptions,
        sections: ([ListSection<SectionName, RecordRef>], [ListSection<SectionName, RecordRef>]), kept: KeptPositions?,
        changeset: () throws -> SectionedChangeset<SectionName, RecordRef>
    ) throws {
        self.options = options
        (oldSections, newSections) = sections
        self.kept = kept
        fieldRules = FieldRules(options.records, flat: !old.input.format.isJSON || !new.input.format.isJSON)
        try FieldCheck.check(options.records, old: old, new: new)
        var schema = Comparison.schemaChanges(old.records, new.records)
        // The renames that matched: NEW occurs in the new snapshot.
        schema.renamed = options.records.renames.filter { new.records.fieldsFound.contains($0.new) }
        // A field the user left out is no difference, added or removed.
        let rules = fieldRules
        schema.ignoredAdded = schema.added.filter { rules.leavesOut($0.path.components) }
        schema.ignoredRemoved = schema.removed.filter { rules.leavesOut($0.path.components) }
        schema.added.removeAll { rules.leavesOut($0.path.components) }
        schema.removed.removeAll { rules.leavesOut($0.path.components) }
        self.schema = schema
        var reportRules = fieldRules
        reportRules.schemaOnly = Set((schema.added + schema.removed + schema.ignoredAdded + schema.ignoredRemoved).map { ExactTextKey($0.path.flatName) })
        self.reportRules = reportRules
        self.old = old
        self.new = new
        self.changeset = try changeset()
        differingMemberReader = DifferingMemberReader(old: self.old, new: self.new)
    }

    /// The record at `path` on one side: its fingerprint and its row in that side's table.
    func ref(_ path: ItemPath, _ side: Side) -> RecordRef {
        switch (side, kept) {
        case (.old, nil): oldSections[path.section].elements[path.item]
        case (.new, nil): newSections[path.section].elements[path.item]
        case (.old, let kept?): oldSections[0].elements[KeptPositions.row(of: path.item, in: kept.old)]
        case (.new, let kept?): newSections[0].elements[KeptPositions.row(of: path.item, in: kept.new)]
        }
    }

    package var reportedMoves: [SectionedChangeset<SectionName, RecordRef>.Move] {
        changeset.reportedMoves(ignoringOrder: options.ignoreOrder)
    }

    package var reportedSectionMoves: [SectionedChangeset<SectionName, RecordRef>.SectionMove] {
        changeset.reportedSectionMoves(ignoringOrder: options.ignoreOrder)
    }

    /// The fields that differ between the two versions of an updated record.
    package func fieldChanges(_ update: SectionedChangeset<SectionName, RecordRef>.Update) throws -> [FieldChange] {
        try keyedFieldChanges(update).changes
    }

    /// `fieldChanges`, and the arrays whose elements were matched by a key.
    func keyedFieldChanges(_ update: SectionedChangeset<SectionName, RecordRef>.Update) throws
        -> (changes: [FieldChange], keyedArrays: [(array: String, key: [FieldPath])]) {
        let oldRow = ref(update.old, .old).row
        let newRow = ref(update.new, .new).row
        let (oldRecord, newRecord) = try differingMemberReader.records(oldRow: oldRow, newRow: newRow)
            ?? (old.value(ofRecord: oldRow), new.value(ofRecord: newRow))
        try checkArrayKeys(oldRecord, row: oldRow, of: old)
        try checkArrayKeys(newRecord, row: newRow, of: new)
        return changes(between: oldRecord, newRecord)
    }

    /// `fieldChanges` over the whole records, each read in full: what the
    /// shortcut through `DifferingMemberReader` must agree with (tests compare the two).
    func fieldChangesReadingWholeRecords(oldRow: Int, newRow: Int) throws -> [FieldChange] {
        changes(between: try old.value(ofRecord: oldRow), try new.value(ofRecord: newRow)).changes
    }

    private func changes(between oldRecord: Value, _ newRecord: Value)
        -> (changes: [FieldChange], keyedArrays: [(array: String, key: [FieldPath])]) {
        let (changes, keyedArrays) = FieldChange.keyed(
            oldRecord, newRecord, rules: reportRules, mode: options.records.mode, tolerance: options.tolerance,
            arrays: options.arrays, elementKeys: ElementKeys(options.records))
        guard old.flattensObjects || new.flattensObjects else { return (changes, keyedArrays) }
        // JSON against CSV: a dotted name is the path it stands for (`meta.key`, not `meta\.key`).
        return (changes.map { FieldChange(path: FieldPath($0.path.flatName.components(separatedBy: ".")), old: $0.old, new: $0.new, elements: $0.elements, move: $0.move) },
                keyedArrays)
    }

    /// Refuses a record one of whose arrays does not hold the key an
    /// `--array-key` gives it in every element, once: such elements would be
    /// paired by position, silently.
    func checkArrayKeys(_ record: Value, row: Int, of snapshot: Snapshot) throws {
        try ElementKeys(options.records).check(record, row: row, of: snapshot, options: options.records)
    }

    /// An `--array-key` that names a key is checked in every updated
    /// record's arrays (those that differ) before any output, whatever the
    /// format: a report that reads no field changes (`-q`, `patch`,
    /// `batch`) must fail as the others do, not exit 1 with a result
    /// built on elements paired otherwise. Without such a rule, nothing is read.
    func checkExplicitArrayKeys() throws {
        guard options.records.arrayKeys.contains(where: { !$0.key.isEmpty }), !changeset.updates.isEmpty else { return }
        _ = try OrderedConcurrentMap.map(changeset.updates) { try keyedFieldChanges($0).keyedArrays.count }
    }
}
