/// A section that changes place: index `from` in the old list, `to` in the
/// new one. A ``SectionedChangeset`` and a ``BatchUpdate`` both list section
/// moves so (in a batch, the old list is the one before it).
public struct ListSectionMove: Equatable, Sendable {
    /// The section's old index (before the batch).
    public var from: Int
    /// The section's new index (after the batch).
    public var to: Int
    /// The move of the section at old index `from` to new index `to`.
    @inlinable public init(from: Int, to: Int) {
        self.from = from
        self.to = to
    }
}
