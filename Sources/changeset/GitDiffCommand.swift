import ArgumentParser
import ChangesetKit
import Foundation

/// `changeset git-diff`: git's external diff (`diff.changeset.command`).
/// Always exits 0, so `git diff` goes on to the next file.
struct GitDiffCommand: RuledCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "git's diff driver: prints a record-level diff of one path (run as changeset git-diff).",
        discussion: """
            Takes git's arguments: PATH OLD-FILE OLD-HEX OLD-MODE NEW-FILE NEW-HEX NEW-MODE (and, for a \
            rename, NEW-PATH and a similarity), or PATH alone for an unmerged path. Prints a header naming \
            the path and the diff as text; a file added or deleted whole, or one that is not a dataset, \
            is said to be so (with a line diff for the latter). Always exits 0.
            """
    )

    /// The diff's own options (`--tolerance`, `--memory-limit`, ...), as the
    /// git config's `diff.changeset.command` passes them.
    @OptionGroup var comparing: ComparingOptions

    @OptionGroup var rulesOptions: RulesOptions

    /// The repository path (NEW-PATH for a rename) picks the rules entry, not git's temporary files.
    var ruledPaths: [String?] { [gitArguments.count >= 9 ? gitArguments[7] : gitArguments.first] }

    @Argument(parsing: .remaining, help: "What git passes to an external diff command.")
    var gitArguments: [String] = []

    /// Runs the diff driver as git does: whatever happens, exit 0, so `git diff` goes on.
    static func executeForGit(_ arguments: [String]) -> Never {
        do {
            var command = try CommandRules.parse(["git", "diff"], arguments)
            try command.run()
        } catch is ExitCode {
            // The diff is written; its status is not git's business.
        } catch {
            if ChangesetCommand.exitCode(for: error) == .success {
                print(ChangesetCommand.fullMessage(for: error))
            } else {
                // A bad option or rules file is said, and the files are still shown: compared
                // without either, as git's own diff would show them, never hidden.
                let reason = error is CommandRules.Failure ? "\(error)" : ChangesetCommand.message(for: error)
                print("changeset: options not used: \(TerminalText.escaped(String(reason.prefix(Diagnostics.messageLimit))))")
                let files = Array(arguments.drop { $0 != "--" }.dropFirst())
                if !files.isEmpty, var plain = try? ChangesetCommand.parseAsRoot(["git", "diff", "--no-rules", "--"] + files) {
                    try? plain.run()
                }
            }
        }
        Foundation.exit(ExitStatus.same)
    }

    func run() throws {
        var sink = OutputSink.standardOutput()
        describe(to: &sink)
        sink.flush()
        throw ExitCode(ExitStatus.same)
    }

    private func describe(to sink: inout OutputSink) {
        // Paths as git writes them in its own headers: quoted where they hold bytes a terminal would act on.
        let paths = [0, 7].filter(gitArguments.indices.contains).map { gitArguments[$0] }
        let quotePath = paths.contains(where: GitQuotedPath.hasHighBytes) ? Self.quotePath() : true
        guard gitArguments.count >= 7 else {
            let path = gitArguments.first.map { GitQuotedPath.bytes("", $0, quotePath: quotePath) } ?? Array("(no path)".utf8)
            sink.write(bytes: Array("changeset: ".utf8) + path + Array(": unmerged, not compared\n".utf8))
            return
        }
        let path = gitArguments[0]
        let (oldFile, oldHex, newFile, newHex) = (gitArguments[1], gitArguments[2], gitArguments[4], gitArguments[5])
        let newPath = gitArguments.count >= 9 ? gitArguments[7] : path
        let labels = (GitQuotedPath.bytes("a/", path, quotePath: quotePath), GitQuotedPath.bytes("b/", newPath, quotePath: quotePath))
        sink.write(bytes: Array("changeset diff ".utf8) + labels.0 + [0x20] + labels.1 + [0x0A])
        sink.write("index \(oldHex.prefix(7))..\(newHex.prefix(7))\n")
        var comparing = self.comparing
        comparing.matching.id = GitAttributes.id(for: newPath, given: comparing.matching.id)
        let matching = comparing.matching
        let format = matching.inputFormat ?? GitAttributes.format(of: newPath)
        if GitFileContent.isBinary(oldFile) || GitFileContent.isBinary(newFile) {
            // As git says it: a binary file is not shown.
            sink.write(bytes: Array("Binary files ".utf8) + labels.0 + Array(" and ".utf8) + labels.1 + Array(" differ\n".utf8))
            return
        }
        if oldFile == "/dev/null" || newFile == "/dev/null" {
            let file = oldFile == "/dev/null" ? newFile : oldFile
            let what = oldFile == "/dev/null" ? "new file" : "deleted file"
            let count = (try? InputFile.open(file, format: format).readRecords(try matching.recordOptions(), delimiter: delimiter(format)).count)
                .map { ", \($0) record\($0 == 1 ? "" : "s")" } ?? ""
            sink.write("\(what)\(count)\n")
            return
        }
        do {
            var options = try comparing.comparisonOptions(replaying: false)
            options.oldFormat = format
            options.newFormat = format
            // As git's own headers name the sides, not the temporary file git wrote the old version to.
            options.oldName = "a/" + path
            options.newName = "b/" + newPath
            let report = try Comparison.run(oldPath: oldFile, newPath: newFile, options: options).report()
            try TextFormatter(color: false, width: TextFormatter.defaultWidth).write(report, to: &sink)
        } catch {
            sink.write("not compared record by record: \(TerminalText.escaped(LibraryErrorWording.text(of: error).prefix(Diagnostics.messageLimit).description))\n")
            sink.write(bytes: lineDiff(oldFile, newFile, labels: labels))
        }
    }

    /// git's core.quotePath (true unless set otherwise), from the repository git runs the driver in.
    private static func quotePath() -> Bool {
        let value = (try? Git.run(["config", "--type=bool", "--get", "core.quotePath"], allowFailure: true))?.output
        return value?.trimmingCharacters(in: .whitespacesAndNewlines) != "false"
    }

    private func delimiter(_ format: InputFormat?) -> UInt8 {
        (format ?? .csv).delimiter(comparing.matching.delimiterByte)
    }

    /// `diff -u` of the two files, its `---` and `+++` lines as git writes
    /// them: the quoted paths, and a tab after one that holds a space.
    private func lineDiff(_ old: String, _ new: String, labels: ([UInt8], [UInt8])) -> [UInt8] {
        // git names its temporary files after the path; one that is not UTF-8 cannot be
        // passed to diff as a String argument, so diff reads it through a link of a plain name.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("changeset-diff-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var files = [old, new]
        for index in files.indices where FileSystemPath.bytes(files[index]).dropLast().map({ UInt8(bitPattern: $0) }) != Array(files[index].utf8) {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let link = directory.appendingPathComponent(index == 0 ? "old" : "new").path
            if symlink(FileSystemPath.bytes(FileSystemPath.realPath(files[index]) ?? files[index]), link) == 0 { files[index] = link }
        }
        guard let diff = Subprocess.runForBytes("diff", ["-u", "--label", "a", "--label", "b", files[0], files[1]], showingErrors: false)?.output else {
            return []
        }
        let header = Array("--- a\n+++ b\n".utf8)
        guard diff.starts(with: header) else { return diff }
        func line(_ start: String, _ label: [UInt8]) -> [UInt8] {
            Array(start.utf8) + label + (label.contains(0x20) ? [0x09] : []) + [0x0A]
        }
        return line("--- ", labels.0) + line("+++ ", labels.1) + diff.dropFirst(header.count)
    }
}
