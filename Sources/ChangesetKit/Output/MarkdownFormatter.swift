/// The `markdown` format: GitHub-flavoured Markdown for a pull request
/// comment or a CI job summary (`$GITHUB_STEP_SUMMARY`):
///
/// - a heading naming the two inputs, and a table of the counts;
/// - the schema changes and renames, when there are any;
/// - what changed in the files apart from their records (line endings, byte
///   order mark, final newline, column order), when anything did;
/// - a table of the changed fields with how many updated records changed each;
/// - a table per kind of change (section changes, deleted, inserted, moved,
///   updated), with ids, file lines, and old and new values side by side.
///
/// Each kind lists at most `limit` changes and then says how many more
/// there are; the whole text never exceeds `maximumLength` characters (the
/// limit of a job summary and of a comment), cutting rows and saying so.
/// Names, ids and values are code spans by the format's one rule for text
/// from the data (`MarkdownPage.code`: invisible characters escaped, `|`
/// escaped in the tables); long values are cut to `width` around the part
/// that changed.
package struct MarkdownFormatter: ReportFormatter {
    package var limit: Int
    package var width: Int
    package static let defaultLimit = 50
    package static let defaultWidth = 80
    /// GitHub's limit for a job summary and a comment.
    package static let maximumLength = 65_536

    /// The `--assert` checks to list at the end of the page (within its size).
    package var assertions: [Assertion] = []
    /// `--group`: updated records that changed the same fields the same way
    /// are one row group (how many, their first ids), largest first; the limit counts groups.
    package var group = false

    /// `limit` changes of each kind at most, values cut to `width` characters (nil: the defaults, 50 and 80).
    package init(limit: Int? = nil, width: Int? = nil) {
        self.limit = limit ?? Self.defaultLimit
        self.width = ReportValueText.bounded(width ?? Self.defaultWidth)
    }

    package var showsEveryChange: Bool { false }

    /// The page being filled, and the per-kind limit's count.
    package struct Progress {
        var page: MarkdownPage
        var cap: PerKindLimit
        /// The assertions' list, its room kept out of the page's budget.
        var appendix: String
        /// `--group`: the updates so far, by their field changes.
        var groups = UpdateGroups()
    }

    package func begin(_ report: Report, to output: inout some TextOutputStream) -> Progress {
        let appendix = Self.assertionSection(assertions, summary: report.summary)
        var page = MarkdownPage(budget: MarkdownFormatter.maximumLength - appendix.utf8.count)
        let summary = report.summary
        page.add("### changeset: \(MarkdownPage.code(report.old.name, inTable: false)) → \(MarkdownPage.code(report.new.name, inTable: false))\n\n")
        var counts = [("inserted", summary.inserted), ("deleted", summary.deleted), ("updated", summary.updated),
                      ("moved", summary.moved), ("unchanged", summary.unchanged)]
        if report.sectioned {
            counts += [("sections inserted", summary.sectionsInserted), ("sections deleted", summary.sectionsDeleted),
                       ("sections moved", summary.sectionsMoved)]
        }
        page.add("| records | \(report.old.records) → \(report.new.records) |\n| --- | ---: |\n")
        for (name, count) in counts { page.add("| \(name) | \(count) |\n") }
        page.add("\n")
        if let note = report.kindsNote { page.add("_\(note.prefix(1).uppercased() + note.dropFirst())._\n\n") }
        if report.schema.isWorthListing {
            page.add("**Schema**\n\n")
            for field in report.schema.added { page.add("- added \(MarkdownPage.code(field.path.description, inTable: false)) (\(field.records) \(field.records == 1 ? "record" : "records") with a value)\n") }
            for field in report.schema.removed { page.add("- removed \(MarkdownPage.code(field.path.description, inTable: false)) (\(field.records) \(field.records == 1 ? "record" : "records") had a value)\n") }
            for rename in report.schema.renamed { page.add("- renamed \(MarkdownPage.code(rename.old.description, inTable: false)) → \(MarkdownPage.code(rename.new.description, inTable: false))\n") }
            for suggestion in report.schema.suggestedRenames {
                page.add("- looks renamed: \(MarkdownPage.code(suggestion.old.description, inTable: false)) → \(MarkdownPage.code(suggestion.new.description, inTable: false)) (\(suggestion.equal) of \(suggestion.compared) values equal); \(MarkdownPage.code("--rename " + suggestion.renameArgument, inTable: false)) compares them as one field\n")
            }
            for field in report.schema.ignoredAdded { page.add("- added \(MarkdownPage.code(field.path.description, inTable: false)), ignored (`--ignore`/`--only`)\n") }
            for field in report.schema.ignoredRemoved { page.add("- removed \(MarkdownPage.code(field.path.description, inTable: false)), ignored (`--ignore`/`--only`)\n") }
            page.add("\n")
        }
        if !report.layout.isEmpty {
            page.add("**File**\n\n")
            for entry in report.layout.plainEntries(arrow: "→") { page.add("- \(entry.label): \(entry.text)\n") }
            if let order = report.layout.columnOrder {
                func names(_ names: [String]) -> String { names.map { MarkdownPage.code($0, inTable: false) }.joined(separator: ", ") }
                page.add("- column order: \(names(order.old)) → \(names(order.new)) (\(order.movedText))\n")
            }
            page.add("\n")
        }
        if !summary.fieldCounts.isEmpty {
            page.add("**Changed fields**\n\n| field | updated records |\n| --- | ---: |\n")
            for count in summary.fieldCounts.prefix(limit) { page.add("| \(MarkdownPage.code(count.path.description)) | \(count.records) |\n") }
            if summary.fieldCounts.count > limit { page.add("\n…and \(summary.fieldCounts.count - limit) more fields\n") }
            page.add("\n")
        }
        if let note = summary.typeOnlyNote(example: { MarkdownPage.code($0, inTable: false) }) { page.add("_\(note.replacingOccurrences(of: "--loose-types", with: "`--loose-types`"))._\n\n") }
        if let note = summary.respelledNumberNote(example: { MarkdownPage.code($0, inTable: false) }) {
            page.add("_\(note.replacingOccurrences(of: "--numbers-by-value", with: "`--numbers-by-value`"))._\n\n")
        }
        if let note = summary.rekeyedNote(id: { MarkdownPage.code($0, inTable: false) }) { page.add("_\(note)._\n\n") }
        let code = { (text: String) in MarkdownPage.code(text, inTable: false) }
        if let note = summary.keyedArraysNote(name: code) { page.add("_\(note)._\n\n") }
        for note in summary.typeOnlyFieldNotes(limit: TransitionText.fieldLimit, name: code, example: code, option: { "`\($0)`" }) {
            page.add("_\(note)._\n\n")
        }
        if !summary.transitions.isEmpty {
            page.add("**Common changes**\n\n")
            for field in summary.transitions.prefix(TransitionText.fieldLimit) {
                page.add("- \(MarkdownPage.code(field.label, inTable: false)): "
                    + TransitionText.line(field, width: 40, arrow: "→", value: { MarkdownPage.code($0, inTable: false) }) + "\n")
            }
        }
        return Progress(page: page, cap: PerKindLimit(limit: limit), appendix: appendix)
    }

    package func render(_ change: Change, in report: Report) -> String {
        row(change, report: report)
    }

    package func write(_ change: Change, rendered: () -> String, in report: Report, progress: inout Progress, to output: inout some TextOutputStream) {
        if group && change.kind == .updated {
            // Held until the end (updates come last): every group is known only then, and the largest is the first row group.
            return progress.groups.add(change)
        }
        let step = progress.cap.next(change.kind)
        if step.starts {
            Self.more(step.ended, on: &progress.page)
            progress.page.add("\n**\(PerKindLimit.title(change.kind))** (\(report.summary.count(of: change.kind)))\n\n")
            progress.page.add(header(change.kind, report: report))
        }
        if step.show { progress.page.add(rendered()) }
    }

    package func finish(_ report: Report, progress: Progress, to output: inout some TextOutputStream) {
        var progress = progress
        var groupsLeft = 0
        for group in progress.groups.bySize {
            let step = progress.cap.next(.updated)
            if step.starts {
                Self.more(step.ended, on: &progress.page)
                progress.page.add("\n**\(PerKindLimit.title(.updated))** (\(report.summary.updated), in \(progress.groups.groups.count) "
                    + "\(progress.groups.groups.count == 1 ? "group" : "groups") of the same field changes)\n\n")
                progress.page.add(header(.updated, report: report))
            }
            guard step.show else {
                groupsLeft += 1
                continue
            }
            if group.count == 1 {
                progress.page.add(row(group.first, report: report))
            } else {
                let ids = group.ids.map { MarkdownPage.code($0) }.joined(separator: ", ")
                    + (group.count > group.ids.count ? ", … and \(group.count - group.ids.count) more" : "")
                progress.page.add(updatedRows(group.first.fields, id: "**\(group.count) records**: \(ids)", line: ""))
            }
        }
        let ended = progress.cap.finish()
        if groupsLeft > 0, ended?.kind == .updated {
            progress.page.add("\n…and \(groupsLeft) more \(groupsLeft == 1 ? "group" : "groups") of updated records\n")
        } else {
            Self.more(ended, on: &progress.page)
        }
        progress.page.finish(appendix: progress.appendix)
        output.write(progress.page.text)
    }

    /// The `--assert` checks as a list for the end of the page, each held or
    /// failed with the actual count: a CI job summary then says why the job
    /// failed, not only the log.
    package static func assertionSection(_ assertions: [Assertion], summary: Summary) -> String {
        guard !assertions.isEmpty else { return "" }
        var text = "\n**Assertions**\n\n"
        for assertion in assertions {
            let held = assertion.holds(for: summary)
            text += "- \(held ? "✅ holds" : "❌ failed"): \(MarkdownPage.code(assertion.description, inTable: false)) "
                + "(\(assertion.kind.rawValue) is \(assertion.actualDescription(summary)))\n"
        }
        return text
    }

    /// "…and N more" after a kind's rows that the limit cut.
    private static func more(_ left: (kind: Change.Kind, count: Int)?, on page: inout MarkdownPage) {
        if let left { page.add("\n…and \(left.count) more \(PerKindLimit.title(left.kind).lowercased())\n") }
    }

    private func header(_ kind: Change.Kind, report: Report) -> String {
        let id = report.id.isEmpty ? "record" : "id"
        switch kind {
        case .sectionDeleted, .sectionInserted, .sectionMoved: return "| section | position |\n| --- | --- |\n"
        case .deleted, .inserted: return "| \(id) | position | line | record |\n| --- | --- | ---: | --- |\n"
        case .moved: return "| \(id) | from | to | lines |\n| --- | --- | --- | --- |\n"
        case .updated: return "| \(id) | line | field | old | new |\n| --- | ---: | --- | --- | --- |\n"
        }
    }

    private func row(_ change: Change, report: Report) -> String {
        let sectioned = report.sectioned
        func place(_ place: RecordPlace?) -> String { place.map { MarkdownPage.code(ReportValueText.place($0, sectioned: sectioned)) } ?? "" }
        func line(_ place: RecordPlace?) -> String { place?.line.map(String.init) ?? "" }
        let id = (change.id.map { MarkdownPage.code(ReportValueText.id($0)) }
            ?? change.record.map { MarkdownPage.code(ReportValueText.shownValue($0, width: 40)) } ?? "")
            + (change.context.isEmpty ? "" : " (\(MarkdownPage.code(TransitionText.context(change, width: width))))")
        switch change.kind {
        case .sectionDeleted, .sectionInserted, .sectionMoved:
            let position = change.kind == .sectionMoved ? "\(change.old!.index) → \(change.new!.index)" : "\((change.old ?? change.new)!.index)"
            return "| \(MarkdownPage.code(ReportValueText.section(change.section))) | \(position) |\n"
        case .deleted, .inserted:
            let at = change.kind == .deleted ? change.old : change.new
            let record = change.record.map { MarkdownPage.code(ReportValueText.shownValue($0, width: width)) } ?? ""
            return "| \(id) | \(place(at)) | \(line(at)) | \(record) |\n"
        case .moved:
            return "| \(id) | \(place(change.old)) | \(place(change.new)) | \(line(change.old)) → \(line(change.new)) |\n"
        case .updated:
            return updatedRows(change.fields, id: id, line: line(change.new))
        }
    }

    /// An updated record's rows (or a `--group`'s): a row per field, the id and line in the first.
    private func updatedRows(_ fields: [FieldChange], id: String, line: String) -> String {
        var rows = ""
        for (index, run) in FieldChange.runs(fields).enumerated() {
            let field = run.first!
            let cells: String
            if field.isElementInsertedOrDeleted {
                // Array elements inserted or deleted: the side that has none is left empty.
                let (label, values) = ReportValueText.elementRun(run, width: width)
                cells = "\(MarkdownPage.code(label)) | \(field.old == nil ? "" : MarkdownPage.code(values)) | \(field.new == nil ? "" : MarkdownPage.code(values))"
            } else {
                let (old, new) = ReportValueText.shownPair(field.old, field.new, width: width)
                cells = "\(MarkdownPage.code(field.location)) | \(MarkdownPage.code(old)) | \(MarkdownPage.code(new))"
            }
            let first = index == 0
            rows += "| \(first ? id : "") | \(first ? line : "") | \(cells) |\n"
        }
        return rows
    }
}

/// Markdown text under a size budget: rows that would not fit are dropped,
/// and the page says so at the end.
struct MarkdownPage {
    private(set) var text = ""
    /// UTF-8 bytes so far: never fewer than characters, so the budget holds either way.
    private var length = 0
    private let budget: Int
    private var dropped = 0
    /// Room kept for the closing note.
    private static let reserve = 400

    init(budget: Int) {
        self.budget = budget
    }

    /// Adds `piece` if it fits; returns whether it did.
    @discardableResult
    mutating func add(_ piece: String) -> Bool {
        let size = piece.utf8.count
        guard dropped == 0, length + size <= budget - MarkdownPage.reserve else {
            dropped += 1
            return false
        }
        text += piece
        length += size
        return true
    }

    /// Ends the page: `appendix` (whose room the budget left out), then
    /// the note that rows were cut, if they were.
    mutating func finish(appendix: String = "") {
        text += appendix
        if dropped > 0 {
            text += "\n\n> The report was cut to stay under \(MarkdownFormatter.maximumLength) characters; "
                + "`changeset --format json` carries every change, and `--format html --limit 0` shows every one.\n"
        }
    }

    /// Text from the data (a name, an id, a value, a file name) as this
    /// format writes it, its one rule: a code span, in which nothing is
    /// markup (`# heading`, `![image](url)`, `<img>`, a link), with invisible
    /// characters escaped first (`\u000A`), since a line break would end the
    /// span and begin a block of the attacker's. Fenced by one backtick more
    /// than the longest run of backticks inside. In a table cell (the
    /// default, the safe side) `|` is escaped, as it would end the cell even
    /// inside a span; elsewhere `\|` would show its backslash.
    static func code(_ text: String, inTable: Bool = true) -> String {
        let visible = TerminalText.escaped(text)
        let escaped = inTable ? visible.replacingOccurrences(of: "|", with: "\\|") : visible
        if escaped.isEmpty { return "" }
        var longest = 0
        var run = 0
        for character in escaped {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        // A span drops one space at each end when it has one at both ends (and more than spaces):
        // padded, a backtick at an end stays apart from the fence and a name's spaces stay in view.
        let padded = longest > 0 || (escaped.hasPrefix(" ") && escaped.hasSuffix(" ") && escaped.contains { $0 != " " })
        return padded ? fence + " " + escaped + " " + fence : fence + escaped + fence
    }
}
