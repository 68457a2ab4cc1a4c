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
    /// the `--id` fields, as the comparison compares them (its mode, its
    /// `--ignore`/`--only` and its tolerance; the fields only one schema
    /// has left out): how many, and the first `rekeyExamples` pairs in OLD's
    /// order. A content several deleted or several inserted records share is
    /// ambiguous and pairs none, as does a record that holds nothing but its
    /// key (`{"id": 1}`). Each record costs a hash of its value less
    /// the key; a pair is checked field by field, so a hash collision can
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
        let oldHashes = try OrderedConcurrentMap.map(Array(oldRows.indices)) { try rekeyHash(old, row: oldRows[$0]) }
        let newHashes = try OrderedConcurrentMap.map(Array(newRows.indices)) { try rekeyHash(new, row: newRows[$0]) }
        // Per content, the one record that has it (-1: several do).
        func only(_ hashes: [UInt64?], sections: [SectionName]) -> [RekeyContent: Int] {
            var found: [RekeyContent: Int] = [:]
            for (index, hash) in hashes.enumerated() {
                guard let hash else { continue }
                let content = RekeyContent(section: sections[index], hash: hash)
                found[content] = found[content] == nil ? index : -1
            }
            return found
        }
        let deletedByContent = only(oldHashes, sections: oldSectionNames)
        let insertedByContent = only(newHashes, sections: newSectionNames)
        var candidates: [(deleted: Int, inserted: Int)] = []
        for (content, deleted) in deletedByContent where deleted >= 0 {
            if let inserted = insertedByContent[content], inserted >= 0 { candidates.append((deleted, inserted)) }
        }
        candidates.sort { $0.deleted < $1.deleted }
        let equal = try OrderedConcurrentMap.map(candidates) { pair in
            try keylessEqual(oldRow: oldRows[pair.deleted], newRow: newRows[pair.inserted])
        }
        let paired = zip(candidates, equal).filter(\.1).map(\.0)
        let examples = paired.prefix(Self.rekeyExamples).map { pair in
            let oldRef = ref(deletions[pair.deleted].at, .old)
            return RekeyedRecord(old: id(oldRef, old) ?? [], new: id(insertions[pair.inserted].element, new) ?? [])
        }
        return (paired.count, examples)
    }

    /// A content: a record's value less its key, within its section.
    private struct RekeyContent: Hashable {
        var section: SectionName
        var hash: UInt64
    }

    /// The hash of the record at `row` of `side` without its key fields and
    /// the fields the report leaves out; nil when the record is not an
    /// object, or holds nothing else (no value, or only null and empty
    /// ones): two records that are only their ids are not one re-keyed.
    private func rekeyHash(_ side: Snapshot, row: Int) throws -> UInt64? {
        guard let rest = keyless(try side.value(ofRecord: row)), case .object(let members) = rest,
              members.contains(where: { !$0.value.isEmptyText }) else { return nil }
        return rest.contentHash(mode: options.records.mode)
    }

    /// Whether two records compare equal, as an update's fields are compared, once their keys are left out.
    private func keylessEqual(oldRow: Int, newRow: Int) throws -> Bool {
        guard let before = keyless(try old.value(ofRecord: oldRow)), let after = keyless(try new.value(ofRecord: newRow)) else { return false }
        return FieldChange.between(before, after, rules: reportRules, mode: options.records.mode, tolerance: options.tolerance,
                                   arrays: options.arrays, elementKey: options.records.id).isEmpty
    }

    /// A record less its `--id` and `--section` fields, the fields `--ignore`
    /// and `--only` leave out and those only one schema has (top-level
    /// ones, and members of objects the id or those options name); nil
    /// when the record is not an object.
    private func keyless(_ record: Value) -> Value? {
        guard case .object = record else { return nil }
        let named = options.records.id + (options.records.section.map { [$0] } ?? [])
        let dropped = named.map(\.components)
        // A CSV column `a.b` is the field `--id a.b` names.
        let droppedFlat = named.filter { $0.components.count > 1 }.map(\.flatName)
        func without(_ value: Value, at path: [String]) -> Value {
            guard case .object(let members) = value else { return value }
            return .object(members.compactMap { member in
                let memberPath = path + [member.name]
                if dropped.contains(where: { $0.count == memberPath.count && zip($0, memberPath).allSatisfy { ExactText.same($0, $1) } }) { return nil }
                if path.isEmpty && droppedFlat.contains(where: { ExactText.same($0, member.name) }) { return nil }
                if path.isEmpty && reportRules.schemaOnly.contains(ExactTextKey(member.name)) { return nil }
                if reportRules.leavesOut(memberPath) { return nil }
                let goesDeeper = dropped.contains { $0.count > memberPath.count && zip($0, memberPath).allSatisfy { ExactText.same($0, $1) } }
                return goesDeeper ? Value.Member(name: member.name, value: without(member.value, at: memberPath)) : member
            })
        }
        return without(record, at: [])
    }
}
