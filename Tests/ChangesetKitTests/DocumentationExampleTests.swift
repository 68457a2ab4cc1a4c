import Testing
@testable import ChangesetKit

/// The examples of the DocC articles (Sources/ChangesetEngine/ChangesetEngine.docc and Sources/ChangesetKit/ChangesetKit.docc),
/// run as written, so the documentation cannot drift from the API.
@Suite struct DocumentationExampleTests {
    struct Item: Identifiable, Equatable {
        let id: Int
        let name: String
    }

    @Test func diffingValuesSectionsAndApplying() throws {
        let old = [Item(id: 1, name: "a"), Item(id: 2, name: "b"), Item(id: 3, name: "c")]
        let new = [Item(id: 3, name: "c"), Item(id: 1, name: "A"), Item(id: 4, name: "d")]
        let changeset = try Differ.diff(from: old, to: new)
        #expect(changeset.deletions.map(\.at) == [ItemPath(section: 0, item: 1)])
        #expect(changeset.insertions.map(\.at) == [ItemPath(section: 0, item: 2)])
        #expect(changeset.updates.map(\.element) == [Item(id: 1, name: "A")])
        #expect(changeset.moves.map(\.element.id) == [3])
        #expect(try changeset.apply(to: old) == new)

        let before = [ListSection(id: "fruit", elements: [Item(id: 1, name: "apple")]),
                      ListSection(id: "veg", elements: [Item(id: 2, name: "leek")])]
        let after = [ListSection(id: "veg", elements: [Item(id: 2, name: "leek"), Item(id: 1, name: "apple")])]
        let grouped = try Differ.diff(from: before, to: after)
        #expect(grouped.deletedSections == [0])
        #expect(grouped.moves.first?.isAcrossSections == true)
        #expect(try grouped.apply(to: before) == after)

        // "reversing ten elements moves nine"
        let ten = (0..<10).map { Item(id: $0, name: "") }
        #expect(try Differ.diff(from: ten, to: ten.reversed()).moves.count == 9)
    }

    @Test func mergingRecords() throws {
        func records(_ json: String) throws -> [Value] {
            guard case .array(let elements) = try Value(json: json) else { return [] }
            return elements
        }
        let base = try records(#"[{"id":1,"price":10,"stock":5}]"#)
        let ours = try records(#"[{"id":1,"price":12,"stock":5}]"#)
        let theirs = try records(#"[{"id":1,"price":10,"stock":3}]"#)
        let (merged, result) = ThreeWayMerge.merge(base: base, ours: ours, theirs: theirs, id: [FieldPath(["id"])])
        #expect(Value.array(merged).jsonText == #"[{"id":1,"price":12,"stock":3}]"#)
        #expect(result.conflicts.isEmpty)
    }

    /// `Value(json:)`, the article's way in: one value, numbers as written,
    /// anything else (and nesting the readers refuse) a clear error.
    @Test func valueFromJSONTextIsOneValueOrAClearError() throws {
        #expect(try Value(json: #" {"a": [1.50, "é", null, true]} "#).jsonText == #"{"a":[1.50,"é",null,true]}"#)
        for (text, words) in [
            ("", "premature EOF"), ("[1,", "premature EOF"), ("[1] [2]", "trailing garbage"), ("{'a':1}", "invalid"),
            (String(repeating: "[", count: 1001) + String(repeating: "]", count: 1001), "deeper than 1000 levels"),
        ] {
            let error = try #require(throws: InputError.self) { try Value(json: text) }
            #expect(error.source == "JSON text" && error.message.contains(words), "\(text.prefix(20)): \(error)")
        }
        let deepest = String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000)
        #expect(try Value(json: deepest).jsonText == deepest)
    }
}
