/// Merges the three versions of one record field by field, walking nested
/// objects (arrays are values, merged whole).
///
/// For each field: changed on one side only, that change; the same on both,
/// once; different on both, a conflict. A field one side removed counts as
/// changed to "absent". Fields that `--ignore`/`--only` leave out of equality
/// never conflict and keep OURS's value (THEIRS's when OURS has none).
///
/// A value spelled otherwise but equal (`2.50` -> `2.5`) is a change of its
/// text, not of its value: taken from the side that made it when the other
/// left the field as it was, it never conflicts with a change of value (the
/// value wins), and where both sides changed the field to one value, OURS's
/// spelling stands.
package struct FieldMerge: Sendable {
    package var mode: ComparisonMode
    var rules: FieldRules

    /// `options`' `--ignore` and `--only` say which fields count; the section
    /// field counts here (a record moved to another section is a change to
    /// merge like any other).
    package init(mode: ComparisonMode, options: RecordOptions = RecordOptions(), flat: Bool = false) {
        var options = options
        options.section = nil
        options.renames = []
        self.mode = mode
        rules = FieldRules(options, flat: flat)
    }

    /// The record as OURS and as THEIRS would resolve it (equal when nothing
    /// conflicts), and the conflicts.
    package struct Outcome: Sendable {
        package var ours: Value
        package var theirs: Value
        package var conflicts: [MergeConflict]
    }

    package func merge(_ base: Value, _ ours: Value, _ theirs: Value, key: String) -> Outcome {
        var conflicts: [MergeConflict] = []
        let (resolvedOurs, resolvedTheirs) = merge(base, ours, theirs, path: [], key: key, conflicts: &conflicts)
        return Outcome(ours: resolvedOurs ?? .object([]), theirs: resolvedTheirs ?? .object([]), conflicts: conflicts)
    }

    private func same(_ a: Value?, _ b: Value?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case let (a?, b?): return a.isEquivalent(to: b, mode: mode)
        // In text comparisons (CSV) a missing field and an empty one are the same.
        case (let present?, nil), (nil, let present?): return mode.isText && present.isEmptyText
        }
    }

    private func merge(
        _ base: Value?, _ ours: Value?, _ theirs: Value?, path: [String], key: String, conflicts: inout [MergeConflict]
    ) -> (Value?, Value?) {
        if !path.isEmpty && rules.verdict(path) == .skip {
            let kept = ours ?? theirs
            return (kept, kept)
        }
        // Spelled the same: nothing to choose. Spelled otherwise by one side only: that side's text.
        if ours == theirs { return (ours, ours) }
        if case .object(let oursMembers)? = ours, case .object(let theirsMembers)? = theirs {
            // A base that is not an object has no members to start from.
            var baseMembers: [Value.Member] = []
            if case .object(let members)? = base { baseMembers = members }
            return mergeMembers(baseMembers, oursMembers, theirsMembers, path: path, key: key, conflicts: &conflicts)
        }
        if ours == base { return (theirs, theirs) }
        if theirs == base { return (ours, ours) }
        // Both changed the text: by value, as the comparison has it.
        if same(ours, theirs) { return (ours, ours) }
        if same(ours, base) { return (theirs, theirs) }
        if same(theirs, base) { return (ours, ours) }
        conflicts.append(MergeConflict(kind: .field, key: key, path: FieldPath(path), base: base, ours: ours, theirs: theirs))
        return (ours, theirs)
    }

    /// Member by member, in OURS's order; a member only THEIRS has goes
    /// after the member that precedes it in THEIRS.
    private func mergeMembers(
        _ base: [Value.Member], _ ours: [Value.Member], _ theirs: [Value.Member],
        path: [String], key: String, conflicts: inout [MergeConflict]
    ) -> (Value, Value) {
        func byName(_ members: [Value.Member]) -> [ExactTextKey: Value] {
            Dictionary(members.map { (ExactTextKey($0.name), $0.value) }, uniquingKeysWith: { first, _ in first })
        }
        let baseByName = byName(base), oursByName = byName(ours), theirsByName = byName(theirs)
        var names = ours.map(\.name)
        var seen = Set(names.map(ExactTextKey.init))
        var previous: String?
        for member in theirs {
            if seen.insert(ExactTextKey(member.name)).inserted {
                let after = previous.flatMap { previous in names.firstIndex { ExactText.same($0, previous) } }
                names.insert(member.name, at: after.map { $0 + 1 } ?? 0)
            }
            previous = member.name
        }
        // Fields only BASE has were removed by both sides: they stay removed.
        var resolvedOurs: [Value.Member] = []
        var resolvedTheirs: [Value.Member] = []
        for name in names {
            let named = ExactTextKey(name)
            let (a, b) = merge(baseByName[named], oursByName[named], theirsByName[named], path: path + [name], key: key, conflicts: &conflicts)
            if let a { resolvedOurs.append(Value.Member(name: name, value: a)) }
            if let b { resolvedTheirs.append(Value.Member(name: name, value: b)) }
        }
        return (.object(resolvedOurs), .object(resolvedTheirs))
    }
}
