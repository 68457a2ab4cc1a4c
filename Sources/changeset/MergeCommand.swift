import ArgumentParser
import ChangesetKit
import Foundation

/// `changeset merge BASE OURS THEIRS [-o OUT]`: a record- and field-level
/// three-way merge, written in OURS's format.
struct MergeCommand: RuledCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge two edits (OURS and THEIRS) of one dataset (BASE), record by record and field by field.",
        discussion: """
            Records are matched by --id; without it, by content, and a merge is refused when some field \
            is unique in each file (it names it). A record changed on one side takes that \
            change; changed on both, it is merged field by field. The same field changed to different \
            values, a record deleted on one side and changed on the other, and one id inserted on both \
            sides with different content are conflicts: each is listed on standard error, nothing is \
            written (unless --markers), and the exit status is 1. --prefer resolves them on purpose. \
            The result is OURS's file with the changes in it: untouched records and the bytes between them are \
            copied, new ones written as the file writes its records. See man changeset for the order rule. \
            Exit status: 0 merged, 1 conflicts, 2 trouble (nothing written).
            """
    )

    @Argument(help: "The common ancestor: a .json, .ndjson/.jsonl, .csv or .tsv file, or - for standard input.", completion: .file())
    var base: String

    @Argument(help: "Our edit of BASE; the result is written in its format.", completion: .file())
    var ours: String

    @Argument(help: "Their edit of BASE.", completion: .file())
    var theirs: String

    @OptionGroup var merging: MergingOptions

    @OptionGroup var rulesOptions: RulesOptions

    var ruledPaths: [String?] { [ours, theirs, base] }

    @Option(help: ArgumentHelp("Also write the conflicts to this file as JSON (an empty list when there are none).", valueName: "file"), completion: .file())
    var conflicts: String?

    @Flag(help: "On conflict, write the result anyway, each conflicting record (or member of the document around the records) as OURS's and THEIRS's version between git-style <<<<<<< ======= >>>>>>> lines (only its lines in conflict, in a record that spans lines).")
    var markers = false

    @Option(name: [.short, .long], help: ArgumentHelp("Write the result to this file (whole or not at all; gzip or zstd when named .gz or .zst) instead of standard output.", valueName: "file"), completion: .file())
    var output: String?

    func validate() throws {
        if [base, ours, theirs].filter({ $0 == "-" }).count > 1 {
            throw ValidationError("only one of BASE, OURS and THEIRS can be standard input (-)")
        }
        if markers && merging.prefer != nil { throw ValidationError("--markers marks conflicts that --prefer resolves; give one of them") }
        if merging.matching.duplicates == .occurrence && merging.matching.id != nil {
            // The k-th record with an id is another record once a side deletes an earlier one.
            throw ValidationError("a merge matches records by unique ids; --duplicates occurrence would match different records after a deletion")
        }
    }

    func run() throws {
        let options = try merging.mergeOptions()
        let inputs = [base, ours, theirs]
        try OutputTargets.check(naming: [("-o", output ?? ""), ("--conflicts", conflicts ?? "")]) { () throws(OverwriteGuard.Refusal) in
            if let output { try OverwriteGuard.checkOutput(output, against: inputs) }
            if let conflicts { try OverwriteGuard.checkOutput(conflicts, against: inputs) }
            if let conflicts, let output { try OverwriteGuard.checkDistinct(output, conflicts) }
            if output == nil { try OverwriteGuard.checkStandardOutput(against: inputs) }
            if output == nil, let conflicts { try OverwriteGuard.checkStandardOutput(isNot: conflicts) }
        }
        let status = try Self.merge(base: base, ours: ours, theirs: theirs, options: options, output: output,
                                    conflictsFile: conflicts, markers: markers ? MergeWriter.Markers() : nil)
        throw ExitCode(status)
    }

    /// Runs a merge for `changeset merge` and git's merge driver: the
    /// notes and conflicts on standard error, then what `MergeRun` writes,
    /// in its order; returns the exit status it earned.
    static func merge(
        base: String, ours: String, theirs: String, options: MergeOptions,
        output: String?, conflictsFile: String?, markers: MergeWriter.Markers?
    ) throws -> Int32 {
        let merge: DatasetMerge
        do {
            merge = try DatasetMerge.run(basePath: base, oursPath: ours, theirsPath: theirs, options: options)
        } catch {
            Diagnostics.report(LibraryErrorWording.text(of: error))
            throw ExitCode(ExitStatus.trouble)
        }
        if options.records.id.isEmpty {
            Diagnostics.report("note: without --id, records are matched by their whole content (no field is unique in each file): "
                               + "a record edited on both sides is kept in both versions")
        }
        if let note = try? merge.layoutNote() { Diagnostics.report(note) }
        let run = MergeRun(merge, markers: markers)
        run.conflictLines.forEach(Diagnostics.report)
        if run.writesResult {
            // Compressed as its file is to be: git's merge driver keeps OURS's gzip or zstd.
            try OutputTargets.deliver(to: output) { stream in try run.writeResult(to: &stream) }
        } else {
            let count = merge.result.conflicts.count
            Diagnostics.report("\(count) conflict\(count == 1 ? "" : "s"); nothing was written "
                               + "(resolve with --prefer ours or --prefer theirs, or write the result with --markers)")
        }
        if let conflictsFile {
            try OutputTargets.deliver(to: conflictsFile) { stream in stream.write(run.conflictsJSON) }
        }
        return run.endsWithConflicts ? ExitStatus.different : ExitStatus.same
    }
}

extension MergePreference: ExpressibleByArgument {}
