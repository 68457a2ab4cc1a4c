import ArgumentParser
import ChangesetKit
import Foundation

/// The command's entry point: parses, runs, and turns every outcome into the
/// exit-status contract: 0 same, 1 different, 2 trouble (usage errors too,
/// where swift-argument-parser alone would exit 64).
@main
struct ChangesetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "changeset",
        abstract: "Show exactly what changed between two snapshots of a JSON or CSV dataset.",
        discussion: """
            Records are matched by --id and reported as inserted, deleted, updated (field by field) \
            and moved, optionally grouped into sections. Exit status: 0 no differences, 1 differences, \
            2 trouble (bad usage, unreadable or invalid input).
            """,
        version: ChangesetVersion.current,
        subcommands: [DiffCommand.self],
        defaultSubcommand: DiffCommand.self
    )

    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            Diagnostics.report(fullMessage(for: error))
            Foundation.exit(ExitStatus.trouble)
        }
    }
}

enum ChangesetVersion {
    static let current = "0.1.0"
}

enum ExitStatus {
    static let same: Int32 = 0
    static let different: Int32 = 1
    static let trouble: Int32 = 2
}

enum Diagnostics {
    /// `changeset: message` on standard error.
    static func report(_ message: String) {
        FileHandle.standardError.write(Data(("changeset: " + message + "\n").utf8))
    }
}
