import Foundation

extension ThreeWayMerge {
    /// Merges three arrays of records in memory: matched by the fields `id`
    /// names (records that share an id pair with BASE's equal record first,
    /// then by occurrence: see `MergeKey.keys`), or by content when `id` is empty.
    ///
    /// Returns the merged records (for a conflict, OURS's resolution, or
    /// THEIRS's when OURS has no record) and the merge's full account.
    public static func merge(
        base: [Value], ours: [Value], theirs: [Value], id: [FieldPath] = [],
        mode: ComparisonMode = .typed, prefer: MergePreference? = nil
    ) -> (records: [Value], result: MergeResult) {
        var fieldOptions = RecordOptions()
        fieldOptions.id = id
        let fields = FieldMerge(mode: mode, options: fieldOptions)
        let snapshots = [base, ours, theirs].enumerated().map { snapshot(of: $1, id: id, mode: mode, pairedWith: $0 == 0 ? nil : base) }
        let result = merge(base: snapshots[0], ours: snapshots[1], theirs: snapshots[2], fields: fields, prefer: prefer) { side, row in
            switch side {
            case .base: base[row]
            case .ours: ours[row]
            case .theirs: theirs[row]
            }
        }
        let records: [Value] = result.records.map { record in
            switch record {
            case .ours(let row): ours[row]
            case .theirs(let row): theirs[row]
            case .merged(let value): value
            case .conflict(let oursValue, let theirsValue): (oursValue ?? theirsValue)!
            }
        }
        return (records, result)
    }

    /// Keys and versions of in-memory records; OURS's and THEIRS's records
    /// that share an identity pair with BASE's as `MergeKey.keys` says.
    static func snapshot(of records: [Value], id: [FieldPath], mode: ComparisonMode, pairedWith base: [Value]? = nil) -> RecordVersions {
        func identities(_ records: [Value]) -> (identities: [String], versions: [UInt64]) {
            let versions = records.map { $0.contentHash(mode: mode) }
            let identities = zip(records, versions).map { record, version in
                MergeKey.encoded(id.isEmpty ? String(version, radix: 16) : RecordKey.join(id.map { keyText(record.member(at: $0.components)) }))
            }
            return (identities, versions)
        }
        let side = identities(records)
        // A record's spelling: its JSON text (numbers as written, members in order).
        let spellings = records.map { StableHash.string($0.jsonText, seed: 0x7370_656C_6C) }
        return RecordVersions(
            keys: MergeKey.keys(side.identities, versions: side.versions, pairedWith: base.map(identities)),
            versions: side.versions, spellings: spellings)
    }

    /// An id value as key text, as the readers make it: a string's
    /// characters, a number's canonical form, `true`/`false`; empty when absent or null.
    static func keyText(_ value: Value?) -> String {
        switch value {
        case .string(let text)?: text
        case .number(let text)?: CanonicalNumber.canonical(text) ?? text
        case .bool(let flag)?: flag ? "true" : "false"
        case .array?, .object?: value!.jsonText
        case nil, .null?: ""
        }
    }
}

/// A merge key: a record's identity, and which occurrence of it this is
/// (records sharing an identity match by occurrence, as `--duplicates
/// occurrence` does in a diff). Keys are compared and hashed as Swift
/// Strings, which take canonically equivalent text as equal; so a key is
/// ASCII only: NUL is written U+0000 U+0001 and any character past ASCII
/// as U+0000 `x`, its hex code and `;`. Identities then match by their
/// bytes (`ExactText`), as the diff's ids do, and the occurrence mark
/// (U+0000 `#`) can never occur in one.
enum MergeKey {
    /// The keys of one side's records, from their identities (each already
    /// `encoded`: the one array of them is the keys when none repeats) and
    /// versions.
    /// Records that share an identity are numbered by occurrence; on OURS's
    /// and THEIRS's side (`base` given) a record takes the number of BASE's
    /// record with that identity and the same version first (the same
    /// record, unchanged), then of BASE's others in order, then numbers past
    /// BASE's. So a record inserted before its unchanged twin is an
    /// insertion, not an edit of the twin, as in a diff.
    static func keys(_ identities: [String], versions: [UInt64], pairedWith base: (identities: [String], versions: [UInt64])? = nil) -> [String] {
        let encoded = identities
        let baseEncoded = base?.identities ?? []
        // Only identities that repeat (on this side or in BASE) need pairing;
        // mostly there are none, and every key is its identity.
        func repeated(_ list: [String]) -> Set<String> {
            var seen = Set<String>(minimumCapacity: list.count)
            var repeated = Set<String>()
            for identity in list where !seen.insert(identity).inserted { repeated.insert(identity) }
            return repeated
        }
        let repeating = repeated(encoded).union(repeated(baseEncoded))
        guard !repeating.isEmpty else { return encoded }
        var rowsOfIdentity: [String: [Int]] = [:]
        for (row, identity) in encoded.enumerated() where repeating.contains(identity) { rowsOfIdentity[identity, default: []].append(row) }
        var baseVersions: [String: [UInt64]] = [:]
        if let base {
            for (row, identity) in baseEncoded.enumerated() where repeating.contains(identity) {
                baseVersions[identity, default: []].append(base.versions[row])
            }
        }
        var occurrence = [Int](repeating: 0, count: encoded.count)
        for (identity, rows) in rowsOfIdentity {
            let baseGroup = baseVersions[identity] ?? []
            guard rows.count > 1 || baseGroup.count > 1 else { continue }
            var taken = [Bool](repeating: false, count: baseGroup.count)
            var equal: [UInt64: [Int]] = [:]
            for (index, version) in baseGroup.enumerated().reversed() { equal[version, default: []].append(index) }
            var unpaired: [Int] = []
            for row in rows {
                if let index = equal[versions[row]]?.popLast() {
                    taken[index] = true
                    occurrence[row] = index
                } else {
                    unpaired.append(row)
                }
            }
            var next = 0, fresh = baseGroup.count
            for row in unpaired {
                while next < baseGroup.count && taken[next] { next += 1 }
                if next < baseGroup.count {
                    taken[next] = true
                    occurrence[row] = next
                } else {
                    occurrence[row] = fresh
                    fresh += 1
                }
            }
        }
        return encoded.indices.map { occurrence[$0] == 0 ? encoded[$0] : encoded[$0] + "\u{0}#\(occurrence[$0])" }
    }

    static func encoded(_ identity: String) -> String {
        guard identity.utf8.contains(where: { $0 == 0 || $0 >= 0x80 }) else { return identity }
        var result = ""
        for scalar in identity.unicodeScalars {
            if scalar.value == 0 {
                result += "\u{0}\u{1}"
            } else if scalar.isASCII {
                result.unicodeScalars.append(scalar)
            } else {
                result += "\u{0}x" + String(scalar.value, radix: 16) + ";"
            }
        }
        return result
    }

    /// The identity part, for showing a key to a person.
    static func identity(_ key: String) -> String {
        var key = Substring(key)
        if let mark = key.range(of: "\u{0}#", options: .backwards) { key = key[..<mark.lowerBound] }
        guard key.utf8.contains(0) else { return String(key) }
        var result = String.UnicodeScalarView()
        var scalars = key.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar.value == 0, let kind = scalars.next() else {
                result.append(scalar)
                continue
            }
            if kind == "\u{1}" {
                result.append("\u{0}")
                continue
            }
            var hex = ""
            while let digit = scalars.next(), digit != ";" { hex.unicodeScalars.append(digit) }
            if let value = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(value) { result.append(decoded) }
        }
        return String(result)
    }
}
