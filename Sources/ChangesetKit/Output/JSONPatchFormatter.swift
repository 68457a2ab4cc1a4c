/// The `jsonpatch` format: an RFC 6902 document (a JSON array of operations,
/// one per line) that turns the OLD JSON document into NEW when applied by
/// any RFC 6902 implementation.
///
/// Order: `remove` for deleted records (highest index first, so indices stay
/// valid); then, for each position of NEW from the first, `add` for an
/// inserted record or `move` for a moved one; then `replace`, `add` and
/// `remove` on the fields of updated records, at their NEW index, and on
/// array elements (`/3/tags/2`; see `replayOrder`). Paths start with the
/// `--records-at` array (`/data/items/3/price`).
///
/// Where each moved record must go is found without replaying the document:
/// every record gets one slot in a fixed order (its old place, and for
/// records that arrive, the place right after their predecessor in NEW), and
/// a Fenwick tree over the occupied slots turns a slot into the current index
/// in O(log n). Total O(n + k log n) for k changes.
package struct JSONPatchFormatter {
    package init() {}

    private enum Arrival { case insert, move(from: Int) }

    package struct Unsupported: Error, CustomStringConvertible {
        package var description: String
    }

    /// Checks that a replay's two sides are JSON documents, before it is resolved.
    package static func check(old: InputSummary, new: InputSummary) throws {
        for side in [old, new] where side.format != .json {
            throw Unsupported(description: "--format jsonpatch needs two JSON documents, but \(side.name) is \(side.format.rawValue)")
        }
    }

    /// Writes the patch for a replay resolved with `.fields`.
    package func write(_ replay: Replay, to output: inout some TextOutputStream) throws {
        try JSONPatchFormatter.check(old: replay.old, new: replay.new)
        let prefix = (replay.recordsAt?.components ?? []).map(JSONPatchFormatter.escape).map { "/" + $0 }.joined()
        let oldCount = replay.old.records
        let newCount = replay.new.records

        // What arrives at each NEW index (nil: a record that stayed in place).
        var arrivals = [Arrival?](repeating: nil, count: newCount)
        for index in replay.inserted { arrivals[index] = .insert }
        for move in replay.moves { arrivals[move.new] = .move(from: move.old) }
        let deleted = Set(replay.deleted)
        let movedOut = Set(replay.moves.map(\.old))

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
        // Arrivals in NEW order: moves from the indices alone, inserted records as the stream brings them.
        var nextArrival = 0
        func arrive(upTo limit: Int) {
            while nextArrival < limit {
                if case .move(let from)? = arrivals[nextArrival] {
                    let source = occupied.prefixSum(oldSlot[from])
                    occupied.add(oldSlot[from], -1)
                    occupied.add(arrivalSlot[nextArrival], 1)
                    let target = occupied.prefixSum(arrivalSlot[nextArrival])
                    emit("{\"op\":\"move\",\"from\":\"\(path(source))\",\"path\":\"\(path(target))\"}")
                }
                nextArrival += 1
            }
        }
        try replay.steps.forEach { step in
            switch step {
            case .inserted(let newIndex, let record, _):
                arrive(upTo: newIndex)
                occupied.add(arrivalSlot[newIndex], 1)
                let index = occupied.prefixSum(arrivalSlot[newIndex])
                emit("{\"op\":\"add\",\"path\":\"\(path(index))\",\"value\":\(record.jsonText)}")
                nextArrival = newIndex + 1
            case .moved:
                arrive(upTo: newCount)
            case .updated(_, let newIndex, _, let fields, _):
                arrive(upTo: newCount)
                for field in JSONPatchFormatter.replayOrder(fields) {
                    let pointer = path(newIndex) + JSONPatchFormatter.jsonStringContent(field.pointer)
                    switch (field.old, field.new) {
                    case (_?, let new?): emit("{\"op\":\"replace\",\"path\":\"\(pointer)\",\"value\":\(new.jsonText)}")
                    case (nil, let new?): emit("{\"op\":\"add\",\"path\":\"\(pointer)\",\"value\":\(new.jsonText)}")
                    case (_?, nil): emit("{\"op\":\"remove\",\"path\":\"\(pointer)\"}")
                    case (nil, nil): break
                    }
                }
            }
        }
        arrive(upTo: newCount)
        output.write(count == 0 ? "[]\n" : "\n]\n")
    }

    /// A record's field changes in an order that replays: as
    /// `FieldChange.between` gives them, but each run of elements deleted
    /// from one array last first, so the indices of those still to go
    /// stay valid.
    static func replayOrder(_ fields: [FieldChange]) -> [FieldChange] {
        var ordered: [FieldChange] = []
        ordered.reserveCapacity(fields.count)
        var run: [FieldChange] = []
        func sameArray(_ a: FieldChange, _ b: FieldChange) -> Bool {
            a.path == b.path && a.elements.dropLast() == b.elements.dropLast()
        }
        for field in fields {
            if field.isElementInsertedOrDeleted, field.new == nil {
                if let last = run.last, !sameArray(last, field) {
                    ordered.append(contentsOf: run.reversed())
                    run = []
                }
                run.append(field)
            } else {
                ordered.append(contentsOf: run.reversed())
                run = []
                ordered.append(field)
            }
        }
        ordered.append(contentsOf: run.reversed())
        return ordered
    }

    /// A JSON Pointer reference token (RFC 6901), also JSON-string-escaped.
    static func escape(_ name: String) -> String {
        jsonStringContent(FieldPath.pointerToken(name))
    }

    /// `text` as it stands between a JSON string's quotes.
    static func jsonStringContent(_ text: String) -> String {
        var json = ""
        Value.writeJSONString(text, to: &json)
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
