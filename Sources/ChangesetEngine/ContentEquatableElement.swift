/// A value that says whether another has the same content, apart from `==`.
///
/// The engine matches elements by `id` and reports a matched pair as updated
/// when their content differs. By default content is `==`; a model whose `==`
/// compares identity alone (common for view models) conforms to this
/// protocol to say what a change is:
///
/// ```swift
/// struct Contact: Identifiable, Equatable, ContentEquatableElement {
///     let id: Int
///     var name: String
///     static func == (a: Contact, b: Contact) -> Bool { a.id == b.id }
///     func isContentEqual(to other: Contact) -> Bool { name == other.name }
/// }
/// ```
///
/// `Differ.diff` then reports `Contact(id: 1, name: "Ann")` to
/// `Contact(id: 1, name: "Anne")` as an update.
///
/// The requirement is DifferenceKit's `ContentEquatable` requirement, so a
/// type conforming to that one conforms to this one with an empty extension;
/// the protocol's own name differs, to leave DifferenceKit's free in an app
/// that imports both.
public protocol ContentEquatableElement {
    /// Whether `other` has the same content as this value, so a matched pair
    /// needs no update.
    func isContentEqual(to other: Self) -> Bool
}

extension ContentEquatableElement where Self: Equatable {
    /// Content is `==` unless the type says otherwise.
    @inlinable public func isContentEqual(to other: Self) -> Bool { self == other }
}

/// How the engine compares a matched pair's content. A generic parameter
/// rather than a closure, so `==` is inlined into the specialized engine.
@usableFromInline protocol ContentRule<Element> {
    associatedtype Element
    func isContentEqual(_ old: Element, _ new: Element) -> Bool
}

/// Content is `==`.
@usableFromInline struct EqualityRule<Element: Equatable>: ContentRule {
    @inlinable init() {}
    @inlinable @inline(__always) func isContentEqual(_ old: Element, _ new: Element) -> Bool { old == new }
}

/// Content is `isContentEqual(to:)`.
@usableFromInline struct ContentEquatableRule<Element: ContentEquatableElement>: ContentRule {
    @inlinable init() {}
    @inlinable @inline(__always) func isContentEqual(_ old: Element, _ new: Element) -> Bool { old.isContentEqual(to: new) }
}

/// Content is the caller's closure.
@usableFromInline struct ClosureRule<Element>: ContentRule {
    @usableFromInline let isEqual: (Element, Element) -> Bool
    @inlinable init(_ isEqual: @escaping (Element, Element) -> Bool) { self.isEqual = isEqual }
    @inlinable @inline(__always) func isContentEqual(_ old: Element, _ new: Element) -> Bool { isEqual(old, new) }
}
