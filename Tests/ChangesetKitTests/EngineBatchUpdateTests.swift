import PropertyBased
import Testing
@testable import ChangesetEngine

/// A table view's batch update as UIKit performs one, written from UIKit's
/// rules (not from the engine's `apply`): it refuses what `performBatchUpdates`
/// raises an `NSInternalInconsistencyException` for, and tracks what each
/// cell shows, so a cell that moved without the reload it needed shows its
/// old content.
struct TableViewSimulator {
    struct Refused: Error, CustomStringConvertible { var description: String }

    /// What the table shows: per section, per row, the value its cell was configured with.
    var cells: [[Item]]

    init(showing sections: [ListSection<String, Item>]) {
        cells = sections.map(\.elements)
    }

    /// Performs `batch` with the data source holding `data`; throws, changing
    /// nothing, where UIKit would raise.
    mutating func performBatchUpdates(_ batch: BatchUpdate, data: [ListSection<String, Item>]) throws {
        func refuse(_ why: String) -> Refused { Refused(description: "UIKit would raise: \(why)") }
        let before = cells
        // Sections: sources in the old index space, targets in the new one, none twice.
        let movedFrom = batch.movedSections.map(\.from)
        let movedTo = batch.movedSections.map(\.to)
        for (name, list, count) in [("deleted", batch.deletedSections, before.count), ("moved from", movedFrom, before.count),
                                    ("inserted", batch.insertedSections, data.count), ("moved to", movedTo, data.count)] {
            guard Set(list).count == list.count else { throw refuse("section \(name) twice") }
            guard list.allSatisfy({ (0..<count).contains($0) }) else { throw refuse("section \(name) out of range: \(list)") }
        }
        guard Set(batch.deletedSections).isDisjoint(with: movedFrom) else { throw refuse("a section both deleted and moved") }
        guard Set(batch.insertedSections).isDisjoint(with: movedTo) else { throw refuse("a section both inserted and moved to") }
        guard data.count == before.count - batch.deletedSections.count + batch.insertedSections.count else {
            throw refuse("invalid number of sections: \(data.count) after the update, \(before.count) before, "
                         + "\(batch.insertedSections.count) inserted, \(batch.deletedSections.count) deleted")
        }
        // Where each old section goes: moved ones to their targets, the others fill the free slots in order.
        var newIndexOfOld = [Int?](repeating: nil, count: before.count)
        var taken = Set(batch.insertedSections).union(movedTo)
        for move in batch.movedSections { newIndexOfOld[move.from] = move.to }
        var slot = 0
        for oldIndex in before.indices where !batch.deletedSections.contains(oldIndex) && !movedFrom.contains(oldIndex) {
            while taken.contains(slot) { slot += 1 }
            newIndexOfOld[oldIndex] = slot
            taken.insert(slot)
        }
        let insertedSections = Set(batch.insertedSections)
        let deletedSections = Set(batch.deletedSections)

        // Items: deletes, reloads and move sources are old paths, each path at most once among them
        // (so nothing is both moved and reloaded, deleted and moved, ...); none in a deleted section.
        let sources = [("deleted", batch.deletedItems), ("reloaded", batch.reloadedItems), ("moved from", batch.movedItems.map(\.from))]
        var usedSources = Set<ItemPath>()
        for (name, paths) in sources {
            for path in paths {
                guard before.indices.contains(path.section), before[path.section].indices.contains(path.item) else {
                    throw refuse("item \(name) at \(path), which does not exist before the update")
                }
                guard !deletedSections.contains(path.section) else { throw refuse("item \(name) at \(path), in a deleted section") }
                guard usedSources.insert(path).inserted else { throw refuse("\(path) is \(name) and also deleted, reloaded or moved") }
            }
        }
        // Inserts and move targets are new paths, each at most once; none in an inserted section.
        var usedTargets = Set<ItemPath>()
        for (name, paths) in [("inserted", batch.insertedItems), ("moved to", batch.movedItems.map(\.to))] {
            for path in paths {
                guard data.indices.contains(path.section), data[path.section].elements.indices.contains(path.item) else {
                    throw refuse("item \(name) at \(path), which does not exist after the update")
                }
                guard !insertedSections.contains(path.section) else { throw refuse("item \(name) at \(path), in an inserted section") }
                guard usedTargets.insert(path).inserted else { throw refuse("\(path) is a target twice") }
            }
        }
        // The count check: per section that existed, after == before - deleted - moved out + inserted + moved in.
        for (oldIndex, newIndex) in newIndexOfOld.enumerated() {
            guard let newIndex else { continue }
            let deleted = batch.deletedItems.filter { $0.section == oldIndex }.count
            let movedOut = batch.movedItems.filter { $0.from.section == oldIndex }.count
            let inserted = batch.insertedItems.filter { $0.section == newIndex }.count
            let movedIn = batch.movedItems.filter { $0.to.section == newIndex }.count
            let expected = before[oldIndex].count - deleted - movedOut + inserted + movedIn
            guard expected == data[newIndex].elements.count else {
                throw refuse("invalid number of rows in section \(newIndex): \(data[newIndex].elements.count) after the update, "
                             + "\(before[oldIndex].count) before, \(inserted) inserted, \(deleted) deleted, "
                             + "\(movedIn) moved in, \(movedOut) moved out")
            }
        }

        // Apply: cells leave, the rest close up, arrivals land at their new rows; reloaded and
        // inserted cells are configured from the data source, moved ones keep what they showed.
        let leaving = Set(batch.deletedItems + batch.movedItems.map(\.from))
        let reloaded = Set(batch.reloadedItems)
        var after: [[(cell: Item, reload: Bool)]] = data.map { _ in [] }
        for (oldIndex, newIndex) in newIndexOfOld.enumerated() {
            guard let newIndex else { continue }
            after[newIndex] = before[oldIndex].indices.filter { !leaving.contains(ItemPath(section: oldIndex, item: $0)) }
                .map { (before[oldIndex][$0], reloaded.contains(ItemPath(section: oldIndex, item: $0))) }
        }
        var arrivals = batch.insertedItems.map { ($0, data[$0.section].elements[$0.item]) }
        arrivals += batch.movedItems.map { ($0.to, before[$0.from.section][$0.from.item]) }
        for (path, cell) in arrivals.sorted(by: { $0.0 < $1.0 }) {
            guard path.item <= after[path.section].count else { throw refuse("row \(path) lands past the end of its section") }
            after[path.section].insert((cell, false), at: path.item)
        }
        var result: [[Item]] = []
        for (index, section) in data.enumerated() {
            if insertedSections.contains(index) {
                result.append(section.elements)  // the data source's rows
            } else {
                result.append(after[index].enumerated().map { row, entry in entry.reload ? section.elements[row] : entry.cell })
            }
        }
        cells = result
    }
}

/// The batch a careless caller would build from a changeset as it is: every
/// change listed once, updates reloaded at their old paths. UIKit refuses it
/// when an item both moves and changes.
func unstagedBatch(_ changeset: SectionedChangeset<String, Item>) -> BatchUpdate {
    var batch = BatchUpdate()
    batch.deletedSections = changeset.deletedSections
    batch.insertedSections = changeset.insertedSections.map(\.index)
    batch.movedSections = changeset.movedSections.map { .init(from: $0.from, to: $0.to) }
    batch.deletedItems = changeset.deletions.map(\.at)
    batch.insertedItems = changeset.insertions.map(\.at)
    batch.reloadedItems = changeset.updates.map(\.old)
    batch.movedItems = changeset.moves.map { .init(from: $0.from, to: $0.to) }
    return batch
}

@Suite struct EngineBatchUpdateTests {
    /// Replays every batch of `changeset.batchUpdates()` on a table showing `old`; returns what it shows.
    static func replay(_ old: [ListSection<String, Item>], _ new: [ListSection<String, Item>]) throws -> [[Item]] {
        let changeset = try Differ.diff(from: old, to: new)
        var table = TableViewSimulator(showing: old)
        for batch in changeset.batchUpdates() { try table.performBatchUpdates(batch, data: new) }
        return table.cells
    }

    @Test func movedAndUpdatedItemIsReloadedInASecondBatch() throws {
        var new = items("b c a")
        new[2].value = 1
        let old = [ListSection(id: "", elements: items("a b c"))]
        let newSections = [ListSection(id: "", elements: new)]
        let changeset = try Differ.diff(from: old, to: newSections)
        let batches = changeset.batchUpdates()
        #expect(batches.count == 2)
        #expect(batches[0].movedItems == [.init(from: ItemPath(section: 0, item: 0), to: ItemPath(section: 0, item: 2))])
        #expect(batches[0].reloadedItems.isEmpty)
        #expect(batches[1] == { var reload = BatchUpdate(); reload.reloadedItems = [ItemPath(section: 0, item: 2)]; return reload }())
        #expect(try Self.replay(old, newSections) == newSections.map(\.elements))
    }

    /// The simulator has teeth: the changeset as it is, in one batch, is
    /// refused; without the reload, the moved cell shows its old content.
    @Test func simulatorRefusesAMoveAndAReloadOfOneItem() throws {
        var new = items("b c a")
        new[2].value = 1
        let old = [ListSection(id: "", elements: items("a b c"))]
        let newSections = [ListSection(id: "", elements: new)]
        let changeset = try Differ.diff(from: old, to: newSections)
        var table = TableViewSimulator(showing: old)
        let refusal = try #require(throws: TableViewSimulator.Refused.self) {
            try table.performBatchUpdates(unstagedBatch(changeset), data: newSections)
        }
        #expect(refusal.description.contains("0/0 is moved from and also deleted, reloaded or moved"))
        #expect(table.cells == old.map(\.elements))
        var withoutReload = unstagedBatch(changeset)
        withoutReload.reloadedItems = []
        try table.performBatchUpdates(withoutReload, data: newSections)
        #expect(table.cells == [items("b c a")], "the moved cell keeps its old content")
        #expect(table.cells != newSections.map(\.elements))
    }

    @Test func simulatorRefusesCountsThatDoNotAddUp() throws {
        let old = [ListSection(id: "", elements: items("a b"))]
        var table = TableViewSimulator(showing: old)
        let refusal = try #require(throws: TableViewSimulator.Refused.self) {
            try table.performBatchUpdates(BatchUpdate(), data: [ListSection(id: "", elements: items("a b c"))])
        }
        #expect(refusal.description.contains("invalid number of rows in section 0: 3 after the update, 2 before"))
    }

    @Test func movesOutOfDeletedAndIntoInsertedSectionsAreDeletesAndInserts() throws {
        var moved = Item(id: "b")
        moved.value = 1
        let old = [ListSection(id: "x", elements: items("a")), ListSection(id: "y", elements: items("b c"))]
        let new = [ListSection(id: "y", elements: items("c")), ListSection(id: "z", elements: [Item(id: "a"), moved])]
        let changeset = try Differ.diff(from: old, to: new)
        #expect(changeset.moves.count == 2 && changeset.updates.count == 1)
        let batches = changeset.batchUpdates()
        #expect(batches.count == 1)
        #expect(batches[0].movedItems.isEmpty && batches[0].reloadedItems.isEmpty)
        #expect(batches[0].deletedItems == [ItemPath(section: 1, item: 0)])
        #expect(batches[0].insertedItems.isEmpty)
        #expect(try Self.replay(old, new) == new.map(\.elements))
        var table = TableViewSimulator(showing: old)
        #expect(throws: TableViewSimulator.Refused.self) { try table.performBatchUpdates(unstagedBatch(changeset), data: new) }
    }

    @Test func emptyChangesetHasNoBatch() throws {
        let sections = [ListSection(id: "x", elements: items("a b"))]
        #expect(try Differ.diff(from: sections, to: sections).batchUpdates().isEmpty)
    }

    /// (id, section, value) triples: sections appear, vanish and reorder;
    /// items move within and across them and change value.
    static let records = zip(Gen.int(in: 0...15), Gen.int(in: 0...4), Gen.int(in: 0...2)).array(of: 0...14)

    /// Random sectioned data: every staged batch passes UIKit's checks and
    /// the table ends showing the new data, content included.
    @Test func stagedBatchesReachTheNewDataUnderUIKitRules() async {
        await propertyCheck(count: 500, input: Self.records, Self.records) { oldTriples, newTriples in
            let old = EngineProperties.sections(oldTriples)
            let new = EngineProperties.sections(newTriples)
            let changeset = try Differ.diff(from: old, to: new)
            let batches = changeset.batchUpdates()
            #expect(batches.count <= 2)
            // A second batch is reloads only: its counts cannot change.
            #expect(batches.dropFirst().allSatisfy { $0 == { var only = BatchUpdate(); only.reloadedItems = $0.reloadedItems; return only }($0) })
            var table = TableViewSimulator(showing: old)
            for batch in batches { try table.performBatchUpdates(batch, data: new) }
            #expect(table.cells == new.map(\.elements))
            // Where an item both moved and changed, the changeset in one batch is refused.
            if !Set(changeset.updates.map(\.old)).isDisjoint(with: changeset.moves.map(\.from)) {
                var unstaged = TableViewSimulator(showing: old)
                #expect(throws: TableViewSimulator.Refused.self) { try unstaged.performBatchUpdates(unstagedBatch(changeset), data: new) }
            }
        }
    }
}
