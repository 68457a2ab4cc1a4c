/// The `jsonpatch` format: an RFC 6902 document (a JSON array of operations,
/// one per line) that turns the OLD JSON document into NEW when applied by
/// any RFC 6902 implementation.
///
/// Order: `remove` for deleted records (highest index first, so indices stay
/// valid); then, for each position of NEW from the first, `add` for an
/// inserted record or `move` for a moved one; then `replace`, `add` and
/// `remove` on the fields of updated records, at their NEW index. Paths start
/// with the `--records-at` array (`/data/items/3/price`).
///
/// Where each moved record must go is found without replaying the document:
/// every record gets one slot in a fixed order (its old place, and for
/// records that arrive, the place right after their predecessor in NEW), and
/// a Fenwick tree over the occupied slots turns a slot into the current index
/// in O(log n). Total O(n + k log n) for k changes.
public struct JSONPatchFormatter {
    public init() {}

    private enum Arrival { case insert(RecordRef), move(from: Int) }

    public struct Unsupported: Error, CustomStringConvertible {
        public var description: String
    }

    public func write(_ comparison: Comparison, to output: inout some TextOutputStream) throws {
        for side in [comparison.old, comparison.new] where side.input.format != .json {
            throw Unsupported(description: "--format jsonpatch needs two JSON documents, but \(side.input.name) is \(side.input.format.rawValue)")
        }
        let flat = try comparison.fileOrderChangeset()
        let prefix = (comparison.options.records.recordsAt?.components ?? []).map(JSONPatchFormatter.escape).map { "/" + $0 }.joined()
        let oldCount = flat.oldCount
        let newCount = flat.newCount

        // What arrives at each NEW index (nil: a record that stayed in place).
        var arrivals = [Arrival?](repeating: nil, count: newCount)
        for insertion in flat.insertions { arrivals[insertion.at.item] = .insert(insertion.element) }
        for move in flat.moves { arrivals[move.to.item] = .move(from: move.from.item) }
        let deleted = Set(flat.deletions.map(\.at.item))
        let movedOut = Set(flat.moves.map(\.from.item))

        // Slots: each old record's own slot, with the arrivals that follow it in NEW right after it.
        // A stayer's old index -> its NEW index, so arrivals can find the stayer they follow.
        var stayerAtNew = [Int](repeating: -1, count: newCount)
        do {
            // Stayers appear in NEW in old order: walk both.
            var newIndex = 0
            for oldIndex in 0..<oldCount where !deleted.contains(oldIndex) && !movedOut.contains(oldIndex) {
                while arrivals[newIndex] != nil { newIndex += 1 }
                stayerAtNew[newIndex] = oldIndex
                newIndex += 1
            }
        }
        // Arrivals before the first stayer come first; the rest follow the last stayer before them.
        var arrivalsAfterOld = [[Int]](repeating: [], count: oldCount)
        var leadingArrivals: [Int] = []
        var lastStayer = -1
        for newIndex in 0..<newCount {
            if stayerAtNew[newIndex] >= 0 {
                lastStayer = stayerAtNew[newIndex]
            } else if lastStayer < 0 {
                leadingArrivals.append(newIndex)
            } else {
                arrivalsAfterOld[lastStayer].append(newIndex)
            }
        }
        var oldSlot = [Int](repeating: 0, count: oldCount)
        var arrivalSlot = [Int](repeating: 0, count: newCount)
        var slotCount = 0
        for newIndex in leadingArrivals { arrivalSlot[newIndex] = slotCount; slotCount += 1 }
        for oldIndex in 0..<oldCount {
            oldSlot[oldIndex] = slotCount
            slotCount += 1
            for newIndex in arrivalsAfterOld[oldIndex] { arrivalSlot[newIndex] = slotCount; slotCount += 1 }
        }
        var occupied = FenwickTree(count: slotCount)
        for oldIndex in 0..<oldCount { occupied.add(oldSlot[oldIndex], 1) }

        func path(_ index: Int) -> String { "\(prefix)/\(index)" }
        // One JSON array, one operation per line.
        var count = 0
        func emit(_ operation: String) {
            output.write(count == 0 ? "[\n" : ",\n")
            output.write(operation)
            count += 1
        }
        for oldIndex in (0..<oldCount).reversed() where deleted.contains(oldIndex) {
            emit("{\"op\":\"remove\",\"path\":\"\(path(oldIndex))\"}")
            occupied.add(oldSlot[oldIndex], -1)
        }
        for newIndex in 0..<newCount {
            switch arrivals[newIndex] {
            case .insert(let ref)?:
                occupied.add(arrivalSlot[newIndex], 1)
                let index = occupied.prefixSum(arrivalSlot[newIndex])
                let value = try comparison.new.value(ofRecord: ref.row).jsonText
                emit("{\"op\":\"add\",\"path\":\"\(path(index))\",\"value\":\(value)}")
            case .move(let from)?:
                let source = occupied.prefixSum(oldSlot[from])
                occupied.add(oldSlot[from], -1)
                occupied.add(arrivalSlot[newIndex], 1)
                let target = occupied.prefixSum(arrivalSlot[newIndex])
                emit("{\"op\":\"move\",\"from\":\"\(path(source))\",\"path\":\"\(path(target))\"}")
            case nil:
                continue
            }
        }
        // In file order a record's index is its row.
        let filter = comparison.fieldFilter
        let mode = comparison.options.records.mode
        try OrderedConcurrentMap.forEach(flat.updates, transform: { update in
            FieldChange.between(
                try comparison.old.value(ofRecord: update.old.item), try comparison.new.value(ofRecord: update.element.row),
                filter: filter, mode: mode)
        }) { update, fields in
            for field in fields {
                let pointer = path(update.new.item) + field.path.components.map { "/" + JSONPatchFormatter.escape($0) }.joined()
                switch (field.old, field.new) {
                case (_?, let new?): emit("{\"op\":\"replace\",\"path\":\"\(pointer)\",\"value\":\(new.jsonText)}")
                case (nil, let new?): emit("{\"op\":\"add\",\"path\":\"\(pointer)\",\"value\":\(new.jsonText)}")
                case (_?, nil): emit("{\"op\":\"remove\",\"path\":\"\(pointer)\"}")
                case (nil, nil): break
                }
            }
        }
        output.write(count == 0 ? "[]\n" : "\n]\n")
    }

    /// A JSON Pointer reference token (RFC 6901), also JSON-string-escaped.
    static func escape(_ name: String) -> String {
        var json = ""
        Value.writeJSONString(name.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1"), to: &json)
        return String(json.dropFirst().dropLast())
    }
}

/// Prefix sums over 0/1 slot occupancy, with point updates, both O(log n).
struct FenwickTree {
    private var tree: [Int]

    init(count: Int) {
        tree = [Int](repeating: 0, count: count + 1)
    }

    mutating func add(_ index: Int, _ delta: Int) {
        var position = index + 1
        while position < tree.count {
            tree[position] += delta
            position += position & -position
        }
    }

    /// The sum over slots `0..<index`: the current array index of slot `index`.
    func prefixSum(_ index: Int) -> Int {
        var position = index
        var sum = 0
        while position > 0 {
            sum += tree[position]
            position -= position & -position
        }
        return sum
    }
}
