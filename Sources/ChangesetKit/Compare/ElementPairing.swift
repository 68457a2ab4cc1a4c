/// Which elements of two versions of an array are one element: the rule the
/// field-level comparison (`FieldChange.between`) and the field-level merge
/// (`FieldMerge`) share, so that a merge sees an array's edits as the diff
/// reports them.
///
/// Objects that all hold the `elementKey` fields, each key once on a side,
/// are matched by their keys; anything else by its content. Either way the
/// matches are a longest common subsequence (`ElementAlignment`), ascending
/// on both sides, so an element moved off it is deleted and inserted.
/// Without keys, the unmatched elements between two matches are paired in
/// order (changed in place); the rest are deleted or inserted.
struct ElementPairing {
    /// Paired elements, ascending on both sides: `matched` when equal (or
    /// sharing a key), else changed in place.
    var pairs: [(old: Int, new: Int, matched: Bool)] = []
    /// Elements only the old version has, ascending.
    var deleted: [Int] = []
    /// Elements only the new version has, ascending.
    var inserted: [Int] = []
    /// Matched by `elementKey` (a matched pair may then differ in content).
    var byKey = false

    /// `tolerance` widens what counts as equal content (the comparison's
    /// options); `path` is the array's, for a per-field tolerance.
    init(_ old: [Value], _ new: [Value], mode: ComparisonMode, elementKey: [FieldPath],
         tolerance: ValueTolerance = .exact, path: [String] = []) {
        let keys = Self.keys(old, new, mode: mode, elementKey: elementKey)
        byKey = keys != nil
        let oldHashes = keys?.old ?? old.map { $0.contentHash(mode: mode) }
        let newHashes = keys?.new ?? new.map { $0.contentHash(mode: mode) }
        let same: (Int, Int) -> Bool
        if keys != nil {
            // A key's hash is checked, not trusted.
            same = { a, b in
                oldHashes[a] == newHashes[b] && elementKey.allSatisfy { key in
                    old[a].member(at: key.components)!.isEquivalent(to: new[b].member(at: key.components)!, mode: mode)
                }
            }
        } else if tolerance.isExact {
            same = { oldHashes[$0] == newHashes[$1] }
        } else {
            same = { oldHashes[$0] == newHashes[$1] || tolerance.equal(old[$0], new[$1], path: path, mode: mode) }
        }
        let matches = ElementAlignment(oldHashes: oldHashes, newHashes: newHashes, same: same).matches()
        var (oldNext, newNext) = (0, 0)
        for match in matches + [(old: old.count, new: new.count)] {
            let paired = keys == nil ? min(match.old - oldNext, match.new - newNext) : 0
            for offset in 0..<paired { pairs.append((oldNext + offset, newNext + offset, false)) }
            deleted.append(contentsOf: (oldNext + paired)..<match.old)
            inserted.append(contentsOf: (newNext + paired)..<match.new)
            if match.old < old.count { pairs.append((match.old, match.new, true)) }
            (oldNext, newNext) = (match.old + 1, match.new + 1)
        }
    }

    /// Each element's key hash, when every element of both arrays is an
    /// object holding every `elementKey` field as a scalar, and no key
    /// occurs twice on a side; nil otherwise.
    static func keys(_ old: [Value], _ new: [Value], mode: ComparisonMode, elementKey: [FieldPath]) -> (old: [UInt64], new: [UInt64])? {
        guard !elementKey.isEmpty, !old.isEmpty, !new.isEmpty else { return nil }
        func keys(_ elements: [Value]) -> [UInt64]? {
            var hashes: [UInt64] = []
            hashes.reserveCapacity(elements.count)
            var seen = Set<UInt64>()
            for element in elements {
                guard case .object = element else { return nil }
                var hash: UInt64 = 0x6B65_7973
                for key in elementKey {
                    guard let value = element.member(at: key.components) else { return nil }
                    switch value {
                    case .object, .array, .null: return nil
                    default: hash = StableHash.combine(hash, value.contentHash(mode: mode))
                    }
                }
                guard seen.insert(hash).inserted else { return nil }
                hashes.append(hash)
            }
            return hashes
        }
        guard let oldKeys = keys(old), let newKeys = keys(new) else { return nil }
        return (oldKeys, newKeys)
    }
}
