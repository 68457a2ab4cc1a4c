/// Merges the three versions of one record field by field, walking nested
/// objects member by member and arrays element by element.
///
/// For each field: changed on one side only, that change; the same on both,
/// once; different on both, a conflict. A field one side removed counts as
/// changed to "absent". Fields that `--ignore`/`--only` leave out of equality
/// never conflict and keep OURS's value (THEIRS's when OURS has none); as in
/// the comparison, the rules name fields outside arrays, and inside an
/// element every member counts.
///
/// Arrays (where BASE's version is an array too) are aligned as the
/// comparison aligns them (`ElementPairing`): BASE's elements with OURS's,
/// and BASE's with THEIRS's.
/// - Arrays of objects merge element by element. An element both sides kept
///   is merged member by member, recursively; a conflict inside it names the
///   element (`licenses[0].path`: the position in the array as OURS's
///   resolution has it, or THEIRS's where OURS's has no such element). An
///   element one side inserted is inserted; inserted by both at one place,
///   an equal one is taken once, else OURS's before THEIRS's (objects matched
///   by key: one key inserted by both with different content is a conflict on
///   the element). An element one side deleted is deleted when the other side
///   left it as it was, else a conflict on the element. Matched by key, an
///   element a side deleted and inserted elsewhere moved: it is merged where
///   that side put it (OURS's place when both moved it).
/// - Any other array is merged as a sequence, as diff3 merges lines: between
///   elements equal on all three sides, a stretch only one side changed takes
///   that side's elements, one both changed alike takes them once; a stretch
///   both changed differently is a conflict on the whole array, each side's
///   resolution holding its own elements there.
///
/// A value spelled otherwise but equal (`2.50` -> `2.5`) is a change of its
/// text, not of its value: taken from the side that made it when the other
/// left the field as it was, it never conflicts with a change of value (the
/// value wins), and where both sides changed the field to one value, OURS's
/// spelling stands.
package struct FieldMerge: Sendable {
    package var mode: ComparisonMode
    var rules: FieldRules
    /// Which member identifies an array's elements (the `--id` fields, a
    /// member named `id`, or an `--array-key`), as in the comparison.
    var elementKeys: ElementKeys

    /// `options`' `--ignore` and `--only` say which fields count; the section
    /// field counts here (a record moved to another section is a change to
    /// merge like any other).
    package init(mode: ComparisonMode, options: RecordOptions = RecordOptions(), flat: Bool = false) {
        var options = options
        options.section = nil
        options.renames = []
        self.mode = mode
        rules = FieldRules(options, flat: flat)
        elementKeys = ElementKeys(options)
    }

    /// The record as OURS and as THEIRS would resolve it (equal when nothing
    /// conflicts), and the conflicts.
    package struct Outcome: Sendable {
        package var ours: Value
        package var theirs: Value
        package var conflicts: [MergeConflict]
    }

    package func merge(_ base: Value, _ ours: Value, _ theirs: Value, key: String) -> Outcome {
        var walk = Walk(key: key)
        let (resolvedOurs, resolvedTheirs) = merge(base, ours, theirs, at: PathInRecord(), walk: &walk)
        return Outcome(ours: resolvedOurs ?? .object([]), theirs: resolvedTheirs ?? .object([]), conflicts: walk.conflicts)
    }

    /// Where a value stands in the record: member names, and the array
    /// positions on the way (as `FieldChange` has them).
    private struct PathInRecord {
        var path: [String] = []
        var elements: [FieldChange.ElementIndex] = []
        /// Inside an array element, where the rules do not reach.
        var inArray = false

        func member(_ name: String) -> PathInRecord {
            PathInRecord(path: path + [name], elements: elements, inArray: inArray)
        }

        func element(_ index: Int) -> PathInRecord {
            PathInRecord(path: path, elements: elements + [FieldChange.ElementIndex(depth: path.count, index: index)], inArray: true)
        }
    }

    private struct Walk {
        let key: String
        var conflicts: [MergeConflict] = []

        mutating func conflict(at place: PathInRecord, base: Value?, ours: Value?, theirs: Value?) {
            conflicts.append(MergeConflict(
                kind: .field, key: key, path: FieldPath(place.path), base: base, ours: ours, theirs: theirs, elements: place.elements))
        }
    }

    private func same(_ a: Value?, _ b: Value?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case let (a?, b?): return a.isEquivalent(to: b, mode: mode)
        // In text comparisons (CSV) a missing field and an empty one are the same.
        case (let present?, nil), (nil, let present?): return mode.isText && present.isEmptyText
        }
    }

    private func merge(_ base: Value?, _ ours: Value?, _ theirs: Value?, at place: PathInRecord, walk: inout Walk) -> (Value?, Value?) {
        if !place.inArray && !place.path.isEmpty && rules.verdict(place.path) == .skip {
            let kept = ours ?? theirs
            return (kept, kept)
        }
        // Spelled the same: nothing to choose. Spelled otherwise by one side only: that side's text.
        if ours == theirs { return (ours, ours) }
        if case .object(let oursMembers)? = ours, case .object(let theirsMembers)? = theirs {
            // A base that is not an object has no members to start from.
            var baseMembers: [Value.Member] = []
            if case .object(let members)? = base { baseMembers = members }
            return mergeMembers(baseMembers, oursMembers, theirsMembers, at: place, walk: &walk)
        }
        if ours == base { return (theirs, theirs) }
        if theirs == base { return (ours, ours) }
        if case .array(let baseElements)? = base, case .array(let oursElements)? = ours, case .array(let theirsElements)? = theirs {
            let (a, b) = mergeArrays(baseElements, oursElements, theirsElements, at: place, walk: &walk)
            return (.array(a), .array(b))
        }
        // Both changed the text: by value, as the comparison has it.
        if same(ours, theirs) { return (ours, ours) }
        if same(ours, base) { return (theirs, theirs) }
        if same(theirs, base) { return (ours, ours) }
        walk.conflict(at: place, base: base, ours: ours, theirs: theirs)
        return (ours, theirs)
    }

    /// Member by member, in OURS's order; a member only THEIRS has goes
    /// after the member that precedes it in THEIRS.
    private func mergeMembers(
        _ base: [Value.Member], _ ours: [Value.Member], _ theirs: [Value.Member], at place: PathInRecord, walk: inout Walk
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
            let (a, b) = merge(baseByName[named], oursByName[named], theirsByName[named], at: place.member(name), walk: &walk)
            if let a { resolvedOurs.append(Value.Member(name: name, value: a)) }
            if let b { resolvedTheirs.append(Value.Member(name: name, value: b)) }
        }
        return (.object(resolvedOurs), .object(resolvedTheirs))
    }

    /// OURS's and THEIRS's resolution of an array (see the type's comment).
    private func mergeArrays(_ base: [Value], _ ours: [Value], _ theirs: [Value], at place: PathInRecord, walk: inout Walk) -> ([Value], [Value]) {
        func isObject(_ value: Value) -> Bool { if case .object = value { true } else { false } }
        if base.allSatisfy(isObject) && ours.allSatisfy(isObject) && theirs.allSatisfy(isObject) {
            return mergeElements(base, ours, theirs, at: place, walk: &walk)
        }
        return mergeSequence(base, ours, theirs, at: place, walk: &walk)
    }

    /// How one side's array stands to BASE's: each BASE element's version
    /// on that side (kept in place, or moved), and the elements the side
    /// inserted, by the gap of BASE they stand in (gap `g` is before BASE's
    /// element `g`; the last one after them all).
    private struct SideOfArray {
        /// BASE's element -> this side's version of it, kept in its place.
        var kept: [Int?]
        /// BASE's element -> this side's version of it, inserted elsewhere (matched by key).
        var moved: [Int: Int] = [:]
        /// This side's element that is a BASE element moved -> that BASE element.
        var movedFrom: [Int: Int] = [:]
        /// Per gap, this side's inserted elements (moved ones too), in order.
        var inserted: [[Int]]
        let byKey: Bool

        init(base: [Value], side: [Value], key: [FieldPath], merge: FieldMerge) {
            let pairing = ElementPairing(base, side, mode: merge.mode, elementKey: key)
            byKey = pairing.byKey
            kept = [Int?](repeating: nil, count: base.count)
            inserted = [[Int]](repeating: [], count: base.count + 1)
            var pairs = pairing.pairs[...]
            var gap = 0
            for index in side.indices {
                if let pair = pairs.first, pair.new == index {
                    kept[pair.old] = index
                    gap = pair.old + 1
                    pairs.removeFirst()
                } else {
                    inserted[gap].append(index)
                }
            }
            guard byKey, !pairing.deleted.isEmpty, !pairing.inserted.isEmpty else { return }
            // A deleted element whose key the side inserted again moved there.
            let insertedByKey = ElementsByKey(pairing.inserted, of: side, key: key, mode: merge.mode)
            for old in pairing.deleted {
                if let new = insertedByKey.find(base[old]) {
                    moved[old] = new
                    movedFrom[new] = old
                }
            }
        }

        /// This side's version of BASE's element, wherever it stands.
        func version(of old: Int) -> Int? { kept[old] ?? moved[old] }
    }

    /// Some elements of an array that all hold the key fields (keys unique), found by an element's key.
    private struct ElementsByKey {
        let elements: [Value]
        let keyFields: [FieldPath]
        let mode: ComparisonMode
        var indices: [UInt64: [Int]] = [:]

        init(_ chosen: [Int], of elements: [Value], key: [FieldPath], mode: ComparisonMode) {
            self.elements = elements
            keyFields = key
            self.mode = mode
            for index in chosen { indices[hash(elements[index]), default: []].append(index) }
        }

        private func key(_ element: Value) -> Value {
            .array(keyFields.map { element.member(at: $0.components) ?? .null })
        }

        private func hash(_ element: Value) -> UInt64 { key(element).contentHash(mode: mode) }

        /// The chosen element whose key is `element`'s.
        func find(_ element: Value) -> Int? {
            guard !indices.isEmpty else { return nil }
            let wanted = key(element)
            return indices[hash(element)]?.first { key(elements[$0]).isEquivalent(to: wanted, mode: mode) }
        }
    }

    private func mergeElements(_ base: [Value], _ ours: [Value], _ theirs: [Value], at place: PathInRecord, walk: inout Walk) -> ([Value], [Value]) {
        // One key for all three versions, so both sides' elements are matched alike.
        let key = elementKeys.key(at: place.path, versions: [base, ours, theirs], mode: mode)
        let oursSide = SideOfArray(base: base, side: ours, key: key, merge: self)
        let theirsSide = SideOfArray(base: base, side: theirs, key: key, merge: self)
        var resolvedOurs: [Value] = []
        var resolvedTheirs: [Value] = []
        /// BASE's element `old` where it is placed: merged from both sides' versions.
        func emit(base old: Int) {
            let oursVersion = oursSide.version(of: old).map { ours[$0] }
            let theirsVersion = theirsSide.version(of: old).map { theirs[$0] }
            switch (oursVersion, theirsVersion) {
            case let (a?, b?):
                let (x, y) = merge(base[old], a, b, at: place.element(resolvedOurs.count), walk: &walk)
                if let x { resolvedOurs.append(x) }
                if let y { resolvedTheirs.append(y) }
            case (let kept?, nil), (nil, let kept?):
                // Deleted on one side: gone, unless the other side changed it.
                if same(kept, base[old]) { return }
                let oursKept = oursVersion != nil
                walk.conflict(at: place.element(oursKept ? resolvedOurs.count : resolvedTheirs.count),
                              base: base[old], ours: oursVersion, theirs: theirsVersion)
                if oursKept { resolvedOurs.append(kept) } else { resolvedTheirs.append(kept) }
            case (nil, nil):
                return
            }
        }
        func emit(_ value: Value) {
            resolvedOurs.append(value)
            resolvedTheirs.append(value)
        }
        // With keys, the elements THEIRS inserted (not moved), to find one OURS inserted too.
        let theirsInsertedByKey = ElementsByKey(
            oursSide.byKey && theirsSide.byKey ? theirsSide.inserted.joined().filter { theirsSide.movedFrom[$0] == nil } : [],
            of: theirs, key: key, mode: mode)
        // OURS's inserted element -> THEIRS's with the same key, wherever each stands.
        var twins: [Int: Int] = [:]
        if oursSide.byKey && theirsSide.byKey {
            for index in oursSide.inserted.joined() where oursSide.movedFrom[index] == nil {
                if let twin = theirsInsertedByKey.find(ours[index]) { twins[index] = twin }
            }
        }
        let takenFromTheirs = Set(twins.values)
        for gap in 0...base.count {
            var oursHere: [Value] = []
            for index in oursSide.inserted[gap] {
                if let old = oursSide.movedFrom[index] {
                    emit(base: old)
                    continue
                }
                if let twin = twins[index] {
                    if !same(ours[index], theirs[twin]) {
                        walk.conflict(at: place.element(resolvedOurs.count), base: nil, ours: ours[index], theirs: theirs[twin])
                        resolvedOurs.append(ours[index])
                        resolvedTheirs.append(theirs[twin])
                        continue
                    }
                }
                oursHere.append(ours[index])
                emit(ours[index])
            }
            for index in theirsSide.inserted[gap] where !takenFromTheirs.contains(index) {
                if let old = theirsSide.movedFrom[index] {
                    // OURS's place stands when both moved it.
                    if oursSide.moved[old] == nil { emit(base: old) }
                    continue
                }
                // Inserted by both at this place: once.
                if let twin = oursHere.firstIndex(where: { same($0, theirs[index]) }) {
                    oursHere.remove(at: twin)
                    continue
                }
                emit(theirs[index])
            }
            // BASE's element in its place, unless a side moved it (placed there).
            guard gap < base.count, oursSide.moved[gap] == nil, theirsSide.moved[gap] == nil else { continue }
            emit(base: gap)
        }
        return (resolvedOurs, resolvedTheirs)
    }

    /// diff3 over the elements as whole values (see the type's comment).
    private func mergeSequence(_ base: [Value], _ ours: [Value], _ theirs: [Value], at place: PathInRecord, walk: inout Walk) -> ([Value], [Value]) {
        func equalPairs(_ side: [Value]) -> [Int?] {
            var matched = [Int?](repeating: nil, count: base.count)
            for pair in ElementPairing(base, side, mode: mode, elementKey: []).pairs where pair.matched { matched[pair.old] = pair.new }
            return matched
        }
        let oursOf = equalPairs(ours), theirsOf = equalPairs(theirs)
        func sameRun(_ a: ArraySlice<Value>, _ b: ArraySlice<Value>) -> Bool {
            a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
        }
        var resolvedOurs: [Value] = []
        var resolvedTheirs: [Value] = []
        var conflicting = false
        var (i, j, k) = (0, 0, 0)
        while i < base.count || j < ours.count || k < theirs.count {
            // The next BASE element both sides kept (the matches ascend on every side).
            var stable = i
            while stable < base.count && (oursOf[stable] == nil || theirsOf[stable] == nil) { stable += 1 }
            let oursEnd = stable < base.count ? oursOf[stable]! : ours.count
            let theirsEnd = stable < base.count ? theirsOf[stable]! : theirs.count
            let baseRun = base[i..<stable], oursRun = ours[j..<oursEnd], theirsRun = theirs[k..<theirsEnd]
            if !(baseRun.isEmpty && oursRun.isEmpty && theirsRun.isEmpty) {
                if sameRun(oursRun, baseRun) {
                    resolvedOurs += theirsRun
                    resolvedTheirs += theirsRun
                } else if sameRun(theirsRun, baseRun) || sameRun(oursRun, theirsRun) {
                    resolvedOurs += oursRun
                    resolvedTheirs += oursRun
                } else {
                    conflicting = true
                    resolvedOurs += oursRun
                    resolvedTheirs += theirsRun
                }
            }
            guard stable < base.count else { break }
            // Equal on all three: OURS's text unless only THEIRS respelled it.
            let kept = ours[oursEnd] == base[stable] ? theirs[theirsEnd] : ours[oursEnd]
            resolvedOurs.append(kept)
            resolvedTheirs.append(kept)
            (i, j, k) = (stable + 1, oursEnd + 1, theirsEnd + 1)
        }
        if conflicting { walk.conflict(at: place, base: .array(base), ours: .array(ours), theirs: .array(theirs)) }
        return (resolvedOurs, resolvedTheirs)
    }
}
