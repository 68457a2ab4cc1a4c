/// `--group`: updated records that changed the same fields the same way,
/// one group each, in the order their first record comes; the text and
/// markdown reports write a group once, with how many records and their
/// first ids, instead of one entry per record.
struct UpdateGroups {
    /// The ids a group names before "… and N more".
    static let shownIDs = 5

    struct Group {
        var first: Change
        var ids: [String]
        var count: Int
    }

    private(set) var groups: [Group] = []
    private var groupOfSignature: [UInt64: [Int]] = [:]

    /// Adds an updated record to the group of its field changes.
    mutating func add(_ change: Change) {
        var signature: UInt64 = 0x6772_6F75
        for field in change.fields {
            signature = StableHash.combine(signature, StableHash.string(field.location, seed: 1))
            signature = StableHash.combine(signature, field.old.map { $0.contentHash(mode: .typed) } ?? 0)
            signature = StableHash.combine(signature, field.new.map { $0.contentHash(mode: .typed) } ?? 0)
        }
        let id = change.id.map(DisplayText.id) ?? "?"
        // The same fields, the same way (a hash shared by other changes is checked, not trusted).
        if let slot = groupOfSignature[signature, default: []].first(where: { groups[$0].first.fields == change.fields }) {
            groups[slot].count += 1
            if groups[slot].ids.count < Self.shownIDs { groups[slot].ids.append(id) }
            return
        }
        groupOfSignature[signature, default: []].append(groups.count)
        groups.append(Group(first: change, ids: [id], count: 1))
    }
}
