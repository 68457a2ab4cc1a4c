import Foundation

/// Guards a run's outputs: nothing is written over what the run reads, nor
/// two of its results onto one file. Files are compared as the system sees
/// them (device and inode), so no spelling, `./` prefix or symbolic link
/// gets past. Each check throws before anything is read or written.
package enum OverwriteGuard {
    /// A write the guard refuses, and the files it names.
    package enum Refusal: Error, Equatable, CustomStringConvertible {
        /// `output` is the input `input` (`-`: the file standard input reads).
        case outputIsInput(output: String, input: String)
        /// Standard output is a regular file that is the input `input`.
        case standardOutputIsInput(input: String)
        /// Standard output is the file `path`, which another result is written to.
        case standardOutputIsResult(path: String)
        /// Two results name one file, `first` and `second` however spelled.
        case sameFile(first: String, second: String)

        /// The input a refusal names: `the input PATH`, or standard input's file for `-`.
        package static func describe(input: String) -> String {
            input == "-" ? "standard input's file" : "the input \(input)"
        }

        /// What is refused, in the library's words (a command names its options instead).
        package var description: String {
            switch self {
            case .outputIsInput(let output, let input):
                "\(output) names \(Self.describe(input: input)); refusing to overwrite it (nothing was written)"
            case .standardOutputIsInput(let input):
                "standard output is \(Self.describe(input: input)); refusing to write over it (nothing was written)"
            case .standardOutputIsResult(let path):
                "standard output is \(path), where another result is written; give two files (nothing was written)"
            case .sameFile(let first, let second):
                "\(first) and \(second) name the same file; give two files (nothing was written)"
            }
        }
    }

    /// Refuses `output` when it is one of `inputs`, however spelled, or the
    /// file standard input reads from when an input is `-`. An output that
    /// does not exist yet cannot be an input.
    package static func checkOutput(_ output: String, against inputs: [String]) throws(Refusal) {
        var target = stat()
        guard stat(FileSystemPath.bytes(output), &target) == 0 else { return }
        if let input = input(sameAs: target, in: inputs) { throw .outputIsInput(output: output, input: input) }
    }

    /// Refuses standard output when it is a regular file that is one of
    /// `inputs` (`changeset o.json n.json 1<>o.json`): writing the result
    /// would destroy the data it is about, as `cat` says.
    package static func checkStandardOutput(against inputs: [String]) throws(Refusal) {
        var target = stat()
        guard fstat(STDOUT_FILENO, &target) == 0, (target.st_mode & S_IFMT) == S_IFREG else { return }
        if let input = input(sameAs: target, in: inputs) { throw .standardOutputIsInput(input: input) }
    }

    /// Refuses standard output when it is the file `path`, where another
    /// result goes: the result written to standard output would be replaced.
    package static func checkStandardOutput(isNot path: String) throws(Refusal) {
        var output = stat(), named = stat()
        guard fstat(STDOUT_FILENO, &output) == 0, (output.st_mode & S_IFMT) == S_IFREG,
              stat(FileSystemPath.bytes(path), &named) == 0, output.st_dev == named.st_dev, output.st_ino == named.st_ino
        else { return }
        throw .standardOutputIsResult(path: path)
    }

    /// Refuses two results that name one file, however spelled, whether or
    /// not it exists yet: the second would replace the first.
    package static func checkDistinct(_ first: String, _ second: String) throws(Refusal) {
        guard let a = identity(first), let b = identity(second), a == b else { return }
        throw .sameFile(first: first, second: second)
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
        guard let directory = FileSystemPath.realPath(url.deletingLastPathComponent().path) else { return nil }
        return directory + "/" + url.lastPathComponent
    }
}

