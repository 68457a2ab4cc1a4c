/// Records re-keyed: a record whose key was corrected (`Terrant County
/// College` -> `Tarrant County College`, `1234` -> `01234`) is matched by
/// nothing under `--id`, so it shows as a deletion and an insertion. When a
/// deleted record and an inserted one are equal in every field but the key,
/// the report says they look re-keyed, as it says a column looks renamed.
/// A note only: the counts, the changes and the exit status stay as they are.
extension Comparison {
    /// Deleted or inserted records past which the note is not looked for:
    /// each one is read again, and a report that shows a few of them would
    /// otherwise pay for them all.
    static let rekeyLimit = 1_000_000
    /// Pairs the note shows.
    static let rekeyExamples = 3

    /// The deleted records (within their section) that equal exactly one
    /// inserted record, and no other deleted record does, in every field but
    /// the `--id` fields, as the comparison compares values (its mode; the
    /// top-level fields `--ignore`/`--only` and the fields only one schema
    /// has left out): how many, and the first `rekeyExamples` pairs in OLD's
    /// order. A content several deleted or several inserted records share is
    /// ambiguous and pairs none, as does a record that holds nothing but its
    /// key (`{"id": 1}`). Each record costs a hash of its value less
    /// the key; a pair is read again and compared, so a hash collision can
    /// only lose a pair. Values within a tolerance but not equal hash apart:
    /// such a pair is not found. Only with `--id`, deletions and insertions
    /// both (and at most `rekeyLimit` of each); otherwise nothing is read.
    func rekeyedRecords() throws -> (count: Int, examples: [RekeyedRecord]) {
        let deletions = changeset.deletions, insertions = changeset.insertions
        guard !options.records.id.isEmpty, !deletions.isEmpty, !insertions.isEmpty,
              deletions.count <= Self.rekeyLimit, insertions.count <= Self.rekeyLimit else { return (0, []) }
        let sectioned = options.records.section != nil
        let oldRows = deletions.map { ref($0.at, .old).row }
        let newRows = insertions.map(\.element.row)
        let oldSectionNames = deletions.map { sectioned ? oldSections[$0.at.section].id : nil }
        let newSectionNames = insertions.map { sectioned ? newSections[$0.at.section].id : nil }
        // What is read per record is set up once: a record costs a read, a filter and a hash.
        let keyless = KeylessRecord(self)
        let (old, new, mode) = (self.old, self.new, options.records.mode)
        let oldHasher = KeylessHasher(old, keyless: keyless, mode: mode), newHasher = KeylessHasher(new, keyless: keyless, mode: mode)
        let oldHashes = try OrderedConcurrentMap.map(oldRows) { try oldHasher.hash(row: $0) }
        let newHashes = try OrderedConcurrentMap.map(newRows) { try newHasher.hash(row: $0) }
        let candidates = Self.rekeyCandidates(oldHashes: oldHashes, oldSections: oldSectionNames, newHashes: newHashes, newSections: newSectionNames)
        // The hashes agree: the records, read again, must be equal by the rule the hash follows.
        let equal = try OrderedConcurrentMap.map(candidates) { pair in
            guard let before = keyless.strip(try old.value(ofRecord: oldRows[pair.deleted])),
                  let after = keyless.strip(try new.value(ofRecord: newRows[pair.inserted])) else { return false }
            return before.isEquivalent(to: after, mode: mode)
        }
        let paired = zip(candidates, equal).filter(\.1).map(\.0)
        let examples = paired.prefix(Self.rekeyExamples).map { pair in
            RekeyedRecord(old: id(ref(deletions[pair.deleted].at, .old), old) ?? [], new: id(insertions[pair.inserted].element, new) ?? [])
        }
        return (paired.count, examples)
    }

    /// The pairs of a deleted record (by its number among the deletions)
    /// and an inserted one (among the insertions) whose contents less the
    /// key hash alike, within a section, where no other deleted or inserted
    /// record has that content; in the deletions' order. Nil hashes pair nothing.
    static func rekeyCandidates(
        oldHashes: [UInt64?], oldSections: [SectionName], newHashes: [UInt64?], newSections: [SectionName]
    ) -> [(deleted: Int, inserted: Int)] {
        // Sections numbered (they are few), each side's contents sorted and
        // the two walked together: 16 bytes a record, where a dictionary of
        // contents a side took about 120 (a section's name in every key, a
        // table at most three quarters full), 24 MB at 10M records.
        var sectionNumbers: [SectionName: UInt32] = [:]
        func sortedContents(_ hashes: [UInt64?], sections: [SectionName]) -> [RekeyContent] {
            precondition(hashes.count <= Int(UInt32.max), "more records than the note looks at")
            var contents: [RekeyContent] = []
            contents.reserveCapacity(hashes.count)
            var last: (name: SectionName, number: UInt32)?
            for (index, hash) in hashes.enumerated() {
                guard let hash else { continue }
                let name = sections[index]
                let number: UInt32
                if let last, last.name == name {
                    number = last.number
                } else {
                    number = sectionNumbers[name] ?? UInt32(sectionNumbers.count)
                    sectionNumbers[name] = number
                    last = (name, number)
                }
                contents.append(RekeyContent(hash: hash, section: number, index: UInt32(index)))
            }
            contents.sort { ($0.section, $0.hash) < ($1.section, $1.hash) }
            return contents
        }
        // The contents one record alone has, in order.
        func only(_ sorted: [RekeyContent]) -> [RekeyContent] {
            sorted.indices.compactMap { at in
                let content = sorted[at]
                let repeated = (at > 0 && sorted[at - 1].sameContent(as: content))
                    || (at + 1 < sorted.count && sorted[at + 1].sameContent(as: content))
                return repeated ? nil : content
            }
        }
        let deleted = only(sortedContents(oldHashes, sections: oldSections))
        let inserted = only(sortedContents(newHashes, sections: newSections))
        var candidates: [(deleted: Int, inserted: Int)] = []
        var next = 0
        for content in deleted {
            while next < inserted.count && (inserted[next].section, inserted[next].hash) < (content.section, content.hash) { next += 1 }
            if next < inserted.count && inserted[next].sameContent(as: content) {
                candidates.append((Int(content.index), Int(inserted[next].index)))
            }
        }
        candidates.sort { $0.deleted < $1.deleted }
        return candidates
    }

    /// The top-level names a record is compared without when looking for
    /// re-keyed records, sorted: what a change stream's header carries so
    /// that records read back from streams are compared alike.
    var rekeyKeylessNames: [String] {
        KeylessRecord(self).droppedNames.map(\.text).sorted()
    }

    /// A content (a record's value less its key, within its section, by
    /// the section's number) and the record's number among its side's.
    private struct RekeyContent {
        var hash: UInt64
        var section: UInt32
        var index: UInt32

        func sameContent(as other: RekeyContent) -> Bool { hash == other.hash && section == other.section }
    }

}

/// A record less its `--id` and `--section` fields, the fields `--ignore`
/// and `--only` leave out and those only one schema has: top-level ones
/// (found once, by name, over both schemas), and members of objects an id
/// path goes through.
struct KeylessRecord: Sendable {
    /// Top-level names left out.
    let droppedNames: Set<ExactTextKey>
    /// Id and section paths of more than one name, looked for inside their objects.
    let nestedPaths: [[String]]

    /// Records less `droppedNames` at the top and `nestedPaths` inside.
    init(droppedNames: Set<ExactTextKey>, nestedPaths: [[String]]) {
        self.droppedNames = droppedNames
        self.nestedPaths = nestedPaths
    }

    /// The hash of `record` stripped, as `hash(_:row:mode:)` has it for a
    /// record read from a file: nil when it is not an object or holds nothing else.
    func hash(of record: Value, mode: ComparisonMode) -> UInt64? {
        guard let rest = strip(record), case .object(let members) = rest, members.contains(where: { !$0.value.isEmptyText }) else { return nil }
        return rest.contentHash(mode: mode)
    }

    init(_ comparison: Comparison) {
        let records = comparison.options.records
        let named = records.id + (records.section.map { [$0] } ?? [])
        var dropped = Set(named.filter { $0.components.count == 1 }.map { ExactTextKey($0.components[0]) })
        // A CSV column `a.b` is the field `--id a.b` names.
        dropped.formUnion(named.filter { $0.components.count > 1 }.map { ExactTextKey($0.flatName) })
        dropped.formUnion(comparison.reportRules.schemaOnly)
        for name in comparison.old.records.schema + comparison.new.records.schema where comparison.reportRules.leavesOut([name]) {
            dropped.insert(ExactTextKey(name))
        }
        droppedNames = dropped
        nestedPaths = named.map(\.components).filter { $0.count > 1 }
    }

    /// The hash of the record at `row` of `side`, stripped; nil when the
    /// record is not an object, or holds nothing else (no value, or only
    /// null and empty ones): two records that are only their ids are not one re-keyed.
    func hash(_ side: Snapshot, row: Int, mode: ComparisonMode) throws -> UInt64? {
        let record = try side.value(ofRecord: row)
        guard nestedPaths.isEmpty else {
            guard let rest = strip(record), case .object(let members) = rest,
                  members.contains(where: { !$0.value.isEmptyText }) else { return nil }
            return rest.contentHash(mode: mode)
        }
        // The stripped record's content hash (an object's, as `Value`
        // hashes one: the sum of its members' hashes), summed in place,
        // without a copy of every record less its key.
        guard case .object(let members) = record else { return nil }
        var sum = KeylessSum(mode: mode)
        for member in members where !droppedNames.contains(ExactTextKey(member.name)) {
            sum.add(name: member.name.withBytes { ValueHasher.name($0) }, value: member.value.contentHash(mode: mode),
                    isEmptyText: member.value.isEmptyText)
        }
        return sum.hash
    }

    /// The record stripped; nil when it is not an object.
    func strip(_ record: Value) -> Value? {
        guard case .object(let members) = record else { return nil }
        return .object(members.compactMap { member in
            if droppedNames.contains(ExactTextKey(member.name)) { return nil }
            guard !nestedPaths.isEmpty else { return member }
            return Value.Member(name: member.name, value: without(member.value, at: [member.name]))
        })
    }

    /// `value`, at `path`, less the nested id and section paths below it.
    private func without(_ value: Value, at path: [String]) -> Value {
        let below = nestedPaths.filter { $0.count > path.count && zip($0, path).allSatisfy { ExactText.same($0, $1) } }
        guard !below.isEmpty, case .object(let members) = value else { return value }
        return .object(members.compactMap { member in
            let memberPath = path + [member.name]
            if below.contains(where: { $0.count == memberPath.count && ExactText.same($0[path.count], member.name) }) { return nil }
            return Value.Member(name: member.name, value: without(member.value, at: memberPath))
        })
    }
}

/// How one side's records are hashed less their key: from a CSV row's
/// cells or a JSON record's members where they can be, else from the record
/// read into a `Value` (the same hash either way).
struct KeylessHasher: Sendable {
    let side: Snapshot
    let keyless: KeylessRecord
    let mode: ComparisonMode
    private let cells: KeylessCells?
    private let members: KeylessMembers?

    init(_ side: Snapshot, keyless: KeylessRecord, mode: ComparisonMode) {
        self.side = side
        self.keyless = keyless
        self.mode = mode
        cells = KeylessCells(side, keyless: keyless, mode: mode)
        members = cells == nil ? KeylessMembers(side, keyless: keyless, mode: mode) : nil
    }

    /// `KeylessRecord.hash(_:row:mode:)` of the record at `row`.
    func hash(row: Int) throws -> UInt64? {
        if let cells { return try cells.hash(row: row) }
        if let members, let hash = try members.hash(row: row) { return hash }
        return try keyless.hash(side, row: row, mode: mode)
    }
}

/// A JSON side's records hashed less their key from their members' bytes,
/// as `KeylessRecord.hash` hashes the record's `Value`: a scalar of printable
/// ASCII is hashed from its text, anything else read into a `Value` alone.
/// Read whole, a record's `Value` and its hash cost about 16,000
/// instructions, most of the note's cost on JSON. Nil where a record's
/// `Value` is more than its members (renamed or flattened fields, id paths
/// inside objects).
private struct KeylessMembers: Sendable {
    let side: Snapshot
    let keyless: KeylessRecord
    let mode: ComparisonMode
    /// The top-level names left out, as bytes (for names that are their own text).
    let droppedNames: [[UInt8]]

    init?(_ side: Snapshot, keyless: KeylessRecord, mode: ComparisonMode) {
        guard side.input.format.isJSON, side.renames.isEmpty, !side.flattensObjects, keyless.nestedPaths.isEmpty else { return nil }
        self.side = side
        self.keyless = keyless
        self.mode = mode
        droppedNames = keyless.droppedNames.map { Array($0.text.utf8) }
    }

    /// The record's hash less its key; nil (`.none`) when the record holds
    /// nothing else; nil as a whole (the outer optional) when its text does
    /// not split into members here, and the caller reads it whole.
    func hash(row: Int) throws -> UInt64?? {
        try side.input.bytes.withBytes(in: side.records.byteRange(row)) { text -> UInt64?? in
            guard let rawMembers = JSONValueReader.rawMembers(ofObject: text) else { return nil }
            var hasher = ValueHasher(mode: mode)
            var sum = KeylessSum(mode: mode)
            for member in rawMembers {
                let rawName = text.extracting(member.name)
                let nameHash: UInt64
                if JSONValueReader.isPlainText(rawName) {
                    if droppedNames.contains(where: { $0.span.sameBytes(as: rawName) }) { continue }
                    nameHash = ValueHasher.name(rawName)
                } else {
                    let name = try JSONValueReader.name(ofRawMember: rawName)
                    if keyless.droppedNames.contains(ExactTextKey(name)) { continue }
                    nameHash = name.withBytes { ValueHasher.name($0) }
                }
                let (valueHash, empty) = try Self.hash(ofRawValue: text.extracting(member.value), &hasher)
                sum.add(name: nameHash, value: valueHash, isEmptyText: empty)
            }
            return .some(sum.hash)
        }
    }

    /// A member value's hash, as its `Value`'s `contentHash`, and whether it
    /// is empty text (null or an empty string).
    private static func hash(ofRawValue raw: Span<UInt8>, _ hasher: inout ValueHasher) throws -> (hash: UInt64, empty: Bool) {
        if raw.count >= 2, raw[0] == 0x22, raw[raw.count - 1] == 0x22 {
            let inner = raw.extracting(1..<(raw.count - 1))
            if JSONValueReader.isPlainText(inner) { return (hasher.string(inner).hash, inner.isEmpty) }
        } else if !raw.isEmpty, raw[0] == 0x2D || (0x30...0x39).contains(raw[0]), CanonicalNumber.isNumberLiteral(raw) {
            return (hasher.number(raw).hash, false)
        }
        let value = try JSONValueReader.value(ofRawMember: raw)
        return (value.contentHash(mode: hasher.mode), value.isEmptyText)
    }
}

/// A CSV side's rows hashed less their key from the cells' bytes, as
/// `KeylessRecord.hash` hashes the row's `Value` (the same hash, so the two
/// mix), without a `Value` a cell: those values would be most of the note's
/// cost. Nil where a row's `Value` is more than its cells (renamed or flattened
/// fields) or values compare by type.
private struct KeylessCells: Sendable {
    let side: Snapshot
    let keyless: KeylessRecord
    let mode: ComparisonMode
    /// Per column, its name's hash, or nil for a column left out.
    let nameHashes: [UInt64?]

    init?(_ side: Snapshot, keyless: KeylessRecord, mode: ComparisonMode) {
        guard !side.input.format.isJSON, mode.isText, side.renames.isEmpty, !side.flattensObjects, keyless.nestedPaths.isEmpty,
              let names = side.records.fieldNames else { return nil }
        self.side = side
        self.keyless = keyless
        self.mode = mode
        nameHashes = names.map { name in
            keyless.droppedNames.contains(ExactTextKey(name)) ? nil : name.withBytes { ValueHasher.name($0) }
        }
    }

    func hash(row: Int) throws -> UInt64? {
        try side.input.bytes.withBytes(in: side.records.byteRange(row)) { text -> UInt64? in
            let cells = try CSVRecordReader.rawCells(of: text, delimiter: side.delimiter, expecting: nameHashes.count)
            // A ragged row's `Value` names its extra cells: read it whole.
            guard cells.count == nameHashes.count else { return try keyless.hash(side, row: row, mode: mode) }
            var hasher = ValueHasher(mode: mode)
            func scalar(_ bytes: Span<UInt8>) -> ValueHasher.ScalarHash {
                CanonicalNumber.isNumberLiteral(bytes) ? hasher.number(bytes) : hasher.string(bytes)
            }
            var sum = KeylessSum(mode: mode)
            for (column, cell) in cells.enumerated() {
                guard let name = nameHashes[column] else { continue }
                let raw = text.extracting(cell)
                let value = raw.isEmpty || raw[0] != 0x22 ? scalar(raw) : CSVRecordReader.text(ofRawCell: raw).withBytes { scalar($0) }
                sum.add(name: name, value: value.hash, isEmptyText: value.isEmpty)
            }
            return sum.hash
        }
    }
}

/// A record's hash less its key, summed member by member as `Value` hashes
/// an object (the sum of its members' hashes): a member of empty text (null,
/// an empty string or cell) is left out of the sum where values compare as
/// text, and a record that holds nothing but such members has no hash.
/// What every way of hashing a record for the re-key note shares.
struct KeylessSum {
    let mode: ComparisonMode
    private var sum: UInt64 = 0
    private var count = 0
    private var holdsValue = false

    init(mode: ComparisonMode) {
        self.mode = mode
    }

    mutating func add(name: UInt64, value: UInt64, isEmptyText: Bool) {
        holdsValue = holdsValue || !isEmptyText
        if mode.isText && isEmptyText { return }
        sum &+= ValueHasher.member(name: name, value: value)
        count += 1
    }

    /// The object's hash, or nil when it holds no value.
    var hash: UInt64? { holdsValue ? ValueHasher.objectEnd(sum, count: count) : nil }
}
