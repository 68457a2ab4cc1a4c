import ArgumentParser
import ChangesetKit

/// The diff's report options: the format, where it goes and what it shows.
/// A group of their own, so the completion scripts offer them at the top of
/// the command tree too (`CompletionTree`).
struct ReportOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The output format: text, json, ndjson, markdown, html, patch, jsonpatch or batch.", valueName: "format"))
    var format: OutputFormat = .text

    @Flag(help: "With --format jsonpatch: an RFC 6902 test operation before each remove, replace and move, holding the value it expects there, so that the patch applied to another document fails instead of changing it.")
    var testOps = false

    @Option(name: [.short, .long], help: ArgumentHelp("Write the output to this file (whole or not at all; gzip or zstd when named .gz or .zst) instead of standard output.", valueName: "file"), completion: .file())
    var output: String?

    @Option(name: [.customShort("L"), .long], help: ArgumentHelp(
        "Name OLD by this label instead of its path, in the report and in errors; given a second time, NEW (as diff -L). For copies that stand for other files.",
        valueName: "label"))
    var label: [String] = []

    @Option(name: .customLong("assert"), help: ArgumentHelp(
        "Check a count, for CI: 'KIND OP N' or 'KIND OP N%' (of the old records); KIND is inserted, deleted, updated, moved, changed, unchanged or schema, OP one of == != < <= > >= (repeatable). Exit 0 when all hold, else 1.",
        valueName: "expr"))
    var assertions: [String] = []

    // `.unconditional`: `--width -1` is a value to refuse with a reason, not a missing one.
    @Option(parsing: .unconditional, help: ArgumentHelp("Cut values to this many characters around the part that changed; 0 shows them whole (default 120 for text, 80 for markdown, 200 for html). Text also wraps its schema lines at this width.", valueName: "n"))
    var width: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("List at most this many changes of each kind in text (default: all), markdown (default 50) and html (default 1000), then say how many more; 0 for no limit (markdown still stays under 65,536 characters).", valueName: "n"))
    var limit: Int?

    @Option(help: ArgumentHelp("Show only these kinds of change, a comma list of inserted, deleted, updated, moved, section-inserted, section-deleted and section-moved; the counts, the exit status and --assert still take every change.", valueName: "kinds"))
    var kinds: String?

    @Flag(help: "In the text and markdown reports, write updated records that changed the same fields the same way once, with how many and their first ids, largest group first.")
    var group = false

    @Option(help: ArgumentHelp("Show this field's value beside the id of every change (the current value; a deleted record's old one); repeatable; a top-level name may be a glob pattern.", valueName: "field"))
    var show: [String] = []

    @Flag(help: "Print only the counts (text and json formats; text adds the schema, per-field and file-layout lines).")
    var stat = false

    @Flag(name: [.short, .long], help: "Print nothing on standard output; only the exit status tells (-o FILE is still written).")
    var quiet = false

    @Option(help: ArgumentHelp("Colour the text output: auto (on a terminal, unless NO_COLOR is set), always or never.", valueName: "when"))
    var color: ColorChoice = .auto

    func validate() throws {
        if label.count > 2 { throw ValidationError("--label names OLD, then NEW: give it at most twice") }
        for text in assertions {
            do { _ = try Assertion(parsing: text) } catch { throw ValidationError(LibraryErrorWording.text(of: error)) }
        }
        for field in show {
            do { _ = try FieldPath(parsing: field) } catch { throw ValidationError("--show: \(error)") }
        }
        do {
            try outputSettings().check()
        } catch let refusal as OutputSettingsError {
            throw ValidationError(refusal.commandLineWording)
        }
    }

    /// `--kinds`: a comma list of kinds of change, each named once.
    func chosenKinds() throws -> [Change.Kind]? {
        guard let kinds else { return nil }
        var chosen: [Change.Kind] = []
        for name in kinds.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let kind = Change.Kind(rawValue: name) else {
                throw ValidationError("--kinds: \"\(name)\" is not a kind of change; use \(Change.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if !chosen.contains(kind) { chosen.append(kind) }
        }
        return chosen
    }

    /// How the comparison is written, from the output options (`--kinds` and `--show` parsed).
    func outputSettings() throws -> OutputSettings {
        var settings = OutputSettings(
            format: format, countsOnly: stat, width: width, limit: limit, color: output == nil && color.isEnabled, kinds: try chosenKinds(),
            show: try show.map { try FieldPath(parsing: $0) })
        // The checks go into the markdown page too: a job summary says why the job failed.
        settings.assertions = try assertions.map { try Assertion(parsing: $0) }
        settings.group = group
        settings.testOperations = testOps
        return settings
    }
}
