/// Which elements of two versions of an array are one element: the rule the
/// field-level comparison (`FieldChange.between`) and the field-level merge
/// (`FieldMerge`) share, so that a merge sees an array's edits as the diff
/// reports them.
///
/// Objects that all hold the `elementKey` fields, each key once on a side,
/// are matched by their keys; anything else by its content. Either way the
/// matches are a longest common subsequence (`ElementAlignment`), ascending
/// on both sides, so an element moved off it is deleted and inserted (with
/// keys, such a pair is also listed in `moved`, for the formats that show moves).
/// Without keys, the unmatched elements between two matches are paired in
/// order (changed in place); the rest are deleted or inserted.
struct ElementPairing {
    /// Paired elements, ascending on both sides: `matched` when equal (or
    /// sharing a key), else changed in place.
    var pairs: [(old: Int, new: Int, matched: Bool)] = []
    /// Elements only the old version has, ascending.
    var deleted: [Int] = []
    /// Elements only the new version has, ascending.
    var inserted: [Int] = []
    /// Matched by `elementKey` (a matched pair may then differ in content).
    var byKey = false
    /// Matched by key off the common subsequence: an element deleted and
    /// inserted again elsewhere in its array, as (old index, new index), ascending in NEW.
    var moved: [(old: Int, new: Int)] = []

    /// `tolerance` widens what counts as equal content (the comparison's
    /// options); `path` is the array's, for a per-field tolerance.
    /// `ignoringOrder` (`--arrays set`): elements match by key or content
    /// wherever they stand, and the ones left over are deleted or inserted
    /// (the pairs then ascend in NEW only).
    init(_ old: [Value], _ new: [Value], mode: ComparisonMode, elementKey: [FieldPath],
         tolerance: ValueTolerance = .exact, path: [String] = [], ignoringOrder: Bool = false) {
        let keys = Self.keys(old, new, mode: mode, elementKey: elementKey)
        byKey = keys != nil
        let oldHashes = keys?.old ?? old.map { $0.contentHash(mode: mode) }
        let newHashes = keys?.new ?? new.map { $0.contentHash(mode: mode) }
        let same: (Int, Int) -> Bool
        if keys != nil {
            // A key's hash is checked, not trusted.
            same = { a, b in
                oldHashes[a] == newHashes[b] && elementKey.allSatisfy { key in
                    old[a].member(at: key.components)!.isEquivalent(to: new[b].member(at: key.components)!, mode: mode)
                }
            }
        } else if tolerance.isExact {
            same = { oldHashes[$0] == newHashes[$1] }
        } else {
            same = { oldHashes[$0] == newHashes[$1] || tolerance.equal(old[$0], new[$1], path: path, mode: mode) }
        }
        if ignoringOrder {
            matchIgnoringOrder(old, new, oldHashes: oldHashes, newHashes: newHashes, same: same,
                               loose: keys == nil && !tolerance.isExact ? { tolerance.equal(old[$0], new[$1], path: path, mode: mode) } : nil)
            return
        }
        let matches = ElementAlignment(oldHashes: oldHashes, newHashes: newHashes, same: same).matches()
        var (oldNext, newNext) = (0, 0)
        for match in matches + [(old: old.count, new: new.count)] {
            let paired = keys == nil ? min(match.old - oldNext, match.new - newNext) : 0
            for offset in 0..<paired { pairs.append((oldNext + offset, newNext + offset, false)) }
            deleted.append(contentsOf: (oldNext + paired)..<match.old)
            inserted.append(contentsOf: (newNext + paired)..<match.new)
            if match.old < old.count { pairs.append((match.old, match.new, true)) }
            (oldNext, newNext) = (match.old + 1, match.new + 1)
        }
        if keys != nil, !deleted.isEmpty, !inserted.isEmpty {
            // Keys are unique on a side: a key both deleted and inserted is one element that moved.
            var deletedByKey: [UInt64: [Int]] = [:]
            for index in deleted { deletedByKey[oldHashes[index], default: []].append(index) }
            for index in inserted {
                if let from = deletedByKey[newHashes[index]]?.first(where: { same($0, index) }) { moved.append((from, index)) }
            }
        }
    }

    /// Each element's key hash, when every element of both arrays is an
    /// object holding every `elementKey` field as a scalar, and no key
    /// occurs twice on a side; nil otherwise.
    static func keys(_ old: [Value], _ new: [Value], mode: ComparisonMode, elementKey: [FieldPath]) -> (old: [UInt64], new: [UInt64])? {
        guard !elementKey.isEmpty, !old.isEmpty, !new.isEmpty else { return nil }
        guard let oldKeys = keyHashes(old, mode: mode, elementKey: elementKey),
              let newKeys = keyHashes(new, mode: mode, elementKey: elementKey) else { return nil }
        return (oldKeys, newKeys)
    }

    /// Each element's key hash, when every element is an object holding
    /// every `elementKey` field as a scalar and no key occurs twice; nil otherwise.
    static func keyHashes(_ elements: [Value], mode: ComparisonMode, elementKey: [FieldPath]) -> [UInt64]? {
        var hashes: [UInt64] = []
        hashes.reserveCapacity(elements.count)
        var seen = Set<UInt64>()
        for element in elements {
            guard case .object = element else { return nil }
            var hash: UInt64 = 0x6B65_7973
            for key in elementKey {
                guard let value = element.member(at: key.components) else { return nil }
                switch value {
                case .object, .array, .null: return nil
                default: hash = StableHash.combine(hash, value.contentHash(mode: mode))
                }
            }
            guard seen.insert(hash).inserted else { return nil }
            hashes.append(hash)
        }
        return hashes
    }

    /// `--arrays set`: each NEW element takes the first OLD element not yet
    /// taken that `same` says is it (by key, or by content); with a
    /// tolerance, elements still unmatched are compared with `loose` (at most
    /// `looseLimit` comparisons). Matched by content, an element changed is
    /// deleted and inserted: nothing says which old element it was.
    private mutating func matchIgnoringOrder(
        _ old: [Value], _ new: [Value], oldHashes: [UInt64], newHashes: [UInt64], same: (Int, Int) -> Bool,
        loose: ((Int, Int) -> Bool)?
    ) {
        var candidates: [UInt64: [Int]] = [:]
        for index in old.indices.reversed() { candidates[oldHashes[index], default: []].append(index) }
        var taken = [Bool](repeating: false, count: old.count)
        var unmatched: [Int] = []
        for index in new.indices {
            if let found = candidates[newHashes[index]]?.lastIndex(where: { same($0, index) }) {
                let oldIndex = candidates[newHashes[index]]!.remove(at: found)
                taken[oldIndex] = true
                pairs.append((oldIndex, index, true))
            } else {
                unmatched.append(index)
            }
        }
        if let loose, unmatched.count * (old.count - pairs.count) <= Self.looseLimit {
            unmatched = unmatched.filter { index in
                guard let oldIndex = old.indices.first(where: { !taken[$0] && loose($0, index) }) else { return true }
                taken[oldIndex] = true
                pairs.append((oldIndex, index, true))
                return false
            }
            pairs.sort { $0.new < $1.new }
        }
        deleted = old.indices.filter { !taken[$0] }
        inserted = unmatched
    }

    static let looseLimit = 1 << 18
}

/// Which member identifies the elements of each array inside a record: the
/// one rule the comparison, the replay formats and the merge share, so that
/// all three pair an array's elements alike.
///
/// An array an `--array-key` rule names takes the rule's key (none, for
/// `PATH=`). Any other takes the first candidate that every element of
/// every version of the array holds as a scalar (not null), unique on each
/// side: the record's `--id` fields, then a member named `id`. None holds:
/// the elements are matched by content, then by position.
struct ElementKeys: Sendable {
    var recordKey: [FieldPath]
    var rules: [ArrayKeyRule]

    static let idMember = [FieldPath(["id"])]

    init(recordKey: [FieldPath], rules: [ArrayKeyRule] = []) {
        self.recordKey = recordKey
        self.rules = rules
    }

    init(_ options: RecordOptions) {
        self.init(recordKey: options.id, rules: options.arrayKeys)
    }

    /// The key of the array at `path` (member names from the record down),
    /// given its versions; empty: none.
    func key(at path: [String], versions: [[Value]], mode: ComparisonMode) -> [FieldPath] {
        if let rule = rules.first(where: { $0.matches(path) }) { return rule.key }
        let candidates = recordKey == Self.idMember ? [recordKey] : [recordKey, Self.idMember]
        for candidate in candidates where !candidate.isEmpty {
            if versions.allSatisfy({ ElementPairing.keyHashes($0, mode: mode, elementKey: candidate) != nil }) { return candidate }
        }
        return []
    }

    /// Whether some rule gives a key that records must hold.
    var hasExplicitKeys: Bool { rules.contains { !$0.key.isEmpty } }

    /// The first array in `record` that an `--array-key` rule gives a key
    /// and whose elements do not all hold it once: what is wrong, naming the
    /// array where it stands (`regions[2].states`), or nil.
    func violation(in record: Value, mode: ComparisonMode) -> (problem: String, rule: ArrayKeyRule)? {
        guard hasExplicitKeys else { return nil }
        var found: (problem: String, rule: ArrayKeyRule)?
        func walk(_ value: Value, path: [String], location: String) {
            guard found == nil else { return }
            switch value {
            case .object(let members):
                for member in members {
                    let name = FieldPath([member.name]).description
                    walk(member.value, path: path + [member.name], location: location.isEmpty ? name : location + "." + name)
                }
            case .array(let elements):
                if let rule = rules.first(where: { $0.matches(path) }), !rule.key.isEmpty {
                    if let problem = Self.violation(elements, key: rule.key, mode: mode, location: location) {
                        found = (problem, rule)
                        return
                    }
                }
                for (index, element) in elements.enumerated() { walk(element, path: path, location: location + "[\(index)]") }
            default:
                return
            }
        }
        walk(record, path: [], location: "")
        return found
    }

    private static func violation(_ elements: [Value], key: [FieldPath], mode: ComparisonMode, location: String) -> String? {
        let keyText = "\"" + FieldPath.listArgument(key) + "\""
        var seen: [UInt64: [(index: Int, key: Value)]] = [:]
        for (index, element) in elements.enumerated() {
            guard case .object = element else {
                return "\(location)[\(index)] is not an object, so it has no key \(keyText)"
            }
            var values: [Value] = []
            for field in key {
                guard let value = element.member(at: field.components) else {
                    return "\(location)[\(index)] has no \"\(field)\""
                }
                switch value {
                case .null: return "\(location)[\(index)].\(field) is null, not a key"
                case .object, .array: return "\(location)[\(index)].\(field) is not a scalar, so not a key"
                default: values.append(value)
                }
            }
            let value = Value.array(values)
            let hash = value.contentHash(mode: mode)
            if let twin = seen[hash]?.first(where: { $0.key.isEquivalent(to: value, mode: mode) }) {
                let shown = values.count == 1 ? values[0].jsonText : value.jsonText
                return "\(location)[\(twin.index)] and \(location)[\(index)] share the key \(keyText) \(shown)"
            }
            seen[hash, default: []].append((index, value))
        }
        return nil
    }
}

extension ElementKeys {
    /// Refuses (an `InputError` at the record's line) a record of `snapshot`
    /// one of whose arrays does not hold the key an array key rule gives it in
    /// every element, once: such elements would be paired by position, silently.
    func check(_ record: Value, row: Int, of snapshot: Snapshot, options: RecordOptions) throws {
        guard let (problem, rule) = violation(in: record, mode: options.mode) else { return }
        // The record's id as read (the record may be only its differing members).
        let keys = snapshot.records.keys
        let id = options.id.isEmpty || row >= keys.endIndex ? "" : " \"" + TerminalText.datum(keys[row]) + "\""
        throw InputError(
            source: snapshot.input.name, location: InputLocation(line: snapshot.records.line(row), column: 1),
            parts: [.text("record\(id): \(problem), but "),
                    .assignment(.arrayKey, library: "\"\(rule.argument)\"", argument: ShellWord.quoted(rule.argument)),
                    .text(" matches its elements by that key (each element must hold it once; PATH= pairs them by content and position)")])
    }
}
