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
        var occurrences: [String: Int] = [:]
        var keys: [String] = []
        var versions: [UInt64] = []
        for record in records {
            let version = record.contentHash(mode: mode)
            let identity = id.isEmpty ? String(version, radix: 16) : RecordKey.join(id.map { keyText(record.member(at: $0.components)) })
            let occurrence = occurrences[identity, default: 0]
            occurrences[identity] = occurrence + 1
            keys.append(MergeKey.occurrence(occurrence, of: identity))
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
/// occurrence` does in a diff).
enum MergeKey {
    /// NULs in the identity are escaped (U+0000 U+0001), so the occurrence
    /// mark (U+0000 #) cannot occur in it and keys never collide.
    static func occurrence(_ occurrence: Int, of identity: String) -> String {
        let escaped = identity.utf8.contains(0) ? identity.replacingOccurrences(of: "\u{0}", with: "\u{0}\u{1}") : identity
        return occurrence == 0 ? escaped : escaped + "\u{0}#\(occurrence)"
    }

    /// The identity part, for showing a key to a person.
    static func identity(_ key: String) -> String {
        var key = key
        if let mark = key.range(of: "\u{0}#", options: .backwards) { key = String(key[..<mark.lowerBound]) }
        return key.utf8.contains(0) ? key.replacingOccurrences(of: "\u{0}\u{1}", with: "\u{0}") : key
    }
}

extension Value {
    /// The member at `path` inside nested objects, if there is one.
    func member(at path: [String]) -> Value? {
        var current = self
        for name in path {
            guard case .object(let members) = current, let found = members.first(where: { $0.name == name }) else { return nil }
            current = found.value
        }
        return current
    }
}
