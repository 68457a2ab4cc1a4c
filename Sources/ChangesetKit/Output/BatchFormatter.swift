/// The `batch` format: the changeset as one UIKit batch update, in JSON:
///
///     {"sections": {"deleted": [s], "inserted": [s], "moved": [[from, to]]},
///      "items": {"deleted": [[s, i]], "inserted": [[s, i]], "reloaded": [[s, i]],
///                "moved": [[[s, i], [s, i]]]}}
///
/// Deleted, reloaded and move sources are old index paths (and old section
/// indices); inserted and move targets are new ones, as
/// `performBatchUpdates` expects. Given these lists, a table view's counts
/// add up (the engine checks that before anything is printed).
///
/// UIKit refuses some combinations a changeset can hold, so they are written
/// as a delete of the old index path plus an insert of the new one:
/// - a record that moved and changed (UIKit cannot reload an item it moves);
/// - a record that moves out of a deleted section or into an inserted one.
/// Items of a deleted section are not listed as deleted (deleting the
/// section deletes them), nor items of an inserted section as inserted (the
/// table view asks its data source for them). Reloads and moves are those of
/// the exact changeset: the batch must produce NEW's layout and content, so
/// the options that count some changes as none (a tolerance,
/// `--ignore-order`) are refused with it.
package struct BatchFormatter {
    package init() {}

    package struct Batch: Equatable, Sendable {
        package var deletedSections: [Int] = []
        package var insertedSections: [Int] = []
        package var movedSections: [[Int]] = []
        package var deleted: [ItemPath] = []
        package var inserted: [ItemPath] = []
        package var reloaded: [ItemPath] = []
        package var moved: [(ItemPath, ItemPath)] = []

        package static func == (lhs: Batch, rhs: Batch) -> Bool {
            lhs.deletedSections == rhs.deletedSections && lhs.insertedSections == rhs.insertedSections
                && lhs.movedSections == rhs.movedSections && lhs.deleted == rhs.deleted
                && lhs.inserted == rhs.inserted && lhs.reloaded == rhs.reloaded
                && lhs.moved.map(\.0) == rhs.moved.map(\.0) && lhs.moved.map(\.1) == rhs.moved.map(\.1)
        }
    }

    /// The batch for a changeset of any element type.
    package static func batch<SectionID, Element>(_ changeset: SectionedChangeset<SectionID, Element>) -> Batch {
        var batch = Batch()
        batch.deletedSections = changeset.deletedSections.sorted()
        batch.insertedSections = changeset.insertedSections.map(\.index).sorted()
        batch.movedSections = changeset.movedSections.map { [$0.from, $0.to] }.sorted { $0[1] < $1[1] }
        let deletedSections = Set(changeset.deletedSections)
        let insertedSections = Set(batch.insertedSections)
        let updatedPaths = Set(changeset.updates.map(\.old))
        batch.deleted = changeset.deletions.map(\.at).filter { !deletedSections.contains($0.section) }
        batch.inserted = changeset.insertions.map(\.at).filter { !insertedSections.contains($0.section) }
        var movedPaths = Set<ItemPath>()
        for move in changeset.moves {
            movedPaths.insert(move.from)
            if updatedPaths.contains(move.from) || deletedSections.contains(move.from.section)
                || insertedSections.contains(move.to.section) {
                if !deletedSections.contains(move.from.section) { batch.deleted.append(move.from) }
                if !insertedSections.contains(move.to.section) { batch.inserted.append(move.to) }
            } else {
                batch.moved.append((move.from, move.to))
            }
        }
        batch.reloaded = changeset.updates.map(\.old).filter { !movedPaths.contains($0) }
        batch.deleted.sort()
        batch.inserted.sort()
        batch.reloaded.sort()
        batch.moved.sort { $0.1 < $1.1 }
        return batch
    }

    package func write<SectionID, Element>(_ changeset: SectionedChangeset<SectionID, Element>, to output: inout some TextOutputStream) {
        let batch = BatchFormatter.batch(changeset)
        func path(_ path: ItemPath) -> String { "[\(path.section),\(path.item)]" }
        func list<T>(_ items: [T], _ show: (T) -> String) -> String { "[" + items.map(show).joined(separator: ",") + "]" }
        output.write("{\n")
        output.write("  \"sections\": {\"deleted\": \(list(batch.deletedSections) { "\($0)" }), ")
        output.write("\"inserted\": \(list(batch.insertedSections) { "\($0)" }), ")
        output.write("\"moved\": \(list(batch.movedSections) { "[\($0[0]),\($0[1])]" })},\n")
        output.write("  \"items\": {\n")
        output.write("    \"deleted\": \(list(batch.deleted, path)),\n")
        output.write("    \"inserted\": \(list(batch.inserted, path)),\n")
        output.write("    \"reloaded\": \(list(batch.reloaded, path)),\n")
        output.write("    \"moved\": \(list(batch.moved) { "[\(path($0.0)),\(path($0.1))]" })\n")
        output.write("  }\n}\n")
    }
}
