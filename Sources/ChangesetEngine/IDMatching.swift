/// Matches new elements to old ones by id, the k-th occurrence of an id in
/// new to the k-th in old, in a cache-friendly way.
///
/// A `Dictionary` built by a million random inserts and probed by a million
/// random lookups spends most of its time waiting on memory: its keys, values
/// and occupancy bits lie in three arrays, each miss a trip to RAM. Here each
/// id is hashed once; ids are then partitioned by the top bits of their hash
/// (a counting sort, so each side is read and written in order) into pieces of
/// a few thousand, and each piece is matched in a small open-addressing table
/// that stays in cache. A slot is one word: 32 bits of hash and a position.
/// Ids are compared only when those bits agree, so a collision costs time,
/// never a wrong match. (The command's own `KeyIndex` matches its byte-string
/// keys the same way; this is the generic one for `Identifiable` elements.)
@usableFromInline
enum IDMatching {
    /// About this many old ids to a partition: its table (2 slots an id, 8
    /// bytes a slot) and the ids stay within a core's L2 cache.
    @usableFromInline static let partitionSize = 4096

    /// For each id of `new`, the index in `old` of its counterpart, or -1.
    @inlinable
    static func match<ID: Hashable>(old: [ID], new: [ID]) -> [Int32] {
        precondition(old.count <= Differ.elementLimit && new.count <= Differ.elementLimit, "Differ.checkCounts keeps a list within 32-bit positions")
        var bits = 0
        while old.count >> bits > partitionSize && bits < 16 { bits += 1 }
        let oldSide = Partitioned(old, bits: bits)
        let newSide = Partitioned(new, bits: bits)

        var match = [Int32](repeating: -1, count: new.count)
        var largest = 0
        for partition in 0..<(1 << bits) {
            largest = max(largest, oldSide.start[partition + 1] - oldSide.start[partition])
        }
        let largestTable = tableSize(for: largest)
        // Slot: tag (high 32 bits) | exhausted flag (bit 31) | position in oldSide + 1 (0: empty).
        var slotStorage = [UInt64](repeating: 0, count: largestTable)
        // For an old position, the next old position with the same id (-1: none).
        var nextWithSameID = [Int32](repeating: -1, count: old.count)
        let exhausted: UInt64 = 1 << 31
        let positionMask: UInt64 = exhausted - 1
        let tagMask: UInt64 = ~0 << 32

        var slots = slotStorage.mutableSpan
        let oldIDs = oldSide.ids.span
        for partition in 0..<(1 << bits) {
            let oldRange = oldSide.start[partition]..<oldSide.start[partition + 1]
            let newRange = newSide.start[partition]..<newSide.start[partition + 1]
            guard !oldRange.isEmpty else { continue }
            let mask = tableSize(for: oldRange.count) - 1
            for slot in 0...mask { slots[slot] = 0 }
            // Old ids backwards: each id's slot ends holding its first position,
            // the later ones chained behind it.
            for position in oldRange.reversed() {
                let hash = oldSide.hashes[position]
                let slot = slot(for: hash, oldIDs[position], in: slots, mask: mask, oldIDs: oldIDs)
                if slots[slot] != 0 { nextWithSameID[position] = Int32(slots[slot] & positionMask) - 1 }
                slots[slot] = hash & tagMask | UInt64(position + 1)
            }
            for position in newRange {
                let hash = newSide.hashes[position]
                let slot = slot(for: hash, newSide.ids[position], in: slots, mask: mask, oldIDs: oldIDs)
                let entry = slots[slot]
                guard entry != 0, entry & exhausted == 0 else { continue }
                let oldPosition = Int(entry & positionMask) - 1
                match[Int(newSide.original[position])] = oldSide.original[oldPosition]
                let next = nextWithSameID[oldPosition]
                // The last old one taken stays in its slot, marked, so probes still pass it.
                slots[slot] = next >= 0 ? hash & tagMask | UInt64(next + 1) : entry | exhausted
            }
        }
        return match
    }

    /// The slot holding an old id equal to `id` (whose hash is `hash`), or
    /// the empty slot where it would go. Slot: tag (high 32 bits) |
    /// exhausted flag (bit 31) | position in the old side + 1 (0: empty).
    @inlinable @inline(__always)
    static func slot<ID: Hashable>(
        for hash: UInt64, _ id: ID, in slots: borrowing MutableSpan<UInt64>, mask: Int, oldIDs: borrowing Span<ID>
    ) -> Int {
        let tagMask: UInt64 = ~0 << 32
        let positionMask: UInt64 = (1 << 31) - 1
        let tag = hash & tagMask
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            let entry = slots[slot]
            if entry & tagMask == tag && oldIDs[Int(entry & positionMask) - 1] == id { break }
            slot = (slot + 1) & mask
        }
        return slot
    }

    /// Slots for `count` ids: a power of two, at most half full.
    @inlinable
    static func tableSize(for count: Int) -> Int {
        var size = 16
        while size < count * 2 { size *= 2 }
        return size
    }

    /// One side's ids, hashed and reordered by partition; within a partition
    /// they keep their order, so the k-th occurrence of an id stays the k-th.
    @usableFromInline
    struct Partitioned<ID: Hashable> {
        @usableFromInline var ids: [ID]
        @usableFromInline var hashes: [UInt64]
        /// For each reordered position, the id's index in the input.
        @usableFromInline var original: [Int32]
        /// Partition p holds positions start[p]..<start[p+1].
        @usableFromInline var start: [Int]

        @inlinable
        init(_ input: [ID], bits: Int) {
            let partitions = 1 << bits
            let inputHashes = input.map { UInt64(bitPattern: Int64($0.hashValue)) }
            // The top bits choose the partition (none when bits is 0: a smart shift by 64 gives 0);
            // the low bits choose the slot and the high 32 are the tag.
            let shift = UInt64(64 - bits)
            var start = [Int](repeating: 0, count: partitions + 1)
            for hash in inputHashes { start[Int(hash >> shift) + 1] += 1 }
            for partition in 0..<partitions { start[partition + 1] += start[partition] }
            var next = start
            var hashes = [UInt64](repeating: 0, count: input.count)
            var original = [Int32](repeating: 0, count: input.count)
            for (index, hash) in inputHashes.enumerated() {
                let partition = Int(hash >> shift)
                let position = next[partition]
                next[partition] += 1
                hashes[position] = hash
                original[position] = Int32(index)
            }
            ids = original.map { input[Int($0)] }
            self.hashes = hashes
            self.original = original
            self.start = start
        }
    }
}
