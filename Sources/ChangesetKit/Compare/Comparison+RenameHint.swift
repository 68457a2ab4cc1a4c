/// Renames suggested: a column renamed between two snapshots shows as one
/// removed and one added; when their values agree in the records matched by
/// id, the report says it looks renamed.
extension Comparison {
    /// Matched records looked at, at most: the first updated ones in OLD's
    /// order. (A record that holds a removed field with a value changed: NEW
    /// has no record with that field. CSV rows whose removed and added cells
    /// are both empty can stay unchanged; they say nothing of a rename.)
    static let renameSample = 10_000

    /// For each removed field, the added field whose values are equal in
    /// the most matched records, when that is at least 90% of the records
    /// where both are present (and at least one). Only with `--id` (records
    /// matched by content have no pairs to compare) and only when fields
    /// were both removed and added.
    func suggestedRenames() throws -> [RenameSuggestion] {
        let removed = schema.removed.map(\.path), added = schema.added.map(\.path)
        guard !removed.isEmpty, !added.isEmpty, !new.records.keys.isEmpty, !old.records.keys.isEmpty else { return [] }
        var compared = [[Int]](repeating: [Int](repeating: 0, count: added.count), count: removed.count)
        var equal = compared
        for update in changeset.updates.prefix(Self.renameSample) {
            let oldRow = ref(update.old, .old).row
            let newRow = ref(update.new, .new).row
            let oldValue = try old.value(ofRecord: oldRow), newValue = try new.value(ofRecord: newRow)
            for (r, removedPath) in removed.enumerated() {
                guard let before = oldValue.member(at: removedPath.components) else { continue }
                for (a, addedPath) in added.enumerated() {
                    guard let after = newValue.member(at: addedPath.components) else { continue }
                    compared[r][a] += 1
                    if before.isEquivalent(to: after, mode: options.records.mode) { equal[r][a] += 1 }
                }
            }
        }
        var suggestions: [RenameSuggestion] = []
        for (r, removedPath) in removed.enumerated() {
            guard let a = added.indices.max(by: { equal[r][$0] < equal[r][$1] }),
                  equal[r][a] > 0, equal[r][a] * 10 >= compared[r][a] * 9 else { continue }
            suggestions.append(RenameSuggestion(old: removedPath, new: added[a], compared: compared[r][a], equal: equal[r][a]))
        }
        return suggestions
    }
}
