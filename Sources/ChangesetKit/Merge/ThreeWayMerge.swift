/// A three-way merge of keyed records. Knows nothing of files: it sees
/// keys, versions, and the values a caller reads on demand (only for records
/// both sides changed).
///
/// Records: a record changed on one side only takes that change; changed
/// the same way on both, once; changed differently on both, it is merged
/// field by field (`FieldMerge`). Deleted on one side and unchanged on the
/// other: deleted. Deleted on one side and changed on the other, or inserted
/// on both with different content: a conflict.
///
/// Order: the result keeps OURS's order. A record THEIRS inserted, or moved
/// (off THEIRS's longest run of records still in BASE's order) while OURS
/// left its place alone, goes right after its nearest preceding neighbour in
/// THEIRS that the result holds, past any records OURS inserted right there
/// (the start of the file when it has no such neighbour). When both sides
/// moved a record, OURS's place stands.
public enum ThreeWayMerge {
    package static func merge(
        base: RecordVersions, ours: RecordVersions, theirs: RecordVersions,
        fields: FieldMerge, prefer: MergePreference? = nil, baseRows knownBaseRows: [String: Int]? = nil,
        value: (MergeSide, Int) throws -> Value
    ) rethrows -> MergeResult {
        // A caller that keeps BASE's rows by key passes them: one table of a million keys, not two.
        let baseRows = knownBaseRows ?? rowsByKey(base)
        let oursRows = rowsByKey(ours)
        let theirsRows = rowsByKey(theirs)
        var result = MergeResult()
        result.resolvedBy = prefer
        // What becomes of each record of OURS and of each THEIRS-only record.
        var decisionOfOurs = [MergedRecord?](repeating: nil, count: ours.count)
        var decisionOfTheirsOnly: [Int: MergedRecord] = [:]
        var conflictsByKey: [String: [MergeConflict]] = [:]

        func conflict(_ kind: MergeConflict.Kind, _ key: String, base: Value?, ours: Value?, theirs: Value?) {
            conflictsByKey[key, default: []].append(MergeConflict(kind: kind, key: key, path: nil, base: base, ours: ours, theirs: theirs))
        }

        for (oursRow, key) in ours.keys.enumerated() {
            let baseRow = baseRows[key]
            let theirsRow = theirsRows[key]
            let oursVersion = ours.versions[oursRow]
            switch (baseRow, theirsRow) {
            case let (baseRow?, theirsRow?):
                let baseVersion = base.versions[baseRow]
                let theirsVersion = theirs.versions[theirsRow]
                // A side changed the record when its value or its spelling differs from BASE's.
                let baseSpelling = base.spellings[baseRow]
                let oursSpelling = ours.spellings[oursRow], theirsSpelling = theirs.spellings[theirsRow]
                let oursChanged = oursVersion != baseVersion || oursSpelling != baseSpelling
                let theirsChanged = theirsVersion != baseVersion || theirsSpelling != baseSpelling
                if !theirsChanged || (oursVersion == theirsVersion && oursSpelling == theirsSpelling) {
                    decisionOfOurs[oursRow] = .ours(oursRow)
                    if oursVersion != baseVersion { result.fromOurs += 1 }
                } else if !oursChanged {
                    decisionOfOurs[oursRow] = .theirs(theirsRow)
                    if theirsVersion != baseVersion { result.fromTheirs += 1 }
                } else {
                    let oursValue = try value(.ours, oursRow), theirsValue = try value(.theirs, theirsRow)
                    let merged = fields.merge(try value(.base, baseRow), oursValue, theirsValue, key: key)
                    if merged.conflicts.isEmpty {
                        // Either side's record as it is, when the merge took all of it: its bytes stand.
                        if merged.ours == oursValue {
                            decisionOfOurs[oursRow] = .ours(oursRow)
                        } else if merged.ours == theirsValue {
                            decisionOfOurs[oursRow] = .theirs(theirsRow)
                        } else {
                            decisionOfOurs[oursRow] = .merged(merged.ours)
                        }
                        switch (oursVersion != baseVersion, theirsVersion != baseVersion) {
                        case (true, true): if oursVersion == theirsVersion { result.fromOurs += 1 } else { result.fromBoth += 1 }
                        case (true, false): result.fromOurs += 1
                        case (false, true): result.fromTheirs += 1
                        case (false, false): break
                        }
                    } else {
                        conflictsByKey[key, default: []] += merged.conflicts
                        decisionOfOurs[oursRow] = resolve(ours: merged.ours, theirs: merged.theirs, prefer)
                    }
                }
            case (let baseRow?, nil):
                if oursVersion == base.versions[baseRow] {
                    result.deleted += 1
                } else {
                    // THEIRS deleted what OURS changed.
                    let oursValue = try value(.ours, oursRow)
                    conflict(.deletedByTheirs, key, base: try value(.base, baseRow), ours: oursValue, theirs: nil)
                    decisionOfOurs[oursRow] = prefer == .theirs ? nil : prefer == .ours ? .ours(oursRow) : .conflict(ours: oursValue, theirs: nil)
                }
            case (nil, let theirsRow?):
                if oursVersion == theirs.versions[theirsRow] {
                    decisionOfOurs[oursRow] = .ours(oursRow)
                    result.fromOurs += 1
                } else {
                    let oursValue = try value(.ours, oursRow)
                    let theirsValue = try value(.theirs, theirsRow)
                    conflict(.insertedByBoth, key, base: nil, ours: oursValue, theirs: theirsValue)
                    decisionOfOurs[oursRow] = prefer == .theirs ? .theirs(theirsRow) : prefer == .ours ? .ours(oursRow)
                        : .conflict(ours: oursValue, theirs: theirsValue)
                }
            case (nil, nil):
                decisionOfOurs[oursRow] = .ours(oursRow)
                result.fromOurs += 1
            }
        }
        for (theirsRow, key) in theirs.keys.enumerated() where oursRows[key] == nil {
            guard let baseRow = baseRows[key] else {
                decisionOfTheirsOnly[theirsRow] = .theirs(theirsRow)
                result.fromTheirs += 1
                continue
            }
            if theirs.versions[theirsRow] == base.versions[baseRow] {
                result.deleted += 1
            } else {
                // OURS deleted what THEIRS changed.
                let theirsValue = try value(.theirs, theirsRow)
                conflict(.deletedByOurs, key, base: try value(.base, baseRow), ours: nil, theirs: theirsValue)
                let decision: MergedRecord? = prefer == .ours ? nil : prefer == .theirs ? .theirs(theirsRow) : .conflict(ours: nil, theirs: theirsValue)
                if let decision { decisionOfTheirsOnly[theirsRow] = decision }
            }
        }
        // Records both deleted.
        for key in base.keys where oursRows[key] == nil && theirsRows[key] == nil { result.deleted += 1 }

        let order = placeInOrder(
            base: base, ours: ours, theirs: theirs, baseRows: baseRows, oursRows: oursRows,
            keepsOurs: { decisionOfOurs[$0] != nil }, theirsOnly: { decisionOfTheirsOnly[$0] != nil })
        result.records = order.map { place in
            switch place {
            case .ours(let row): decisionOfOurs[row]!
            case .theirs(let row): decisionOfTheirsOnly[row]!
            }
        }
        result.sources = order.map { place in
            switch place {
            case .ours(let row): RecordSources(ours: row, theirs: theirsRows[ours.keys[row]])
            case .theirs(let row): RecordSources(ours: nil, theirs: row)
            }
        }
        // Conflicts in the result's order, then those whose record the preference dropped.
        var listed = Set<String>()
        for place in order {
            let key = switch place { case .ours(let row): ours.keys[row]; case .theirs(let row): theirs.keys[row] }
            if let found = conflictsByKey[key], listed.insert(key).inserted { result.conflicts += found }
        }
        for key in ours.keys + theirs.keys where !listed.contains(key) {
            if let found = conflictsByKey[key], listed.insert(key).inserted { result.conflicts += found }
        }
        return result
    }

    private static func resolve(ours: Value, theirs: Value, _ prefer: MergePreference?) -> MergedRecord {
        switch prefer {
        case .ours: .merged(ours)
        case .theirs: .merged(theirs)
        case nil: .conflict(ours: ours, theirs: theirs)
        }
    }

    static func rowsByKey(_ snapshot: RecordVersions) -> [String: Int] {
        var rows: [String: Int] = [:]
        rows.reserveCapacity(snapshot.count)
        for (row, key) in snapshot.keys.enumerated() {
            precondition(rows.updateValue(row, forKey: key) == nil, "keys must be unique within a snapshot")
        }
        return rows
    }

    enum ResultRecord: Equatable {
        case ours(Int)
        case theirs(Int)
    }

    /// The result's order (see the type's comment). `keepsOurs(row)`: OURS's
    /// record is in the result; `theirsOnly(row)`: a record only THEIRS has
    /// is in the result.
    static func placeInOrder(
        base: RecordVersions, ours: RecordVersions, theirs: RecordVersions,
        baseRows: [String: Int], oursRows: [String: Int],
        keepsOurs: (Int) -> Bool, theirsOnly: (Int) -> Bool
    ) -> [ResultRecord] {
        let movedByOurs = moved(ours, baseRows: baseRows)
        let movedByTheirs = moved(theirs, baseRows: baseRows)
        // A linked list over OURS's records (nodes 0..<ours.count) and
        // THEIRS-only records (ours.count + row); -1 ends it. Links are
        // 32-bit: one a record of each side, held beside the tables.
        let nodeCount = ours.count + theirs.count
        precondition(nodeCount < Int(Int32.max), "more records than a merge can order")
        var next = [Int32](repeating: -1, count: nodeCount + 1)
        let head = nodeCount  // a sentinel before the first record
        var tail = head
        var linked = 0
        func link(_ node: Int, after anchor: Int) {
            let following = Int(next[anchor])
            next[anchor] = Int32(node)
            next[node] = Int32(following)
            if following < 0 { tail = node }
            linked += 1
        }
        var oursPlaced = [Bool](repeating: false, count: ours.count)
        // OURS's records, less those THEIRS moved and OURS left in place.
        for row in 0..<ours.count where keepsOurs(row) {
            let key = ours.keys[row]
            let theirsMoved = movedByTheirs.contains(key) && !movedByOurs.contains(key)
            guard !theirsMoved else { continue }
            link(row, after: tail)
            oursPlaced[row] = true
        }
        var anchor = head
        for (theirsRow, key) in theirs.keys.enumerated() {
            let node: Int
            if let oursRow = oursRows[key] {
                guard keepsOurs(oursRow) else { continue }
                if oursPlaced[oursRow] {
                    anchor = oursRow
                    continue
                }
                node = oursRow
                oursPlaced[oursRow] = true
            } else {
                guard theirsOnly(theirsRow) else { continue }
                node = ours.count + theirsRow
            }
            // Past the records OURS inserted right after the anchor.
            var at = anchor
            while next[at] >= 0, Int(next[at]) < ours.count, baseRows[ours.keys[Int(next[at])]] == nil {
                at = Int(next[at])
            }
            link(node, after: at)
            anchor = node
        }
        var order: [ResultRecord] = []
        order.reserveCapacity(linked)
        var node = Int(next[head])
        while node >= 0 {
            order.append(node < ours.count ? .ours(node) : .theirs(node - ours.count))
            node = Int(next[node])
        }
        return order
    }

    /// The keys of the records `side` moved: those it shares with BASE that lie
    /// off one longest run of them still in BASE's order.
    static func moved(_ side: RecordVersions, baseRows: [String: Int]) -> Set<String> {
        var shared: [Int] = []
        var keys: [String] = []
        for key in side.keys {
            guard let baseRow = baseRows[key] else { continue }
            shared.append(baseRow)
            keys.append(key)
        }
        let kept = Differ.longestIncreasingSubsequence(shared)
        var moved = Set<String>()
        for (index, stays) in kept.enumerated() where !stays { moved.insert(keys[index]) }
        return moved
    }
}
