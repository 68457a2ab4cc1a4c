/// The `text` format, for a person: a summary line with the counts, the
/// schema changes and the per-field counts (when there are any), then the
/// changes, grouped by kind (sections first, then deleted, inserted, moved
/// and updated records, each by position):
///
///     1 inserted, 1 deleted, 1 updated, 1 moved, 2 unchanged
///     schema: added color (2 records); removed fax (3 records)
///     fields: price 1
///     deleted  id 3  at 2, line 4
///       {"id":3,"name":"Pear","price":2.10}
///     inserted id 9  at 4, line 6
///       {"id":9,"name":"Fig","price":3.00}
///     moved    id 1  0 -> 3, lines 2 -> 5
///     updated  id 2  1 -> 0, lines 3 -> 2
///       price: 9.99 -> 10.49
///
/// Positions are `index` (0-based), or `section/index` with `--section`,
/// with the line of the file the record starts on: old for deleted, new for
/// inserted, `old -> new` for moved and updated records (`at i` when an
/// updated record kept its place). Deleted and inserted records show their
/// content on the line below; records matched by content (no `--id`) are
/// shown by their content, never by a hash. Values are JSON, numbers as
/// written in the input, invisible characters escaped (`\u200F`), and cut to
/// `width` characters around the part that changed (0: whole).
public struct TextFormatter {
    public var color: Bool
    public var width: Int

    public static let defaultWidth = 120

    public init(color: Bool = false, width: Int = TextFormatter.defaultWidth) {
        self.color = color
        self.width = width
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

    /// The lines after the summary line that `--stat` prints too: schema
    /// changes, renames and per-field counts, each only when there are any.
    public static func detailLines(_ report: Report) -> [String] {
        var lines: [String] = []
        func fields(_ fields: [SchemaField]) -> String {
            fields.map { "\(DisplayText.visible($0.path.description)) (\($0.records) \($0.records == 1 ? "record" : "records"))" }
                .joined(separator: ", ")
        }
        var schema: [String] = []
        if !report.schema.added.isEmpty { schema.append("added " + fields(report.schema.added)) }
        if !report.schema.removed.isEmpty { schema.append("removed " + fields(report.schema.removed)) }
        if !schema.isEmpty { lines.append("schema: " + schema.joined(separator: "; ")) }
        if !report.schema.renamed.isEmpty {
            lines.append("renamed: " + report.schema.renamed.map {
                "\(DisplayText.visible($0.old.description)) -> \(DisplayText.visible($0.new.description))"
            }.joined(separator: ", "))
        }
        if !report.summary.fieldCounts.isEmpty {
            lines.append("fields: " + report.summary.fieldCounts.map { "\(DisplayText.visible($0.path.description)) \($0.records)" }
                .joined(separator: ", "))
        }
        return lines
    }

    public func write(_ report: Report, to output: inout some TextOutputStream) throws {
        let sectioned = report.sectioned
        output.write(paint(TextFormatter.summaryLine(report.summary, sections: sectioned), .bold) + "\n")
        for line in TextFormatter.detailLines(report) { output.write(line + "\n") }

        func place(_ place: Place?) -> String { DisplayText.place(place!, sectioned: sectioned) }
        func line(_ place: Place?) -> String { place?.line.map { "line \($0)" } ?? "" }
        func id(_ change: Change) -> String { change.id.map { " id \(DisplayText.id($0)) " } ?? "" }
        func from(_ change: Change) -> String {
            let (old, new) = (change.old!, change.new!)
            let position = old.index == new.index && old.section == new.section ? "at \(place(old))" : "\(place(old)) -> \(place(new))"
            let lines = old.line == new.line ? line(old) : "lines \(old.line ?? 0) -> \(new.line ?? 0)"
            return "\(position), \(lines)"
        }
        func content(_ record: Value?) -> String {
            guard let record else { return "" }
            return "  " + DisplayText.cut(DisplayText.value(record), width: width) + "\n"
        }

        try report.changes.forEach { change in
            switch change.kind {
            case .sectionDeleted:
                output.write(paint("section deleted", .red) + "  \(DisplayText.section(change.section)) at \(change.old!.index)\n")
            case .sectionInserted:
                output.write(paint("section inserted", .green) + " \(DisplayText.section(change.section)) at \(change.new!.index)\n")
            case .sectionMoved:
                output.write(paint("section moved", .cyan) + "    \(DisplayText.section(change.section)) \(change.old!.index) -> \(change.new!.index)\n")
            case .deleted:
                output.write(paint("deleted ", .red) + "\(id(change)) at \(place(change.old)), \(line(change.old))\n" + content(change.record))
            case .inserted:
                output.write(paint("inserted", .green) + "\(id(change)) at \(place(change.new)), \(line(change.new))\n" + content(change.record))
            case .moved:
                output.write(paint("moved   ", .cyan) + "\(id(change)) \(from(change))\n" + content(change.record))
            case .updated:
                output.write(paint("updated ", .yellow) + "\(id(change)) \(from(change))\n")
                for field in change.fields {
                    let (old, new) = DisplayText.cutAround(DisplayText.value(field.old), DisplayText.value(field.new), width: width)
                    output.write("  \(DisplayText.visible(field.path.description)): \(old) -> \(new)\n")
                }
            }
        }
    }
}
