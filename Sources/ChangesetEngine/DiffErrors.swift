/// A changeset failed its consistency check. From `Differ.diff` it is a bug
/// in the engine, never a property of the input: report it with the two
/// lists that caused it. From `Differ.verify` of a changeset made or edited
/// elsewhere, it says where that changeset does not add up.
public struct InvariantViolation: Error, CustomStringConvertible {
    /// What did not add up, in the engine's terms (positions, counts).
    public var detail: String
    /// An engine bug described by `detail`.
    @inlinable public init(detail: String) { self.detail = detail }
    /// The message, saying it is an internal error.
    public var description: String { "internal error: the computed changeset is inconsistent (\(detail))" }
}

/// One of the two lists given to `Differ.diff` holds a section id twice:
/// sections are matched by id, so each must be unique on its side.
public struct DuplicateSectionIDError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Which of the two lists.
    public enum Side: String, Equatable, Sendable {
        /// The list diffed from.
        case old
        /// The list diffed to.
        case new
    }

    /// The list holding the repeated id.
    public var side: Side
    /// The repeated id, as `String(describing:)` prints it.
    public var id: String
    /// The index of the first section with the id.
    public var firstIndex: Int
    /// The index of the section that repeats it.
    public var repeatIndex: Int

    /// The error for section id `id`, at section indices `firstIndex` and `repeatIndex` of `side`.
    @inlinable public init(side: Side, id: String, firstIndex: Int, repeatIndex: Int) {
        self.side = side
        self.id = id
        self.firstIndex = firstIndex
        self.repeatIndex = repeatIndex
    }

    /// For example `section id "fruit" appears twice in the new list (sections 0 and 2)`.
    public var description: String {
        "section id \"\(id)\" appears twice in the \(side.rawValue) list (sections \(firstIndex) and \(repeatIndex))"
    }
}

/// A matching given to `Differ.diff(from:to:matching:)` names an old element
/// that does not exist or that another new element already took.
public struct InvalidMatchingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The flat index of the new element whose entry is wrong.
    public var newIndex: Int
    /// The old index it names.
    public var oldIndex: Int
    /// How many elements the old list holds.
    public var oldCount: Int

    /// The error for entry `newIndex` of the matching, naming `oldIndex` of `oldCount` old elements.
    @inlinable public init(newIndex: Int, oldIndex: Int, oldCount: Int) {
        self.newIndex = newIndex
        self.oldIndex = oldIndex
        self.oldCount = oldCount
    }

    /// Which entry is wrong and why.
    public var description: String {
        oldIndex < oldCount
            ? "the matching pairs new element \(newIndex) with old element \(oldIndex), which an earlier new element already took"
            : "the matching pairs new element \(newIndex) with old element \(oldIndex), but the old list holds \(oldCount)"
    }
}

/// A list given to `Differ` holds more elements than the engine indexes:
/// it keeps element positions in 32 bits (4 bytes an element where an `Int`
/// takes 8), so each list holds at most ``limit`` elements.
public struct TooManyElementsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// How many elements the old list holds.
    public var oldCount: Int
    /// How many elements the new list holds.
    public var newCount: Int
    /// The most elements a list may hold.
    public var limit: Int

    /// The error for lists of `oldCount` and `newCount` elements, one of them past `limit`.
    @inlinable public init(oldCount: Int, newCount: Int, limit: Int) {
        self.oldCount = oldCount
        self.newCount = newCount
        self.limit = limit
    }

    /// For example `the new list holds 3000000000 elements; the engine diffs lists of at most 2147483646`.
    public var description: String {
        let (side, count) = oldCount > limit ? ("old", oldCount) : ("new", newCount)
        return "the \(side) list holds \(count) elements; the engine diffs lists of at most \(limit)"
    }
}
