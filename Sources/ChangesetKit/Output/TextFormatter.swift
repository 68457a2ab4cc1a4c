/// The `text` format, for a person: a summary line with the counts, then
/// one line per change, grouped by kind (sections first, then deleted,
/// inserted, moved and updated records, each in index order):
///
///     1 inserted, 1 deleted, 1 updated, 1 moved, 2 unchanged
///     deleted  id 3  at 2
///     inserted id 9  at 4
///     moved    id 1  0 -> 3
///     updated  id 2  1 -> 0
///       price: 9.99 -> 10.49
///
/// Positions are `index` (0-based), or `section/index` with `--section`;
/// old positions for deleted, new for inserted, old -> new for moved and
/// updated records (`at i` when an updated record kept its index). Values are shown as JSON, numbers as written in the input.
public struct TextFormatter {
    public var color: Bool

    public init(color: Bool) {
        self.color = color
    }

    private enum Paint: String {
        case red = "\u{1B}[31m", green = "\u{1B}[32m", yellow = "\u{1B}[33m", cyan = "\u{1B}[36m", bold = "\u{1B}[1m"
    }

    private func paint(_ text: String, _ paint: Paint) -> String {
        color ? paint.rawValue + text + "\u{1B}[0m" : text
    }

    public static func summaryLine(_ summary: Summary, sections: Bool) -> String {
        var line = "\(summary.inserted) inserted, \(summary.deleted) deleted, \(summary.updated) updated, "
            + "\(summary.moved) moved, \(summary.unchanged) unchanged"
        if sections {
            line += "; sections: \(summary.sectionsInserted) inserted, \(summary.sectionsDeleted) deleted, "
                + "\(summary.sectionsMoved) moved"
        }
        return line
    }

    public func write(_ comparison: Comparison, to output: inout some TextOutputStream) throws {
        let changeset = comparison.changeset
        let sectioned = comparison.options.records.section != nil
        output.write(paint(TextFormatter.summaryLine(comparison.summary, sections: sectioned), .bold) + "\n")

        func position(_ path: IndexPath, in sections: [Section<SectionName, RecordRef>]) -> String {
            sectioned ? "\(Comparison.displayName(sections[path.section].id))/\(path.item)" : "\(path.item)"
        }
        func oldPosition(_ path: IndexPath) -> String { position(path, in: comparison.oldSections) }
        func newPosition(_ path: IndexPath) -> String { position(path, in: comparison.newSections) }
        func id(_ ref: RecordRef, _ dataset: Dataset) -> String { Comparison.displayID(ref, in: dataset) }

        for index in changeset.deletedSections {
            output.write(paint("section deleted", .red) + "  \(Comparison.displayName(comparison.oldSections[index].id)) at \(index)\n")
        }
        for inserted in changeset.insertedSections {
            output.write(paint("section inserted", .green) + " \(Comparison.displayName(inserted.id)) at \(inserted.index)\n")
        }
        for move in comparison.reportedSectionMoves {
            output.write(paint("section moved", .cyan) + "    \(Comparison.displayName(comparison.oldSections[move.from].id)) \(move.from) -> \(move.to)\n")
        }
        for deletion in changeset.deletions {
            let ref = comparison.oldSections[deletion.at.section].elements[deletion.at.item]
            output.write(paint("deleted ", .red) +  " id \(id(ref, comparison.old))  at \(oldPosition(deletion.at))\n")
        }
        for insertion in changeset.insertions {
            output.write(paint("inserted", .green) + " id \(id(insertion.element, comparison.new))  at \(newPosition(insertion.at))\n")
        }
        for move in comparison.reportedMoves {
            output.write(paint("moved   ", .cyan) + " id \(id(move.element, comparison.new))  \(oldPosition(move.from)) -> \(newPosition(move.to))\n")
        }
        try OrderedConcurrentMap.forEach(changeset.updates, transform: comparison.fieldChanges) { update, fields in
            let from = oldPosition(update.old)
            let to = newPosition(update.new)
            output.write(paint("updated ", .yellow) + " id \(id(update.element, comparison.new))  " + (from == to ? "at \(from)\n" : "\(from) -> \(to)\n"))
            for field in fields {
                output.write("  \(field.path): \(TextFormatter.show(field.old)) -> \(TextFormatter.show(field.new))\n")
            }
        }
    }

    /// A value as JSON text; `(absent)` for a field one side does not have.
    public static func show(_ value: Value?) -> String {
        value?.jsonText ?? "(absent)"
    }
}
