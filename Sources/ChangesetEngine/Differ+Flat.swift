/// The changeset of two flat lists from a matching alone, for lists too
/// large to hold as elements: what `diff(from:to:matching:)` gives for one
/// section a side, in about 4.5 bytes an element (the matching, a bit or two
/// an element, and the subsequence's tails) beside the changes themselves.
extension Differ {
    /// `oldIndexOfNew[j]`: the old index of the j-th new element, or -1; each
    /// old index at most once. `isUpdated(j)`: whether the j-th new element
    /// differs from its old counterpart (asked of matched elements only).
    /// `element(j)`: what the changes carry for the j-th new element.
    /// `links`: where the subsequence's predecessor links are kept.
    ///
    /// Equal, change for change, to `diff(from:to:matching:)` over one
    /// section a side whose elements are `==` exactly when `isUpdated` is
    /// false (the tests hold the two to each other).
    @inlinable
    package static func flatDiff<SectionID: Hashable, Element, Links: PredecessorLinks>(
        oldCount: Int, matching oldIndexOfNew: [Int32], links: inout Links,
        isUpdated: (Int) -> Bool, element: (Int) -> Element
    ) throws -> SectionedChangeset<SectionID, Element> {
        var changeset = SectionedChangeset<SectionID, Element>()
        changeset.oldSectionCount = 1
        changeset.newSectionCount = 1
        var oldMatched = [UInt64](repeating: 0, count: (oldCount + 63) / 64)
        // Each list reserved at its size (a pass to count), not grown by
        // doubling: a copy of each at every step was the diff's peak.
        var inserted = 0
        var updated = 0
        for (item, oldIndex) in oldIndexOfNew.enumerated() {
            if oldIndex < 0 { inserted += 1 } else if isUpdated(item) { updated += 1 }
        }
        let matched = oldIndexOfNew.count - inserted
        changeset.insertions.reserveCapacity(inserted)
        changeset.updates.reserveCapacity(updated)
        changeset.deletions.reserveCapacity(max(0, oldCount - matched))
        for (item, oldIndex) in oldIndexOfNew.enumerated() {
            guard oldIndex >= 0 else {
                changeset.insertions.append(.init(at: ItemPath(section: 0, item: item), element: element(item)))
                continue
            }
            let old = Int(oldIndex)
            guard old < oldCount, oldMatched[old >> 6] & (1 << UInt64(old & 63)) == 0 else {
                throw InvariantViolation(detail: "old element \(old) is matched twice or does not exist")
            }
            oldMatched[old >> 6] |= 1 << UInt64(old & 63)
            if isUpdated(item) {
                changeset.updates.append(.init(old: ItemPath(section: 0, item: old), new: ItemPath(section: 0, item: item),
                                               element: element(item)))
            } else {
                changeset.unchangedCount += 1
            }
        }
        // The stayers on one longest increasing subsequence, a bit each; the others moved.
        var onSubsequence = [UInt64](repeating: 0, count: (oldIndexOfNew.count + 63) / 64)
        var staying = 0
        try longestIncreasingSubsequence(count: oldIndexOfNew.count, links: &links, { oldIndexOfNew[$0] >= 0 ? oldIndexOfNew[$0] : nil }) {
            onSubsequence[$0 >> 6] |= 1 << UInt64($0 & 63)
            staying += 1
        }
        changeset.moves.reserveCapacity(matched - staying)
        for (item, oldIndex) in oldIndexOfNew.enumerated()
        where oldIndex >= 0 && onSubsequence[item >> 6] & (1 << UInt64(item & 63)) == 0 {
            changeset.moves.append(.init(from: ItemPath(section: 0, item: Int(oldIndex)), to: ItemPath(section: 0, item: item),
                                         element: element(item), isAcrossSections: false))
        }
        for old in 0..<oldCount where oldMatched[old >> 6] & (1 << UInt64(old & 63)) == 0 {
            changeset.deletions.append(.init(at: ItemPath(section: 0, item: old)))
        }
        changeset.oldCount = oldCount
        changeset.newCount = oldIndexOfNew.count
        if !zip(changeset.updates, changeset.updates.dropFirst()).allSatisfy({ $0.old < $1.old }) {
            changeset.updates.sort { $0.old < $1.old }
        }
        // What `verify` checks of one section a side, by construction above but for the totals.
        let paired = changeset.unchangedCount + changeset.updates.count
        guard oldCount == paired + changeset.deletions.count, oldIndexOfNew.count == paired + changeset.insertions.count else {
            throw InvariantViolation(detail: "\(oldCount) old and \(oldIndexOfNew.count) new elements, \(paired) matched, "
                                     + "\(changeset.deletions.count) deleted and \(changeset.insertions.count) inserted")
        }
        return changeset
    }
}
