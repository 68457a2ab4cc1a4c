/// The changes of one `performBatchUpdates` call on a `UITableView` or
/// `UICollectionView` (or `NSCollectionView`), in that call's index spaces:
/// deleted and reloaded items, deleted sections and move sources are
/// positions before the batch; inserted items, inserted sections and move
/// targets are positions after it.
///
/// ``SectionedChangeset/batchUpdates()`` gives a changeset as a list of
/// these, each one a batch UIKit accepts.
public struct BatchUpdate: Equatable, Sendable {
    /// A section that changes place: index `from` before the batch, `to` after it.
    public typealias SectionMove = ListSectionMove

    /// An item that changes place: path `from` before the batch, `to` after it.
    public struct ItemMove: Equatable, Sendable {
        /// The item's path before the batch.
        public var from: ItemPath
        /// The item's path after the batch.
        public var to: ItemPath
        /// The move of the item at `from` to `to`.
        @inlinable public init(from: ItemPath, to: ItemPath) {
            self.from = from
            self.to = to
        }
    }

    /// Sections to delete (`deleteSections`), indices before the batch, ascending.
    public var deletedSections: [Int] = []
    /// Sections to insert (`insertSections`), indices after the batch, ascending.
    public var insertedSections: [Int] = []
    /// Sections to move (`moveSection(_:toSection:)`), in order of their targets.
    public var movedSections: [SectionMove] = []
    /// Items to delete (`deleteRows`/`deleteItems`), paths before the batch, ascending.
    public var deletedItems: [ItemPath] = []
    /// Items to insert (`insertRows`/`insertItems`), paths after the batch, ascending.
    public var insertedItems: [ItemPath] = []
    /// Items to reload (`reloadRows`/`reloadItems`), paths before the batch, ascending.
    public var reloadedItems: [ItemPath] = []
    /// Items to move (`moveRow`/`moveItem`), in order of their targets.
    public var movedItems: [ItemMove] = []

    /// An empty batch, to fill in.
    @inlinable public init() {}

    /// True when the batch changes nothing.
    public var isEmpty: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && movedSections.isEmpty
            && deletedItems.isEmpty && insertedItems.isEmpty && reloadedItems.isEmpty && movedItems.isEmpty
    }
}

extension SectionedChangeset {
    /// The changeset as batch updates UIKit accepts, to run one after the
    /// other, each in its own `performBatchUpdates`, with the data source
    /// holding the new list from before the first.
    ///
    /// A changeset is exact; UIKit's batch rules are narrower, and this
    /// staging keeps them:
    /// - An item that moved and changed is moved in the first batch and
    ///   reloaded at its new path in a second (UIKit refuses a reload and a
    ///   move of one item in a batch). The second batch holds only those
    ///   reloads, so the counts it sees do not change. Other updates are
    ///   reloaded in the first batch, at their old paths.
    /// - Items of a deleted section are not deleted one by one, nor items of
    ///   an inserted section inserted (the section operation carries them).
    ///   An item that moves out of a deleted section or into an inserted one
    ///   is deleted from its old path and inserted at its new one instead
    ///   (never a move into a section being inserted), so it shows its new
    ///   content without a reload.
    /// - No path appears twice among a batch's deletes, reloads and move
    ///   sources, nor among its inserts and move targets; per section, the
    ///   count after equals the count before, minus deletes and moves out,
    ///   plus inserts and moves in.
    ///
    /// Returns no batch for an empty changeset, one when no item both moved
    /// and changed, and two otherwise. Time O(n log n) in the number of changes.
    ///
    /// ```swift
    /// dataSource.sections = new
    /// for batch in changeset.batchUpdates() {
    ///     tableView.performBatchUpdates {
    ///         tableView.deleteSections(IndexSet(batch.deletedSections), with: .fade)
    ///         tableView.insertSections(IndexSet(batch.insertedSections), with: .fade)
    ///         for move in batch.movedSections { tableView.moveSection(move.from, toSection: move.to) }
    ///         tableView.deleteRows(at: batch.deletedItems.map(IndexPath.init), with: .fade)
    ///         tableView.insertRows(at: batch.insertedItems.map(IndexPath.init), with: .fade)
    ///         tableView.reloadRows(at: batch.reloadedItems.map(IndexPath.init), with: .none)
    ///         for move in batch.movedItems { tableView.moveRow(at: IndexPath(move.from), to: IndexPath(move.to)) }
    ///     }
    /// }
    /// ```
    /// (with `extension IndexPath { init(_ path: ItemPath) { self.init(row: path.item, section: path.section) } }`).
    public func batchUpdates() -> [BatchUpdate] {
        let deletedSectionSet = Set(deletedSections)
        let insertedSectionSet = Set(insertedSections.map(\.index))
        var first = BatchUpdate()
        first.deletedSections = deletedSections.sorted()
        first.insertedSections = insertedSections.map(\.index).sorted()
        first.movedSections = movedSections.sorted { $0.to < $1.to }
        first.deletedItems = deletions.map(\.at).filter { !deletedSectionSet.contains($0.section) }
        first.insertedItems = insertions.map(\.at).filter { !insertedSectionSet.contains($0.section) }

        var second = BatchUpdate()
        let updatedPaths = Set(updates.map(\.old))
        var movedPaths = Set<ItemPath>()
        movedPaths.reserveCapacity(moves.count)
        for move in moves {
            movedPaths.insert(move.from)
            let leavesDeletedSection = deletedSectionSet.contains(move.from.section)
            let entersInsertedSection = insertedSectionSet.contains(move.to.section)
            if leavesDeletedSection || entersInsertedSection {
                if !leavesDeletedSection { first.deletedItems.append(move.from) }
                if !entersInsertedSection { first.insertedItems.append(move.to) }
            } else {
                first.movedItems.append(BatchUpdate.ItemMove(from: move.from, to: move.to))
                if updatedPaths.contains(move.from) { second.reloadedItems.append(move.to) }
            }
        }
        first.reloadedItems = updates.map(\.old).filter { !movedPaths.contains($0) }
        first.deletedItems.sort()
        first.insertedItems.sort()
        first.reloadedItems.sort()
        first.movedItems.sort { $0.to < $1.to }
        second.reloadedItems.sort()
        return [first, second].filter { !$0.isEmpty }
    }
}
