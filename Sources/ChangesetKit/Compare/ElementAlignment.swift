/// Which elements of two arrays are the same one: the pairs (old index,
/// new index) of a longest common subsequence, ascending on both sides.
///
/// Equal ends are set aside first (an array that grew at its end costs one
/// pass). A middle of up to `myersLimit` elements is aligned exactly by the
/// standard library's `difference(from:by:)` (Myers' O((n+m)·D) algorithm,
/// whose memory grows with D²); a larger one takes the elements that occur
/// once on each side as anchors, keeps the longest run of them in order (a
/// patience diff) and aligns the gaps between them the same way, so a huge
/// array with scattered edits neither runs for minutes nor fills memory.
/// Where no anchor is found, nothing in that middle is matched.
struct ElementAlignment {
    static let myersLimit = 4_000

    /// Each element's identity for finding candidates (equal elements have
    /// equal hashes); `same` decides.
    let oldHashes: [UInt64]
    let newHashes: [UInt64]
    let same: (Int, Int) -> Bool

    func matches() -> [(old: Int, new: Int)] {
        var result: [(old: Int, new: Int)] = []
        align(0..<oldHashes.count, 0..<newHashes.count, into: &result)
        return result
    }

    private func align(_ old: Range<Int>, _ new: Range<Int>, into result: inout [(old: Int, new: Int)]) {
        var (oldStart, newStart) = (old.lowerBound, new.lowerBound)
        while oldStart < old.upperBound, newStart < new.upperBound, same(oldStart, newStart) {
            result.append((oldStart, newStart))
            oldStart += 1
            newStart += 1
        }
        var (oldEnd, newEnd) = (old.upperBound, new.upperBound)
        var suffix: [(old: Int, new: Int)] = []
        while oldEnd > oldStart, newEnd > newStart, same(oldEnd - 1, newEnd - 1) {
            oldEnd -= 1
            newEnd -= 1
            suffix.append((oldEnd, newEnd))
        }
        let oldMiddle = oldStart..<oldEnd
        let newMiddle = newStart..<newEnd
        if !oldMiddle.isEmpty, !newMiddle.isEmpty {
            if oldMiddle.count + newMiddle.count <= Self.myersLimit {
                myers(oldMiddle, newMiddle, into: &result)
            } else {
                patience(oldMiddle, newMiddle, into: &result)
            }
        }
        result.append(contentsOf: suffix.reversed())
    }

    private func myers(_ old: Range<Int>, _ new: Range<Int>, into result: inout [(old: Int, new: Int)]) {
        let difference = Array(new).difference(from: Array(old)) { same($0, $1) }
        var removed = Set<Int>()
        var inserted = Set<Int>()
        for change in difference {
            switch change {
            case .remove(let offset, _, _): removed.insert(old.lowerBound + offset)
            case .insert(let offset, _, _): inserted.insert(new.lowerBound + offset)
            }
        }
        let kept = zip(old.filter { !removed.contains($0) }, new.filter { !inserted.contains($0) })
        result.append(contentsOf: kept.map { (old: $0, new: $1) })
    }

    private func patience(_ old: Range<Int>, _ new: Range<Int>, into result: inout [(old: Int, new: Int)]) {
        // Elements whose hash occurs once on each side, paired.
        var oldCount: [UInt64: (count: Int, index: Int)] = [:]
        for index in old { oldCount[oldHashes[index], default: (0, index)].count += 1 }
        var newCount: [UInt64: (count: Int, index: Int)] = [:]
        for index in new { newCount[newHashes[index], default: (0, index)].count += 1 }
        var anchors: [(old: Int, new: Int)] = []
        for index in new {
            let hash = newHashes[index]
            guard newCount[hash]?.count == 1, let found = oldCount[hash], found.count == 1, same(found.index, index) else { continue }
            anchors.append((found.index, index))
        }
        // The longest run of anchors ascending in OLD too (patience sorting, O(k log k)).
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: anchors.count)
        for (position, anchor) in anchors.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if anchors[tails[middle]].old < anchor.old { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var chain: [(old: Int, new: Int)] = []
        var position = tails.last ?? -1
        while position >= 0 {
            chain.append(anchors[position])
            position = previous[position]
        }
        chain.reverse()
        guard !chain.isEmpty else { return }
        var (oldNext, newNext) = (old.lowerBound, new.lowerBound)
        for anchor in chain {
            align(oldNext..<anchor.old, newNext..<anchor.new, into: &result)
            result.append(anchor)
            (oldNext, newNext) = (anchor.old + 1, anchor.new + 1)
        }
        align(oldNext..<old.upperBound, newNext..<new.upperBound, into: &result)
    }
}
