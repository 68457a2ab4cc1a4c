import ArgumentParser
import ChangesetKit
import Foundation

/// `changeset apply BASE PATCH [-o OUT]`: replays a `--format patch` patch.
struct ApplyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Rebuild the new snapshot from the old one and a patch made with --format patch.",
        discussion: """
            The result is written in BASE's format (JSON, NDJSON, CSV or TSV). A BASE that is not the \
            snapshot the patch was made from, and a patch cut short (no "end" line) or edited (its result's \
            fingerprint differs from its "result" line), are refused: exit status 2, nothing written.
            """
    )

    @Argument(help: "The snapshot the patch was made from (- for standard input).", completion: .file())
    var base: String

    @Argument(help: "The patch file (- for standard input).", completion: .file())
    var patch: String

    @Option(name: [.short, .long], help: ArgumentHelp("Write the result to this file (whole or not at all; gzip or zstd when named .gz or .zst) instead of standard output.", valueName: "file"), completion: .file())
    var output: String?

    func validate() throws {
        if base == "-" && patch == "-" { throw ValidationError("BASE and PATCH cannot both be standard input") }
    }

    func run() throws {
        try OutputTargets.check { () throws(OverwriteGuard.Refusal) in
            if let output { try OverwriteGuard.checkOutput(output, against: [base, patch]) } else { try OverwriteGuard.checkStandardOutput(against: [base, patch]) }
        }
        try OutputTargets.deliver(to: output) { stream in
            let patchName = patch == "-" ? InputFile.standardInputName : patch
            let script = try PatchScript.read(try InputBytes.contents(of: patch), source: patchName)
            let baseInput = try InputFile.open(base, format: base == "-" ? script.baseFormat : nil, recordsAt: script.recordsAt)
            try PatchApplier.apply(script, patchSource: patchName, to: baseInput, output: &stream)
        }
    }
}
