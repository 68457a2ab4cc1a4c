/// `--group`: updated records that changed the same fields the same way,
/// one group each; the text and markdown reports write a group once, with
/// how many records and their first ids, instead of one entry per record,
/// largest group first (`bySize`).
struct UpdateGroups {
    /// The ids a group names before "… and N more".
    static let shownIDs = 5

    struct Group {
        var first: Change
        var ids: [String]
        var count: Int
    }

    /// In the order their first record comes.
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
        let id = change.id.map(ReportValueText.id) ?? "?"
        // The same fields, the same way (a hash shared by other changes is checked, not trusted).
        if let slot = groupOfSignature[signature, default: []].first(where: { groups[$0].first.fields == change.fields }) {
            groups[slot].count += 1
            if groups[slot].ids.count < Self.shownIDs { groups[slot].ids.append(id) }
            return
        }
        groupOfSignature[signature, default: []].append(groups.count)
        groups.append(Group(first: change, ids: [id], count: 1))
    }

    /// The groups as a report lists them: the largest first, since grouping
    /// is for a review of many updates and the transition made by a thousand
    /// records is the one to see, not one that happens to come first in the
    /// file; groups of one size in the order their first record comes.
    var bySize: [Group] {
        groups.indices.sorted { groups[$0].count != groups[$1].count ? groups[$0].count > groups[$1].count : $0 < $1 }
            .map { groups[$0] }
    }
}
