extension SectionedChangeset: Equatable where Element: Equatable {
    /// Every list and count equal, in order. (Written out: `insertedSections`
    /// holds tuples, which have no synthesized conformance.)
    public static func == (lhs: SectionedChangeset, rhs: SectionedChangeset) -> Bool {
        lhs.deletedSections == rhs.deletedSections
            && lhs.insertedSections.map(\.index) == rhs.insertedSections.map(\.index)
            && lhs.insertedSections.map(\.id) == rhs.insertedSections.map(\.id)
            && lhs.movedSections == rhs.movedSections
            && lhs.deletions == rhs.deletions && lhs.insertions == rhs.insertions
            && lhs.updates == rhs.updates && lhs.moves == rhs.moves
            && lhs.unchangedCount == rhs.unchangedCount
            && lhs.oldCount == rhs.oldCount && lhs.newCount == rhs.newCount
            && lhs.oldSectionCount == rhs.oldSectionCount && lhs.newSectionCount == rhs.newSectionCount
    }
}
