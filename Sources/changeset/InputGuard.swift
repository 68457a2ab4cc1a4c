import ArgumentParser
import ChangesetKit
import Foundation

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

