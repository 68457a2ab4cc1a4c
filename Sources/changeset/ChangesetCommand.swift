import ArgumentParser
import ChangesetKit
import Foundation
#if os(Linux)
import CMalloc
#endif

/// The command's entry point. `changeset OLD NEW` is the diff; a first
/// argument `diff` or `apply` names the subcommand. Every outcome becomes the
/// exit-status contract: 0 same, 1 different, 2 trouble (usage errors too,
/// where swift-argument-parser alone would exit 64).
@main
enum ChangesetMain {
    static func main() {
        // A closed pipe is an error code from write(2), not a signal that kills us;
        // so is a write past the limit on file size (`ulimit -f`): EFBIG, which
        // the writes report (exit status 2, the temporary output removed).
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        TemporaryFiles.removeOnSignals()
        occupyClosedStandardDescriptors()
        requireFreeDescriptors()
        limitMallocArenas()
        var arguments = rawCommandLineArguments()
        if arguments.isEmpty {
            // Nothing to compare: say how to use it (a usage error, so scripts notice).
            Diagnostics.writeStandardError(DiffCommand.helpMessage())
            exit(ExitStatus.trouble)
        }
        if arguments == ["--version"] || arguments == ["-V"] {
            print("changeset \(ChangesetVersion.current)")
            exit(ExitStatus.same)
        }
        switch arguments.first {
        case "help":
            switch arguments.dropFirst().first {
            case "apply": print(ApplyCommand.helpMessage())
            case "merge": print(MergeCommand.helpMessage())
            case "git-diff": print(GitCommand.helpMessage(for: GitDiffCommand.self))
            case "git":
                let subcommands: [String: ParsableCommand.Type] = [
                    "setup": GitSetupCommand.self, "merge-driver": GitMergeDriverCommand.self, "diff": GitDiffCommand.self,
                ]
                let named = arguments.dropFirst(2).first.flatMap { subcommands[$0] }
                print(named.map { GitCommand.helpMessage(for: $0) } ?? GitCommand.helpMessage())
            default: print(DiffCommand.helpMessage())
            }
            exit(ExitStatus.same)
        case "diff":
            arguments.removeFirst()
            execute(DiffCommand.self, arguments)
        case "apply":
            arguments.removeFirst()
            execute(ApplyCommand.self, arguments)
        case "merge":
            arguments.removeFirst()
            execute(MergeCommand.self, arguments)
        // What git runs: drivers that never stop git (see each).
        case "git" where arguments.dropFirst().first == "diff":
            GitDiffCommand.executeForGit(Array(arguments.dropFirst(2)))
        case "git" where arguments.dropFirst().first == "merge-driver":
            GitMergeDriverCommand.executeForGit(Array(arguments.dropFirst(2)))
        case "git":
            arguments.removeFirst()
            execute(GitCommand.self, arguments)
        case "git-diff":
            arguments.removeFirst()
            GitDiffCommand.executeForGit(arguments)
        default:
            execute(DiffCommand.self, arguments)
        }
    }

    /// One malloc arena a worker thread (`ProcessFacts.workerCount`), not glibc's
    /// eight a core: every thread that allocated got an arena of its own, and
    /// the reader threads' and then the report threads' arenas each kept
    /// memory they had freed (8 MB of the peak at a million records). One
    /// arena for all kept that down but made the report's threads take turns
    /// at its lock (every changed record is read into `Value`s): two arenas
    /// on two cores were 7-8% faster with the same peak (1M CSV text 0.42 s
    /// -> 0.385 s, 10M CSV 4.55 s -> 4.24 s, 10M NDJSON 7.75 s -> 7.17 s;
    /// 100 -> 101 MB, 785 MB at 10M; a 1M merge 425 -> 440 MB). A process
    /// setting, so the command's, not the library's.
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
            if !usage.isEmpty { Diagnostics.writeStandardError(usage.joined(separator: "\n") + "\n") }
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

/// The one place a diff's exit status is decided.
enum Outcome {
    /// Without assertions: 0 when nothing differs, else 1. With them: 0 when
    /// every one holds, else 1, after naming each that failed on standard error.
    static func status(_ summary: Summary, assertions: [Assertion]) -> Int32 {
        guard !assertions.isEmpty else { return summary.hasDifferences ? ExitStatus.different : ExitStatus.same }
        let failed = assertions.filter { !$0.holds(for: summary) }
        for assertion in failed {
            Diagnostics.report("assertion failed: \(assertion) (\(assertion.kind.rawValue) is \(assertion.actualDescription(summary)))")
        }
        return failed.isEmpty ? ExitStatus.same : ExitStatus.different
    }
}

/// A command never writes over what it reads, nor two of its results onto
/// one file. Files are compared as the system sees them (device and inode),
/// so no spelling, `./` prefix or symbolic link gets past.
enum InputGuard {
    /// Refuses (exit 2, nothing written) when `output` is one of `inputs`,
    /// however spelled, or the file standard input reads from when an input is `-`.
    static func refuseOverwriting(_ output: String, inputs: [String], option: String = "-o") throws {
        var target = stat()
        // An output that does not exist yet cannot be an input.
        guard stat(FileSystemPath.bytes(output), &target) == 0 else { return }
        if let input = input(sameAs: target, in: inputs) {
            Diagnostics.report("\(option) \(output) names \(describe(input)); refusing to overwrite it (nothing was written)")
            throw ExitCode(ExitStatus.trouble)
        }
    }

    /// Refuses (exit 2, nothing read or written) when standard output is a
    /// regular file that is one of `inputs` (`changeset o.json n.json 1<>o.json`):
    /// writing the report would destroy the data it is about, as `cat` says.
    static func refuseStandardOutputOntoInput(_ inputs: [String]) throws {
        var target = stat()
        guard fstat(STDOUT_FILENO, &target) == 0, (target.st_mode & S_IFMT) == S_IFREG else { return }
        if let input = input(sameAs: target, in: inputs) {
            Diagnostics.report("standard output is \(describe(input)); refusing to write over it (nothing was written)")
            throw ExitCode(ExitStatus.trouble)
        }
    }

    /// Refuses (exit 2) when standard output is the file `option` names: the
    /// result written there would be replaced by that option's own file.
    static func refuseStandardOutput(onto path: String, option: String) throws {
        var output = stat(), named = stat()
        guard fstat(STDOUT_FILENO, &output) == 0, (output.st_mode & S_IFMT) == S_IFREG,
              stat(FileSystemPath.bytes(path), &named) == 0, output.st_dev == named.st_dev, output.st_ino == named.st_ino
        else { return }
        Diagnostics.report("standard output is \(path), the file \(option) names; give two files (nothing was written)")
        throw ExitCode(ExitStatus.trouble)
    }

    /// Refuses (exit 2) two options that name one file, however spelled,
    /// whether or not it exists yet: the second result would replace the first.
    static func refuseSameFile(_ first: (option: String, path: String), _ second: (option: String, path: String)) throws {
        guard let a = identity(first.path), let b = identity(second.path), a == b else { return }
        Diagnostics.report("\(first.option) \(first.path) and \(second.option) \(second.path) name the same file; give two files (nothing was written)")
        throw ExitCode(ExitStatus.trouble)
    }

    private static func describe(_ input: String) -> String {
        input == "-" ? "standard input's file" : "the input \(input)"
    }

    private static func input(sameAs target: stat, in inputs: [String]) -> String? {
        inputs.first { input in
            var source = stat()
            let found = input == "-" ? fstat(STDIN_FILENO, &source) == 0 : stat(FileSystemPath.bytes(input), &source) == 0
            return found && (source.st_mode & S_IFMT) == S_IFREG && source.st_dev == target.st_dev && source.st_ino == target.st_ino
        }
    }

    /// Which file `path` is or will be: its device and inode when it exists
    /// (symbolic links followed), else its directory's real path and its name.
    private static func identity(_ path: String) -> String? {
        var status = stat()
        if stat(FileSystemPath.bytes(path), &status) == 0 { return "\(status.st_dev):\(status.st_ino)" }
        var url = URL(fileURLWithPath: path)
        // A link to a file not written yet: the file it will write.
        for _ in 0..<8 {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path) else { break }
            url = URL(fileURLWithPath: target, relativeTo: url.deletingLastPathComponent()).standardizedFileURL
        }
        guard let directory = realPath(url.deletingLastPathComponent().path) else { return nil }
        return directory + "/" + url.lastPathComponent
    }
}

enum Diagnostics {
    /// The longest message written: a message quotes data (ids, names, file
    /// names), each already cut where it is made; this is the last guard.
    static let messageLimit = 4000

    /// `changeset: message` on standard error, one line: characters a
    /// terminal would act on are escaped (an id holding ESC sequences cannot
    /// set the window title), and an overlong message is cut.
    static func report(_ message: String) {
        var line = TerminalText.escaped(message)
        if line.utf8.count > messageLimit {
            line = String(line.prefix(messageLimit)) + "…"
        }
        writeStandardError("changeset: " + line + "\n")
    }
}
