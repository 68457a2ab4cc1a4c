/// Which elements of two arrays are the same one: the pairs (old index,
/// new index) of a longest common subsequence, ascending on both sides.
///
/// Equal ends are set aside first (an array that grew at its end costs one
/// pass). The middle is aligned by Myers' greedy algorithm, exact when at
/// most `editLimit` insertions and deletions turn one into the other: its
/// time grows with (n + m) · D and its memory with D², so the limit bounds
/// both for any array. Past it, the elements that occur once on each side
/// are anchors: the longest run of them in order is kept (a patience diff)
/// and the gaps between them are aligned the same way. Where neither finds
/// anything, nothing in that middle is matched. (The standard library's
/// `difference(from:)` is Myers too, but has no limit, so its time on two
/// long arrays with nothing in common grows with their lengths squared.)
struct ElementAlignment {
    static let editLimit = 512

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
            if let found = myers(oldMiddle, newMiddle) {
                result.append(contentsOf: found)
            } else {
                patience(oldMiddle, newMiddle, into: &result)
            }
        }
        result.append(contentsOf: suffix.reversed())
    }

    /// The matches of a shortest edit script of at most `editLimit` edits
    /// (Myers 1986, the greedy forward search and its trace walked back);
    /// nil when more edits are needed.
    private func myers(_ old: Range<Int>, _ new: Range<Int>) -> [(old: Int, new: Int)]? {
        let (n, m) = (old.count, new.count)
        let limit = min(Self.editLimit, n + m)
        // v[k + offset]: the furthest x reached on diagonal k = x - y.
        let offset = limit + 1
        var v = [Int](repeating: 0, count: 2 * limit + 3)
        var trace: [[Int]] = []
        for d in 0...limit {
            trace.append(v)
            for k in stride(from: -d, through: d, by: 2) {
                var x = k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1
                var y = x - k
                while x < n, y < m, same(old.lowerBound + x, new.lowerBound + y) {
                    x += 1
                    y += 1
                }
                v[offset + k] = x
                guard x >= n, y >= m else { continue }
                // Walk back from the end: each round's snake is a run of matches.
                var matches: [(old: Int, new: Int)] = []
                var (cx, cy) = (n, m)
                for round in stride(from: d, through: 0, by: -1) {
                    let previous = trace[round]
                    let diagonal = cx - cy
                    let previousK = diagonal == -round || (diagonal != round && previous[offset + diagonal - 1] < previous[offset + diagonal + 1])
                        ? diagonal + 1 : diagonal - 1
                    let previousX = previous[offset + previousK]
                    let previousY = previousX - previousK
                    while cx > previousX, cy > previousY {
                        cx -= 1
                        cy -= 1
                        matches.append((old.lowerBound + cx, new.lowerBound + cy))
                    }
                    if round > 0 { (cx, cy) = (previousX, previousY) }
                }
                return matches.reversed()
            }
        }
        return nil
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
