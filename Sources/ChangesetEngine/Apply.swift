/// A changeset that does not fit the data it is applied to.
public struct ApplyError: Error, Equatable, CustomStringConvertible {
    /// What does not fit, in positions and counts.
    public var detail: String
    /// The message, for example `the changeset does not fit this data: no item at 0/3 to remove`.
    public var description: String { "the changeset does not fit this data: \(detail)" }

    /// The error for the misfit `detail`.
    @inlinable public init(detail: String) { self.detail = detail }
}

extension SectionedChangeset {
    /// Replays the changeset on `old`, the data it was computed from, and
    /// returns the new data, following UIKit's batch-update order: remove
    /// deleted and moved-out elements and deleted sections (old coordinates),
    /// place inserted and moved sections, then insert and move elements in
    /// (new coordinates, ascending). Updated elements take their new value.
    ///
    /// Throws instead of trapping when an index does not fit `old`.
    /// (Inlinable, like `Differ`'s entry points: a caller in another module
    /// gets it specialized for its element type, not run through generic
    /// witnesses.)
    @inlinable
    public func apply(to old: [ListSection<SectionID, Element>]) throws -> [ListSection<SectionID, Element>] {
        func misfit(_ detail: String) -> ApplyError { ApplyError(detail: detail) }
        guard old.count == oldSectionCount else {
            throw misfit("it was made for \(oldSectionCount) sections, the data has \(old.count)")
        }
        // Old sections, with updates applied in place and removals marked.
        var sections = old.map { $0.elements.map { Optional($0) } }
        let movedPaths = Set(moves.map(\.from))
        for update in updates where !movedPaths.contains(update.old) {
            guard sections.indices.contains(update.old.section),
                sections[update.old.section].indices.contains(update.old.item)
            else { throw misfit("no item at \(update.old) to update") }
            sections[update.old.section][update.old.item] = update.element
        }
        for path in deletions.map(\.at) + moves.map(\.from) {
            guard sections.indices.contains(path.section), sections[path.section].indices.contains(path.item),
                sections[path.section][path.item] != nil
            else { throw misfit("no item at \(path) to remove") }
            sections[path.section][path.item] = nil
        }

        // Sections in their new order.
        var placed = [ListSection<SectionID, Element>?](repeating: nil, count: newSectionCount)
        for inserted in insertedSections {
            guard placed.indices.contains(inserted.index), placed[inserted.index] == nil else {
                throw misfit("section \(inserted.index) is placed twice")
            }
            placed[inserted.index] = ListSection(id: inserted.id, elements: [])
        }
        let deleted = Set(deletedSections)
        let movedFrom = Set(movedSections.map(\.from))
        for move in movedSections {
            guard placed.indices.contains(move.to), placed[move.to] == nil, old.indices.contains(move.from) else {
                throw misfit("section move \(move.from) -> \(move.to) does not fit")
            }
            placed[move.to] = ListSection(id: old[move.from].id, elements: sections[move.from].compactMap { $0 })
        }
        var slot = 0
        for index in old.indices where !deleted.contains(index) && !movedFrom.contains(index) {
            while slot < placed.count && placed[slot] != nil { slot += 1 }
            guard slot < placed.count else { throw misfit("more sections remain than the new data has") }
            placed[slot] = ListSection(id: old[index].id, elements: sections[index].compactMap { $0 })
        }
        guard placed.allSatisfy({ $0 != nil }) else { throw misfit("a section of the new data is not accounted for") }
        var result = placed.map { $0! }

        // Elements into place: per section, merge the remaining elements with
        // the arrivals (insertions and move targets) at their new indices.
        var arrivals = [[(item: Int, element: Element)]](repeating: [], count: result.count)
        for (path, element) in insertions.map({ ($0.at, $0.element) }) + moves.map({ ($0.to, $0.element) }) {
            guard arrivals.indices.contains(path.section) else { throw misfit("cannot place an item at \(path)") }
            arrivals[path.section].append((path.item, element))
        }
        for index in result.indices where !arrivals[index].isEmpty {
            let incoming = arrivals[index].sorted { $0.item < $1.item }
            let staying = result[index].elements
            var merged: [Element] = []
            merged.reserveCapacity(staying.count + incoming.count)
            var next = 0
            for arrival in incoming {
                guard arrival.item >= merged.count else { throw misfit("two items arrive at \(index)/\(arrival.item)") }
                while merged.count < arrival.item {
                    guard next < staying.count else { throw misfit("cannot place an item at \(index)/\(arrival.item)") }
                    merged.append(staying[next])
                    next += 1
                }
                merged.append(arrival.element)
            }
            merged.append(contentsOf: staying[next...])
            result[index].elements = merged
        }
        return result
    }

    /// The flat form of `apply(to:)`.
    @inlinable
    public func apply(to old: [Element]) throws -> [Element] where SectionID == Int {
        try apply(to: [ListSection(id: 0, elements: old)]).first?.elements ?? []
    }
}
