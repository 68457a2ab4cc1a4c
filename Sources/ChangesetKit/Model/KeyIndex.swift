/// Finds records by id: an open-addressing hash table from the 64-bit hash
/// of a key to the first record with that key, plus a chain through the
/// records that repeat it (`--duplicates occurrence`).
///
/// Written by hand rather than with `Dictionary<String, Int>`: a million
/// String keys cost a seeded SipHash each, and that dictionary was a fifth of
/// the reading time. Keys are hashed once, with `StableHash`, as they are
/// read; two different keys with the same hash are told apart by comparing
/// their text, so a collision costs time, never a wrong match.
public struct KeyIndex: Sendable {
    /// Slots hold `row + 1` (0 is empty); `hashes[slot]` the key hash there.
    private var slots: [Int32] = []
    private var hashes: [UInt64] = []
    private var mask = 0
    private(set) var distinctCount = 0
    /// For each row, the next row with the same key, or -1.
    public private(set) var nextWithSameKey: [Int32] = []
    /// For each distinct key's first row, its last row so far (to extend the chain).
    private var lastWithSameKey: [Int32] = []

    public init(capacity: Int = 16) {
        resize(to: max(16, (capacity * 2).nextPowerOfTwo))
    }

    private mutating func resize(to size: Int) {
        let oldSlots = slots
        let oldHashes = hashes
        slots = [Int32](repeating: 0, count: size)
        hashes = [UInt64](repeating: 0, count: size)
        mask = size - 1
        for (slot, stored) in oldSlots.enumerated() where stored != 0 {
            var position = Int(truncatingIfNeeded: oldHashes[slot]) & mask
            while slots[position] != 0 { position = (position + 1) & mask }
            slots[position] = stored
            hashes[position] = oldHashes[slot]
        }
    }

    /// The first row whose key is `key` (with hash `hash`), if any.
    /// `keyOfRow` gives the text of a row's key, to rule out collisions.
    @inline(__always)
    public func firstRow(hash: UInt64, key: String, keyOfRow: (Int) -> String) -> Int? {
        var position = Int(truncatingIfNeeded: hash) & mask
        while true {
            let stored = slots[position]
            if stored == 0 { return nil }
            if hashes[position] == hash && keyOfRow(Int(stored) - 1) == key { return Int(stored) - 1 }
            position = (position + 1) & mask
        }
    }

    /// Adds `row` (rows are added in order); returns the first row with the
    /// same key when there was one already.
    @discardableResult
    public mutating func insert(row: Int, hash: UInt64, key: String, keyOfRow: (Int) -> String) -> Int? {
        nextWithSameKey.append(-1)
        lastWithSameKey.append(Int32(row))
        var position = Int(truncatingIfNeeded: hash) & mask
        while true {
            let stored = slots[position]
            if stored == 0 { break }
            if hashes[position] == hash && keyOfRow(Int(stored) - 1) == key {
                let first = Int(stored) - 1
                let last = Int(lastWithSameKey[first])
                nextWithSameKey[last] = Int32(row)
                lastWithSameKey[first] = Int32(row)
                return first
            }
            position = (position + 1) & mask
        }
        slots[position] = Int32(row + 1)
        hashes[position] = hash
        distinctCount += 1
        if distinctCount * 2 > slots.count { resize(to: slots.count * 2) }
        return nil
    }
}

extension Int {
    var nextPowerOfTwo: Int {
        guard self > 1 else { return 1 }
        return 1 << (Int.bitWidth - (self - 1).leadingZeroBitCount)
    }
}
