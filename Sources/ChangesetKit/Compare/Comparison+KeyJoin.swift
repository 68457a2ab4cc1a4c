/// The key join: which old record each new record is, by id.
extension Comparison {
    /// Matches records through the old table's key index: a record matches
    /// the record with its id in OLD (when ids repeat, see `pairRepeatedKeys`).
    /// Returns, for each new record in section order, the old record's index
    /// in section order, or -1 (see `Differ.diff(from:to:matching:)`); nil
    /// when NEW, read without an index, has an id twice.
    static func matchByKey(
        _ old: RecordTable, _ new: RecordTable,
        oldSections: [ListSection<SectionName, RecordRef>], newSections: [ListSection<SectionName, RecordRef>]
    ) -> [Int32]? {
        // With one section, section order is file order: a flat index is the row.
        let oldIsFlat = oldSections.count <= 1
        var flatOfOldRow: [Int32] = []
        if !oldIsFlat {
            flatOfOldRow = [Int32](repeating: 0, count: old.count)
            var flat = 0
            for section in oldSections {
                for ref in section.elements {
                    flatOfOldRow[ref.row] = Int32(flat)
                    flat += 1
                }
            }
        }
        var oldRowOfNewRow = [Int32](repeating: -1, count: new.count)
        let newIsIndexed = new.keyIndex.indexedRows == new.count
        if old.keyIndex.distinctCount == old.count && (!newIsIndexed || new.keyIndex.distinctCount == new.count) {
            // No id repeats in OLD, and none in NEW (checked below when NEW has
            // no index): each new row is looked up on its own, so the rows are
            // shared between the cores.
            let parts = new.count < matchingRowsPerCore ? 1 : ProcessFacts.workerCount
            OrderedConcurrentMap.fill(&oldRowOfNewRow, parts: parts) { rows, set in
                old.firstRows(withKeysOf: new, rows: rows) { row, first in set(row, Int32(first)) }
            }
            if !newIsIndexed && repeatsKey(new, oldRowOfNewRow: oldRowOfNewRow, oldCount: old.count) { return nil }
        } else {
            pairRepeatedKeys(old, new, into: &oldRowOfNewRow)
        }
        if oldIsFlat && newSections.count <= 1 { return oldRowOfNewRow }
        var matching: [Int32] = []
        matching.reserveCapacity(new.count)
        for section in newSections {
            for ref in section.elements {
                let oldRow = Int(oldRowOfNewRow[ref.row])
                matching.append(oldRow < 0 ? -1 : oldIsFlat ? Int32(oldRow) : flatOfOldRow[oldRow])
            }
        }
        return matching
    }

    /// Whether an id repeats in NEW, given each new row's match in OLD (whose
    /// ids are unique): two rows of one id found the same old row, or two of
    /// the rows OLD does not have share an id (those alone are indexed: about
    /// the inserted records). 1 bit an old record and a small index, in place
    /// of a key index over all of NEW.
    static func repeatsKey(_ new: RecordTable, oldRowOfNewRow: [Int32], oldCount: Int) -> Bool {
        var taken = Bitmap(count: oldCount)
        var unmatched: [Int] = []
        for (row, oldRow) in oldRowOfNewRow.enumerated() {
            guard oldRow >= 0 else {
                unmatched.append(row)
                continue
            }
            if taken.contains(Int(oldRow)) { return true }
            taken.insert(Int(oldRow))
        }
        var index = KeyIndex(capacity: unmatched.count)
        for (position, row) in unmatched.enumerated() {
            let repeated = new.keys.withKey(row) { key in
                index.insert(row: position, hash: RecordTable.keyHash(key)) { new.keys.key(unmatched[$0], is: key) } != nil
            }
            if repeated { return true }
        }
        return false
    }

    /// Matching when ids repeat (`--duplicates occurrence`): the records
    /// that share an id pair with an equal record first (the same
    /// fingerprint), then in file order. A record inserted before its
    /// unchanged twin is then an insertion, not an update of the twin plus
    /// an insertion of the twin.
    static func pairRepeatedKeys(_ old: RecordTable, _ new: RecordTable, into oldRowOfNewRow: inout [Int32]) {
        // New rows grouped by the first old row of their key, in file order
        // (a count per group, then each group's slice of one array).
        var groupOfNewRow = [Int32](repeating: -1, count: new.count)
        var groupStart = [Int32](repeating: 0, count: old.count + 1)
        for row in 0..<new.count {
            guard let first = new.keys.withKey(row, old.firstRow(withKey:)) else { continue }
            groupOfNewRow[row] = Int32(first)
            groupStart[first + 1] += 1
        }
        for index in 0..<old.count { groupStart[index + 1] += groupStart[index] }
        var filled = groupStart
        var newRowsByGroup = [Int32](repeating: 0, count: Int(groupStart[old.count]))
        for row in 0..<new.count where groupOfNewRow[row] >= 0 {
            let group = Int(groupOfNewRow[row])
            newRowsByGroup[Int(filled[group])] = Int32(row)
            filled[group] += 1
        }
        var oldRows: [Int] = []
        var taken: [Bool] = []
        var unpaired: [Int] = []
        for first in 0..<old.count where groupStart[first + 1] > groupStart[first] {
            let newRows = newRowsByGroup[Int(groupStart[first])..<Int(groupStart[first + 1])]
            oldRows.removeAll(keepingCapacity: true)
            var row: Int? = first
            while let current = row {
                oldRows.append(current)
                row = old.keyIndex.nextRow(after: current)
            }
            if oldRows.count == 1 && newRows.count == 1 {
                oldRowOfNewRow[Int(newRows.first!)] = Int32(first)
                continue
            }
            taken = [Bool](repeating: false, count: oldRows.count)
            unpaired.removeAll(keepingCapacity: true)
            // Equal records first: by fingerprint, each taking the earliest equal old record left.
            var equalOld: [UInt64: [Int]] = [:]
            for (index, oldRow) in oldRows.enumerated().reversed() { equalOld[old.fingerprint(oldRow), default: []].append(index) }
            for newRow in newRows.map(Int.init) {
                if let index = equalOld[new.fingerprint(newRow)]?.popLast() {
                    taken[index] = true
                    oldRowOfNewRow[newRow] = Int32(oldRows[index])
                } else {
                    unpaired.append(newRow)
                }
            }
            // Then the rest in order.
            var cursor = 0
            for newRow in unpaired {
                while cursor < oldRows.count && taken[cursor] { cursor += 1 }
                guard cursor < oldRows.count else { break }
                taken[cursor] = true
                oldRowOfNewRow[newRow] = Int32(oldRows[cursor])
            }
        }
    }

    /// Below this many new records one core matches them all: too little work to share out.
    static let matchingRowsPerCore = 1 << 14
}
