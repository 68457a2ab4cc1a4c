internal import CPrefetch

/// Finds records by id: an open-addressing hash table from the 64-bit hash
/// of a key to the first record with that key, plus, only once some key
/// repeats (`--duplicates occurrence`), a chain through the records that
/// repeat it.
///
/// Written by hand rather than with `Dictionary<String, Int>`: a String key
/// costs a seeded SipHash each, a large part of the reading time. Keys are hashed once, with `StableHash`, as they are
/// read. A slot is 8 bytes: the top 32 bits of the hash (the tag) and the
/// row. The tag alone places a slot (its home is the tag scaled to the table
/// size), so the table grows without the rows' hashes (the table keeps no
/// array of them: 8 bytes a record saved) and its size need not be a power
/// of two (it is sized to the records, at most 70% full; linear probing stays
/// short with 8 slots a cache line). Two keys whose tags agree are told apart
/// by comparing their text, so a collision costs time, never a wrong match.
package struct KeyIndex: Sendable {
    private struct Slot {
        var tag: UInt32
        /// `row + 1`; 0 is an empty slot.
        var row: Int32
    }

    private var slots: [Slot]
    private(set) var distinctCount = 0
    private var rowCount = 0
    /// For each row, the next row with the same key, or -1; empty until a key repeats.
    private var nextWithSameKey: [Int32] = []
    /// For a repeated key's first row, the last row with that key so far.
    private var lastWithSameKey: [Int32: Int32] = [:]

    package init(capacity: Int = 16) {
        slots = KeyIndex.emptySlots(KeyIndex.slotCount(for: capacity))
    }

    /// `count` empty slots. A big table is backed by huge pages where the
    /// system allows: every insert and lookup lands at a random place in it,
    /// and with 4 KiB pages each also missed the TLB once the table outgrew
    /// what the TLB maps (a few MB).
    private static func emptySlots(_ count: Int) -> [Slot] {
        .hugePageBacked(repeating: Slot(tag: 0, row: 0), count: count)
    }

    /// Slots for `count` keys: at most 70% full.
    private static func slotCount(for count: Int) -> Int { max(16, count * 10 / 7 + 1) }

    @inline(__always)
    private static func tag(_ hash: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: hash >> 32) }

    /// Where a tag's probe starts: the tag scaled to the table (multiply and
    /// shift, no division), so tags spread evenly over any table size.
    @inline(__always)
    private static func home(_ tag: UInt32, _ slotCount: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(tag) &* UInt64(truncatingIfNeeded: slotCount)) >> 32)
    }

    /// The slot holding the row whose key has tag `tag` and passes `rowHasKey`,
    /// or the empty slot where such a key would go: the one probe that
    /// lookups and inserts share.
    @inline(__always)
    private func slot(for tag: UInt32, rowHasKey: (Int) -> Bool) -> Int {
        let slots = slots.span
        var position = KeyIndex.home(tag, slots.count)
        while slots[position].row != 0 {
            if slots[position].tag == tag && rowHasKey(Int(slots[position].row) - 1) { break }
            position += 1
            if position == slots.count { position = 0 }
        }
        return position
    }

    /// The first row whose key has hash `hash` and for which `rowHasKey`
    /// holds (it compares the row's key text with the key sought, to rule out
    /// collisions), if any.
    @inline(__always)
    package func firstRow(hash: UInt64, rowHasKey: (Int) -> Bool) -> Int? {
        precondition(!slots.isEmpty, "a lookup in a key index whose lookups were removed")
        let row = slots[slot(for: KeyIndex.tag(hash), rowHasKey: rowHasKey)].row
        return row == 0 ? nil : Int(row) - 1
    }

    /// Asks the processor to bring the home slot of a key with hash `hash`
    /// into cache, without waiting for it. A reader calls this as soon as a
    /// record's id is read and inserts the key when the record ends: once the
    /// table outgrows the cache, every insert lands on a line that is not in
    /// it, and the record's other fields are read while the line comes. A
    /// hint only; a resize in between just wastes it.
    @inline(__always)
    package func prefetch(hash: UInt64) {
        slots.prefetchForWrite(at: KeyIndex.home(KeyIndex.tag(hash), slots.count))
    }

    /// The next row after `row` with the same key, if any.
    @inline(__always)
    package func nextRow(after row: Int) -> Int? {
        guard row < nextWithSameKey.count else { return nil }
        let next = nextWithSameKey[row]
        return next >= 0 ? Int(next) : nil
    }

    /// Every row whose key another row has too, ascending: the chains of
    /// the keys that repeat (`--duplicates occurrence`).
    package var rowsWithRepeatedKeys: [Int] {
        var rows: [Int] = []
        for first in lastWithSameKey.keys {
            var row: Int? = Int(first)
            while let current = row {
                rows.append(current)
                row = nextRow(after: current)
            }
        }
        return rows.sorted()
    }

    /// Adds `row` (rows are added in order, from 0), whose key has hash
    /// `hash`; returns the first row with the same key (`rowHasKey` tells an
    /// earlier row's key from another with the same hash) when there was one.
    @discardableResult
    package mutating func insert(row: Int, hash: UInt64, rowHasKey: (Int) -> Bool) -> Int? {
        precondition(!slots.isEmpty, "an insert into a key index whose lookups were removed")
        rowCount += 1
        if !nextWithSameKey.isEmpty { nextWithSameKey.append(-1) }
        if (distinctCount + 1) * 10 > slots.count * 7 { resize(to: KeyIndex.slotCount(for: slots.count)) }
        let tag = KeyIndex.tag(hash)
        let position = slot(for: tag, rowHasKey: rowHasKey)
        if slots[position].row != 0 {
            let first = Int32(slots[position].row - 1)
            if nextWithSameKey.isEmpty { nextWithSameKey = [Int32](repeating: -1, count: rowCount) }
            let last = lastWithSameKey[first] ?? first
            nextWithSameKey[Int(last)] = Int32(row)
            lastWithSameKey[first] = Int32(row)
            return Int(first)
        }
        slots[position] = Slot(tag: tag, row: Int32(row + 1))
        distinctCount += 1
        return nil
    }

    /// The rows indexed: a table's count once its index is built, 0 when none was.
    package var indexedRows: Int { rowCount }

    /// Frees the hash table, keeping the counts and the chains of repeated
    /// keys: a comparison looks NEW's records up in OLD's index, never the
    /// other way, and needs neither once the records are matched (11 bytes a
    /// record). Inserting or looking up afterwards is a programming error.
    package mutating func removeLookups() {
        slots = []
    }

    /// Makes room for about `count` keys in all, so the table need not grow
    /// while they come.
    package mutating func reserve(_ count: Int) {
        let size = KeyIndex.slotCount(for: count)
        if size > slots.count { resize(to: size) }
    }

    /// Places every slot again in a table of `size` slots (bigger than now).
    private mutating func resize(to size: Int) {
        let old = slots
        slots = KeyIndex.emptySlots(size)
        for slot in old where slot.row != 0 {
            var position = KeyIndex.home(slot.tag, size)
            while slots[position].row != 0 {
                position += 1
                if position == size { position = 0 }
            }
            slots[position] = slot
        }
    }
}
