import ArgumentParser
import ChangesetKit

/// The command tree: `changeset [diff] OLD NEW`, `changeset apply`,
/// `changeset merge`, `changeset report` and `changeset git ...`. The diff is the default, so
/// `changeset OLD NEW` needs no subcommand name; `ChangesetMain` parses
/// with this tree and keeps the exit-status contract.
struct ChangesetCommand: ParsableCommand {

    static let configuration = CommandConfiguration(
        commandName: "changeset",
        abstract: "Show exactly what changed between two snapshots of a JSON or CSV dataset.",
        version: ChangesetRelease.versionLine,
        subcommands: [DiffCommand.self, ApplyCommand.self, MergeCommand.self, ReportCommand.self, GitCommand.self],
        defaultSubcommand: DiffCommand.self
    )

    /// The subcommand `path` names (`["git", "setup"]`), or nil when a name is not one.
    static func subcommand(at path: some Sequence<String>) -> ParsableCommand.Type? {
        var command: ParsableCommand.Type = ChangesetCommand.self
        for name in path {
            guard let next = command.configuration.subcommands.first(where: { $0.configuration.commandName == name }) else { return nil }
            command = next
        }
        return command
    }
}
