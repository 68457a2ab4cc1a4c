/// Settings a comparison cannot be written with: each case names the rule
/// and what broke it, in the library's words. (`changeset` words each as
/// its options instead: `--format patch`, `--kinds`, ...)
public enum OutputSettingsError: Error, Equatable, CustomStringConvertible {
    /// `countsOnly` in a format that carries no counts alone (see `OutputFormat.carriesCounts`).
    case countsNotCarried(OutputFormat)
    /// A choice of `kinds` for a replay format, which rebuilds the new snapshot from every change.
    case kindsInReplay(OutputFormat)
    /// Fields to `show` for a replay format, which has no report to show them in.
    case showInReplay(OutputFormat)
    /// `testOperations` for a format other than `jsonpatch`.
    case testOperationsOutsideJSONPatch(OutputFormat)
    /// A `width` other than 0 below `minimumWidth`.
    case widthTooSmall(Int, minimumWidth: Int)
    /// A negative `limit`.
    case negativeLimit(Int)
    /// A `limit` for a format other than text, markdown and html.
    case limitNotCarried(OutputFormat)
    /// `group` for a format other than text and markdown.
    case groupNotCarried(OutputFormat)
    /// A patch of records found at a path with a control character in a
    /// name: the patch writes the path as a line of text, which it would not survive.
    case recordsPathNotCarried
    /// A `patch` or `jsonpatch` of a comparison made in partitions, past its
    /// memory limit (`limit` bytes): the replay needs every record in memory.
    case replayPastMemoryLimit(OutputFormat, limit: Int)
    /// A patch made from a replay without a result fingerprint (not made with `.records`).
    case patchWithoutResultFingerprint
    /// A patch for a CSV snapshot (`base`) whose new record at `line` of
    /// `snapshot` has a `field` the base has no column for.
    case patchFieldWithoutColumn(field: String, line: Int, snapshot: String, base: String)
    /// A `jsonpatch` of a side (`snapshot`) that is not one JSON document
    /// but read as `format` (csv, ndjson, ...): a JSON Patch addresses places in a document.
    case jsonPatchOfNonJSON(snapshot: String, format: String)

    /// What is refused, and why.
    public var description: String {
        switch self {
        case .countsNotCarried(let format):
            "the \(format.rawValue) format carries no counts alone; use text, json or ndjson"
        case .kindsInReplay(let format):
            "the \(format.rawValue) format rebuilds the new snapshot from every change; a choice of kinds is for reports"
        case .showInReplay(let format):
            "the \(format.rawValue) format replays the change; fields shown beside a change are for reports"
        case .testOperationsOutsideJSONPatch(let format):
            "test operations are written in the jsonpatch format, not \(format.rawValue)"
        case .widthTooSmall(let width, let minimum):
            "a width must be 0 (no limit) or at least \(minimum), not \(width)"
        case .negativeLimit(let limit):
            "a limit must be 0 or more, not \(limit)"
        case .limitNotCarried(let format):
            "a limit caps the text, markdown and html reports, not the \(format.rawValue) format"
        case .groupNotCarried(let format):
            "updates are grouped in the text and markdown reports; the \(format.rawValue) format lists each change"
        case .recordsPathNotCarried:
            "a patch cannot carry a records path with a control character in a name"
        case .replayPastMemoryLimit(let format, let limit):
            "the \(format.rawValue) format holds every record in memory, and these inputs are larger than the memory limit of \(limit) bytes"
        case .patchWithoutResultFingerprint:
            "a patch needs a replay with a result fingerprint (make it with .records)"
        case .patchFieldWithoutColumn(let field, let line, let snapshot, let base):
            "the record at line \(line) of \(snapshot) has a field \"\(TerminalText.datum(field))\" that \(base) has no column for; "
                + "a patch for a CSV snapshot can only fill its columns"
        case .jsonPatchOfNonJSON(let snapshot, let format):
            "the jsonpatch format needs two JSON documents, but \(snapshot) is \(format)"
        }
    }
}

extension OutputSettings {
    /// Checks the rules these settings must keep whatever is compared: a
    /// format that carries the counts, kinds, fields shown, test operations,
    /// limit and grouping asked for, and a width that leaves room for a value.
    public func check() throws(OutputSettingsError) {
        if testOperations && format != .jsonpatch { throw .testOperationsOutsideJSONPatch(format) }
        if countsOnly && !format.carriesCounts { throw .countsNotCarried(format) }
        if let width, width != 0 && width < ReportValueText.minimumWidth { throw .widthTooSmall(width, minimumWidth: ReportValueText.minimumWidth) }
        if let limit, limit < 0 { throw .negativeLimit(limit) }
        if limit != nil && format != .text && format != .markdown && format != .html { throw .limitNotCarried(format) }
        if !show.isEmpty && format.isReplay { throw .showInReplay(format) }
        if group && format != .text && format != .markdown { throw .groupNotCarried(format) }
        if kinds != nil && format.isReplay { throw .kindsInReplay(format) }
    }
}
