import Foundation
import Testing
@testable import ChangesetKit

/// UIKit's row-and-section index path, as UIKit's extension of Foundation's
/// `IndexPath` gives it (this test runs without UIKit).
extension IndexPath {
    fileprivate init(row: Int, section: Int) { self.init(indexes: [section, row]) }
    fileprivate init(_ path: ItemPath) { self.init(row: path.item, section: path.section) }
    fileprivate var itemPath: ItemPath { ItemPath(section: self[0], item: self[1]) }
}

/// The `UITableView` calls the article makes, recorded as the batches they
/// make up, so the example runs as written and what it hands UIKit is checked.
private final class RecordingTableView {
    enum RowAnimation { case automatic }
    var batches: [BatchUpdate] = []

    func performBatchUpdates(_ updates: () -> Void) {
        batches.append(BatchUpdate())
        updates()
    }
    func deleteSections(_ sections: IndexSet, with _: RowAnimation) { batches[batches.count - 1].deletedSections += sections }
    func insertSections(_ sections: IndexSet, with _: RowAnimation) { batches[batches.count - 1].insertedSections += sections }
    func moveSection(_ section: Int, toSection newSection: Int) {
        batches[batches.count - 1].movedSections.append(.init(from: section, to: newSection))
    }
    func deleteRows(at paths: [IndexPath], with _: RowAnimation) { batches[batches.count - 1].deletedItems += paths.map(\.itemPath) }
    func insertRows(at paths: [IndexPath], with _: RowAnimation) { batches[batches.count - 1].insertedItems += paths.map(\.itemPath) }
    func reloadRows(at paths: [IndexPath], with _: RowAnimation) { batches[batches.count - 1].reloadedItems += paths.map(\.itemPath) }
    func moveRow(at path: IndexPath, to newPath: IndexPath) {
        batches[batches.count - 1].movedItems.append(.init(from: path.itemPath, to: newPath.itemPath))
    }
}

/// The examples of the DocC articles (Sources/ChangesetEngine/ChangesetEngine.docc and Sources/ChangesetKit/ChangesetKit.docc),
/// run as written, so the documentation cannot drift from the API.
@Suite struct DocumentationExampleTests {
    struct Item: Identifiable, Equatable {
        let id: Int
        let name: String
    }

    /// The article's view model: `==` compares ids, `isContentEqual(to:)` names.
    struct Contact: Identifiable, Equatable, ContentEquatableElement {
        let id: Int
        var name: String
        static func == (a: Contact, b: Contact) -> Bool { a.id == b.id }
        func isContentEqual(to other: Contact) -> Bool { name == other.name }
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

    @Test func contentApartFromEqualityAndATableViewUpdate() throws {
        let people = [Contact(id: 1, name: "Ann"), Contact(id: 2, name: "Bo"), Contact(id: 3, name: "Cy")]
        let renamed = [Contact(id: 2, name: "Bo"), Contact(id: 3, name: "Cy"), Contact(id: 1, name: "Anne")]
        let contacts = try Differ.diff(from: people, to: renamed)
        #expect(contacts.updates.map(\.element.name) == ["Anne"])
        #expect(contacts.moves.map(\.element.id) == [1])
        let byName = try Differ.diff(from: people, to: renamed) { $0.name == $1.name }
        #expect(byName == contacts)

        let batches = contacts.batchUpdates()
        #expect(batches.count == 2)
        #expect(batches[0].movedItems == [.init(from: ItemPath(section: 0, item: 0), to: ItemPath(section: 0, item: 2))])
        #expect(batches[1].reloadedItems == [ItemPath(section: 0, item: 2)])

        let tableView = RecordingTableView()
        for batch in batches {
            tableView.performBatchUpdates {
                tableView.deleteSections(IndexSet(batch.deletedSections), with: .automatic)
                tableView.insertSections(IndexSet(batch.insertedSections), with: .automatic)
                for move in batch.movedSections { tableView.moveSection(move.from, toSection: move.to) }
                tableView.deleteRows(at: batch.deletedItems.map(IndexPath.init), with: .automatic)
                tableView.insertRows(at: batch.insertedItems.map(IndexPath.init), with: .automatic)
                tableView.reloadRows(at: batch.reloadedItems.map(IndexPath.init), with: .automatic)
                for move in batch.movedItems { tableView.moveRow(at: IndexPath(move.from), to: IndexPath(move.to)) }
            }
        }
        #expect(tableView.batches == batches)
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
