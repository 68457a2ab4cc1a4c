/// A key found for the user: without `--id`, records are matched by content,
/// so a record with one changed field is a deletion and an insertion. When
/// a top-level field is unique and non-empty in both inputs, it is very
/// likely the key the user would have given; the command says so.
extension Comparison {
    /// The top-level fields (both inputs have them) whose values are present,
    /// scalar, not empty and unique within each input: names that sound like
    /// a key first, then in the new input's order; `checkedAll` is false when only the first `limit` records of
    /// a side were looked at. Records are read again one at a time, and a
    /// field drops out at its first repeat; a unique field costs reading
    /// `limit` records of each side. (A 64-bit hash collision could only
    /// take a unique field out: a hint left unsaid, never a wrong one.)
    package func uniqueFields(limit: Int = 10_000) throws -> (fields: [String], checkedAll: Bool) {
        let oldNames = Set(old.records.schema.map(ExactTextKey.init))
        var candidates = new.records.schema.filter { oldNames.contains(ExactTextKey($0)) }
        var checkedAll = true
        for side in [old, new] where !candidates.isEmpty {
            // 64-bit hashes of the values' bytes, not the values: a column of
            // distinct floats costs 8 bytes a record, not a String.
            var seen = candidates.map { _ in Set<UInt64>(minimumCapacity: min(side.records.count, limit)) }
            var alive = [Bool](repeating: true, count: candidates.count)
            var aliveCount = candidates.count
            let rows = min(side.records.count, limit)
            if rows < side.records.count { checkedAll = false }
            for row in 0..<rows where aliveCount > 0 {
                guard case .object(let members) = try side.value(ofRecord: row) else { return ([], checkedAll) }
                for index in candidates.indices where alive[index] {
                    // The last member of a name, as the readers keep it.
                    let value = members.last { ExactText.same($0.name, candidates[index]) }?.value
                    let text: String?
                    switch value {
                    case .string(let string)? where !string.isEmpty: text = string
                    case .number(let number)?: text = CanonicalNumber.canonical(number) ?? number
                    default: text = nil
                    }
                    if let text, seen[index].insert(StableHash.string(text, seed: 0x6B65_7968)).inserted { continue }
                    alive[index] = false
                    aliveCount -= 1
                }
            }
            candidates = zip(candidates, alive).filter(\.1).map(\.0)
        }        // Names that say "key" first (id, key, code, sku, uuid), then in the file's order.
        func soundsLikeKey(_ name: String) -> Bool {
            let lower = name.lowercased()
            return ["id", "key", "code", "sku", "uuid"].contains { lower == $0 || lower.hasSuffix($0) || lower.hasPrefix($0 + "_") }
        }
        let ranked = candidates.filter(soundsLikeKey) + candidates.filter { !soundsLikeKey($0) }
        return (ranked, checkedAll)
    }
}
