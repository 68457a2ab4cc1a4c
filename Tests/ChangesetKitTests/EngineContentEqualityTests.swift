import Testing
@testable import ChangesetEngine

/// A view model whose `==` compares identity only, as UIKit diffable data
/// sources want; its content is what `isContentEqual(to:)` compares.
struct Contact: Identifiable, Equatable, ContentEquatableElement, CustomStringConvertible {
    let id: Int
    var name: String
    static func == (lhs: Contact, rhs: Contact) -> Bool { lhs.id == rhs.id }
    func isContentEqual(to other: Contact) -> Bool { name == other.name }
    var description: String { "\(id):\(name)" }
}

/// Content equality without `Equatable` at all.
struct Row: Identifiable, ContentEquatableElement {
    let id: String
    var text: String
    func isContentEqual(to other: Row) -> Bool { text == other.text }
}

@Suite struct EngineContentEqualityTests {
    @Test func modelEqualByIDGetsUpdatesForChangedContent() throws {
        let old = [Contact(id: 1, name: "Ann"), Contact(id: 2, name: "Bo"), Contact(id: 3, name: "Cy")]
        let new = [Contact(id: 3, name: "Cy"), Contact(id: 1, name: "Anne"), Contact(id: 2, name: "Bo")]
        let changeset = try Differ.diff(from: old, to: new)
        #expect(changeset.updates.map { "\($0.old)->\($0.new) \($0.element)" } == ["0/0->0/1 1:Anne"])
        #expect(changeset.unchangedCount == 2)
        #expect(changeset.moves.map(\.element.id) == [3])
        // `==` cannot tell the round trip worked: compare the content.
        #expect(try changeset.apply(to: old).map(\.name) == new.map(\.name))
    }

    @Test func sectionedModelEqualByIDGetsUpdatesForChangedContent() throws {
        let old = [ListSection(id: "a", elements: [Contact(id: 1, name: "Ann")]), ListSection(id: "b", elements: [Contact(id: 2, name: "Bo")])]
        let new = [ListSection(id: "a", elements: [Contact(id: 1, name: "Ann"), Contact(id: 2, name: "Bob")])]
        let changeset = try Differ.diff(from: old, to: new)
        #expect(changeset.updates.map(\.element.description) == ["2:Bob"])
        #expect(changeset.moves.map(\.isAcrossSections) == [true])
        #expect(try changeset.apply(to: old).map { $0.elements.map(\.name) } == [["Ann", "Bob"]])
    }

    @Test func contentEquatableWithoutEquatable() throws {
        let old = [Row(id: "x", text: "1"), Row(id: "y", text: "2")]
        let new = [Row(id: "y", text: "2"), Row(id: "x", text: "one")]
        let changeset = try Differ.diff(from: old, to: new)
        #expect(changeset.updates.map(\.element.text) == ["one"])
        #expect(try changeset.apply(to: old).map(\.text) == ["2", "one"])
    }

    @Test func closureDecidesWhatAnUpdateIs() throws {
        let old = [Item(id: "a", value: 1), Item(id: "b", value: 2)]
        let new = [Item(id: "a", value: 10), Item(id: "b", value: 3)]
        // Only a change of tens counts: a's does, b's does not.
        let changeset = try Differ.diff(from: old, to: new) { $0.value / 10 == $1.value / 10 }
        #expect(changeset.updates.map(\.element) == [Item(id: "a", value: 10)])
        #expect(changeset.unchangedCount == 1)
        // With `==`, both are updates.
        #expect(try Differ.diff(from: old, to: new).updates.count == 2)
        let sections = try Differ.diff(from: [ListSection(id: 0, elements: old)], to: [ListSection(id: 0, elements: new)]) { _, _ in true }
        #expect(sections.updates.isEmpty && sections.unchangedCount == 2)
    }

    @Test func closureWithAMatching() throws {
        let old = [ListSection(id: 0, elements: [Item(id: "a", value: 1), Item(id: "b", value: 2)])]
        let new = [ListSection(id: 0, elements: [Item(id: "b", value: 5), Item(id: "a", value: 1)])]
        let matching = try Differ.matchByID(old: old, new: new)
        #expect(matching == [1, 0])
        let changeset = try Differ.diff(from: old, to: new, matching: matching) { $0.value == $1.value }
        #expect(changeset.updates.map(\.element.id) == ["b"])
        #expect(try changeset.apply(to: old) == new)
    }

    /// Equatable elements keep `==`; with it and a closure that agrees, the changesets are equal.
    @Test func equatableElementsKeepEquality() throws {
        var new = items("c a b")
        new[0].value = 4
        let byEquality = try Differ.diff(from: items("a b c"), to: new)
        let byClosure = try Differ.diff(from: items("a b c"), to: new) { $0 == $1 }
        #expect(byEquality == byClosure)
        #expect(byEquality.updates.map(\.element.id) == ["c"])
    }
}

@Suite struct EngineChangesetEquatableTests {
    @Test func equalChangesetsAndEachListCounts() throws {
        let old = [ListSection(id: "x", elements: items("a b")), ListSection(id: "y", elements: items("c"))]
        let new = [ListSection(id: "z", elements: items("d")), ListSection(id: "x", elements: items("b a"))]
        let changeset = try Differ.diff(from: old, to: new)
        #expect(changeset == (try Differ.diff(from: old, to: new)))
        var other = changeset
        other.insertedSections = [(index: 0, id: "w")]
        #expect(other != changeset)
        other = changeset
        other.moves[0].element.value = 1
        #expect(other != changeset)
        other = changeset
        other.unchangedCount += 1
        #expect(other != changeset)
    }
}

@Suite struct EngineCallerErrorTests {
    @Test func duplicateSectionIDIsTheCallersError() throws {
        let twice = [ListSection(id: "fruit", elements: items("a")), ListSection(id: "veg", elements: items("b")),
                     ListSection(id: "fruit", elements: items("c"))]
        let once = [ListSection(id: "fruit", elements: items("a"))]
        let inNew = try #require(throws: DuplicateSectionIDError.self) { try Differ.diff(from: once, to: twice) }
        #expect(inNew == DuplicateSectionIDError(side: .new, id: "fruit", firstIndex: 0, repeatIndex: 2))
        #expect(inNew.description == #"section id "fruit" appears twice in the new list (sections 0 and 2)"#)
        let inOld = try #require(throws: DuplicateSectionIDError.self) { try Differ.diff(from: twice, to: once) }
        #expect(inOld.side == .old)
    }

    @Test func invalidMatchingIsTheCallersError() throws {
        let old = [ListSection(id: 0, elements: items("a b"))]
        let new = [ListSection(id: 0, elements: items("a b"))]
        let outOfRange = try #require(throws: InvalidMatchingError.self) { try Differ.diff(from: old, to: new, matching: [0, 2]) }
        #expect(outOfRange == InvalidMatchingError(newIndex: 1, oldIndex: 2, oldCount: 2))
        #expect(outOfRange.description == "the matching pairs new element 1 with old element 2, but the old list holds 2")
        let twice = try #require(throws: InvalidMatchingError.self) { try Differ.diff(from: old, to: new, matching: [1, 1]) }
        #expect(twice.description == "the matching pairs new element 1 with old element 1, which an earlier new element already took")
    }
}
