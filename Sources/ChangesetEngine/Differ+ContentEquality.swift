/// `Differ.diff` with content compared apart from `==`: by the elements'
/// ``ContentEquatableElement`` conformance or by a closure. Matching, moves and the
/// result's coordinates are those of the `==` forms; only what counts as an
/// update differs.
extension Differ {
    /// The changeset from `old` to `new`, content compared with
    /// ``ContentEquatableElement/isContentEqual(to:)``.
    @inlinable
    public static func diff<SectionID: Hashable, Element: Identifiable & ContentEquatableElement>(
        from old: [ListSection<SectionID, Element>], to new: [ListSection<SectionID, Element>]
    ) throws -> SectionedChangeset<SectionID, Element> {
        try diff(from: old, to: new, rule: ContentEquatableRule())
    }

    /// The changeset from `old` to `new` for elements that are both
    /// `Equatable` and ``ContentEquatableElement``: content compared with
    /// ``ContentEquatableElement/isContentEqual(to:)``, never `==`.
    @inlinable
    public static func diff<SectionID: Hashable, Element: Identifiable & Equatable & ContentEquatableElement>(
        from old: [ListSection<SectionID, Element>], to new: [ListSection<SectionID, Element>]
    ) throws -> SectionedChangeset<SectionID, Element> {
        try diff(from: old, to: new, rule: ContentEquatableRule())
    }

    /// The changeset from `old` to `new`, content compared with
    /// `isContentEqual(old, new)`: a matched pair for which it returns false is
    /// updated.
    @inlinable
    public static func diff<SectionID: Hashable, Element: Identifiable>(
        from old: [ListSection<SectionID, Element>], to new: [ListSection<SectionID, Element>],
        isContentEqual: (Element, Element) -> Bool
    ) throws -> SectionedChangeset<SectionID, Element> {
        try withoutActuallyEscaping(isContentEqual) { try diff(from: old, to: new, rule: ClosureRule($0)) }
    }

    /// The changeset for a matching computed elsewhere (see
    /// `diff(from:to:matching:)`), content compared with `isContentEqual(old, new)`.
    @inlinable
    public static func diff<SectionID: Hashable, Element>(
        from old: [ListSection<SectionID, Element>], to new: [ListSection<SectionID, Element>], matching oldIndexOfNew: [Int32],
        isContentEqual: (Element, Element) -> Bool
    ) throws -> SectionedChangeset<SectionID, Element> {
        try withoutActuallyEscaping(isContentEqual) { try diff(from: old, to: new, matching: oldIndexOfNew, rule: ClosureRule($0)) }
    }

    /// The flat form (one section holding every element), content compared
    /// with ``ContentEquatableElement/isContentEqual(to:)``.
    @inlinable
    public static func diff<Element: Identifiable & ContentEquatableElement>(
        from old: [Element], to new: [Element]
    ) throws -> SectionedChangeset<Int, Element> {
        try diff(from: [ListSection(id: 0, elements: old)], to: [ListSection(id: 0, elements: new)], rule: ContentEquatableRule())
    }

    /// The flat form for elements both `Equatable` and ``ContentEquatableElement``:
    /// content compared with ``ContentEquatableElement/isContentEqual(to:)``, never `==`.
    @inlinable
    public static func diff<Element: Identifiable & Equatable & ContentEquatableElement>(
        from old: [Element], to new: [Element]
    ) throws -> SectionedChangeset<Int, Element> {
        try diff(from: [ListSection(id: 0, elements: old)], to: [ListSection(id: 0, elements: new)], rule: ContentEquatableRule())
    }

    /// The flat form, content compared with `isContentEqual(old, new)`.
    @inlinable
    public static func diff<Element: Identifiable>(
        from old: [Element], to new: [Element], isContentEqual: (Element, Element) -> Bool
    ) throws -> SectionedChangeset<Int, Element> {
        try diff(from: [ListSection(id: 0, elements: old)], to: [ListSection(id: 0, elements: new)], isContentEqual: isContentEqual)
    }
}
