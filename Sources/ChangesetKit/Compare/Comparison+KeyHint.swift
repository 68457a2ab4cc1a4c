/// A key found for the user. Without `--id`, records are matched by
/// content, so a record with one changed field is a deletion and an
/// insertion: when a top-level field (or, failing one, a pair of fields) is
/// unique and non-empty in both inputs, it is very likely the key the user
/// would have given. With an `--id` that repeats, a field that makes it
/// unique in both inputs is the composite key to try.
package struct KeyHint: Equatable, Sendable {
    /// The keys found, best first (at most three), each one field or two.
    package var keys: [[String]]
    /// False when only the first `Comparison.keyHintSample` records of a side were looked at.
    package var checkedAll: Bool

    /// What the command says on standard error, after `hint: `.
    package var message: String {
        let names = keys.map { Self.argument($0) }
        let pairs = keys.contains { $0.count > 1 }
        return "\(pairs ? (names.count == 1 ? "the pair " : "the pairs ") : "")\(VisibleText.sentence(names)) \(names.count == 1 ? "is" : "are") unique in both files"
            + (checkedAll ? "" : " (in the first 10,000 records of each)")
            + "; records are matched by content without --id, so a changed record is a deletion and an insertion: try --id \(ShellWord.quoted(names[0]))"
    }

    /// A key as `--id` takes it: `geonameid`, `name,country`.
    static func argument(_ key: [String]) -> String {
        FieldPath.listArgument(key.map { FieldPath([$0]) })
    }
}

extension Comparison {
    /// Records of each input the key hint looks at.
    package static let keyHintSample = 10_000

    /// Without `--id`: the top-level fields both inputs have whose values
    /// are present, scalar, not empty and unique within each input (names
    /// that sound like a key first, then in the new input's order), or when
    /// there is none, pairs of fields that every record fills; nil when
    /// nothing is unique. Records are read again one at a time, at most
    /// `limit` a side, and a candidate drops out at its first repeat. (A
    /// 64-bit hash collision could only take a candidate out: a hint left
    /// unsaid, never a wrong one.)
    package func keyHint(limit: Int = keyHintSample) throws -> KeyHint? {
        let oldNames = Set(old.records.schema.map(ExactTextKey.init))
        let shared = new.records.schema.filter { oldNames.contains(ExactTextKey($0)) && Self.isShownAsIs($0) }
        let checkedAll = old.records.count <= limit && new.records.count <= limit
        let sample = { (side: Snapshot) in 0..<min(side.records.count, limit) }
        var unique = try uniqueKeys(shared.map { [$0] }, rows: sample).map(\.key)
        if unique.isEmpty {
            // No one field: pairs of the first fields every record fills (a bounded number of pairs).
            let filled = Array(shared.filter { old.fillsEveryRecord($0) && new.fillsEveryRecord($0) }.prefix(12))
            let pairs = filled.indices.flatMap { first in filled.indices.dropFirst(first + 1).map { [filled[first], filled[$0]] } }
            unique = try uniqueKeys(pairs, rows: sample).map(\.key)
        }
        guard !unique.isEmpty else { return nil }
        func soundsLikeKey(_ key: [String]) -> Bool {
            key.contains { name in
                let lower = name.lowercased()
                return ["id", "key", "code", "sku", "uuid"].contains { lower == $0 || lower.hasSuffix($0) || lower.hasPrefix($0 + "_") }
            }
        }
        let ranked = unique.filter(soundsLikeKey) + unique.filter { !soundsLikeKey($0) }
        return KeyHint(keys: Array(ranked.prefix(3)), checkedAll: checkedAll)
    }

    /// With an `--id` that repeats (read with `--duplicates occurrence`):
    /// the top-level fields that every record of both inputs fills and that
    /// make the id unique in both, as `--id` would take them; of those, the
    /// ones that pair the most of these records of OLD with records of NEW
    /// (a field whose value changed would make that record a deletion and an
    /// insertion). Exact: only records whose id repeats can collide, and
    /// all of them are looked at.
    package func compositeKeys() throws -> [[String]] {
        let id = options.records.id
        guard !id.isEmpty, id.allSatisfy({ $0.components.count == 1 }) else { return [] }
        let idNames = Set(id.map { ExactTextKey($0.components[0]) })
        let oldNames = Set(old.records.schema.map(ExactTextKey.init))
        let candidates = new.records.schema.filter {
            oldNames.contains(ExactTextKey($0)) && !idNames.contains(ExactTextKey($0)) && Self.isShownAsIs($0)
                && old.fillsEveryRecord($0) && new.fillsEveryRecord($0)
        }
        guard id.allSatisfy({ Self.isShownAsIs($0.components[0]) }) else { return [] }
        let found = try uniqueKeys(candidates.map { [$0] }, rows: { $0.records.keyIndex.rowsWithRepeatedKeys }, keyedBy: true)
        // Only the keys that pair as many records as the best one.
        return found.filter { $0.shared == found.first?.shared }.prefix(3).map { id.map(\.components[0]) + $0.key }
    }

    /// A name a hint can give as it is: nothing in it a terminal would act
    /// on, and short enough to read (a suggestion the user cannot type is no help).
    private static func isShownAsIs(_ name: String) -> Bool {
        VisibleText.datum(name) == name
    }

    /// The candidates (each a list of top-level names) whose values are
    /// present, scalar, non-empty and distinct over `rows` of each input,
    /// with how many of NEW's values OLD has too, those sharing most first;
    /// `keyedBy`: the record's id is part of each candidate.
    private func uniqueKeys(
        _ candidates: [[String]], rows: (Snapshot) -> any Sequence<Int>, keyedBy: Bool = false
    ) throws -> [(key: [String], shared: Int)] {
        var alive = [Bool](repeating: true, count: candidates.count)
        var aliveCount = candidates.count
        var oldSeen: [Set<UInt64>] = []
        var overlap = [Int](repeating: 0, count: candidates.count)
        for (sideNumber, side) in [old, new].enumerated() where aliveCount > 0 {
            // 64-bit hashes of the values' text, not the values: a column of
            // distinct floats costs 8 bytes a record, not a String.
            var seen = candidates.map { _ in Set<UInt64>() }
            defer { if sideNumber == 0 { oldSeen = seen } }
            for row in rows(side) where aliveCount > 0 {
                guard case .object(let members) = try side.value(ofRecord: row) else { return [] }
                let idHash = keyedBy ? side.records.keys.withKey(row, RecordTable.keyHash) : 0
                for index in candidates.indices where alive[index] {
                    var hash = idHash
                    var complete = true
                    for name in candidates[index] {
                        // The last member of a name, as the readers keep it.
                        switch members.last(where: { ExactText.same($0.name, name) })?.value {
                        case .string(let string)? where !string.isEmpty: hash = StableHash.combine(hash, StableHash.string(string, seed: 0x6B65_7968))
                        case .number(let number)?: hash = StableHash.combine(hash, StableHash.string(CanonicalNumber.canonical(number) ?? number, seed: 0x6B65_7968))
                        default: complete = false
                        }
                    }
                    if complete, seen[index].insert(hash).inserted {
                        if sideNumber == 1, oldSeen[index].contains(hash) { overlap[index] += 1 }
                        continue
                    }
                    alive[index] = false
                    aliveCount -= 1
                }
            }
        }
        // The key that pairs the most records of OLD with records of NEW first: a field whose value
        // changes (a population) makes a changed record a deletion and an insertion.
        return candidates.indices.filter { alive[$0] }.sorted { overlap[$0] != overlap[$1] ? overlap[$0] > overlap[$1] : $0 < $1 }
            .map { (candidates[$0], overlap[$0]) }
    }
}

extension Snapshot {
    /// Whether every record holds a value (not null, not empty) for the top-level field `name`.
    func fillsEveryRecord(_ name: String) -> Bool {
        guard let position = records.schema.firstIndex(where: { ExactText.same($0, name) }) else { return false }
        return records.schemaValueCounts[position] == records.count
    }
}
