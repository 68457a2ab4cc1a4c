/// What one field's changes have in common, for a reviewer of thousands of
/// them: its most frequent transitions (`country: "Russia" -> "Russian
/// Federation"` in 1,094 records) and, for numbers, how far they moved.
public struct FieldTransitions: Equatable, Sendable {
    /// The field (array positions left out, as in `FieldChange.path`).
    public var path: FieldPath
    /// For the transitions of array elements (`--arrays elements`): the
    /// field's place with each array position written `[]` (`tags[]`,
    /// `items[].price`); where it ends in `[]`, an absent side is an
    /// element inserted or deleted. A record counts once for a transition,
    /// however many of its elements made it. Nil for the field's own
    /// transitions.
    public var elementPattern: String?
    /// The most frequent transitions, most first (at most five), each made
    /// by two records or more.
    public var top: [ValueTransition]
    /// Whether every change of the field was counted. False when the field
    /// had more distinct transitions than a summary tracks
    /// (`FieldTransitionCounter.capacity`): a transition may then be missing
    /// from `top`, and a count whose `ValueTransition.exact` is false is the
    /// number of records known to have made it, a lower bound.
    public var exact: Bool
    /// For the changes from a number to a number: how many, the largest
    /// absolute change and the mean one.
    public var numbers: NumericChanges?

    /// The field as the summaries name it: `tags[]` for its elements.
    public var label: String { elementPattern ?? path.description }

    /// The summary of one field's changes; the members as above.
    public init(path: FieldPath, elementPattern: String? = nil, top: [ValueTransition], exact: Bool, numbers: NumericChanges?) {
        self.path = path
        self.elementPattern = elementPattern
        self.top = top
        self.exact = exact
        self.numbers = numbers
    }
}

/// One value transition of a field and how many updated records made it.
public struct ValueTransition: Equatable, Sendable {
    /// nil: the field is absent on that side.
    public var old: Value?
    /// The value after; nil: the field is absent on that side.
    public var new: Value?
    /// How many updated records made the transition.
    public var records: Int
    /// Whether `records` is the exact count; false: a lower bound (the
    /// transition may have been made before the summary began to track it).
    public var exact: Bool

    /// A transition from `old` to `new` made by `records` records (a lower
    /// bound unless `exact`).
    public init(old: Value?, new: Value?, records: Int, exact: Bool = true) {
        self.old = old
        self.new = new
        self.records = records
        self.exact = exact
    }
}

/// Changes from a number to a number (datacompy's column statistics).
public struct NumericChanges: Equatable, Sendable {
    /// How many changes went from a number to a number.
    public var records: Int
    /// The largest absolute change.
    public var largest: Double
    /// The mean absolute change.
    public var mean: Double

    /// Statistics of `records` numeric changes.
    public init(records: Int, largest: Double, mean: Double) {
        self.records = records
        self.largest = largest
        self.mean = mean
    }
}

/// Counts a field's transitions in bounded memory: the Space-Saving
/// algorithm (Metwally, Agrawal and El Abbadi) keeps `capacity` counters; a
/// transition not among them takes the place of the least counted and
/// inherits its count, which is then kept apart as the entry's error: what
/// is reported is the part counted for sure. A transition made by more than
/// one in `capacity` of a field's changes is always among the entries. So a
/// field with a million distinct values costs `capacity` entries, not a map
/// of every value.
///
/// That part is the exact count when the transition was never evicted
/// before it took its entry: then none of its changes went uncounted. An
/// entry taken while there was room (no error) is so; for one taken later,
/// a Bloom filter of the evicted transitions tells (`evictedKeys`): it can
/// mistake a new transition for an evicted one, saying "at least" of an
/// exact count, but never the other way round.
struct FieldTransitionCounter {
    static let capacity = 64
    static let shown = 5

    private struct Key: Hashable {
        var old: UInt64
        var new: UInt64
    }

    private struct Entry {
        var key: Key
        var old: Value?
        var new: Value?
        var count: Int
        /// How much of `count` the entry inherited from the one it replaced.
        var error: Int
        /// Whether `count - error` counts every change that made the transition.
        var exact: Bool
    }

    private var entries: [Entry] = []
    private var slots: [Key: Int] = [:]
    private var evicted = false
    /// A Bloom filter of the transitions evicted so far (`filterBits` bits,
    /// made at the first eviction): bounded memory that answers "was this
    /// one ever counted and then dropped?" with no false "no".
    private var evictedKeys: [UInt64] = []
    static let filterBits = 4096
    /// No entry has a smaller count (the least count only grows), and where
    /// to look for one that has it: an eviction is a short scan, not a pass
    /// over every entry.
    private var floor = 1
    private var cursor = 0
    private var numericCount = 0
    private var numericLargest = 0.0
    /// A running mean: a sum of large distances could overflow where none of them does.
    private var numericMean = 0.0

    mutating func add(_ change: FieldChange) {
        let key = Key(old: Self.hash(change.old), new: Self.hash(change.new))
        if let slot = slots[key] {
            entries[slot].count += 1
        } else if entries.count < Self.capacity {
            slots[key] = entries.count
            entries.append(Entry(key: key, old: change.old, new: change.new, count: 1, error: 0, exact: true))
        } else {
            // Space-Saving: the least counted entry gives its place, and its count, plus one.
            let slot = leastCounted()
            let inherited = entries[slot].count
            slots[entries[slot].key] = nil
            if evictedKeys.isEmpty { evictedKeys = Array(repeating: 0, count: Self.filterBits / 64) }
            noteEvicted(entries[slot].key)
            entries[slot] = Entry(key: key, old: change.old, new: change.new, count: inherited + 1, error: inherited,
                                  exact: !mayHaveBeenEvicted(key))
            slots[key] = slot
            evicted = true
        }
        if case .number(let oldText)? = change.old, case .number(let newText)? = change.new,
           let old = Double(oldText), let new = Double(newText), (new - old).isFinite, new != old {
            // Only what a Double can measure: two texts that differ past its
            // precision (or past its range) say nothing about how far they moved.
            let distance = abs(new - old)
            numericCount += 1
            numericLargest = max(numericLargest, distance)
            numericMean += (distance - numericMean) / Double(numericCount)
        }
    }

    /// The filter's three bits for a transition, from one mixed hash.
    private static func filterPositions(of key: Key) -> (Int, Int, Int) {
        let mixed = StableHash.combine(key.old, key.new)
        let mask = UInt64(filterBits - 1)
        return (Int(mixed & mask), Int((mixed >> 21) & mask), Int((mixed >> 42) & mask))
    }

    private mutating func noteEvicted(_ key: Key) {
        func set(_ bit: Int) { evictedKeys[bit / 64] |= 1 << UInt64(bit % 64) }
        let (a, b, c) = Self.filterPositions(of: key)
        set(a)
        set(b)
        set(c)
    }

    private func mayHaveBeenEvicted(_ key: Key) -> Bool {
        func isSet(_ bit: Int) -> Bool { evictedKeys[bit / 64] & (1 << UInt64(bit % 64)) != 0 }
        let (a, b, c) = Self.filterPositions(of: key)
        return isSet(a) && isSet(b) && isSet(c)
    }

    /// An entry with the least count.
    private mutating func leastCounted() -> Int {
        for _ in 0..<2 {
            for _ in entries.indices {
                let slot = cursor
                cursor = (cursor + 1) % entries.count
                if entries[slot].count <= floor { return slot }
            }
            floor = entries.lazy.map(\.count).min()!
        }
        preconditionFailure("an entry has the least count")
    }

    /// What the counts say, or nil when nothing repeats and no number changed.
    func transitions(of path: FieldPath, elementPattern: String? = nil) -> FieldTransitions? {
        // Counts known for sure (an inherited part is not), most first; among equals, the one counted first.
        let top = entries.enumerated().map { ($0.offset, $0.element, $0.element.count - $0.element.error) }
            .filter { $0.2 >= 2 }
            .sorted { $0.2 != $1.2 ? $0.2 > $1.2 : $0.0 < $1.0 }
            .prefix(Self.shown)
            .map { ValueTransition(old: $0.1.old, new: $0.1.new, records: $0.2, exact: $0.1.exact) }
        let numbers = numericCount > 0
            ? NumericChanges(records: numericCount, largest: numericLargest, mean: numericMean) : nil
        guard !top.isEmpty || numbers != nil else { return nil }
        return FieldTransitions(path: path, elementPattern: elementPattern, top: Array(top), exact: !evicted, numbers: numbers)
    }

    /// A value's identity for counting: its fingerprint under the typed
    /// rule (equal values count as one transition), no text made; absent is
    /// its own.
    private static func hash(_ value: Value?) -> UInt64 {
        guard let value else { return 0 }
        return value.contentHash(mode: .typed) | 1
    }
}
