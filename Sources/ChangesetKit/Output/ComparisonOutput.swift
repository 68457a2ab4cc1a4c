/// The formats a comparison is written in (`--format`).
public enum OutputFormat: String, Sendable, CaseIterable {
    case text, json, ndjson, markdown, html, patch, jsonpatch, batch

    /// Formats that replay NEW from OLD rather than report the changes.
    public var isReplay: Bool { self == .patch || self == .jsonpatch || self == .batch }

    /// Whether `--stat` (the counts alone) can be written in this format.
    public var carriesCounts: Bool { self == .text || self == .json || self == .ndjson }
}

/// How a comparison is written: its format and the format's settings.
public struct OutputSettings: Sendable {
    /// The output format (text, json, ndjson, markdown, html, patch, jsonpatch or batch).
    public var format: OutputFormat
    /// Only the counts (text, json and ndjson; see `OutputFormat.carriesCounts`).
    public var countsOnly = false
    /// Values cut to this many characters around the change (0: whole);
    /// nil for the format's default.
    public var width: Int?
    /// At most this many changes of each kind (text, markdown and html; 0:
    /// no limit); nil for the format's default (text: no limit).
    public var limit: Int?
    /// ANSI colours in the text format.
    public var color = false
    /// The kinds of change shown (`--kinds`; nil: all). The counts, the
    /// exit status and `--assert` still take every change; the replay
    /// formats, which rebuild NEW, refuse a choice.
    public var kinds: [Change.Kind]?
    /// Fields shown beside each change's id (`--show`): their current
    /// values (a deleted record's old ones). Report formats only.
    public var show: [FieldPath]
    /// `--group` (text, markdown): updated records that changed the same fields the
    /// same way are written once, with how many and their first ids.
    public var group = false
    /// `--assert` checks the markdown page lists at its end (CLI).
    package var assertions: [Assertion] = []
    /// `--test-ops` (jsonpatch only): an RFC 6902 `test` operation before
    /// each `remove`, `replace` and `move`, holding the value it expects
    /// there, so that the patch applied to another document fails instead of
    /// changing it.
    public var testOperations = false

    /// Whether the report says the key hint itself, after its summary (text,
    /// counts alone too): a person reading it sees the hint before a long
    /// list of changes. Other formats are for programs: the hint goes to standard error.
    package var reportCarriesKeyHint: Bool { format == .text }

    /// Settings for `format`, each other setting at its default unless given.
    public init(
        format: OutputFormat = .text, countsOnly: Bool = false, width: Int? = nil, limit: Int? = nil, color: Bool = false,
        kinds: [Change.Kind]? = nil, show: [FieldPath] = []
    ) {
        self.format = format
        self.countsOnly = countsOnly
        self.width = width
        self.limit = limit
        self.color = color
        self.kinds = kinds
        self.show = show
    }

    /// How many changes of each kind the report shows at most, so those past
    /// it are not read again (nil: every one). Grouped updates are all
    /// needed: a group of one is shown with its record's context.
    var recordsShownPerKind: Int? {
        let limit: Int?
        switch format {
        case .text: limit = self.limit
        case .markdown: limit = self.limit ?? MarkdownFormatter.defaultLimit
        case .html: limit = self.limit ?? HTMLFormatter.defaultLimit
        default: limit = nil
        }
        guard let limit, limit > 0, !group else { return nil }
        return limit
    }
}

extension Comparison {
    /// Writes the comparison as `settings` say and returns its counts. A
    /// report reads the changed records again once, for the text it shows; a
    /// replay (`patch`, `jsonpatch`, `batch`) counts them, then writes what
    /// rebuilds NEW. `showingNothing` (`--quiet`): only counts, writing
    /// nothing, but refusing what the format cannot carry as a run that
    /// writes would.
    public func write(_ settings: OutputSettings, to output: inout some TextOutputStream, showingNothing: Bool = false) throws -> Summary {
        try settings.check()
        if settings.format == .patch, let path = options.records.recordsAt, path.holdsControlCharacter {
            // A patch writes the path as text on its own line, which such a name would not survive (a CR before the LF ends the line).
            throw OutputSettingsError.recordsPathNotCarried
        }
        if settings.format == .jsonpatch { try JSONPatchFormatter.check(old: old.summary, new: new.summary) }
        try checkReplayCarriesWhatIsCounted(settings.format)
        // Checked whatever is written: `-q` and `--stat` show no context, and a typo they let pass would fail the report run.
        let shown = try FieldCheck.shownFields(settings.show, options: options.records, old: old, new: new)
        if showingNothing { return try counts() }
        if isPartitioned && (settings.format == .patch || settings.format == .jsonpatch) {
            // A replay carries every record's place in NEW: the tables must hold them all.
            throw OutputSettingsError.replayPastMemoryLimit(settings.format, limit: options.memoryLimit ?? 0)
        }
        if settings.format.isReplay {
            let summary = try counts()
            switch settings.format {
            case .patch: try PatchFormatter().write(try replay(.records), to: &output)
            case .jsonpatch: try JSONPatchFormatter(testOperations: settings.testOperations).write(try replay(.fields), to: &output)
            default: BatchFormatter().write(changeset, to: &output)
            }
            return summary
        }
        var report = try report(showing: settings.countsOnly ? nil : settings.kinds, shown: settings.countsOnly ? [] : shown,
                                recordsPerKind: settings.countsOnly ? nil : settings.recordsShownPerKind)
        if settings.reportCarriesKeyHint && needsKeyHint(report.summary) { report.keyHint = try keyHint() }
        // A stream carries the hint for `changeset report` to say it where a text report would.
        if settings.format == .ndjson && !settings.countsOnly && needsKeyHint(report.summary) { report.stream.keyHint = try keyHint() }
        try Self.write(report, settings, to: &output)
        return report.summary
    }

    /// A report written as `settings` say (not a replay format).
    package static func write(_ report: Report, _ settings: OutputSettings, to output: inout some TextOutputStream) throws {
        if settings.countsOnly {
            switch settings.format {
            case .json, .ndjson:
                output.write(JSONFormatter.summaryJSON(report.summary, sections: report.sectioned) + "\n")
            default:
                output.write(TextFormatter.summaryLine(report.summary, sections: report.sectioned) + "\n")
                for line in TextFormatter.detailLines(report, width: ReportValueText.bounded(settings.width ?? TextFormatter.defaultWidth),
                                                      fileInOneLine: true) {
                    output.write(line + "\n")
                }
            }
            return
        }
        let limit = settings.limit.map { $0 == 0 ? Int.max : $0 }
        switch settings.format {
        case .text:
            var formatter = TextFormatter(color: settings.color, width: settings.width, limit: settings.limit == 0 ? nil : settings.limit)
            formatter.group = settings.group
            try formatter.write(report, to: &output)
        case .markdown:
            var formatter = MarkdownFormatter(limit: limit, width: settings.width)
            formatter.assertions = settings.assertions
            formatter.group = settings.group
            try formatter.write(report, to: &output)
        case .html: try HTMLFormatter(limit: limit, width: settings.width).write(report, to: &output)
        case .json: try JSONFormatter().write(report, to: &output)
        case .ndjson: try NDJSONFormatter().write(report, to: &output)
        case .patch, .jsonpatch, .batch: preconditionFailure("a replay format is written from the comparison")
        }
    }
}

extension Report {
    /// The report in one of the report formats (`text`, `json`, `ndjson`,
    /// `markdown`, `html`), as `settings` say: what `Comparison.write` writes
    /// for a report, here for one built by hand or by `Comparison.report`.
    /// Refused (`OptionError`): the replay formats (`patch`, `jsonpatch`,
    /// `batch`), which need the comparison; `kinds` and `show`, which choose
    /// what a report holds (`Comparison.report(showing:context:)` does); and
    /// settings `OutputSettings.check()` refuses (`OutputSettingsError`).
    public func write(_ settings: OutputSettings, to output: inout some TextOutputStream) throws {
        guard !settings.format.isReplay else {
            throw OptionError("the \(settings.format.rawValue) format replays a comparison: write it with Comparison.write")
        }
        guard settings.kinds == nil && settings.show.isEmpty else {
            throw OptionError("kinds and show choose what a report holds: pass them to Comparison.report(showing:context:)")
        }
        try settings.check()
        try Comparison.write(self, settings, to: &output)
    }
}

extension Comparison {
    /// The settings that count some real changes as none (values within a
    /// tolerance, letter case, white space, a value's type, an order).
    package var settingsCountingChangesAsNone: [MessagePart] {
        var settings: [MessagePart] = []
        let tolerance = options.tolerance
        let bounds = [tolerance.all] + tolerance.fields.values
        if bounds.contains(where: { $0.absolute != nil }) { settings.append(.setting(.absoluteTolerances)) }
        if bounds.contains(where: { $0.relative != nil }) { settings.append(.setting(.relativeTolerances)) }
        if tolerance.ignoreCase { settings.append(.setting(.ignoreCase)) }
        if tolerance.ignoreWhitespace { settings.append(.setting(.ignoreWhitespace)) }
        // Where a side is CSV every value compares by its text anyway: the option changes nothing.
        if options.looseTypes && old.input.format.isJSON && new.input.format.isJSON { settings.append(.setting(.looseTypes)) }
        // A CSV cell against a JSON number compares by value whatever the option says.
        if options.numbersByValue && !old.input.format.isJSON && !new.input.format.isJSON { settings.append(.setting(.numbersByValue)) }
        if options.ignoreOrder { settings.append(.setting(.ignoreOrder)) }
        if options.arrays == .set { settings.append(.assignment(.arrays, library: ".set", argument: "set")) }
        return settings
    }

    /// A replay (`patch`, `jsonpatch`, `batch`) must carry every change, or
    /// `apply` would not rebuild NEW (and a table view would show stale rows);
    /// the counts and the exit status must say what it carries, or a patch
    /// full of changes would come with "no differences" (exit 0). Both hold
    /// only when nothing counts a change as none, so such options are
    /// refused here, the one place every replay is written from (report formats pass).
    func checkReplayCarriesWhatIsCounted(_ format: OutputFormat) throws {
        let hiding = settingsCountingChangesAsNone
        guard format.isReplay, !hiding.isEmpty else { return }
        let what = format == .batch
            ? "turns a table of OLD into NEW, so it reloads and moves every record that changed"
            : "rebuilds NEW exactly, so it carries every change"
        let noun = format == .batch ? "batch" : "patch"
        let one = hiding.count == 1
        var sentence: [MessagePart] = []
        for (index, setting) in hiding.enumerated() {
            if index > 0 { sentence.append(.text(index == hiding.count - 1 ? " and " : ", ")) }
            sentence.append(setting)
        }
        throw OptionError([.assignment(.format, library: ".\(format.rawValue)", argument: format.rawValue), .text(" \(what), but ")] + sentence
            + [.text(" \(one ? "counts" : "count") some changes as none, "
                     + "and a \(noun) cannot: make the \(noun) without \(one ? "it" : "them") (a report format shows what \(one ? "it hides" : "they hide"))")])
    }
}
