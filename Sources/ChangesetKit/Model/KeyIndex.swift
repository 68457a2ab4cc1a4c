/// Finds records by id: an open-addressing hash table from the 64-bit hash
/// of a key to the first record with that key, plus, only once some key
/// repeats (`--duplicates occurrence`), a chain through the records that
/// repeat it.
///
/// Written by hand rather than with `Dictionary<String, Int>`: a million
/// String keys cost a seeded SipHash each, and that dictionary was a fifth of
/// the reading time. Keys are hashed once, with `StableHash`, as they are
/// read. A slot is 8 bytes: 32 bits of the hash and the row; the table is
/// kept at most 70% full (linear probing stays short with 8 slots a cache line). Two keys whose
/// hashes agree are told apart by comparing their text, so a collision costs
/// time, never a wrong match.
package struct KeyIndex: Sendable {
    private struct Slot {
        var tag: UInt32
        /// `row + 1`; 0 is an empty slot.
        var row: Int32
    }

    private var slots: [Slot]
    private var mask: Int
    private(set) var distinctCount = 0
    private var rowCount = 0
    /// For each row, the next row with the same key, or -1; empty until a key repeats.
    private var nextWithSameKey: [Int32] = []
    /// For a repeated key's first row, the last row with that key so far.
    private var lastWithSameKey: [Int32: Int32] = [:]

    package init(capacity: Int = 16) {
        let size = max(16, (capacity * 10 / 7 + 1).nextPowerOfTwo)
        slots = [Slot](repeating: Slot(tag: 0, row: 0), count: size)
        mask = size - 1
    }

    @inline(__always)
    private static func tag(_ hash: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: hash >> 32) }

    /// The first row whose key is `key` (with hash `hash`), if any.
    /// `keyOfRow` gives the text of a row's key, to rule out collisions.
    @inline(__always)
    package func firstRow(hash: UInt64, key: String, keyOfRow: (Int) -> String) -> Int? {
        let tag = KeyIndex.tag(hash)
        var position = Int(truncatingIfNeeded: hash) & mask
        while true {
            let slot = slots[position]
            if slot.row == 0 { return nil }
            if slot.tag == tag && keyOfRow(Int(slot.row) - 1) == key { return Int(slot.row) - 1 }
            position = (position + 1) & mask
        }
    }

    /// The next row after `row` with the same key, if any.
    @inline(__always)
    package func nextRow(after row: Int) -> Int? {
        guard row < nextWithSameKey.count else { return nil }
        let next = nextWithSameKey[row]
        return next >= 0 ? Int(next) : nil
    }

    /// Adds `row` (rows are added in order, from 0); returns the first row
    /// with the same key when there was one already. `hashOfRow` gives the
    /// hash of an earlier row's key, for growing the table.
    @discardableResult
    package mutating func insert(
        row: Int, hash: UInt64, key: String, keyOfRow: (Int) -> String, hashOfRow: (Int) -> UInt64
    ) -> Int? {
        rowCount += 1
        if !nextWithSameKey.isEmpty { nextWithSameKey.append(-1) }
        // Grow first, while every row in the table has its hash in `hashOfRow`.
        if (distinctCount + 1) * 10 > slots.count * 7 { grow(hashOfRow: hashOfRow) }
        let tag = KeyIndex.tag(hash)
        var position = Int(truncatingIfNeeded: hash) & mask
        while true {
            let slot = slots[position]
            if slot.row == 0 { break }
            if slot.tag == tag && keyOfRow(Int(slot.row) - 1) == key {
                let first = Int32(slot.row - 1)
                if nextWithSameKey.isEmpty { nextWithSameKey = [Int32](repeating: -1, count: rowCount) }
                let last = lastWithSameKey[first] ?? first
                nextWithSameKey[Int(last)] = Int32(row)
                lastWithSameKey[first] = Int32(row)
                return Int(first)
            }
            position = (position + 1) & mask
        }
        slots[position] = Slot(tag: tag, row: Int32(row + 1))
        distinctCount += 1
        return nil
    }

    /// Makes room for about `count` keys in all, so the table need not grow
    /// while they come.
    package mutating func reserve(_ count: Int, hashOfRow: (Int) -> UInt64) {
        while count * 10 > slots.count * 7 { grow(hashOfRow: hashOfRow) }
    }

    private mutating func grow(hashOfRow: (Int) -> UInt64) {
        let old = slots
        slots = [Slot](repeating: Slot(tag: 0, row: 0), count: old.count * 2)
        mask = slots.count - 1
        for slot in old where slot.row != 0 {
            var position = Int(truncatingIfNeeded: hashOfRow(Int(slot.row) - 1)) & mask
            while slots[position].row != 0 { position = (position + 1) & mask }
            slots[position] = slot
        }
    }
}

extension Int {
    var nextPowerOfTwo: Int {
        guard self > 1 else { return 1 }
        return 1 << (Int.bitWidth - (self - 1).leadingZeroBitCount)
    }
}
