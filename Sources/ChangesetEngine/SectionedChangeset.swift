/// A position in sectioned data: section index and item index, both 0-based.
/// (Not `IndexPath`: that name is Foundation's, and every UIKit user imports it.)
public struct ItemPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The section's index.
    public var section: Int
    /// The item's index within its section.
    public var item: Int

    /// The path of item `item` of section `section`.
    @inlinable public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }

    /// Section first, then item.
    public static func < (lhs: ItemPath, rhs: ItemPath) -> Bool {
        (lhs.section, lhs.item) < (rhs.section, rhs.item)
    }

    /// `section/item`, for example `0/3`.
    public var description: String { "\(section)/\(item)" }
}

/// A section of identifiable elements, as the engine takes and `apply` returns them.
public struct ListSection<ID: Hashable, Element> {
    /// What matches this section with its counterpart on the other side: unique on each side.
    public var id: ID
    /// The section's items, in order.
    public var elements: [Element]

    /// A section with id `id` holding `elements`.
    public init(id: ID, elements: [Element]) {
        self.id = id
        self.elements = elements
    }
}

extension ListSection: Equatable where Element: Equatable {}
extension ListSection: Sendable where ID: Sendable, Element: Sendable {}

/// What changed between two sectioned lists: deletions, updates and move
/// sources are *old* index paths (section indices too); insertions and move
/// targets are *new* ones, the index spaces of a UIKit batch update.
///
/// The changeset is exact, not a batch UIKit accepts as it is: an item can
/// be both moved and updated (in ``moves`` and in ``updates``), which
/// `performBatchUpdates` refuses in one batch, and items can move out of a
/// deleted section or into an inserted one. ``batchUpdates()`` gives the
/// same change as batches UIKit accepts.
///
/// Every change carries the new element where there is one, so `apply` can
/// rebuild the new list from the old one and the changeset alone.
public struct SectionedChangeset<SectionID: Hashable, Element> {
    /// A section that changed place: old index `from`, new index `to`.
    public typealias SectionMove = ListSectionMove

    /// An item only in the new list.
    public struct Insertion {
        /// Its new path.
        public var at: ItemPath
        /// The inserted item.
        public var element: Element
        /// The insertion of `element` at new path `at`.
        @inlinable public init(at: ItemPath, element: Element) {
            self.at = at
            self.element = element
        }
    }

    /// An item only in the old list.
    public struct Deletion: Equatable, Sendable {
        /// Its old path.
        public var at: ItemPath
        /// The deletion of the item at old path `at`.
        @inlinable public init(at: ItemPath) { self.at = at }
    }

    /// Same id, different content. `old` is where UIKit would reload it; `new`
    /// is where it ends up (they differ when the item also moved).
    public struct Update {
        /// The item's old path.
        public var old: ItemPath
        /// The item's new path.
        public var new: ItemPath
        /// The item's new value.
        public var element: Element
        /// The update of the item at old path `old`, now at `new`, to `element`.
        @inlinable public init(old: ItemPath, new: ItemPath, element: Element) {
            self.old = old
            self.new = new
            self.element = element
        }
    }

    /// A matched item off the longest run kept in order, or one that changed section.
    public struct Move {
        /// Its old path.
        public var from: ItemPath
        /// Its new path.
        public var to: ItemPath
        /// The item's new value (updated too when its content changed).
        public var element: Element
        /// The element changed section. (Indices alone cannot tell: the
        /// sections themselves may have moved.)
        public var isAcrossSections: Bool
        /// The move of the item at old path `from` to new path `to`, now `element`.
        @inlinable public init(from: ItemPath, to: ItemPath, element: Element, isAcrossSections: Bool) {
            self.from = from
            self.to = to
            self.element = element
            self.isAcrossSections = isAcrossSections
        }
    }

    /// Old indices of the sections only in the old list, ascending.
    public var deletedSections: [Int] = []
    /// New indices and ids of the sections only in the new list, ascending.
    public var insertedSections: [(index: Int, id: SectionID)] = []
    /// Sections matched by id whose order changed, in new order.
    public var movedSections: [SectionMove] = []
    /// Items only in the old list, in old order (those of deleted sections included).
    public var deletions: [Deletion] = []
    /// Items only in the new list, in new order (those of inserted sections included).
    public var insertions: [Insertion] = []
    /// Matched items whose content changed, in old order.
    public var updates: [Update] = []
    /// Matched items that moved, within or across sections, in new order.
    public var moves: [Move] = []
    /// Items matched with equal content (whether or not they moved).
    public var unchangedCount = 0
    /// How many items the old list holds.
    public var oldCount = 0
    /// How many items the new list holds.
    public var newCount = 0
    /// How many sections the old list holds.
    public var oldSectionCount = 0
    /// How many sections the new list holds.
    public var newSectionCount = 0

    /// The changeset of two empty lists; `Differ.diff` fills one in.
    @inlinable public init() {}

    /// The moves a report shows: all of them, or with `ignoringOrder` only
    /// those between sections (a changed section field is a change of data,
    /// not of order). Replay formats always carry every move.
    package func reportedMoves(ignoringOrder: Bool) -> [Move] {
        ignoringOrder ? moves.filter(\.isAcrossSections) : moves
    }

    package func reportedSectionMoves(ignoringOrder: Bool) -> [SectionMove] {
        ignoringOrder ? [] : movedSections
    }

    /// True when the two lists hold the same items in the same order, content included.
    public var isEmpty: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && movedSections.isEmpty
            && deletions.isEmpty && insertions.isEmpty && updates.isEmpty && moves.isEmpty
    }
}

extension SectionedChangeset: Sendable where SectionID: Sendable, Element: Sendable {}
extension SectionedChangeset.Insertion: Sendable where Element: Sendable {}
extension SectionedChangeset.Update: Sendable where Element: Sendable {}
extension SectionedChangeset.Move: Sendable where Element: Sendable {}
extension SectionedChangeset.Insertion: Equatable where Element: Equatable {}
extension SectionedChangeset.Update: Equatable where Element: Equatable {}
extension SectionedChangeset.Move: Equatable where Element: Equatable {}
