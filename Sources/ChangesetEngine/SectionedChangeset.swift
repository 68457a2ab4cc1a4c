/// A position in sectioned data: section index and item index, both 0-based.
/// (Not `IndexPath`: that name is Foundation's, and every UIKit user imports it.)
public struct ItemPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var section: Int
    public var item: Int

    @inlinable public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }

    public static func < (lhs: ItemPath, rhs: ItemPath) -> Bool {
        (lhs.section, lhs.item) < (rhs.section, rhs.item)
    }

    public var description: String { "\(section)/\(item)" }
}

/// A section of identifiable elements, as the engine takes and `apply` returns them.
public struct ListSection<ID: Hashable, Element> {
    public var id: ID
    public var elements: [Element]

    public init(id: ID, elements: [Element]) {
        self.id = id
        self.elements = elements
    }
}

extension ListSection: Equatable where Element: Equatable {}
extension ListSection: Sendable where ID: Sendable, Element: Sendable {}

/// What changed between two sectioned collections, in UIKit batch-update
/// coordinates: deletions, updates and move sources are *old* index paths
/// (section indices too); insertions and move targets are *new* ones.
///
/// Every change carries the new element where there is one, so `apply` can
/// rebuild the new collection from the old one and the changeset alone.
public struct SectionedChangeset<SectionID: Hashable, Element> {
    public struct SectionMove: Equatable, Sendable {
        public var from: Int
        public var to: Int
        @inlinable public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    public struct Insertion {
        public var at: ItemPath
        public var element: Element
        @inlinable public init(at: ItemPath, element: Element) {
            self.at = at
            self.element = element
        }
    }

    public struct Deletion: Equatable, Sendable {
        public var at: ItemPath
        @inlinable public init(at: ItemPath) { self.at = at }
    }

    /// Same id, different content. `old` is where UIKit would reload it; `new`
    /// is where it ends up (they differ when the record also moved).
    public struct Update {
        public var old: ItemPath
        public var new: ItemPath
        public var element: Element
        @inlinable public init(old: ItemPath, new: ItemPath, element: Element) {
            self.old = old
            self.new = new
            self.element = element
        }
    }

    public struct Move {
        public var from: ItemPath
        public var to: ItemPath
        public var element: Element
        /// The element changed section. (Indices alone cannot tell: the
        /// sections themselves may have moved.)
        public var isAcrossSections: Bool
        @inlinable public init(from: ItemPath, to: ItemPath, element: Element, isAcrossSections: Bool) {
            self.from = from
            self.to = to
            self.element = element
            self.isAcrossSections = isAcrossSections
        }
    }

    public var deletedSections: [Int] = []
    public var insertedSections: [(index: Int, id: SectionID)] = []
    public var movedSections: [SectionMove] = []
    public var deletions: [Deletion] = []
    public var insertions: [Insertion] = []
    public var updates: [Update] = []
    public var moves: [Move] = []
    /// Records matched with equal content (whether or not they moved).
    public var unchangedCount = 0
    public var oldCount = 0
    public var newCount = 0
    public var oldSectionCount = 0
    public var newSectionCount = 0

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

    /// True when the two sides hold the same data in the same order.
    public var isEmpty: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && movedSections.isEmpty
            && deletions.isEmpty && insertions.isEmpty && updates.isEmpty && moves.isEmpty
    }
}

extension SectionedChangeset: Sendable where SectionID: Sendable, Element: Sendable {}
extension SectionedChangeset.Insertion: Sendable where Element: Sendable {}
extension SectionedChangeset.Update: Sendable where Element: Sendable {}
extension SectionedChangeset.Move: Sendable where Element: Sendable {}
