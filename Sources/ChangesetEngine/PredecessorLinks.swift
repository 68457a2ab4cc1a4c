/// Where a longest-increasing-subsequence search keeps each position's
/// predecessor on its best run: written once per position, in order, then
/// read back from the end of the subsequence towards its start (positions
/// only ever decrease). 4 bytes a position: in memory for a diff that fits
/// there, in a file for one larger than memory (`Differ.flatDiff`).
@usableFromInline package protocol PredecessorLinks {
    /// The next position's predecessor (-1: none).
    mutating func append(_ predecessor: Int32) throws
    /// The predecessor of `position`, once every position's was appended.
    mutating func predecessor(of position: Int) throws -> Int32
}

/// Predecessor links held in an array.
@usableFromInline package struct PredecessorArray: PredecessorLinks {
    @usableFromInline var links: [Int32] = []

    @inlinable package init(capacity: Int) {
        links.reserveCapacity(capacity)
    }

    @inlinable package mutating func append(_ predecessor: Int32) {
        links.append(predecessor)
    }

    @inlinable package func predecessor(of position: Int) -> Int32 {
        links[position]
    }
}
