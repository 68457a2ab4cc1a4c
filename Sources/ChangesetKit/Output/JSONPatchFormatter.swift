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
    /// A `test` operation before each `remove`, `replace` and `move`, with
    /// the value it expects there (`--test-ops`).
    let testOperations: Bool

    package init(testOperations: Bool = false) {
        self.testOperations = testOperations
    }

    private enum Arrival { case insert, move(from: Int) }

    /// Checks that a replay's two sides are JSON documents, before it is resolved.
    package static func check(old: InputSummary, new: InputSummary) throws(OutputSettingsError) {
        for side in [old, new] where side.format != .json {
            throw .jsonPatchOfNonJSON(snapshot: side.name, format: side.format.rawValue)
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
        var slots = ReplaySlots(oldCount: oldCount, newCount: newCount, arriving: { arrivals[$0] != nil },
                                staying: { !deleted.contains($0) && !movedOut.contains($0) })
        let (oldSlot, arrivalSlot) = (slots.ofOld, slots.ofArrival)

        func path(_ index: Int) -> String { "\(prefix)/\(index)" }
        // One JSON array, one operation per line.
        var count = 0
        func emit(_ operation: String) {
            output.write(count == 0 ? "[\n" : ",\n")
            output.write(operation)
            count += 1
        }
        for oldIndex in (0..<oldCount).reversed() where deleted.contains(oldIndex) {
            if testOperations { emit("{\"op\":\"test\",\"path\":\"\(path(oldIndex))\",\"value\":\(try replay.oldRecord(oldIndex).jsonText)}") }
            emit("{\"op\":\"remove\",\"path\":\"\(path(oldIndex))\"}")
            slots.occupied.add(oldSlot[oldIndex], -1)
        }
        // Arrivals in NEW order: moves from the indices alone, inserted records as the stream brings them.
        var nextArrival = 0
        func arrive(upTo limit: Int) throws {
            while nextArrival < limit {
                if case .move(let from)? = arrivals[nextArrival] {
                    let source = slots.occupied.prefixSum(oldSlot[from])
                    if testOperations { emit("{\"op\":\"test\",\"path\":\"\(path(source))\",\"value\":\(try replay.oldRecord(from).jsonText)}") }
                    slots.occupied.add(oldSlot[from], -1)
                    slots.occupied.add(arrivalSlot[nextArrival], 1)
                    let target = slots.occupied.prefixSum(arrivalSlot[nextArrival])
                    emit("{\"op\":\"move\",\"from\":\"\(path(source))\",\"path\":\"\(path(target))\"}")
                }
                nextArrival += 1
            }
        }
        try replay.steps.forEach { step in
            switch step {
            case .inserted(let newIndex, let record, _):
                try arrive(upTo: newIndex)
                slots.occupied.add(arrivalSlot[newIndex], 1)
                let index = slots.occupied.prefixSum(arrivalSlot[newIndex])
                emit("{\"op\":\"add\",\"path\":\"\(path(index))\",\"value\":\(record.jsonText)}")
                nextArrival = newIndex + 1
            case .moved:
                try arrive(upTo: newCount)
            case .updated(_, let newIndex, _, let fields, _):
                try arrive(upTo: newCount)
                fieldOperations(fields, at: path(newIndex), emit: emit)
            }
        }
        try arrive(upTo: newCount)
        output.write(count == 0 ? "[]\n" : "\n]\n")
    }

    /// The operations of a record's (or a moved element's) field changes,
    /// under `prefix` (the record's or element's pointer, JSON-escaped).
    /// An array whose keyed elements moved is replayed as `arrayOperations`
    /// says, then the changes inside its moved elements at their NEW index;
    /// any other change as `replayOrder` puts it.
    private func fieldOperations(_ fields: [FieldChange], at prefix: String, emit: (String) -> Void) {
        var plain: [FieldChange] = []
        func flush() {
            for field in JSONPatchFormatter.replayOrder(plain) {
                let pointer = prefix + JSONPatchFormatter.jsonStringContent(field.pointer)
                switch (field.old, field.new) {
                case (let old?, let new?):
                    test(pointer, old)
                    emit("{\"op\":\"replace\",\"path\":\"\(pointer)\",\"value\":\(new.jsonText)}")
                case (nil, let new?): emit("{\"op\":\"add\",\"path\":\"\(pointer)\",\"value\":\(new.jsonText)}")
                case (let old?, nil):
                    test(pointer, old)
                    emit("{\"op\":\"remove\",\"path\":\"\(pointer)\"}")
                case (nil, nil): break
                }
            }
            plain = []
        }
        func test(_ pointer: String, _ value: Value) {
            if testOperations { emit("{\"op\":\"test\",\"path\":\"\(pointer)\",\"value\":\(value.jsonText)}") }
        }
        var start = 0
        while start < fields.count {
            let first = fields[start]
            guard first.isElementInsertedOrDeleted else {
                plain.append(first)
                start += 1
                continue
            }
            // The element changes of one array, which come together.
            var end = start + 1
            while end < fields.count, fields[end].isElementInsertedOrDeleted, fields[end].path == first.path,
                  fields[end].elements.dropLast() == first.elements.dropLast() { end += 1 }
            let group = fields[start..<end]
            guard group.contains(where: { $0.move != nil }) else {
                plain.append(contentsOf: group)
                start = end
                continue
            }
            flush()
            let array = prefix + JSONPatchFormatter.jsonStringContent(
                FieldChange(path: first.path, old: nil, new: nil, elements: Array(first.elements.dropLast())).pointer)
            var deletedAt: [Int: FieldChange] = [:]
            for field in group where field.new == nil { deletedAt[field.elements.last!.index] = field }
            var insertedAt: [Int: FieldChange] = [:]
            for field in group where field.old == nil { insertedAt[field.elements.last!.index] = field }
            let moves = group.compactMap { field -> (old: Int, new: Int)? in
                if case .from(let old)? = field.move { (old, field.elements.last!.index) } else { nil }
            }
            let movedOut = Set(moves.map(\.old))
            for operation in JSONPatchFormatter.arrayOperations(
                deleted: deletedAt.keys.filter { !movedOut.contains($0) }.sorted(),
                inserted: insertedAt.keys.filter { insertedAt[$0]!.move == nil }.sorted(), moves: moves
            ) {
                switch operation {
                case .remove(let old, let index):
                    test("\(array)/\(index)", deletedAt[old]!.old!)
                    emit("{\"op\":\"remove\",\"path\":\"\(array)/\(index)\"}")
                case .add(let new, let index):
                    emit("{\"op\":\"add\",\"path\":\"\(array)/\(index)\",\"value\":\(insertedAt[new]!.new!.jsonText)}")
                case .move(let old, _, let from, let to):
                    test("\(array)/\(from)", deletedAt[old]!.old!)
                    emit("{\"op\":\"move\",\"from\":\"\(array)/\(from)\",\"path\":\"\(array)/\(to)\"}")
                }
            }
            // In place now: what changed inside each moved element, at its NEW index (paths from the record).
            for move in moves {
                fieldOperations(insertedAt[move.new]!.inside, at: prefix, emit: emit)
            }
            start = end
        }
        flush()
    }

    /// One operation on an array's elements (indices into the array as it stands then).
    enum ArrayOperation: Equatable {
        case remove(old: Int, index: Int)
        case add(new: Int, index: Int)
        case move(old: Int, new: Int, from: Int, to: Int)
    }

    /// The operations that turn an array into its NEW version, given its
    /// elements deleted (old indices), inserted (new indices) and moved
    /// (matched by key off the common subsequence), the rest staying in
    /// order: `remove` last first, then in NEW's order an `add` or a `move`
    /// for each element that arrives, as the records' own operations are
    /// found (see the type's comment): each element has a slot (an old
    /// element its old place, an arriving one the place after its
    /// predecessor in NEW that stays), and an index is the count of
    /// occupied slots before it. Elements past the last one named stay,
    /// and so do not matter.
    static func arrayOperations(deleted: [Int], inserted: [Int], moves: [(old: Int, new: Int)]) -> [ArrayOperation] {
        let movedOut = Set(moves.map(\.old)), gone = Set(deleted)
        let arriving = Set(inserted).union(moves.map(\.new))
        let oldLimit = (deleted + moves.map(\.old)).max().map { $0 + 1 } ?? 0
        let newLimit = (inserted + moves.map(\.new)).max().map { $0 + 1 } ?? 0
        // As many staying elements on both sides: the ones past the limits stay.
        let oldStaying = oldLimit - gone.count - movedOut.count, newStaying = newLimit - arriving.count
        let oldCount = oldLimit + max(0, newStaying - oldStaying), newCount = newLimit + max(0, oldStaying - newStaying)
        var slots = ReplaySlots(oldCount: oldCount, newCount: newCount, arriving: { arriving.contains($0) },
                                staying: { !gone.contains($0) && !movedOut.contains($0) })
        var operations: [ArrayOperation] = []
        for index in deleted.sorted().reversed() {
            operations.append(.remove(old: index, index: slots.occupied.prefixSum(slots.ofOld[index])))
            slots.occupied.add(slots.ofOld[index], -1)
        }
        let movedFrom = Dictionary(uniqueKeysWithValues: moves.map { ($0.new, $0.old) })
        for index in 0..<newCount where arriving.contains(index) {
            let slot = slots.ofArrival[index]
            if let old = movedFrom[index] {
                let from = slots.occupied.prefixSum(slots.ofOld[old])
                slots.occupied.add(slots.ofOld[old], -1)
                slots.occupied.add(slot, 1)
                operations.append(.move(old: old, new: index, from: from, to: slots.occupied.prefixSum(slot)))
            } else {
                slots.occupied.add(slot, 1)
                operations.append(.add(new: index, index: slots.occupied.prefixSum(slot)))
            }
        }
        return operations
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

/// Where elements stand while a patch turns an array (the records, or an
/// array inside one) into its NEW version, one pass over each: every old
/// element has a slot, and each element that arrives (inserted, or moved
/// in) the slot right after the staying element it follows in NEW (before
/// the first one: first). An operation's index is the count of occupied
/// slots before its own; `occupied` starts with the old elements'.
struct ReplaySlots {
    /// By old index.
    let ofOld: [Int]
    /// By new index; only arriving elements' mean anything.
    let ofArrival: [Int]
    var occupied: FenwickTree

    /// `staying` old elements keep their order and pair, in turn, with
    /// NEW's elements that are not `arriving`.
    init(oldCount: Int, newCount: Int, arriving: (Int) -> Bool, staying: (Int) -> Bool) {
        var arrivalsAfter = [[Int]](repeating: [], count: oldCount)
        var leading: [Int] = []
        var nextOld = 0
        var lastStaying: Int?
        for index in 0..<newCount {
            if arriving(index) {
                if let lastStaying { arrivalsAfter[lastStaying].append(index) } else { leading.append(index) }
            } else {
                while nextOld < oldCount && !staying(nextOld) { nextOld += 1 }
                if nextOld < oldCount { lastStaying = nextOld }
                nextOld += 1
            }
        }
        var ofOld = [Int](repeating: 0, count: oldCount)
        var ofArrival = [Int](repeating: 0, count: newCount)
        var count = 0
        for index in leading { ofArrival[index] = count; count += 1 }
        for index in 0..<oldCount {
            ofOld[index] = count
            count += 1
            for arrival in arrivalsAfter[index] { ofArrival[arrival] = count; count += 1 }
        }
        occupied = FenwickTree(count: count)
        for index in 0..<oldCount { occupied.add(ofOld[index], 1) }
        self.ofOld = ofOld
        self.ofArrival = ofArrival
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
