import Foundation

extension ThreeWayMerge {
    /// Merges three arrays of records in memory: matched by the fields `id`
    /// names (the k-th record with an id matches the k-th with it on the
    /// other sides), or by content when `id` is empty.
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
        let snapshots = [base, ours, theirs].map { snapshot(of: $0, id: id, mode: mode) }
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

    /// Keys and versions of in-memory records.
    static func snapshot(of records: [Value], id: [FieldPath], mode: ComparisonMode) -> MergeSnapshot {
        var counter = MergeKey.Counter()
        var keys: [String] = []
        var versions: [UInt64] = []
        for record in records {
            let version = record.contentHash(mode: mode)
            let identity = id.isEmpty ? String(version, radix: 16) : RecordKey.join(id.map { keyText(record.member(at: $0.components)) })
            keys.append(counter.key(for: identity))
            versions.append(version)
        }
        return MergeSnapshot(keys: keys, versions: versions)
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
    /// Numbers the occurrences of each identity, in the order they are met.
    struct Counter {
        private var occurrences: [String: Int] = [:]

        /// The key of the next occurrence of `identity`.
        mutating func key(for identity: String) -> String {
            let encoded = MergeKey.encoded(identity)
            let occurrence = occurrences[encoded, default: 0]
            occurrences[encoded] = occurrence + 1
            return occurrence == 0 ? encoded : encoded + "\u{0}#\(occurrence)"
        }
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

extension Value {
    /// The member at `path` inside nested objects, if there is one.
    func member(at path: [String]) -> Value? {
        var current = self
        for name in path {
            guard case .object(let members) = current, let found = members.first(where: { ExactText.same($0.name, name) }) else { return nil }
            current = found.value
        }
        return current
    }
}
