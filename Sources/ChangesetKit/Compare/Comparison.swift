import Dispatch

/// What the engine sees of a record: its fingerprint and its row in its
/// table (the id stays in the table). Two refs are `==` when their
/// fingerprints are, so the engine calls a matched pair with different
/// fingerprints updated. With `--id`, records are matched through the
/// tables' key index; without, a record's content is its identity (`id`).
///
/// Stored as three 32-bit words, so a ref takes 12 bytes, not the 16 a
/// `UInt64` beside an `Int32` would round up to: every record of both
/// snapshots has one in the sections (8 MB less at a million records).
public struct RecordRef: Identifiable, Equatable, Sendable {
    private let fingerprintLow: UInt32
    private let fingerprintHigh: UInt32
    private let storedRow: UInt32

    public init(fingerprint: UInt64, row: Int) {
        precondition(row >= 0 && row <= Int(UInt32.max), "a row past 32 bits")
        fingerprintLow = UInt32(truncatingIfNeeded: fingerprint)
        fingerprintHigh = UInt32(truncatingIfNeeded: fingerprint >> 32)
        storedRow = UInt32(truncatingIfNeeded: row)
    }

    public var fingerprint: UInt64 { UInt64(fingerprintHigh) << 32 | UInt64(fingerprintLow) }
    public var row: Int { Int(storedRow) }

    public var id: UInt64 { fingerprint }

    public static func == (lhs: RecordRef, rhs: RecordRef) -> Bool {
        lhs.fingerprintLow == rhs.fingerprintLow && lhs.fingerprintHigh == rhs.fingerprintHigh
    }
}

/// Everything a run needs to know besides the two files.
public struct ComparisonOptions: Sendable {
    public var records = RecordOptions()
    public var oldFormat: InputFormat?
    public var newFormat: InputFormat?
    /// The field delimiter for CSV and TSV input; nil means `,` (tab for TSV).
    public var delimiter: UInt8?
    public var sortSections = false
    /// `--ignore-order`: reports leave out moves within sections and section
    /// moves (the changeset still has them, so replays stay exact).
    public var ignoreOrder = false
    /// What else counts as equal in reports (see `ValueTolerance`).
    public var tolerance = ValueTolerance.exact

    public init() {}
}

/// Two datasets compared: the changeset and what the formatters need to show it.
public struct Comparison: Sendable {
    public let old: Snapshot
    public let new: Snapshot
    public let options: ComparisonOptions
    public let oldSections: [ListSection<SectionName, RecordRef>]
    public let newSections: [ListSection<SectionName, RecordRef>]
    public let changeset: SectionedChangeset<SectionName, RecordRef>
    /// Which fields count, for field-level changes: the rules the
    /// fingerprints follow (what a replay carries).
    let fieldRules: FieldRules
    /// The rules a report follows: `fieldRules`, less the fields only one schema has.
    let reportRules: FieldRules
    /// Fields in one snapshot's schema and not the other's.
    public let schema: SchemaChanges
    /// Reads an updated record's members that differ, for `fieldChanges`.
    let differingMembers: DifferingMembers

    /// Reads both inputs (concurrently: one per core) and compares them.
    public static func run(oldPath: String, newPath: String, options: ComparisonOptions) throws -> Comparison {
        let oldInput = try InputFile.open(oldPath, format: options.oldFormat, recordsAt: options.records.recordsAt)
        let newInput = try InputFile.open(newPath, format: options.newFormat, recordsAt: options.records.recordsAt)
        return try run(oldInput, newInput, options: options)
    }

    /// Compares two inputs already open (tests give them from memory).
    static func run(_ oldInput: InputFile, _ newInput: InputFile, options: ComparisonOptions) throws -> Comparison {
        var options = options
        options.records.nameRulesByOldNames()
        options.tolerance.fields = Dictionary(options.tolerance.fields.map { (options.records.oldName($0.key), $0.value) },
                                              uniquingKeysWith: { first, _ in first })
        options.records.mode = oldInput.format.isJSON && newInput.format.isJSON ? .typed : .text
        let (old, new) = try readConcurrently(oldInput, newInput, options: options)
        return try Comparison(old: old, new: new, options: options)
    }

    /// Reads two inputs on two threads; the first error in argument order wins.
    public static func readConcurrently(
        _ oldInput: InputFile, _ newInput: InputFile, options: ComparisonOptions
    ) throws -> (Snapshot, Snapshot) {
        let inputs = [oldInput, newInput]
        let datasets = try Snapshot.read(inputs) { side, input in
            let delimiter = input.format.delimiter(options.delimiter)
            // Renames are the new side's: it reads NEW's names as OLD's.
            var records = options.records
            records.appliesRenames = side == 1
            let table = try input.readRecords(records, delimiter: delimiter)
            let mixed = inputs[0].format.isJSON != inputs[1].format.isJSON
            return Snapshot(input: input, records: table, delimiter: delimiter,
                           renames: side == 1 && input.format.isJSON ? records.renames : [],
                           flattensObjects: mixed && input.format.isJSON)
        }
        return (datasets[0], datasets[1])
    }

    public init(old: Snapshot, new: Snapshot, options: ComparisonOptions) throws {
        self.old = old
        self.new = new
        self.options = options
        fieldRules = FieldRules(options.records, flat: !old.input.format.isJSON || !new.input.format.isJSON)
        try FieldCheck.check(options.records, old: old, new: new)
        var schema = Comparison.schemaChanges(old.records, new.records)
        // The renames that matched: NEW occurs in the new snapshot.
        schema.renamed = options.records.renames.filter { new.records.fieldsFound.contains($0.new) }
        self.schema = schema
        var reportRules = fieldRules
        reportRules.schemaOnly = Set((schema.added + schema.removed).map { ExactTextKey($0.path.flatName) })
        self.reportRules = reportRules
        differingMembers = DifferingMembers(old: old, new: new)
        oldSections = Comparison.sections(of: old.records, sorted: options.sortSections)
        newSections = Comparison.sections(of: new.records, sorted: options.sortSections)
        if old.records.keys.isEmpty || new.records.keys.isEmpty {
            // Identity by content: the engine matches fingerprints itself.
            changeset = try Differ.diff(from: oldSections, to: newSections)
        } else {
            let matching = Comparison.matchByKey(old.records, new.records, oldSections: oldSections, newSections: newSections)
            changeset = try Differ.diff(from: oldSections, to: newSections, matching: matching)
        }
    }

    /// Matches records through the old table's key index: a record matches
    /// the record with its id in OLD (when ids repeat, see `pairRepeatedKeys`).
    /// Returns, for each new record in section order, the old record's index
    /// in section order, or -1 (see `Differ.diff(from:to:matching:)`).
    static func matchByKey(
        _ old: RecordTable, _ new: RecordTable,
        oldSections: [ListSection<SectionName, RecordRef>], newSections: [ListSection<SectionName, RecordRef>]
    ) -> [Int32] {
        // With one section, section order is file order: a flat index is the row.
        let oldIsFlat = oldSections.count <= 1
        var flatOfOldRow: [Int32] = []
        if !oldIsFlat {
            flatOfOldRow = [Int32](repeating: 0, count: old.count)
            var flat = 0
            for section in oldSections {
                for ref in section.elements {
                    flatOfOldRow[ref.row] = Int32(flat)
                    flat += 1
                }
            }
        }
        var oldRowOfNewRow = [Int32](repeating: -1, count: new.count)
        if old.keyIndex.distinctCount == old.count && new.keyIndex.distinctCount == new.count {
            // No id repeats on either side: each old row is taken at most once as it is,
            // and each new row is looked up on its own, so the rows are shared between the cores.
            let parts = new.count < matchingRowsPerCore ? 1 : System.workerCount
            oldRowOfNewRow.withUnsafeMutableBufferPointer { matched in
                nonisolated(unsafe) let matched = matched
                DispatchQueue.concurrentPerform(iterations: parts) { part in
                    old.firstRows(withKeysOf: new, rows: (new.count * part / parts)..<(new.count * (part + 1) / parts)) { row, first in
                        matched[row] = Int32(first)
                    }
                }
            }
        } else {
            pairRepeatedKeys(old, new, into: &oldRowOfNewRow)
        }
        if oldIsFlat && newSections.count <= 1 { return oldRowOfNewRow }
        var matching: [Int32] = []
        matching.reserveCapacity(new.count)
        for section in newSections {
            for ref in section.elements {
                let oldRow = Int(oldRowOfNewRow[ref.row])
                matching.append(oldRow < 0 ? -1 : oldIsFlat ? Int32(oldRow) : flatOfOldRow[oldRow])
            }
        }
        return matching
    }

    /// Matching when ids repeat (`--duplicates occurrence`): the records
    /// that share an id pair with an equal record first (the same
    /// fingerprint), then in file order. A record inserted before its
    /// unchanged twin is then an insertion, not an update of the twin plus
    /// an insertion of the twin.
    static func pairRepeatedKeys(_ old: RecordTable, _ new: RecordTable, into oldRowOfNewRow: inout [Int32]) {
        // New rows grouped by the first old row of their key, in file order
        // (a count per group, then each group's slice of one array).
        var groupOfNewRow = [Int32](repeating: -1, count: new.count)
        var groupStart = [Int32](repeating: 0, count: old.count + 1)
        for row in 0..<new.count {
            guard let first = new.keys.withKey(row, old.firstRow(withKey:)) else { continue }
            groupOfNewRow[row] = Int32(first)
            groupStart[first + 1] += 1
        }
        for index in 0..<old.count { groupStart[index + 1] += groupStart[index] }
        var filled = groupStart
        var newRowsByGroup = [Int32](repeating: 0, count: Int(groupStart[old.count]))
        for row in 0..<new.count where groupOfNewRow[row] >= 0 {
            let group = Int(groupOfNewRow[row])
            newRowsByGroup[Int(filled[group])] = Int32(row)
            filled[group] += 1
        }
        var oldRows: [Int] = []
        var taken: [Bool] = []
        var unpaired: [Int] = []
        for first in 0..<old.count where groupStart[first + 1] > groupStart[first] {
            let newRows = newRowsByGroup[Int(groupStart[first])..<Int(groupStart[first + 1])]
            oldRows.removeAll(keepingCapacity: true)
            var row: Int? = first
            while let current = row {
                oldRows.append(current)
                row = old.keyIndex.nextRow(after: current)
            }
            if oldRows.count == 1 && newRows.count == 1 {
                oldRowOfNewRow[Int(newRows.first!)] = Int32(first)
                continue
            }
            taken = [Bool](repeating: false, count: oldRows.count)
            unpaired.removeAll(keepingCapacity: true)
            // Equal records first: by fingerprint, each taking the earliest equal old record left.
            var equalOld: [UInt64: [Int]] = [:]
            for (index, oldRow) in oldRows.enumerated().reversed() { equalOld[old.fingerprints[oldRow], default: []].append(index) }
            for newRow in newRows.map(Int.init) {
                if let index = equalOld[new.fingerprints[newRow]]?.popLast() {
                    taken[index] = true
                    oldRowOfNewRow[newRow] = Int32(oldRows[index])
                } else {
                    unpaired.append(newRow)
                }
            }
            // Then the rest in order.
            var cursor = 0
            for newRow in unpaired {
                while cursor < oldRows.count && taken[cursor] { cursor += 1 }
                guard cursor < oldRows.count else { break }
                taken[cursor] = true
                oldRowOfNewRow[newRow] = Int32(oldRows[cursor])
            }
        }
    }

    /// Below this many new records one core matches them all: too little work to share out.
    static let matchingRowsPerCore = 1 << 14

    /// The fields one schema has and the other lacks. Without records a side
    /// has no JSON schema to speak of, so nothing is added or removed then.
    /// When one side is CSV and the other JSON, a CSV column `meta.key` is
    /// the JSON path `meta.key`: a column counts as present on the JSON side
    /// when its first dotted part is a JSON field, and a JSON field as
    /// present on the CSV side when a column is it or starts with it and a dot.
    static func schemaChanges(_ old: RecordTable, _ new: RecordTable) -> SchemaChanges {
        let known = (old.count > 0 || old.fieldNames != nil) && (new.count > 0 || new.fieldNames != nil)
        guard known else { return SchemaChanges() }
        let mixed = (old.fieldNames == nil) != (new.fieldNames == nil)
        // Names match by their bytes (`ExactText`), as fingerprints do.
        func names(_ table: RecordTable) -> Set<ExactTextKey> {
            var names = Set(table.schema.map(ExactTextKey.init))
            if mixed && table.fieldNames != nil {
                for name in table.schema { names.insert(ExactTextKey(String(name.prefix { $0 != "." }))) }
            }
            return names
        }
        let oldNames = names(old)
        let newNames = names(new)
        func fields(_ table: RecordTable, without others: Set<ExactTextKey>) -> [SchemaField] {
            zip(table.schema, table.schemaValueCounts).filter { name, _ in
                !others.contains(ExactTextKey(name))
                    && !(mixed && table.fieldNames != nil && others.contains(ExactTextKey(String(name.prefix { $0 != "." }))))
            }.map { SchemaField(path: FieldPath([$0.0]), records: $0.1) }
        }
        return SchemaChanges(added: fields(new, without: oldNames), removed: fields(old, without: newNames))
    }

    /// Groups a table's records by section, in order of first appearance
    /// (or by value with `--sort-sections`).
    static func sections(of table: RecordTable, sorted: Bool) -> [ListSection<SectionName, RecordRef>] {
        func ref(_ row: Int) -> RecordRef {
            RecordRef(fingerprint: table.fingerprints[row], row: row)
        }
        guard !table.sections.isEmpty else {
            return [ListSection(id: nil, elements: (0..<table.count).map(ref))]
        }
        var sections = table.sectionNames.map { ListSection<SectionName, RecordRef>(id: SectionName($0), elements: []) }
        for row in 0..<table.count { sections[Int(table.sections[row])].elements.append(ref(row)) }
        if sorted { sections.sort { SectionOrder.precedes($0.id, $1.id) } }
        return sections
    }

    /// The changeset over the files' record order, ignoring sections: what
    /// the replay formats (`patch`, `jsonpatch`) need to rebuild NEW as a file.
    public func fileOrderChangeset() throws -> SectionedChangeset<Int, RecordRef> {
        guard options.records.section != nil else {
            // One section already: the same changeset, renamed.
            var flat = SectionedChangeset<Int, RecordRef>()
            let changeset = self.changeset
            flat.deletions = changeset.deletions.map { .init(at: $0.at) }
            flat.insertions = changeset.insertions.map { .init(at: $0.at, element: $0.element) }
            flat.updates = changeset.updates.map { .init(old: $0.old, new: $0.new, element: $0.element) }
            flat.moves = changeset.moves.map { .init(from: $0.from, to: $0.to, element: $0.element, isAcrossSections: false) }
            flat.unchangedCount = changeset.unchangedCount
            flat.oldCount = changeset.oldCount
            flat.newCount = changeset.newCount
            flat.oldSectionCount = 1
            flat.newSectionCount = 1
            return flat
        }
        // The section field is left out of the fingerprints (a changed section
        // is a move), but a replay must carry it: here it is part of the content.
        func refs(_ sections: [ListSection<SectionName, RecordRef>]) -> [RecordRef] {
            sections.flatMap { section in
                let name = section.id.contentHash
                return section.elements.map { RecordRef(fingerprint: StableHash.combine($0.fingerprint, name), row: $0.row) }
            }.sorted { $0.row < $1.row }
        }
        return try Differ.diff(from: [ListSection(id: 0, elements: refs(oldSections))], to: [ListSection(id: 0, elements: refs(newSections))])
    }

    public var reportedMoves: [SectionedChangeset<SectionName, RecordRef>.Move] {
        changeset.reportedMoves(ignoringOrder: options.ignoreOrder)
    }

    public var reportedSectionMoves: [SectionedChangeset<SectionName, RecordRef>.SectionMove] {
        changeset.reportedSectionMoves(ignoringOrder: options.ignoreOrder)
    }

    /// The fields that differ between the two versions of an updated record.
    public func fieldChanges(_ update: SectionedChangeset<SectionName, RecordRef>.Update) throws -> [FieldChange] {
        let oldRow = oldSections[update.old.section].elements[update.old.item].row
        let newRow = newSections[update.new.section].elements[update.new.item].row
        let (oldRecord, newRecord) = try differingMembers.records(oldRow: oldRow, newRow: newRow)
            ?? (old.value(ofRecord: oldRow), new.value(ofRecord: newRow))
        return changes(between: oldRecord, newRecord)
    }

    /// `fieldChanges` over the whole records, each read in full: what the
    /// shortcut through `DifferingMembers` must agree with (tests compare the two).
    func fieldChangesReadingWholeRecords(oldRow: Int, newRow: Int) throws -> [FieldChange] {
        changes(between: try old.value(ofRecord: oldRow), try new.value(ofRecord: newRow))
    }

    private func changes(between oldRecord: Value, _ newRecord: Value) -> [FieldChange] {
        let changes = FieldChange.between(oldRecord, newRecord, rules: reportRules, mode: options.records.mode, tolerance: options.tolerance)
        guard old.flattensObjects || new.flattensObjects else { return changes }
        // JSON against CSV: a dotted name is the path it stands for (`meta.key`, not `meta\.key`).
        return changes.map { FieldChange(path: FieldPath($0.path.flatName.components(separatedBy: ".")), old: $0.old, new: $0.new) }
    }

}

/// `--sort-sections`: numbers by value before text, text by Unicode scalars; the null section first.
enum SectionOrder {
    static func precedes(_ a: SectionName, _ b: SectionName) -> Bool {
        guard let a = a.text else { return b.text != nil }
        guard let b = b.text else { return false }
        switch (Double(a).flatMap { CanonicalNumber.isNumberLiteral(a) ? $0 : nil },
                Double(b).flatMap { CanonicalNumber.isNumberLiteral(b) ? $0 : nil }) {
        case let (x?, y?): return x != y ? x < y : a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
        case (_?, nil): return true
        case (nil, _?): return false
        case (nil, nil): return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
        }
    }
}
