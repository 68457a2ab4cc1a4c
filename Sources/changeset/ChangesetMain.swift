import ArgumentParser
import ChangesetKit
import Foundation
#if os(Linux)
import CMalloc
#endif

/// The command's entry point: sets the process up, hands git's drivers
/// their arguments unparsed, and parses everything else with
/// `ChangesetCommand`'s tree. Every outcome becomes the exit-status
/// contract: 0 same, 1 different, 2 trouble (usage errors too, where
/// swift-argument-parser alone would exit 64).
@main
enum ChangesetMain {
    static func main() {
        // A closed pipe is an error code from write(2), not a signal that kills us;
        // so is a write past the limit on file size (`ulimit -f`): EFBIG, which
        // the writes report (exit status 2, the temporary output removed).
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        OutputSink.removeTemporaryFilesOnSignals()
        occupyClosedStandardDescriptors()
        requireFreeDescriptors()
        limitMallocArenas()
        let arguments = FileSystemPath.commandLineArguments()
        if arguments.isEmpty {
            // Nothing to compare: say how to use it (a usage error, so scripts notice).
            Diagnostics.writeStandardError(ChangesetCommand.helpMessage(for: DiffCommand.self))
            exit(ExitStatus.trouble)
        }
        switch arguments.first {
        // The tree's own help would list the subcommands alone; the diff is
        // what `changeset OLD NEW` runs, so its help, options and all, is shown.
        case "--help", "-h":
            print(ChangesetCommand.helpMessage(for: DiffCommand.self))
            exit(ExitStatus.same)
        case "help":
            // `help git-diff`: the driver git runs, by the name git runs it with.
            let path = arguments.dropFirst().map { $0 == "git-diff" ? ["git", "diff"] : [$0] }.joined()
            let found = ChangesetCommand.subcommand(at: path)
            guard found != nil || path.isEmpty else {
                Diagnostics.report("help: no subcommand \"\(path.joined(separator: " "))\"; the subcommands are diff, apply, merge, report and git (setup, merge-driver, diff)")
                exit(ExitStatus.trouble)
            }
            let named = found.flatMap { $0 == ChangesetCommand.self ? nil : $0 }
            print(ChangesetCommand.helpMessage(for: named ?? DiffCommand.self))
            exit(ExitStatus.same)
        case let first? where first == "--generate-completion-script" || first.hasPrefix("--generate-completion-script="):
            switch CompletionTree.script(arguments) {
            case .success(let script):
                print(script)
                exit(ExitStatus.same)
            case .failure(let error):
                Diagnostics.writeStandardError("changeset: \(CompletionTree.message(for: error))\n")
                exit(ExitStatus.trouble)
            }
        // What git runs: drivers that never stop git (see each), dispatched
        // before parsing so that no usage error can end git's diff or merge.
        case "git" where arguments.dropFirst().first == "diff":
            GitDiffCommand.executeForGit(Array(arguments.dropFirst(2)))
        case "git" where arguments.dropFirst().first == "merge-driver":
            GitMergeDriverCommand.executeForGit(Array(arguments.dropFirst(2)))
        case "git-diff":
            GitDiffCommand.executeForGit(Array(arguments.dropFirst()))
        default:
            execute(arguments)
        }
    }

    /// One malloc arena a worker thread (`ProcessFacts.workerCount`), not
    /// glibc's eight a core: with an arena each, the reader threads' and then
    /// the report threads' arenas kept memory they had freed, and one arena
    /// for all made the report's threads take turns at its lock (the
    /// measurements are in docs/performance.md). A process setting, so the
    /// command's, not the library's.
    static func limitMallocArenas() {
        #if os(Linux)
        _ = mallopt(M_ARENA_MAX, Int32(ProcessFacts.workerCount))
        #endif
    }

    /// A closed standard descriptor (`changeset ... >&-`) would be handed to
    /// the next file opened (an input, or Dispatch's own), and output meant
    /// for it would land there. Each closed one gets /dev/null opened the
    /// wrong way round, so using it fails as a closed descriptor would
    /// (EBADF) and nothing else can take its number.
    static func occupyClosedStandardDescriptors() {
        for (descriptor, mode) in [(STDIN_FILENO, O_WRONLY), (STDOUT_FILENO, O_RDONLY), (STDERR_FILENO, O_RDONLY)]
        where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", mode)
            if opened >= 0 && opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
        }
    }

    /// Descriptors a run may need at once: three inputs and their copies
    /// if they are streams, two outputs, libdispatch's own (an epoll, an
    /// eventfd, a timer), with room to spare.
    static let descriptorsNeeded = 16

    /// libdispatch, which runs the command's threads, traps (SIGILL, no
    /// message) when it cannot open its own descriptors, and it opens them
    /// at its first use, after the inputs: so before anything can start
    /// it, a limit on open files that leaves fewer than `descriptorsNeeded`
    /// free is raised towards the hard limit, or is an error (exit status 2).
    /// Only a low limit is checked (counting the open ones costs a call
    /// each): past 4096, the process would have to hold thousands already.
    static func requireFreeDescriptors() {
        guard let limit = OpenFileLimit.current(), limit.rlim_cur < 4096 else { return }
        let open = (0..<Int32(limit.rlim_cur)).reduce(0) { $0 + (fcntl($1, F_GETFD) != -1 ? 1 : 0) }
        let free = Int(limit.rlim_cur) - open
        guard free < descriptorsNeeded else { return }
        if let raised = OpenFileLimit.raise(to: limit.rlim_cur + rlim_t(descriptorsNeeded - free)),
            Int(raised.rlim_cur) - open >= descriptorsNeeded
        {
            return
        }
        Diagnostics.report("the limit on open files (ulimit -n) is \(limit.rlim_cur), with \(open) open: changeset needs \(descriptorsNeeded) free; "
            + "raise it (ulimit -n 64)")
        exit(ExitStatus.trouble)
    }

    /// Parses `arguments` with the command tree and runs the subcommand
    /// they name; every outcome becomes an exit status (0, 1 or 2).
    static func execute(_ arguments: [String]) -> Never {
        do {
            var parsed = try CommandRules.parse([], arguments)
            try parsed.run()
            exit(ExitStatus.same)
        } catch let status as ExitCode {
            exit(status.rawValue)
        } catch {
            if ChangesetCommand.exitCode(for: error) == .success {
                print(ChangesetCommand.fullMessage(for: error))
                exit(ExitStatus.same)
            }
            // One `changeset: message` line, then the usage, on standard error.
            Diagnostics.reportLines(ChangesetCommand.message(for: error))
            let usage = ChangesetCommand.fullMessage(for: error).components(separatedBy: "\n").drop { !$0.hasPrefix("Usage:") }
            if !usage.isEmpty { Diagnostics.writeStandardError(usage.joined(separator: "\n") + "\n") }
            exit(ExitStatus.trouble)
        }
    }
}
