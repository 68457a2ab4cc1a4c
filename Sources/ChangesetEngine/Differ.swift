/// Computes changesets between two collections of identifiable values.
///
/// Stages, in order:
/// 1. Sections are matched by id; unmatched old ones are deleted, unmatched
///    new ones inserted. Matched sections whose old indices, taken in new
///    order, lie off one longest increasing subsequence are moved.
/// 2. Elements are matched by id; the k-th element with an id in old matches
///    the k-th with that id in new, so repeated ids (and, with content as id,
///    repeated values) pair up in order.
/// 3. A matched element whose section changed is moved across sections.
///    Within each section, the elements that stayed are those on a longest
///    increasing subsequence of old indices in new order; the rest moved.
///    So moves are minimal: `[a,b,c] -> [b,c,a]` is one move.
/// 4. A matched element whose content differs from its counterpart's is
///    updated (and may also be moved). Content is compared with `==`, with
///    ``ContentEquatableElement/isContentEqual(to:)`` when the element has it, or
///    with the caller's `isContentEqual` closure.
/// 5. The result is checked (`verify`) before it is returned.
///
/// Time O(n log n) in the number of elements, memory O(n).
///
/// Errors: a section id twice on one side throws ``DuplicateSectionIDError``,
/// a malformed matching ``InvalidMatchingError`` (both mistakes of the
/// caller's), a list past ``elementLimit`` elements ``TooManyElementsError``;
/// ``InvariantViolation`` means a bug in the engine.
public enum Differ {
    /// The most elements either list may hold: positions are kept as `Int32`
    /// (and a position + 1 too, with 0 for none), so a count must stay below `Int32.max`.
    public static let elementLimit = Int(Int32.max) - 1

    /// Throws ``TooManyElementsError`` when a list of `old` or `new` elements
    /// holds more than `limit`, before any 32-bit position is formed.
    @inlinable
    static func checkCounts(old: Int, new: Int, limit: Int = elementLimit) throws(TooManyElementsError) {
        guard old <= limit && new <= limit else { throw TooManyElementsError(oldCount: old, newCount: new, limit: limit) }
    }

    /// How many elements `sections` hold in all.
    @inlinable
    static func elementCount<SectionID, Element>(_ sections: [ListSection<SectionID, Element>]) -> Int {
        sections.reduce(0) { $0 + $1.elements.count }
    }

    /// The changeset from `old` to `new`, sections and elements matched by
    /// id, content compared with `==`.
    @inlinable
    public static func diff<SectionID: Hashable, Element: Identifiable & Equatable>(
        from old: [ListSection<SectionID, Element>], to new: [ListSection<SectionID, Element>]
    ) throws -> SectionedChangeset<SectionID, Element> {
        try diff(from: old, to: new, rule: EqualityRule())
    }

    /// Stages 1 to 5 with the elements' content compared by `rule`.
    @inlinable
    static func diff<SectionID: Hashable, Element: Identifiable, Equality: ContentRule<Element>>(
        from old: [ListSection<SectionID, Element>], to new: [ListSection<SectionID, Element>], rule: Equality
    ) throws -> SectionedChangeset<SectionID, Element> {
        var changeset = SectionedChangeset<SectionID, Element>()
        let oldSectionOfNew = try matchSections(old: old, new: new, into: &changeset)

        // 2. Elements, matched by id.
        let oldIndexOfNew = try matchByID(old: old, new: new)
        return try diff(from: old, to: new, matching: oldIndexOfNew, changeset: changeset, oldSectionOfNew: oldSectionOfNew, rule: rule)
    }

    /// Stage 2 alone: the k-th element with an id in `new` (flattened,
    /// sections in order) matches the k-th element with that id in `old`.
    /// Returns, for each new element, the flat index of its old counterpart,
    /// or -1: a matching for ``diff(from:to:matching:)``, to adjust before
    /// handing it on (to pair elements by something the id cannot say).
    ///
    /// Time O(n) expected, memory about 20 bytes an element. Throws
    /// ``TooManyElementsError`` for a list past ``elementLimit`` elements.
    @inlinable
    public static func matchByID<SectionID, Element: Identifiable>(
        old: [ListSection<SectionID, Element>], new: [ListSection<SectionID, Element>]
    ) throws(TooManyElementsError) -> [Int32] {
        try matchByID(old: old, new: new, limit: elementLimit)
    }

    /// ``matchByID(old:new:)`` with lists of at most `limit` elements.
    @inlinable
    static func matchByID<SectionID, Element: Identifiable>(
        old: [ListSection<SectionID, Element>], new: [ListSection<SectionID, Element>], limit: Int
    ) throws(TooManyElementsError) -> [Int32] {
        try checkCounts(old: elementCount(old), new: elementCount(new), limit: limit)
        func ids(_ sections: [ListSection<SectionID, Element>]) -> [Element.ID] {
            var ids: [Element.ID] = []
            ids.reserveCapacity(sections.reduce(0) { $0 + $1.elements.count })
            for section in sections { ids.append(contentsOf: section.elements.lazy.map { $0.id }) }
            return ids
        }
        return IDMatching.match(old: ids(old), new: ids(new))
    }

    /// The changeset for a matching computed elsewhere (by ``matchByID(old:new:)``
    /// or by the caller's own rule): `oldIndexOfNew[j]` (32 bits) is the flat
    /// index in `old` of the j-th element of `new` (flattened, sections in
    /// order), or -1 (inserted); new elements past its end count as -1.
    /// Each old index may appear once: one out of range or twice throws
    /// ``InvalidMatchingError``. Stages 1, 3, 4 and 5 as in `diff(from:to:)`,
    /// content compared with `==`.
    @inlinable
    public static func diff<SectionID: Hashable, Element: Equatable>(
        from old: [ListSection<SectionID, Element>], to new: [ListSection<SectionID, Element>], matching oldIndexOfNew: [Int32]
    ) throws -> SectionedChangeset<SectionID, Element> {
        try diff(from: old, to: new, matching: oldIndexOfNew, rule: EqualityRule())
    }

    /// Stages 1, 3, 4 and 5 for a given matching, content compared by `rule`.
    @inlinable
    static func diff<SectionID: Hashable, Element, Equality: ContentRule<Element>>(
        from old: [ListSection<SectionID, Element>], to new: [ListSection<SectionID, Element>], matching oldIndexOfNew: [Int32],
        rule: Equality
    ) throws -> SectionedChangeset<SectionID, Element> {
        var changeset = SectionedChangeset<SectionID, Element>()
        let oldSectionOfNew = try matchSections(old: old, new: new, into: &changeset)
        return try diff(from: old, to: new, matching: oldIndexOfNew, changeset: changeset, oldSectionOfNew: oldSectionOfNew, rule: rule)
    }

    @inlinable
    static func diff<SectionID: Hashable, Element, Equality: ContentRule<Element>>(
        from old: [ListSection<SectionID, Element>], to new: [ListSection<SectionID, Element>], matching oldIndexOfNew: [Int32],
        changeset: SectionedChangeset<SectionID, Element>, oldSectionOfNew: [Int], rule: Equality
    ) throws -> SectionedChangeset<SectionID, Element> {
        try checkCounts(old: elementCount(old), new: elementCount(new))
        var changeset = changeset
        // Flat positions: the k-th old element stands in section `oldSectionOfFlat[k]`,
        // at k - `oldStart[that section]` (4 bytes an element, not an ItemPath's 16).
        // With one old section (every diff without sections) the flat index is the item.
        let oneOldSection = old.count == 1
        var oldStart = [Int](repeating: 0, count: old.count + 1)
        var oldSectionOfFlat: [Int32] = []
        for (sectionIndex, section) in old.enumerated() {
            oldStart[sectionIndex + 1] = oldStart[sectionIndex] + section.elements.count
            if !oneOldSection {
                oldSectionOfFlat.append(contentsOf: repeatElement(Int32(sectionIndex), count: section.elements.count))
            }
        }
        func oldPath(_ flat: Int) -> ItemPath {
            if oneOldSection { return ItemPath(section: 0, item: flat) }
            let section = Int(oldSectionOfFlat[flat])
            return ItemPath(section: section, item: flat - oldStart[section])
        }
        let oldTotal = oldStart[old.count]
        // Which old elements are matched: a bit each.
        var oldMatched = [UInt64](repeating: 0, count: (oldTotal + 63) / 64)
        var newTotal = 0

        // 3 and 4, one new section at a time. The stayers (matched within the
        // section's counterpart) are not collected: the longest increasing
        // subsequence reads their old items from the matching, and a second
        // pass finds the ones off it, only when some moved.
        var acrossItems: [Int32] = []
        for (newSectionIndex, section) in new.enumerated() {
            let counterpart = oldSectionOfNew[newSectionIndex]
            let sectionStart = newTotal
            var stayerCount = 0
            acrossItems.removeAll(keepingCapacity: true)
            for (item, element) in section.elements.enumerated() {
                newTotal += 1
                let oldFlat = newTotal - 1 < oldIndexOfNew.count ? Int(oldIndexOfNew[newTotal - 1]) : -1
                guard oldFlat >= 0 else {
                    changeset.insertions.append(.init(at: ItemPath(section: newSectionIndex, item: item), element: element))
                    continue
                }
                guard oldFlat < oldTotal, oldMatched[oldFlat >> 6] & (1 << UInt64(oldFlat & 63)) == 0 else {
                    throw InvalidMatchingError(newIndex: newTotal - 1, oldIndex: oldFlat, oldCount: oldTotal)
                }
                oldMatched[oldFlat >> 6] |= 1 << UInt64(oldFlat & 63)
                let oldPath = oldPath(oldFlat)
                if rule.isContentEqual(old[oldPath.section].elements[oldPath.item], element) {
                    changeset.unchangedCount += 1
                } else {
                    changeset.updates.append(.init(old: oldPath, new: ItemPath(section: newSectionIndex, item: item), element: element))
                }
                if oldPath.section != counterpart {
                    acrossItems.append(Int32(item))
                } else {
                    stayerCount += 1
                }
            }
            // A new item's old item, when it is a stayer.
            func stayerOldItem(_ item: Int) -> Int32? {
                let oldFlat = sectionStart + item < oldIndexOfNew.count ? Int(oldIndexOfNew[sectionStart + item]) : -1
                guard oldFlat >= 0 else { return nil }
                let path = oldPath(oldFlat)
                return path.section == counterpart ? Int32(path.item) : nil
            }
            // Moves in new order (so none need sorting): the elements that changed
            // section, merged with the stayers off the longest increasing subsequence.
            let onSubsequence = longestIncreasingSubsequence(count: section.elements.count, stayerOldItem)
            let staying = onSubsequence.reduce(0) { $0 + ($1 ? 1 : 0) }
            // Reserved once it would not fit, and geometrically: an exact reserve per
            // section would copy the moves again for every section (quadratic with many).
            let needed = changeset.moves.count + acrossItems.count + stayerCount - staying
            if needed > changeset.moves.capacity {
                changeset.moves.reserveCapacity(max(needed, changeset.moves.capacity * 2))
            }
            var across = 0
            func appendAcross(before limit: Int32) {
                while across < acrossItems.count && acrossItems[across] < limit {
                    let item = Int(acrossItems[across])
                    changeset.moves.append(.init(
                        from: oldPath(Int(oldIndexOfNew[newTotal - section.elements.count + item])),
                        to: ItemPath(section: newSectionIndex, item: item),
                        element: section.elements[item], isAcrossSections: true))
                    across += 1
                }
            }
            if staying < stayerCount {
                // The stayers again, in new order.
                for item in section.elements.indices where !onSubsequence[item] {
                    guard let oldItem = stayerOldItem(item) else { continue }
                    appendAcross(before: Int32(item))
                    changeset.moves.append(.init(
                        from: ItemPath(section: counterpart, item: Int(oldItem)),
                        to: ItemPath(section: newSectionIndex, item: item),
                        element: section.elements[item], isAcrossSections: false))
                }
            }
            appendAcross(before: .max)
        }
        for flatIndex in 0..<oldTotal where oldMatched[flatIndex >> 6] & (1 << UInt64(flatIndex & 63)) == 0 {
            changeset.deletions.append(.init(at: oldPath(flatIndex)))
        }
        changeset.oldCount = oldTotal
        changeset.newCount = newTotal
        // Updates come in new order; sorted by old position unless they already are.
        if !zip(changeset.updates, changeset.updates.dropFirst()).allSatisfy({ $0.old < $1.old }) {
            changeset.updates.sort { $0.old < $1.old }
        }
        try verify(changeset, old: old, new: new)
        return changeset
    }

    /// Stage 1: sections matched by id; deleted, inserted and moved sections
    /// go into `changeset`. Returns, per new section, its old index or -1.
    @inlinable
    static func matchSections<SectionID: Hashable, Element>(
        old: [ListSection<SectionID, Element>], new: [ListSection<SectionID, Element>], into changeset: inout SectionedChangeset<SectionID, Element>
    ) throws -> [Int] {
        changeset.oldSectionCount = old.count
        changeset.newSectionCount = new.count

        var oldSectionByID: [SectionID: Int] = [:]
        for (index, section) in old.enumerated() {
            if let first = oldSectionByID.updateValue(index, forKey: section.id) {
                throw DuplicateSectionIDError(side: .old, id: "\(section.id)", firstIndex: first, repeatIndex: index)
            }
        }
        var oldSectionOfNew = [Int](repeating: -1, count: new.count)
        var newSectionOfOld = [Int](repeating: -1, count: old.count)
        var newSectionByID: [SectionID: Int] = [:]
        for (index, section) in new.enumerated() {
            if let first = newSectionByID.updateValue(index, forKey: section.id) {
                throw DuplicateSectionIDError(side: .new, id: "\(section.id)", firstIndex: first, repeatIndex: index)
            }
            if let oldIndex = oldSectionByID[section.id] {
                oldSectionOfNew[index] = oldIndex
                newSectionOfOld[oldIndex] = index
            } else {
                changeset.insertedSections.append((index, section.id))
            }
        }
        changeset.deletedSections = newSectionOfOld.indices.filter { newSectionOfOld[$0] < 0 }
        let matchedNew = oldSectionOfNew.indices.filter { oldSectionOfNew[$0] >= 0 }
        let staying = longestIncreasingSubsequence(matchedNew.map { oldSectionOfNew[$0] })
        for (position, newIndex) in matchedNew.enumerated() where !staying[position] {
            changeset.movedSections.append(.init(from: oldSectionOfNew[newIndex], to: newIndex))
        }

        return oldSectionOfNew
    }

    /// The flat form: one section holding every element.
    @inlinable
    public static func diff<Element: Identifiable & Equatable>(
        from old: [Element], to new: [Element]
    ) throws -> SectionedChangeset<Int, Element> {
        try diff(from: [ListSection(id: 0, elements: old)], to: [ListSection(id: 0, elements: new)])
    }

    /// Marks, for each position of `sequence`, whether it lies on one longest
    /// strictly increasing subsequence (the leftmost-ending one on ties, so the
    /// choice is deterministic). O(n log n); positions are held in 32 bits.
    /// It is the engine's move rule: of the old indices of matched items in
    /// new order, those off the subsequence are the ones that moved.
    @inlinable
    public static func longestIncreasingSubsequence<Value: BinaryInteger>(_ sequence: [Value]) -> [Bool] {
        longestIncreasingSubsequence(count: sequence.count) { sequence[$0] }
    }

    /// `longestIncreasingSubsequence(_:)` of the positions in `0..<count`
    /// that have a value (`value` nil: the position is not in the sequence,
    /// and is marked false). The sequence is not copied: the engine's
    /// stayers are read from the matching as they are needed, 4 bytes an
    /// element less at the peak.
    @inlinable
    static func longestIncreasingSubsequence<Value: Comparable>(count: Int, _ value: (Int) -> Value?) -> [Bool] {
        var links = PredecessorArray(capacity: count)
        var onSubsequence = [Bool](repeating: false, count: count)
        // An array's links cannot fail to be read back.
        try! longestIncreasingSubsequence(count: count, links: &links, value) { onSubsequence[$0] = true }
        return onSubsequence
    }

    /// The subsequence of `longestIncreasingSubsequence(count:_:)`, the same
    /// one, with each position's predecessor kept in `links` (an array, or a
    /// file for a comparison larger than memory): `marks` is called with the
    /// positions on it, last first.
    @inlinable
    package static func longestIncreasingSubsequence<Value: Comparable, Links: PredecessorLinks>(
        count: Int, links: inout Links, _ value: (Int) -> Value?, marks: (Int) -> Void
    ) throws {
        // tails[k]: position of the smallest tail of an increasing run of length k+1.
        // (Its value is read through `value`: a copy beside it cost 4 bytes an
        // element for no measurable speed.)
        // Room for the longest run there can be, reserved once: grown by
        // doubling, the old and new buffers were both held at each step (two
        // copies of ~400 MB past memory at 100M elements), and pages reserved
        // and never written cost address space, not memory.
        var tails: [Int32] = []
        tails.reserveCapacity(count)
        for position in 0..<count {
            guard let current = value(position) else {
                try links.append(-1)
                continue
            }
            // Appending is the common case (elements that kept their order).
            if let last = tails.last, value(Int(last))! < current {
                try links.append(last)
                tails.append(Int32(position))
                continue
            }
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if value(Int(tails[middle]))! < current { low = middle + 1 } else { high = middle }
            }
            try links.append(low > 0 ? tails[low - 1] : -1)
            if low == tails.count {
                tails.append(Int32(position))
            } else {
                tails[low] = Int32(position)
            }
        }
        var position = Int(tails.last ?? -1)
        tails = []
        while position >= 0 {
            marks(position)
            position = Int(try links.predecessor(of: position))
        }
    }

    /// The batch-update invariant and the totals, checked before a changeset
    /// leaves the engine: per section, count after = count before - deleted -
    /// moved out + inserted + moved in; no index path is both deleted and
    /// moved or updated; every old element is matched or deleted and every
    /// new one matched or inserted. Throws ``InvariantViolation`` naming the
    /// first that fails.
    ///
    /// Public so that a changeset built or edited by hand can be checked
    /// against the two lists it claims to lead between. (It checks counts
    /// and positions, not the rules of one UIKit batch: see
    /// ``SectionedChangeset/batchUpdates()``.)
    @inlinable
    public static func verify<SectionID: Hashable, Element>(
        _ changeset: SectionedChangeset<SectionID, Element>,
        old: [ListSection<SectionID, Element>], new: [ListSection<SectionID, Element>]
    ) throws {
        func fail(_ detail: String) -> InvariantViolation { InvariantViolation(detail: detail) }
        let matched = changeset.unchangedCount + changeset.updates.count
        guard changeset.oldCount == matched + changeset.deletions.count else {
            throw fail("\(changeset.oldCount) old elements but \(matched) matched and \(changeset.deletions.count) deleted")
        }
        guard changeset.newCount == matched + changeset.insertions.count else {
            throw fail("\(changeset.newCount) new elements but \(matched) matched and \(changeset.insertions.count) inserted")
        }
        // Old positions as flat indices into bitmaps: a Set of index paths
        // hashed every move twice and was half of an all-moves diff's time.
        var oldStart = [Int](repeating: 0, count: old.count + 1)
        for (index, section) in old.enumerated() { oldStart[index + 1] = oldStart[index] + section.elements.count }
        func flat(_ path: ItemPath) throws -> Int {
            guard path.section >= 0, path.section < old.count, path.item >= 0,
                  path.item < old[path.section].elements.count else { throw fail("\(path) is not an old position") }
            return oldStart[path.section] + path.item
        }
        var deleted = [Bool](repeating: false, count: oldStart[old.count])
        for deletion in changeset.deletions {
            let index = try flat(deletion.at)
            guard !deleted[index] else { throw fail("an element is deleted twice") }
            deleted[index] = true
        }
        var movedFrom = [Bool](repeating: false, count: oldStart[old.count])
        for move in changeset.moves {
            let index = try flat(move.from)
            guard !movedFrom[index] else { throw fail("\(move.from) is moved twice") }
            guard !deleted[index] else { throw fail("\(move.from) is both deleted and moved") }
            movedFrom[index] = true
        }
        for update in changeset.updates where try deleted[flat(update.old)] {
            throw fail("\(update.old) is both deleted and updated")
        }
        let deletedSections = Set(changeset.deletedSections)
        var expected = [Int](repeating: 0, count: new.count)
        var newSectionOfOld = [Int](repeating: -1, count: old.count)
        var newIndex = 0
        var placed = Set(changeset.insertedSections.map(\.index))
        for move in changeset.movedSections {
            newSectionOfOld[move.from] = move.to
            placed.insert(move.to)
        }
        let movedSources = Set(changeset.movedSections.map(\.from))
        for oldIndex in old.indices where !deletedSections.contains(oldIndex) && !movedSources.contains(oldIndex) {
            while placed.contains(newIndex) { newIndex += 1 }
            newSectionOfOld[oldIndex] = newIndex
            newIndex += 1
        }
        for (oldIndex, section) in old.enumerated() where newSectionOfOld[oldIndex] >= 0 {
            guard newSectionOfOld[oldIndex] < new.count else { throw fail("section \(oldIndex) maps past the end") }
            expected[newSectionOfOld[oldIndex]] += section.elements.count
        }
        for deletion in changeset.deletions where newSectionOfOld[deletion.at.section] >= 0 {
            expected[newSectionOfOld[deletion.at.section]] -= 1
        }
        for move in changeset.moves {
            if newSectionOfOld[move.from.section] >= 0 { expected[newSectionOfOld[move.from.section]] -= 1 }
            expected[move.to.section] += 1
        }
        for insertion in changeset.insertions { expected[insertion.at.section] += 1 }
        for (index, section) in new.enumerated() where expected[index] != section.elements.count {
            throw fail("section \(index) should hold \(expected[index]) items after the update but holds \(section.elements.count)")
        }
    }
}
