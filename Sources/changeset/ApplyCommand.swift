import ArgumentParser
import ChangesetKit
import Foundation

/// `changeset apply BASE PATCH [-o OUT]`: replays a `--format patch` patch.
struct ApplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "changeset apply",
        abstract: "Rebuild the new snapshot from the old one and a patch made with --format patch.",
        discussion: """
            The result is written in BASE's format (JSON, NDJSON, CSV or TSV). A BASE that is not the \
            snapshot the patch was made from is refused: exit status 2, nothing written.
            """,
        version: ChangesetVersion.current
    )

    @Argument(help: "The snapshot the patch was made from (- for standard input).")
    var base: String

    @Argument(help: "The patch file (- for standard input).")
    var patch: String

    @Option(name: [.short, .long], help: ArgumentHelp("Write the result to this file (whole or not at all) instead of standard output.", valueName: "file"))
    var output: String?

    func validate() throws {
        if base == "-" && patch == "-" { throw ValidationError("BASE and PATCH cannot both be standard input") }
    }

    func run() throws {
        let sink = try output.map(OutputSink.file) ?? OutputSink.standardOutput()
        do {
            let patchInput = try InputFile.open(patch, format: .csv)  // read as bytes; the format is not used
            let script = try patchInput.bytes.copy(0..<patchInput.bytes.count).withUnsafeBytes {
                try PatchScript.parse($0, source: patchInput.name)
            }
            let baseInput = try InputFile.open(base, format: base == "-" ? script.baseFormat : nil, recordsAt: script.recordsAt)
            var output = sink
            try PatchApplier.apply(script, patchSource: patchInput.name, to: baseInput, output: &output)
            try sink.commit()
        } catch OutputSink.Trouble.brokenPipe {
            // The reader stopped reading: nothing more to say.
        } catch {
            sink.discard()
            Diagnostics.report("\(error)")
            throw ExitCode(ExitStatus.trouble)
        }
    }
}
