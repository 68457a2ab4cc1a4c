import ArgumentParser
import ChangesetKit
import Foundation

/// `changeset OLD NEW` (also `changeset diff OLD NEW`): reads both inputs,
/// compares them, prints the delta, and exits 0 (same), 1 (different) or 2.
struct DiffCommand: RuledCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show exactly what changed between two snapshots of a JSON or CSV dataset.",
        usage: """
            changeset [diff] <old> <new> [<options>]
            changeset apply <base> <patch> [-o <file>]
            changeset merge <base> <ours> <theirs> [<options>] [-o <file>]
            changeset report [<options>] <stream> ...
            changeset git setup [--global] [--id <field>] <pattern> ...
            """,
        discussion: """
            Records are matched by --id and reported as inserted, deleted, updated (field by field) \
            and moved, optionally grouped into sections. Changes of the file itself (line endings, \
            byte-order mark, final newline, CSV column order) are reported too but are no differences. \
            Options for each file can come from a rules file, .changeset.json (see --rules); the command line wins. \
            Exit status: 0 no differences, 1 differences, \
            2 trouble (bad usage, unreadable or invalid input). See man changeset for the formats.
            """
    )

    @Argument(help: "The old snapshot: a .json, .ndjson/.jsonl, .csv or .tsv file, an SQLite database (with --table), or - for standard input.", completion: .file())
    var old: String

    @Argument(help: "The new snapshot, in the same or another format.", completion: .file())
    var new: String

    @OptionGroup var comparing: ComparingOptions

    @OptionGroup var rulesOptions: RulesOptions

    /// A label stands for the file a copy was made from: it picks the entry.
    var ruledPaths: [String?] { [report.label.dropFirst().first ?? new, report.label.first ?? old] }

    @OptionGroup var report: ReportOptions

    func validate() throws {
        if !comparing.matching.rename.isEmpty && (report.format == .patch || report.format == .jsonpatch) {
            throw ValidationError("--format \(report.format.rawValue) replays NEW's content and cannot carry a --rename; make the patch without it")
        }
        if old == "-" && new == "-" { throw ValidationError("OLD and NEW cannot both be standard input (-)") }
    }

    func run() throws {
        // A replay needs every record in memory: under the default limit it is
        // made there; a limit given is kept, and the replay refused past it.
        var options = try comparing.comparisonOptions(replaying: report.format == .patch || report.format == .jsonpatch)
        options.oldName = report.label.first
        options.newName = report.label.dropFirst().first
        try OutputTargets.check { () throws(OverwriteGuard.Refusal) in
            if let output = report.output {
                try OverwriteGuard.checkOutput(output, against: [old, new])
            } else if !report.quiet {
                try OverwriteGuard.checkStandardOutput(against: [old, new])
            }
        }
        let settings = try report.outputSettings()
        var summary = Summary()
        // A reader that stops reading (`| head`) leaves the answer unchanged.
        // --quiet silences standard output only: -o FILE is still written.
        try OutputTargets.deliver(to: report.output) { stream in
            let comparison = try Comparison.run(oldPath: old, newPath: new, options: options)
            summary = try comparison.write(settings, to: &stream, showingNothing: report.quiet && report.output == nil)
            if comparison.needsKeyHint(summary) && !report.quiet && !settings.reportCarriesKeyHint {
                // Matched by content, a changed record is a deletion and an insertion: a key would say more.
                if let hint = try comparison.keyHint() { Diagnostics.report("hint: " + hint.message) }
            }
        }
        throw ExitCode(DiffExitStatus.of(summary, assertions: settings.assertions))
    }
}

extension OutputFormat: ExpressibleByArgument {}

extension DuplicatePolicy: ExpressibleByArgument {}
extension CSVRowPolicy: ExpressibleByArgument {}
extension ArrayComparison: ExpressibleByArgument {}
extension InputFormat: ExpressibleByArgument {}

enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never

    var isEnabled: Bool {
        switch self {
        case .always: true
        case .never: false
        case .auto:
            isatty(STDOUT_FILENO) != 0 && ProcessInfo.processInfo.environment["NO_COLOR", default: ""].isEmpty
        }
    }
}
