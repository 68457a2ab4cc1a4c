import ChangesetKit

extension OutputSettingsError {
    /// The refusal in the command's words: the options that asked for it.
    var commandLineWording: String {
        switch self {
        case .countsNotCarried(let format):
            "--stat prints counts, which --format \(format.rawValue) cannot carry"
        case .kindsInReplay(let format):
            "--format \(format.rawValue) rebuilds NEW from every change; --kinds chooses what a report shows"
        case .showInReplay(let format):
            "--format \(format.rawValue) replays the change; --show adds context to a report"
        case .testOperationsOutsideJSONPatch(let format):
            "--test-ops adds test operations to --format jsonpatch, not --format \(format.rawValue)"
        case .widthTooSmall(let width, let minimum):
            "--width must be 0 (no limit) or at least \(minimum), not \(width)"
        case .negativeLimit(let limit):
            "--limit must be 0 or more, not \(limit)"
        case .limitNotCarried(let format):
            "--limit caps the text, markdown and html reports, not --format \(format.rawValue)"
        case .groupNotCarried(let format):
            "--group groups the updates of the text and markdown reports; --format \(format.rawValue) lists each change "
                + (format == .html ? "(the page finds a record by its id)" : "(a program can group them, jq's group_by)")
        case .recordsPathNotCarried:
            "--format patch cannot carry a --records-at path with a control character in a name"
        case .replayPastMemoryLimit(let format, let limit):
            "--format \(format.rawValue) holds every record in memory, and these inputs are larger than "
                + "--memory-limit \(limit) bytes: give a larger --memory-limit to write it"
        case .jsonPatchOfNonJSON(let snapshot, let format):
            "--format jsonpatch needs two JSON documents, but \(snapshot) is \(format)"
        case .patchWithoutResultFingerprint, .patchFieldWithoutColumn:
            "--format patch: \(self)"
        }
    }
}
