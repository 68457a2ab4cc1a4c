/// One field that differs between the old and new version of a record.
/// A nil side means the field is absent there; inside an array compared by
/// element, a nil side is an element inserted (old nil) or deleted (new nil).
public struct FieldChange: Equatable, Sendable {
    /// The field: its member names from the record down, array positions
    /// left out (`items.price` for `items[3].price`). Outside arrays it is a
    /// path as `--ignore` takes it; the rules do not reach inside arrays.
    public var path: FieldPath
    /// The old value; nil: absent in the old record (or an inserted element).
    public var old: Value?
    /// The new value; nil: absent in the new record (or a deleted element).
    public var new: Value?
    /// The array positions on the way to the change, when arrays are
    /// compared by element (`--arrays elements`); empty for a field outside
    /// arrays. A deleted element's own position is its index in OLD; every
    /// other position is an index in NEW.
    public var elements: [ElementIndex]
    /// An element matched by its key that moved within its array (off the
    /// common subsequence): it is reported deleted at its old index and
    /// inserted at its new one, and each half names the other's index.
    /// Formats that know moves show one move (text, jsonpatch); the others
    /// show the deletion and the insertion.
    public var move: ElementMove?
    /// On a moved element's insertion: what changed inside it, at its place
    /// in NEW (`states[3].name`), found by the comparison's rules (its
    /// mode, tolerance, `--ignore-case`, the keys of arrays inside it).
    /// Formats that show the move show these under it; the others show
    /// the deletion and the insertion whole.
    public var inside: [FieldChange] = []

    /// The other index of a moved element (see `FieldChange.move`).
    public enum ElementMove: Equatable, Hashable, Sendable {
        /// On the deletion: the element's index in NEW.
        case to(Int)
        /// On the insertion: the element's index in OLD.
        case from(Int)
    }

    /// A position in an array: `index`, in the array that
    /// `path.components.prefix(depth)` names (`tags[2]`: depth 1, index 2).
    public struct ElementIndex: Equatable, Hashable, Sendable {
        /// How many of `path`'s components lead to the array.
        public var depth: Int
        /// 0-based position in the array.
        public var index: Int

        /// Position `index` in the array the first `depth` path components name.
        public init(depth: Int, index: Int) {
            self.depth = depth
            self.index = index
        }
    }

    /// A change of the field at `path` from `old` to `new` (nil: absent),
    /// at the array positions `elements`; `move` on the halves of a keyed
    /// element that moved (see `move`).
    public init(path: FieldPath, old: Value?, new: Value?, elements: [ElementIndex] = [], move: ElementMove? = nil) {
        self.path = path
        self.old = old
        self.new = new
        self.elements = elements
        self.move = move
    }

    /// A moved element's insertion (`move` is `.from`): where it was, as a
    /// person reads it (`states[0]`).
    package var movedFromLocation: String? {
        guard case .from(let index)? = move, let last = elements.last else { return nil }
        var from = self
        from.elements[from.elements.count - 1] = ElementIndex(depth: last.depth, index: index)
        return from.location
    }

    /// Whether the change is an array element inserted or deleted (not a field added or removed).
    public var isElementInsertedOrDeleted: Bool {
        (old == nil || new == nil) && elements.last?.depth == path.components.count
    }

    /// Where the change is, as a person reads it: the path with array
    /// positions (`items[3].price`, `idd.suffixes[12]`).
    public var location: String { location { index, _ in "[\(index)]" } }

    /// The location with every array position written `[]` (`items[].q`):
    /// the same field of any element, for the summaries.
    package var elementPattern: String { location { _, _ in "[]" } }

    /// The location of a run of elements that ends `count` elements after this one (`tags[2…64]`).
    package func location(throughCount count: Int) -> String {
        location { index, last in last ? "[\(index)…\(index + count - 1)]" : "[\(index)]" }
    }

    private func location(_ position: (_ index: Int, _ last: Bool) -> String) -> String {
        guard !elements.isEmpty else { return path.description }
        var text = ""
        var depth = 0
        func names(upTo end: Int) {
            guard end > depth else { return }
            if !text.isEmpty { text += "." }
            text += FieldPath(Array(path.components[depth..<end])).description
            depth = end
        }
        for (number, element) in elements.enumerated() {
            names(upTo: element.depth)
            text += position(element.index, number == elements.count - 1)
        }
        names(upTo: path.components.count)
        return text
    }

    /// Where the change is in the record as RFC 6901 writes it
    /// (`/items/3/price`): member names and array positions.
    public var pointer: String {
        pointerTokens.map { "/" + FieldPath.pointerToken($0) }.joined()
    }

    private var pointerTokens: [String] {
        var tokens: [String] = []
        var elementIterator = elements.makeIterator()
        var nextElement = elementIterator.next()
        for depth in 0...path.components.count {
            while let element = nextElement, element.depth == depth {
                tokens.append(String(element.index))
                nextElement = elementIterator.next()
            }
            if depth < path.components.count { tokens.append(path.components[depth]) }
        }
        return tokens
    }
}

extension FieldChange {
    /// `fields` cut into runs for display: a run is one change, or
    /// `minimum` or more elements inserted (or deleted) one after another
    /// into one array, each at the index after the one before (63 elements
    /// appended are one line, not 63).
    package static func runs(_ fields: [FieldChange], minimum: Int = 4) -> [ArraySlice<FieldChange>] {
        var runs: [ArraySlice<FieldChange>] = []
        var start = 0
        while start < fields.count {
            var end = start + 1
            let first = fields[start]
            if first.isElementInsertedOrDeleted {
                while end < fields.count {
                    let next = fields[end]
                    guard first.move == nil, next.move == nil, next.isElementInsertedOrDeleted, (next.new == nil) == (first.new == nil), next.path == first.path,
                        next.elements.dropLast() == first.elements.dropLast(),
                        next.elements.last!.index == fields[end - 1].elements.last!.index + 1
                    else { break }
                    end += 1
                }
                if end - start < minimum { end = start + 1 }
            }
            runs.append(fields[start..<end])
            start = end
        }
        return runs
    }
}

/// How arrays inside records are compared (`--arrays`).
public enum ArrayComparison: String, Sendable, CaseIterable {
    /// Element by element: a longest common subsequence of equal elements
    /// (keyed objects matched by their key, as `ElementKeys` chooses it), the
    /// rest inserted, deleted, or changed in place.
    case elements
    /// As one value: a changed array is one change, old array to new.
    case whole
    /// As a set (`--arrays set`): order means nothing; elements are matched
    /// by key or content wherever they stand, the rest inserted or deleted.
    /// The replay formats refuse it (a patch would leave the new order out).
    case set
}

/// An array whose elements were matched by a key, as the report notes it:
/// the array's place with every position `[]` (`states[]`,
/// `states[].cities[]`), the key fields, and in how many updated records.
public struct KeyedArray: Equatable, Hashable, Sendable {
    /// The array's place in a record, every position `[]` (`states[]`).
    public var array: String
    /// The fields its elements were matched by.
    public var key: [FieldPath]
    /// How many updated records it was matched so in.
    public var records: Int

    /// The array at `array` (positions written `[]`), matched by `key` in `records` updated records.
    public init(array: String, key: [FieldPath], records: Int) {
        self.array = array
        self.key = key
        self.records = records
    }
}

extension FieldChange {
    /// The changed fields, walking nested objects, and with `arrays:
    /// .elements` arrays element by element (paired as `ElementPairing`
    /// says: objects that all hold the `elementKey` fields, else a member
    /// named `id`, each key once on a side, by it; else by content), in the old record's member order, then
    /// fields only the new one has. In an array: the deleted elements, the
    /// inserted ones, then the changes inside elements that stayed, each
    /// ascending (the order a JSON Patch can replay, but for deletions,
    /// which it takes last first). Rules (`--ignore`, `--only`) name
    /// fields outside arrays; inside an element every member counts. With
    /// exact `tolerance` it uses the fingerprint's equality, so it agrees
    /// with the readers; a tolerance can only take changes away.
    package static func between(
        _ old: Value, _ new: Value, rules: FieldRules, mode: ComparisonMode, tolerance: ValueTolerance = .exact,
        arrays: ArrayComparison = .elements, elementKey: [FieldPath] = []
    ) -> [FieldChange] {
        keyed(old, new, rules: rules, mode: mode, tolerance: tolerance, arrays: arrays, elementKeys: ElementKeys(recordKey: elementKey)).changes
    }

    /// `between`, with the arrays' element keys chosen as `elementKeys`
    /// says, and the arrays (`KeyedArray.array`, once each) whose elements
    /// were matched by a key, with it.
    static func keyed(
        _ old: Value, _ new: Value, rules: FieldRules, mode: ComparisonMode, tolerance: ValueTolerance = .exact,
        arrays: ArrayComparison = .elements, elementKeys: ElementKeys
    ) -> (changes: [FieldChange], keyedArrays: [(array: String, key: [FieldPath])]) {
        var differ = FieldDiffer(rules: rules, mode: mode, tolerance: tolerance, arrays: arrays, elementKeys: elementKeys)
        differ.values(old, new, path: [], elements: [], inArray: false)
        return (differ.changes, differ.keyedArrays)
    }
}

/// The walk behind `FieldChange.between`.
private struct FieldDiffer {
    let rules: FieldRules
    let mode: ComparisonMode
    let tolerance: ValueTolerance
    let arrays: ArrayComparison
    let elementKeys: ElementKeys
    var changes: [FieldChange] = []
    /// The arrays matched by a key so far, each once.
    var keyedArrays: [(array: String, key: [FieldPath])] = []

    init(rules: FieldRules, mode: ComparisonMode, tolerance: ValueTolerance, arrays: ArrayComparison, elementKeys: ElementKeys) {
        self.rules = rules
        self.mode = mode
        self.tolerance = tolerance
        self.arrays = arrays
        self.elementKeys = elementKeys
    }

    mutating func values(_ old: Value, _ new: Value, path: [String], elements: [FieldChange.ElementIndex], inArray: Bool) {
        switch (old, new) {
        case (.object(let oldMembers), .object(let newMembers)):
            members(oldMembers, newMembers, path: path, elements: elements, inArray: inArray)
        case (.array(let oldElements), .array(let newElements)) where arrays != .whole:
            if !tolerance.equal(old, new, path: path, mode: mode) {
                self.elements(oldElements, newElements, path: path, elements: elements)
            }
        default:
            if !tolerance.equal(old, new, path: path, mode: mode) {
                changes.append(FieldChange(path: FieldPath(path), old: old, new: new, elements: elements))
            }
        }
    }

    private mutating func members(
        _ oldMembers: [Value.Member], _ newMembers: [Value.Member], path: [String], elements: [FieldChange.ElementIndex], inArray: Bool
    ) {
        let byName = MembersByName(old: oldMembers, new: newMembers)
        for name in byName.names {
            let memberPath = path + [name]
            let verdict = inArray ? .include : rules.verdict(memberPath)
            guard verdict != .skip else { continue }
            let oldValue = byName.old(name)
            let newValue = byName.new(name)
            switch (oldValue, newValue) {
            case let (oldValue?, newValue?):
                if verdict == .lookInside {
                    // Only named fields inside count: a value that is not an object has none.
                    func members(_ value: Value) -> [Value.Member] { if case .object(let members) = value { members } else { [] } }
                    self.members(members(oldValue), members(newValue), path: memberPath, elements: elements, inArray: inArray)
                } else {
                    values(oldValue, newValue, path: memberPath, elements: elements, inArray: inArray)
                }
            case (let present?, nil), (nil, let present?):
                // In text comparisons a missing field equals an empty one.
                if mode.isText && tolerance.isEmptyText(present) { continue }
                if verdict == .lookInside, case .object(let inside) = present {
                    // Only the selected fields inside count.
                    let (a, b) = oldValue == nil ? ([], inside) : (inside, [])
                    self.members(a, b, path: memberPath, elements: elements, inArray: inArray)
                    continue
                }
                if verdict == .lookInside { continue }
                changes.append(FieldChange(path: FieldPath(memberPath), old: oldValue, new: newValue, elements: elements))
            case (nil, nil):
                continue
            }
        }
    }

    private mutating func elements(_ old: [Value], _ new: [Value], path: [String], elements: [FieldChange.ElementIndex]) {
        let depth = path.count
        func at(_ index: Int) -> [FieldChange.ElementIndex] { elements + [FieldChange.ElementIndex(depth: depth, index: index)] }
        let key = elementKeys.key(at: path, versions: [old, new], mode: mode)
        let pairing = ElementPairing(old, new, mode: mode, elementKey: key, tolerance: tolerance, path: path, ignoringOrder: arrays == .set)
        let fieldPath = FieldPath(path)
        if pairing.byKey {
            let array = FieldChange(path: fieldPath, old: nil, new: nil, elements: at(0)).elementPattern
            if !keyedArrays.contains(where: { $0.array == array && $0.key == key }) { keyedArrays.append((array, key)) }
        }
        var movedTo: [Int: Int] = [:], movedFrom: [Int: Int] = [:]
        for move in pairing.moved {
            movedTo[move.old] = move.new
            movedFrom[move.new] = move.old
        }
        for index in pairing.deleted {
            changes.append(FieldChange(path: fieldPath, old: old[index], new: nil, elements: at(index), move: movedTo[index].map { .to($0) }))
        }
        for index in pairing.inserted {
            var insertion = FieldChange(path: fieldPath, old: nil, new: new[index], elements: at(index), move: movedFrom[index].map { .from($0) })
            if let from = movedFrom[index] {
                // What changed inside the moved element, by these rules, kept with its insertion.
                let start = changes.count
                values(old[from], new[index], path: path, elements: at(index), inArray: true)
                insertion.inside = Array(changes[start...])
                changes.removeSubrange(start...)
            }
            changes.append(insertion)
        }
        for pair in pairing.pairs where !(pair.matched && !pairing.byKey) {
            // Matched by key, or paired in place: what changed inside.
            values(old[pair.old], new[pair.new], path: path, elements: at(pair.new), inArray: true)
        }
    }
}

/// Two objects' members by name: the first member with each name, and the
/// names in the old object's order, then those only the new one has. A
/// record's object is small, and two Dictionaries and a Set built for each
/// changed record would cost more than finding its changed fields;
/// objects of up to `smallCount` members are scanned instead.
private struct MembersByName {
    static let smallCount = 32
    let oldMembers: [Value.Member]
    let newMembers: [Value.Member]
    private let oldByName: [ExactTextKey: Value]
    private let newByName: [ExactTextKey: Value]
    let names: [String]
    private let isSmall: Bool

    init(old: [Value.Member], new: [Value.Member]) {
        oldMembers = old
        newMembers = new
        isSmall = old.count <= MembersByName.smallCount && new.count <= MembersByName.smallCount
        if isSmall {
            oldByName = [:]
            newByName = [:]
            names = old.map(\.name) + new.lazy.map(\.name).filter { name in !old.contains { ExactText.same($0.name, name) } }
        } else {
            oldByName = Dictionary(old.map { (ExactTextKey($0.name), $0.value) }, uniquingKeysWith: { first, _ in first })
            newByName = Dictionary(new.map { (ExactTextKey($0.name), $0.value) }, uniquingKeysWith: { first, _ in first })
            let oldNames = Set(old.map { ExactTextKey($0.name) })
            names = old.map(\.name) + new.map(\.name).filter { !oldNames.contains(ExactTextKey($0)) }
        }
    }

    func old(_ name: String) -> Value? {
        isSmall ? oldMembers.first { ExactText.same($0.name, name) }?.value : oldByName[ExactTextKey(name)]
    }

    func new(_ name: String) -> Value? {
        isSmall ? newMembers.first { ExactText.same($0.name, name) }?.value : newByName[ExactTextKey(name)]
    }
}
