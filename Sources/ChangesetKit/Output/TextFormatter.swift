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
/// `width` characters around the part that changed (0: whole). Ids, section
/// and field names are escaped by the same rule (`ReportValueText.visible`), so
/// no name from the data reaches the terminal as a control sequence.
package struct TextFormatter: ReportFormatter {
    package var color: Bool
    package var width: Int
    /// At most this many changes of each kind, then `… and N more KIND`
    /// (nil: every change).
    package var limit: Int?
    /// `--group`: updated records whose field changes are the same are
    /// written once, with how many and their first ids, largest group first.
    package var group = false

    package static let defaultWidth = 120

    /// Values cut to `width` characters around the change (nil: the default,
    /// 120; 0: whole); at most `limit` changes of each kind (nil: all).
    package init(color: Bool = false, width: Int? = nil, limit: Int? = nil) {
        self.color = color
        self.width = ReportValueText.bounded(width ?? Self.defaultWidth)
        self.limit = limit
    }

    enum Paint {
        case red, green, yellow, cyan, bold

        var code: StaticString {
            switch self {
            case .red: "\u{1B}[31m"
            case .green: "\u{1B}[32m"
            case .yellow: "\u{1B}[33m"
            case .cyan: "\u{1B}[36m"
            case .bold: "\u{1B}[1m"
            }
        }
    }

    package static func summaryLine(_ summary: Summary, sections: Bool) -> String {
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
    /// A schema line longer than `width` (0: no limit) is wrapped between
    /// fields, under its first field: a dataset that gained 43 columns is a
    /// paragraph to read, not one line that runs off the terminal.
    /// What changed in the files apart from their records follows the schema
    /// lines (`fileInOneLine`: on one line, as `--stat` writes it).
    package static func detailLines(_ report: Report, width: Int = TextFormatter.defaultWidth, fileInOneLine: Bool = false) -> [String] {
        var lines: [String] = []
        if let hint = report.keyHint { lines.append("hint: " + ReportValueText.visible(hint.message)) }
        /// `added a (2 records), b (1 record); removed c (3 records)`, a piece a field, each after its separator.
        func pieces(_ added: [SchemaField], _ removed: [SchemaField]) -> [(separator: String, text: String)] {
            var pieces: [(separator: String, text: String)] = []
            for (verb, fields) in [("added ", added), ("removed ", removed)] {
                for (index, field) in fields.enumerated() {
                    let text = "\(ReportValueText.visible(field.path.description)) (\(field.records) \(field.records == 1 ? "record" : "records"))"
                    pieces.append((pieces.isEmpty ? "" : index == 0 ? "; " : ", ", index == 0 ? verb + text : text))
                }
            }
            return pieces
        }
        let schema = pieces(report.schema.added, report.schema.removed)
        if !schema.isEmpty { lines += wrapped("schema: ", schema, width: width) }
        let ignored = pieces(report.schema.ignoredAdded, report.schema.ignoredRemoved)
        if !ignored.isEmpty { lines += wrapped("schema, ignored: ", ignored, width: width) }
        for suggestion in report.schema.suggestedRenames { lines.append(ReportValueText.visible(suggestion.sentence)) }
        if !report.schema.renamed.isEmpty {
            lines.append("renamed: " + report.schema.renamed.map {
                "\(ReportValueText.visible($0.old.description)) -> \(ReportValueText.visible($0.new.description))"
            }.joined(separator: ", "))
        }
        lines += report.layout.textLines(width: width, oneLine: fileInOneLine)
        if !report.summary.fieldCounts.isEmpty {
            lines.append("fields: " + report.summary.fieldCounts.map { "\(ReportValueText.visible($0.path.description)) \($0.records)" }
                .joined(separator: ", "))
        }
        if let note = report.summary.typeOnlyNote(example: ReportValueText.visible) { lines.append(note) }
        if let note = report.summary.respelledNumberNote(example: ReportValueText.visible) { lines.append(note) }
        if let note = report.summary.keyedArraysNote(name: ReportValueText.visible) { lines.append(note) }
        lines += report.summary.typeOnlyFieldNotes(limit: TransitionText.fieldLimit, name: ReportValueText.visible, example: ReportValueText.visible)
        // What the changes of each field have in common, before any one change.
        for field in report.summary.transitions.prefix(TransitionText.fieldLimit) {
            lines.append("  \(ReportValueText.visible(field.label)): " + TransitionText.line(field, width: 40))
        }
        if let note = report.summary.rekeyedNote(id: ReportValueText.visible) { lines.append(note) }
        return lines
    }

    /// `head` and the pieces, each after its separator, in lines of at most
    /// `width` characters (0: one line), broken only between pieces (a piece
    /// wider than the line has a line of its own), the separator's mark
    /// ending the line and the lines after the first indented under the
    /// first piece (a hanging indent).
    static func wrapped(_ head: String, _ pieces: [(separator: String, text: String)], width: Int) -> [String] {
        let indent = String(repeating: " ", count: head.count)
        var lines: [String] = []
        var line = head
        var length = head.count
        for (index, piece) in pieces.enumerated() {
            let pieceLength = piece.text.count
            if index > 0 && width > 0 && length + piece.separator.count + pieceLength > width {
                lines.append(line + piece.separator.filter { $0 != " " })
                line = indent + piece.text
                length = indent.count + pieceLength
            } else {
                line += piece.separator + piece.text
                length += piece.separator.count + pieceLength
            }
        }
        lines.append(line)
        return lines
    }

    /// With a limit, only the changes shown are rendered, in order.
    package var showsEveryChange: Bool { limit == nil && !group }

    /// The per-kind limit's count, when there is a limit.
    package struct Progress {
        var cap: PerKindLimit?
        /// `--group`: the updates so far, by their field changes.
        var groups = UpdateGroups()
    }

    package func begin(_ report: Report, to output: inout some TextOutputStream) -> Progress {
        let summary = TextFormatter.summaryLine(report.summary, sections: report.sectioned)
        output.write(color ? "\(Paint.bold.code)\(summary)\u{1B}[0m\n" : summary + "\n")
        for line in TextFormatter.detailLines(report, width: width) { output.write(line + "\n") }
        if let note = report.kindsNote { output.write(note + "\n") }
        return Progress(cap: limit.map { PerKindLimit(limit: $0) })
    }

    package func render(_ change: Change, in report: Report) -> String {
        text(of: change, sectioned: report.sectioned)
    }

    package func write(_ change: Change, rendered: () -> String, in report: Report, progress: inout Progress, to output: inout some TextOutputStream) {
        if group && change.kind == .updated {
            // Held until the end (updates come last): every group is known only then, and the largest is written first.
            progress.groups.add(change)
            return
        }
        guard progress.cap != nil else { return output.write(rendered()) }
        let step = progress.cap!.next(change.kind)
        if let ended = step.ended { output.write(TextFormatter.moreLine(ended)) }
        if step.show { output.write(rendered()) }
    }

    package func finish(_ report: Report, progress: Progress, to output: inout some TextOutputStream) {
        var cap = progress.cap
        var groupsLeft = 0
        for group in progress.groups.bySize {
            if let step = cap?.next(.updated) {
                if let ended = step.ended { output.write(TextFormatter.moreLine(ended)) }
                guard step.show else {
                    groupsLeft += 1
                    continue
                }
            }
            if group.count == 1 {
                output.write(text(of: group.first, sectioned: report.sectioned))
                continue
            }
            var line = TextLine(color: color)
            line.add("updated ", .yellow)
            line.add(" \(group.count) records  ids ")
            line.add(group.ids.map(ReportValueText.visible).joined(separator: ", "))
            if group.count > group.ids.count { line.add(", … and \(group.count - group.ids.count) more") }
            line.add("\n")
            addFields(group.first.fields, to: &line)
            output.write(line.text)
        }
        if let ended = cap?.finish() {
            // Grouped, the limit counts groups of updates, not records.
            output.write(groupsLeft > 0 && ended.kind == .updated
                ? "… and \(groupsLeft) more \(groupsLeft == 1 ? "group" : "groups") of updated records (--limit)\n"
                : TextFormatter.moreLine(ended))
        }
    }

    /// An updated record's field changes, a line each under its header line.
    private func addFields(_ fields: [FieldChange], to line: inout TextLine) {
        for run in FieldChange.runs(fields) {
            let field = run.first!
            if case .to? = field.move { continue }
            if let from = field.movedFromLocation {
                // A keyed element that moved: one line, then what changed inside it.
                line.add("  ")
                line.addVisible(from)
                line.add(" -> ")
                line.addVisible(field.location)
                line.add(": moved\n")
                addFields(field.inside, to: &line)
                continue
            }
            line.add("  ")
            if run.count > 1 {
                // Elements inserted or deleted one after another: one line, the first three and the last.
                line.addVisible(field.location(throughCount: run.count))
                line.add(": ")
                line.add(field.new == nil ? "deleted " : "inserted ")
                line.add(run.count)
                line.add(" elements ")
                line.add(ReportValueText.runValues(run, width: width))
                line.add("\n")
                continue
            }
            line.addVisible(field.location)
            line.add(": ")
            if field.isElementInsertedOrDeleted {
                // An array element: `tags[2]: inserted "x"`.
                line.add(field.new == nil ? "deleted " : "inserted ")
                line.addValue((field.new ?? field.old)!, width: width)
            } else {
                line.addValues(field.old, field.new, width: width)
            }
            line.add("\n")
        }
    }

    /// What `--limit` left out of a kind, after its changes.
    static func moreLine(_ cut: (kind: Change.Kind, count: Int)) -> String {
        "… and \(cut.count) more \(PerKindLimit.title(cut.kind).lowercased()) (--limit)\n"
    }

    /// A change's lines, each ending in a line feed.
    func text(of change: Change, sectioned: Bool) -> String {
        var line = TextLine(color: color)
        func place(_ place: RecordPlace?) {
            if sectioned {
                section(place!.section)
                line.add("/")
            }
            line.add(place!.index)
        }
        func section(_ name: String?) {
            if let name { line.addVisible(name) } else { line.add("(none)") }
        }
        // A place with no line (a table's row) has no ", line N" part.
        func lineNumber(_ place: RecordPlace?) {
            guard let number = place?.line else { return }
            line.add(", line ")
            line.add(number)
        }
        func id(_ change: Change) {
            guard let id = change.id else { return }
            line.add(" id ")
            if id.count == 1 { line.addVisible(id[0]) } else { line.add(ReportValueText.id(id)) }
            line.add(" ")
        }
        func from(_ change: Change) {
            let (old, new) = (change.old!, change.new!)
            if old.index == new.index && old.section == new.section {
                line.add("at ")
                place(old)
            } else {
                place(old)
                line.add(" -> ")
                place(new)
            }
            if old.line == new.line {
                lineNumber(old)
            } else {
                // One side's rows may have no lines (a table's): "-" there.
                line.add(", lines ")
                if let oldLine = old.line { line.add(oldLine) } else { line.add("-") }
                line.add(" -> ")
                if let newLine = new.line { line.add(newLine) } else { line.add("-") }
            }
        }

        /// A section change's label, padded to line up with the others, and the section's name.
        func sectionLabel(_ label: StaticString, _ paint: Paint, padding: StaticString) {
            line.add(label, paint)
            line.add(padding)
            section(change.section)
        }

        switch change.kind {
        case .sectionDeleted:
            sectionLabel("section deleted", .red, padding: "  ")
            line.add(" at ")
            line.add(change.old!.index)
        case .sectionInserted:
            sectionLabel("section inserted", .green, padding: " ")
            line.add(" at ")
            line.add(change.new!.index)
        case .sectionMoved:
            sectionLabel("section moved", .cyan, padding: "    ")
            line.add(" ")
            line.add(change.old!.index)
            line.add(" -> ")
            line.add(change.new!.index)
        case .deleted, .inserted:
            let deleted = change.kind == .deleted
            line.add(deleted ? "deleted " : "inserted", deleted ? .red : .green)
            id(change)
            line.add(" at ")
            place(deleted ? change.old : change.new)
            lineNumber(deleted ? change.old : change.new)
        case .moved:
            line.add("moved   ", .cyan)
            id(change)
            line.add(" ")
            from(change)
        case .updated:
            line.add("updated ", .yellow)
            id(change)
            line.add(" ")
            from(change)
        }
        if !change.context.isEmpty {
            // `--show`: the fields asked for, beside the id and position.
            line.add("  ")
            line.add(TransitionText.context(change, width: width))
        }
        line.add("\n")
        switch change.kind {
        case .deleted, .inserted, .moved:
            guard change.hasRecord else { break }
            line.add("  ")
            line.addRecord(of: change, width: width)
            line.add("\n")
        case .updated:
            addFields(change.fields, to: &line)
        default:
            break
        }
        return line.text
    }
}
