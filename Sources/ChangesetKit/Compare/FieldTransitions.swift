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
    /// Where each entry's key lies (`entries`' index; -1: free): open
    /// addressing with linear probing over twice the entries' room: the
    /// keys are hashes already, so a lookup is a probe or two, where a
    /// `Dictionary` would hash each key again with SipHash.
    private var table = [Int8](repeating: -1, count: Self.tableSize)
    private static let tableSize = 2 * capacity
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

    /// Counts `change`, its values' fingerprints computed here (what the
    /// tests call; `Summary.countFields` has the fingerprints already).
    mutating func add(_ change: FieldChange) {
        add(old: change.old, new: change.new, oldHash: change.old?.contentHash(mode: .typed), newHash: change.new?.contentHash(mode: .typed))
    }

    /// Counts a change from `old` to `new` (nil: absent), given their
    /// `contentHash(mode: .typed)`, which a caller that needs them too
    /// computes once. The values are copied only into an entry they take.
    mutating func add(old: Value?, new: Value?, oldHash: UInt64?, newHash: UInt64?) {
        // A value's identity is its typed fingerprint (equal values count as
        // one transition), made odd so that absent (0) is its own.
        let key = Key(old: oldHash.map { $0 | 1 } ?? 0, new: newHash.map { $0 | 1 } ?? 0)
        var position = Self.home(of: key)
        while table[position] >= 0, entries[Int(table[position])].key != key { position = (position + 1) % Self.tableSize }
        if table[position] >= 0 {
            entries[Int(table[position])].count += 1
        } else if entries.count < Self.capacity {
            table[position] = Int8(entries.count)
            entries.append(Entry(key: key, old: old, new: new, count: 1, error: 0, exact: true))
        } else {
            // Space-Saving: the least counted entry gives its place, and its count, plus one.
            let slot = leastCounted()
            let inherited = entries[slot].count
            removeFromTable(entries[slot].key)
            if evictedKeys.isEmpty { evictedKeys = Array(repeating: 0, count: Self.filterBits / 64) }
            noteEvicted(entries[slot].key)
            entries[slot] = Entry(key: key, old: old, new: new, count: inherited + 1, error: inherited,
                                  exact: !mayHaveBeenEvicted(key))
            // The removal may have moved the free place the probe found: probe again.
            position = Self.home(of: key)
            while table[position] >= 0 { position = (position + 1) % Self.tableSize }
            table[position] = Int8(slot)
            evicted = true
        }
        if case .number(let oldText)? = old, case .number(let newText)? = new,
           let old = Self.double(oldText), let new = Self.double(newText), (new - old).isFinite, new != old {
            // Only what a Double can measure: two texts that differ past its
            // precision (or past its range) say nothing about how far they moved.
            let distance = abs(new - old)
            numericCount += 1
            numericLargest = max(numericLargest, distance)
            numericMean += (distance - numericMean) / Double(numericCount)
        }
    }

    /// Where a key's probe starts: its two fingerprints are mixed already.
    private static func home(of key: Key) -> Int {
        Int(truncatingIfNeeded: (key.old ^ key.new.rotated(29)) % UInt64(tableSize))
    }

    /// Takes `key` out of the table, moving the keys probed past its place
    /// back where a probe for them still finds them (no tombstones).
    private mutating func removeFromTable(_ key: Key) {
        var hole = Self.home(of: key)
        while entries[Int(table[hole])].key != key { hole = (hole + 1) % Self.tableSize }
        var next = (hole + 1) % Self.tableSize
        while table[next] >= 0 {
            let home = Self.home(of: entries[Int(table[next])].key)
            // A key whose probe starts after the hole (cyclically, up to its place) must stay.
            let fromHome = (next - home + Self.tableSize) % Self.tableSize
            let fromHole = (next - hole + Self.tableSize) % Self.tableSize
            if fromHome >= fromHole {
                table[hole] = table[next]
                hole = next
            }
            next = (next + 1) % Self.tableSize
        }
        table[hole] = -1
    }

    /// `Double(text)`, the same value: a literal of at most 2^53 as an
    /// integer of its digits and a power of ten within ±22 is that integer
    /// times or over the power, both exact in a Double, so one correctly
    /// rounded operation gives the correctly rounded value (Clinger's fast
    /// path); anything else goes to `Double(text)`, whose C call costs
    /// several times more and which most numbers in data never need.
    static func double(_ text: String) -> Double? {
        let fast: Double? = text.withBytes { bytes in
            let count = bytes.count
            var index = 0
            let negative = count > 0 && bytes[0] == UInt8(ascii: "-")
            if negative { index = 1 }
            var digits: UInt64 = 0
            var digitCount = 0
            var fractionDigits = 0
            func readDigits(fraction: Bool) -> Bool {
                while index < count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                    digits = digits * 10 + UInt64(bytes[index] - 0x30)
                    guard digits <= 1 << 53 else { return false }
                    digitCount += 1
                    if fraction { fractionDigits += 1 }
                    index += 1
                }
                return true
            }
            guard readDigits(fraction: false), digitCount > 0 else { return nil }
            if index < count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                let before = digitCount
                guard readDigits(fraction: true), digitCount > before else { return nil }
            }
            var exponent = 0
            if index < count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                var exponentNegative = false
                if index < count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                    exponentNegative = bytes[index] == UInt8(ascii: "-")
                    index += 1
                }
                let start = index
                while index < count, bytes[index] >= 0x30, bytes[index] <= 0x39, index - start < 4 {
                    exponent = exponent * 10 + Int(bytes[index] - 0x30)
                    index += 1
                }
                guard index > start else { return nil }
                if exponentNegative { exponent = -exponent }
            }
            guard index == count else { return nil }
            let power = exponent - fractionDigits
            guard power >= -22, power <= 22 else { return nil }
            let magnitude = power >= 0 ? Double(digits) * Self.powersOfTen[power] : Double(digits) / Self.powersOfTen[-power]
            return negative ? -magnitude : magnitude
        }
        return fast ?? Double(text)
    }

    /// 10^0 through 10^22, each exact in a Double.
    private static let powersOfTen: [Double] = (0...22).map { power in (0..<power).reduce(1.0) { value, _ in value * 10 } }

    /// The filter's three bits for a transition, from one mixed hash.
    private static func filterPositions(of key: Key) -> (Int, Int, Int) {
        let mixed = StableHash.combine(key.old, key.new)
        let mask = UInt64(filterBits - 1)
        return (Int(mixed & mask), Int((mixed >> 21) & mask), Int((mixed >> 42) & mask))
    }

    private mutating func noteEvicted(_ key: Key) {
        let (a, b, c) = Self.filterPositions(of: key)
        evictedKeys[a / 64] |= 1 << UInt64(a % 64)
        evictedKeys[b / 64] |= 1 << UInt64(b % 64)
        evictedKeys[c / 64] |= 1 << UInt64(c % 64)
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
}
