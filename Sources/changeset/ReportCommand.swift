import ArgumentParser
import ChangesetKit

/// `changeset report [options] STREAM...`: renders change streams
/// (`--format ndjson`) in any report format; the exit status is the diff's.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Render change streams made with --format ndjson in any report format.",
        usage: "changeset report [<options>] <stream> ...",
        discussion: """
            One stream gives, byte for byte, what the run that made it gives with the same report options. \
            Several streams, parts of one comparison each made with --id and --ignore-order, give what \
            changeset OLD NEW --ignore-order gives on the whole data when their positions are the whole data's. \
            Refused (exit status 2, nothing written): a stream cut short or edited, one from another release, \
            the same stream twice, parts made under other rules or sharing a record id or a position, and the \
            patch, jsonpatch and batch formats and a --show other than the streams were made with, which need \
            the snapshots (the same --show shows the values the streams hold). \
            Exit status: 0 no differences, 1 differences (or as --assert says), 2 trouble.
            """
    )

    @Argument(help: "A change stream made with --format ndjson (- for standard input; .gz and .zst are read too).", completion: .file())
    var streams: [String] = []

    @OptionGroup var report: ReportOptions

    func validate() throws {
        if streams.isEmpty { throw ValidationError("name a change stream: changeset report STREAM (make one with changeset OLD NEW --format ndjson)") }
        if streams.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input (-) can be read once") }
    }

    func run() throws {
        try OutputTargets.check { () throws(OverwriteGuard.Refusal) in
            if let output = report.output {
                try OverwriteGuard.checkOutput(output, against: streams)
            } else if !report.quiet {
                try OverwriteGuard.checkStandardOutput(against: streams)
            }
        }
        let settings = try report.outputSettings()
        var summary = Summary()
        try OutputTargets.deliver(to: report.output) { stream in
            let written = try ChangeStreamReport.write(paths: streams, labels: report.label, settings, to: &stream,
                                                       showingNothing: report.quiet && report.output == nil)
            summary = written.summary
            if let hint = written.keyHint, !report.quiet { Diagnostics.report("hint: " + hint) }
        }
        throw ExitCode(DiffExitStatus.of(summary, assertions: settings.assertions))
    }
}
