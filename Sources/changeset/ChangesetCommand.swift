import ArgumentParser
import ChangesetKit
import Foundation

/// The command's entry point. `changeset OLD NEW` is the diff; a first
/// argument `diff` or `apply` names the subcommand. Every outcome becomes the
/// exit-status contract: 0 same, 1 different, 2 trouble (usage errors too,
/// where swift-argument-parser alone would exit 64).
@main
enum ChangesetMain {
    static func main() {
        // A closed pipe is an error code from write(2), not a signal that kills us.
        signal(SIGPIPE, SIG_IGN)
        var arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "diff":
            arguments.removeFirst()
            execute(DiffCommand.self, arguments)
        case "apply":
            arguments.removeFirst()
            execute(ApplyCommand.self, arguments)
        default:
            execute(DiffCommand.self, arguments)
        }
    }

    static func execute<Command: ParsableCommand>(_ command: Command.Type, _ arguments: [String]) -> Never {
        do {
            var parsed = try command.parseAsRoot(arguments)
            try parsed.run()
            exit(ExitStatus.same)
        } catch let status as ExitCode {
            exit(status.rawValue)
        } catch {
            if command.exitCode(for: error) == .success {
                print(command.fullMessage(for: error))
                exit(ExitStatus.same)
            }
            // One `changeset: message` line, then the usage, on standard error.
            Diagnostics.report(command.message(for: error))
            let usage = command.fullMessage(for: error).components(separatedBy: "\n").drop { !$0.hasPrefix("Usage:") }
            if !usage.isEmpty { FileHandle.standardError.write(Data((usage.joined(separator: "\n") + "\n").utf8)) }
            exit(ExitStatus.trouble)
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
