/// A key found for the user. Without `--id`, records are matched by
/// content, so a record with one changed field is a deletion and an
/// insertion: when a top-level field (or, failing one, a pair of fields) is
/// unique and non-empty in both inputs, it is very likely the key the user
/// would have given. With an `--id` that repeats, a field that makes it
/// unique in both inputs is the composite key to try.
package struct KeyHint: Equatable, Sendable {
    /// The keys found, best first (at most three), each one field or two.
    package var keys: [[String]]
    /// False when only the first `Comparison.keyHintSample` records of a side were looked at.
    package var checkedAll: Bool

    /// What the command says on standard error, after `hint: `.
    package var message: String {
        let names = keys.map { Self.argument($0) }
        let pairs = keys.contains { $0.count > 1 }
        return "\(pairs ? (names.count == 1 ? "the pair " : "the pairs ") : "")\(TerminalText.sentence(names)) \(names.count == 1 ? "is" : "are") unique in both files"
            + (checkedAll ? "" : " (in the first 10,000 records of each)")
            + "; records are matched by content without --id, so a changed record is a deletion and an insertion: try --id \(ShellWord.quoted(names[0]))"
    }

    /// The advice added to a repeated id's error: `; ID is unique in PLACE`,
    /// then the other keys (`(and ID and ID)`), each named as the id setting given that key.
    package static func uniqueKeyAdvice(_ keys: [[String]], in place: String) -> [MessagePart] {
        let assignments = keys.map { MessagePart.assignment(.id, library: "\($0)", argument: ShellWord.quoted(argument($0))) }
        var parts: [MessagePart] = [.text("; "), assignments[0], .text(" is unique in \(place)")]
        let others = assignments.dropFirst()
        guard !others.isEmpty else { return parts }
        parts.append(.text(" (and "))
        for (index, other) in others.enumerated() {
            if index > 0 { parts.append(.text(index == others.count - 1 ? " and " : ", ")) }
            parts.append(other)
        }
        parts.append(.text(")"))
        return parts
    }

    /// A key as `--id` takes it: `geonameid`, `name,country`.
    static func argument(_ key: [String]) -> String {
        FieldPath.listArgument(key.map { FieldPath([$0]) })
    }
}

extension Comparison {
    /// Whether a key hint has something to help with: records matched by
    /// content (no `--id`) and some of them deleted or inserted.
    package func needsKeyHint(_ summary: Summary) -> Bool {
        options.records.id.isEmpty && summary.inserted + summary.deleted > 0
    }

    /// Records of each input the key hint looks at.
    package static let keyHintSample = 10_000

    /// Records of each input every field is tried on; of the fields still
    /// unique after them, the `keyCandidateLimit` most plausible (names that
    /// sound like a key, then the rest in order) go on. Every candidate costs
    /// a hash a record and a set of them: a file of 1000 columns made the
    /// search take minutes and hundreds of megabytes.
    package static let keyFirstLook = 64
    package static let keyCandidateLimit = 64

    /// Records of each input a search for a composite key tries those
    /// candidates on; past them, only the best few that are still unique
    /// (`compositeVerifyLimit`) go on, through every record (see `compositeKeys`).
    package static let compositeKeySample = 2_000
    static let compositeVerifyLimit = 8

    /// Without `--id`: the top-level fields both inputs have whose values
    /// are present, text or integers (a float never: a column of
    /// coordinates is unique and no key), not empty and unique within each input (names
    /// that sound like a key first, then in the new input's order), or when
    /// there is none, pairs of fields that every record fills; nil when
    /// nothing is unique. Records are read again one at a time, at most
    /// `limit` a side, and a candidate drops out at its first repeat. (A
    /// 64-bit hash collision could only take a candidate out: a hint left
    /// unsaid, never a wrong one.)
    package func keyHint(limit: Int = keyHintSample) throws -> KeyHint? {
        let oldNames = Set(old.records.schema.map(ExactTextKey.init))
        let shared = new.records.schema.filter { oldNames.contains(ExactTextKey($0)) && Self.isShownAsIs($0) }
        let checkedAll = old.records.count <= limit && new.records.count <= limit
        let sample = [old, new].map { Array(0..<min($0.records.count, limit)) }
        var unique = try KeySearch.narrowed(self, shared.map { [$0] }, rows: sample).found.map(\.key)
        if unique.isEmpty {
            // No one field: pairs of the first fields every record fills (a bounded number of pairs).
            let (oldFilled, newFilled) = (old.filledFields, new.filledFields)
            let filled = Array(shared.filter { oldFilled.contains(ExactTextKey($0)) && newFilled.contains(ExactTextKey($0)) }.prefix(12))
            let pairs = filled.indices.flatMap { first in filled.indices.dropFirst(first + 1).map { [filled[first], filled[$0]] } }
            unique = try KeySearch(self, pairs, rows: sample).found.map(\.key)
        }
        guard !unique.isEmpty else { return nil }
        func soundsLikeKey(_ key: [String]) -> Bool { key.contains(where: Self.soundsLikeKey) }
        let ranked = unique.filter(soundsLikeKey) + unique.filter { !soundsLikeKey($0) }
        return KeyHint(keys: Array(ranked.prefix(3)), checkedAll: checkedAll)
    }

    /// Whether a field's name sounds like a key: one of its words (split at
    /// anything not a letter or digit and where a lower-case letter meets an
    /// upper-case one: `user_id`, `userId`, `Country Code`, `key_2`) is a
    /// key's word (`id`, `key`, `code`, `uuid`, `sku`, `isbn`, `zip`...) or
    /// starts with `iso` (`iso2`, `ISO3166`); or the name is one lower-case
    /// word ending in one (`geonameid`, `zipcode`).
    fileprivate static func soundsLikeKey(_ name: String) -> Bool {
        let words = nameWords(name)
        if words.contains(where: { keyWords.contains($0) || $0.hasPrefix("iso") }) { return true }
        return words.count == 1 && name == words[0] && ["id", "key", "code", "uuid"].contains { words[0].hasSuffix($0) }
    }

    /// Words that name a key, lower case.
    private static let keyWords: Set<String> = [
        "id", "ids", "key", "code", "uuid", "guid", "sku", "isbn", "issn", "ean", "upc", "gtin", "fips", "geoid", "pk", "slug",
        "zip", "zipcode", "postcode", "postal",
    ]

    /// A field name's words, lower case (see `soundsLikeKey`).
    private static func nameWords(_ name: String) -> [String] {
        var words: [String] = []
        var word = ""
        var previousWasLower = false
        for character in name {
            guard character.isLetter || character.isNumber else {
                if !word.isEmpty { words.append(word.lowercased()) }
                word = ""
                previousWasLower = false
                continue
            }
            if character.isUppercase && previousWasLower && !word.isEmpty {
                words.append(word.lowercased())
                word = ""
            }
            word.append(character)
            previousWasLower = character.isLowercase || character.isNumber
        }
        if !word.isEmpty { words.append(word.lowercased()) }
        return words
    }

    /// Whether a number's text is an integer's (`42`, `-7`, `01234`): a
    /// fraction or an exponent (`29.7`, `1e3`) makes a float, which never
    /// makes a key: a measurement, unique by chance, that a rounding changes.
    fileprivate static func isIntegerText(_ number: String) -> Bool {
        number.utf8.allSatisfy { ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") }
    }

    /// With an `--id` that repeats (read with `--duplicates occurrence`):
    /// the top-level fields that every record of both inputs fills and that
    /// make the id unique in both, as `--id` would take them; of those, the
    /// ones that pair the most of these records of OLD with records of NEW
    /// (a field whose value changed would make that record a deletion and an
    /// insertion). Exact: only records whose id repeats can collide, and
    /// all of them are looked at, by the best candidates (at most
    /// `compositeVerifyLimit`) still unique after the first
    /// `compositeKeySample`, of the most plausible (`KeySearch.narrowed`):
    /// a time and memory linear in those records, whatever the number of
    /// columns.
    package func compositeKeys() throws -> [[String]] {
        try compositeKeySearch().keys
    }

    /// ``compositeKeys()``, with the work its search did: how many
    /// (candidate, record) values it hashed, on both sides.
    package func compositeKeySearch() throws -> (keys: [[String]], valuesHashed: Int) {
        let id = options.records.id
        guard !id.isEmpty, id.allSatisfy({ $0.components.count == 1 }) else { return ([], 0) }
        let idNames = Set(id.map { ExactTextKey($0.components[0]) })
        let oldFilled = old.filledFields
        let newFilled = new.filledFields
        let candidates = new.records.schema.filter {
            !idNames.contains(ExactTextKey($0)) && Self.isShownAsIs($0) && oldFilled.contains(ExactTextKey($0)) && newFilled.contains(ExactTextKey($0))
        }
        guard id.allSatisfy({ Self.isShownAsIs($0.components[0]) }) else { return ([], 0) }
        let repeated = [old, new].map { $0.records.keyIndex.rowsWithRepeatedKeys }
        var search = try KeySearch.narrowed(self, candidates.map { [$0] }, rows: repeated.map { Array($0.prefix(Self.compositeKeySample)) },
                                            keyedBy: true)
        if repeated.contains(where: { $0.count > Self.compositeKeySample }) {
            // The sample only narrowed the candidates: the few best go on through the other records.
            search.keepBest(Self.compositeVerifyLimit)
            try search.goOn(rows: repeated.map { Array($0.dropFirst(Self.compositeKeySample)) })
        }
        let found = search.found
        // Only the keys that pair as many records as the best one.
        let keys = found.filter { $0.shared == found.first?.shared }.prefix(3).map { id.map(\.components[0]) + $0.key }
        return (keys, search.valuesHashed)
    }

    /// A name a hint can give as it is: nothing in it a terminal would act
    /// on, and short enough to read (a suggestion the user cannot type is no help).
    private static func isShownAsIs(_ name: String) -> Bool {
        TerminalText.datum(name) == name
    }
}

/// A search for keys: the candidates (each a list of top-level names) whose
/// values are present, text or integers, non-empty and distinct over the rows of each
/// input looked at, with how many of NEW's values OLD has too, those
/// sharing most first (`keyedBy`: the record's id is part of each
/// candidate). Each side is looked at on a core of its own; a record costs
/// reading the fields named (`FieldValues`) and a hash a candidate still
/// unique. Uniqueness does not depend on the order records come in, so a
/// search can narrow its candidates and go on through more records.
private struct KeySearch {
    let comparison: Comparison
    private(set) var candidates: [[String]]
    let keyedBy: Bool
    /// Per side, per candidate: the hashes of its values so far, nil once one repeats.
    private var seen: [[Set<UInt64>?]]
    /// How many (candidate, record) values were hashed so far, both sides:
    /// the search's work, which narrowing keeps linear in the records.
    private(set) var valuesHashed = 0

    init(_ comparison: Comparison, _ candidates: [[String]], rows: [[Int]], keyedBy: Bool = false) throws {
        self.comparison = comparison
        self.candidates = candidates
        self.keyedBy = keyedBy
        seen = [candidates.map { _ in Set<UInt64>() }, candidates.map { _ in Set<UInt64>() }]
        try goOn(rows: rows)
    }

    /// The candidates unique on both sides so far, with the values NEW shares with OLD, most first.
    var found: [(key: [String], shared: Int)] {
        candidates.indices.compactMap { index -> (key: [String], shared: Int, index: Int)? in
            guard let old = seen[0][index], let new = seen[1][index] else { return nil }
            let (small, large) = old.count <= new.count ? (old, new) : (new, old)
            // A field whose value changes (a population) makes a changed record a deletion and an insertion.
            return (candidates[index], small.reduce(0) { $0 + (large.contains($1) ? 1 : 0) }, index)
        }
        .sorted { $0.shared != $1.shared ? $0.shared > $1.shared : $0.index < $1.index }
        .map { ($0.key, $0.shared) }
    }

    /// A search of `candidates` over `rows`: every candidate over the first
    /// `Comparison.keyFirstLook` rows of each side, then the
    /// `Comparison.keyCandidateLimit` most plausible of those still unique over the rest.
    static func narrowed(_ comparison: Comparison, _ candidates: [[String]], rows: [[Int]], keyedBy: Bool = false) throws -> KeySearch {
        var search = try KeySearch(comparison, candidates, rows: rows.map { Array($0.prefix(Comparison.keyFirstLook)) }, keyedBy: keyedBy)
        let alive = search.candidates.indices.filter { search.seen[0][$0] != nil && search.seen[1][$0] != nil }
        func soundsLikeKey(_ index: Int) -> Bool { search.candidates[index].contains(where: Comparison.soundsLikeKey) }
        search.keep((alive.filter(soundsLikeKey) + alive.filter { !soundsLikeKey($0) }).prefix(Comparison.keyCandidateLimit))
        try search.goOn(rows: rows.map { Array($0.dropFirst(Comparison.keyFirstLook)) })
        return search
    }

    /// Keeps only the `count` best candidates found so far.
    mutating func keepBest(_ count: Int) {
        keep(found.prefix(count).map { candidates.firstIndex(of: $0.key)! })
    }

    /// Keeps only the candidates at `indices` (in their order as candidates).
    private mutating func keep(_ indices: some Sequence<Int>) {
        let kept = Set(indices)
        let order = candidates.indices.filter(kept.contains)
        candidates = order.map { candidates[$0] }
        seen = seen.map { side in order.map { side[$0] } }
    }

    /// Looks at `rows` of each side (OLD's, then NEW's) too.
    mutating func goOn(rows: [[Int]]) throws {
        let sides = [(comparison.old, rows[0], seen[0]), (comparison.new, rows[1], seen[1])]
        let search = self
        let looked = try OrderedConcurrentMap.mapEachOnItsOwnThread(sides) { side, rows, seen in
            try search.values(side, rows: rows, seen: seen)
        }
        seen = looked.map(\.seen)
        valuesHashed += looked.reduce(0) { $0 + $1.hashed }
    }

    /// `seen` after `rows` of `side`, and how many values were hashed.
    private func values(_ side: Snapshot, rows: [Int], seen: [Set<UInt64>?]) throws -> (seen: [Set<UInt64>?], hashed: Int) {
        var seen = seen
        var hashed = 0
        var names: [String] = []
        var nameIndex: [ExactTextKey: Int] = [:]
        let parts = candidates.map { candidate in
            candidate.map { name in
                if let known = nameIndex[ExactTextKey(name)] { return known }
                names.append(name)
                nameIndex[ExactTextKey(name)] = names.count - 1
                return names.count - 1
            }
        }
        var aliveCount = seen.count { $0 != nil }
        var fields = FieldValues(side, names: names)
        for row in rows where aliveCount > 0 {
            // 64-bit hashes of the values' text, not the values: a column of
            // distinct floats costs 8 bytes a record, not a String.
            guard let values = try fields.values(ofRecord: row) else { return (seen.map { _ in nil }, hashed) }
            let idHash = keyedBy ? side.records.keys.withKey(row, RecordTable.keyHash) : 0
            for index in candidates.indices where seen[index] != nil {
                hashed += 1
                var hash = idHash
                var complete = true
                for part in parts[index] {
                    switch values[part] {
                    case .string(let string)? where !string.isEmpty: hash = StableHash.combine(hash, StableHash.string(string, seed: 0x6B65_7968))
                    case .number(let number)? where Comparison.isIntegerText(number):
                        hash = StableHash.combine(hash, StableHash.string(CanonicalNumber.canonical(number) ?? number, seed: 0x6B65_7968))
                    default: complete = false
                    }
                }
                if complete, seen[index]!.insert(hash).inserted { continue }
                seen[index] = nil
                aliveCount -= 1
            }
        }
        return (seen, hashed)
    }
}

/// The values of a few top-level fields of a snapshot's records, as
/// `Snapshot.value(ofRecord:)` gives them (a name's last member), read at
/// a cost that does not grow with the fields not named: a CSV row's cells
/// are split and only the named ones made into values; a JSON record is
/// read whole, and its members' places for the names are found again only
/// when its member names differ from the record's before.
private struct FieldValues {
    let side: Snapshot
    let names: [String]
    /// CSV: each name's column.
    private var columns: [Int?]?
    /// JSON: the member names of the record before, and each name's place among them.
    private var memberNames: [String]?
    private var places: [Int?] = []

    init(_ side: Snapshot, names: [String]) {
        self.side = side
        self.names = names
        if !side.input.format.isJSON, let fieldNames = side.records.fieldNames {
            columns = names.map { name in fieldNames.lastIndex { ExactText.same($0, name) } }
        }
    }

    /// The value of each name in record `row` (nil: none); nil when the record is not an object.
    mutating func values(ofRecord row: Int) throws -> [Value?]? {
        if let columns {
            let expected = side.records.fieldNames?.count ?? 0
            return try side.input.bytes.withBytes(in: side.records.byteRange(row)) { bytes in
                let cells = try CSVRecordReader.rawCells(of: bytes, delimiter: side.delimiter, expecting: expected)
                guard cells.count == expected || side.records.raggedRows else {
                    throw JSONValueReader.Failure(description: "a record could not be read again (did the file change while changeset ran?)")
                }
                // A lenient short row lacks its last cells: nil, as `value(ofRecord:)` leaves them out.
                return columns.map { $0.flatMap { $0 < cells.count ? Snapshot.cellValue(bytes.extracting(cells[$0])) : nil } }
            }
        }
        guard case .object(let members) = try side.value(ofRecord: row) else { return nil }
        if memberNames == nil || memberNames!.count != members.count
            || !zip(memberNames!, members).allSatisfy({ ExactText.same($0, $1.name) }) {
            var last: [ExactTextKey: Int] = [:]
            for (index, member) in members.enumerated() { last[ExactTextKey(member.name)] = index }
            places = names.map { last[ExactTextKey($0)] }
            memberNames = members.map(\.name)
        }
        return places.map { $0.map { members[$0].value } }
    }
}

extension Snapshot {
    /// The top-level fields every record holds a value for (see `fillsEveryRecord`).
    var filledFields: Set<ExactTextKey> {
        Set(records.schema.indices.filter { records.schemaValueCounts[$0] == records.count }.map { ExactTextKey(records.schema[$0]) })
    }

    /// Whether every record holds a value (not null, not empty) for the top-level field `name`.
    func fillsEveryRecord(_ name: String) -> Bool {
        guard let position = records.schema.firstIndex(where: { ExactText.same($0, name) }) else { return false }
        return records.schemaValueCounts[position] == records.count
    }
}
