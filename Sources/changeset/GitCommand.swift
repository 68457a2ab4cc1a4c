import ArgumentParser
import ChangesetKit
import Foundation

/// `changeset git setup|merge-driver|diff`: changeset as git's diff and merge driver.
struct GitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "changeset git",
        abstract: "Make git diff and git merge work record by record on dataset files.",
        discussion: """
            changeset git setup --id sku '*.csv' writes the .gitattributes lines and the git config for \
            both drivers. The id for a path is the gitattributes attribute changeset-id (read with \
            git check-attr); without it, records are matched by content.
            """,
        version: "changeset " + ChangesetVersion.current,
        subcommands: [GitSetupCommand.self, GitMergeDriverCommand.self, GitDiffCommand.self]
    )
}

/// The name of the attribute that holds a path's `--id`.
enum GitAttributes {
    static let id = "changeset-id"
    static let driver = "changeset"

    /// `--id` for `path`: the options' own, else the path's `changeset-id` attribute.
    static func id(for path: String, given: String?) -> String? {
        if let given { return given }
        guard let output = try? Git.run(["check-attr", id, "--", path]).output else { return nil }
        // `path: changeset-id: value`
        guard let value = output.split(separator: "\n").first?.components(separatedBy: ": ").last else { return nil }
        return ["unspecified", "unset", "set", ""].contains(value) ? nil : value
    }

    /// The input format a repository path's name says, if any.
    static func format(of path: String?) -> InputFormat? {
        guard var name = path.map({ URL(fileURLWithPath: $0).lastPathComponent }) else { return nil }
        for suffix in [".gz", ".zst"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
        return InputFormat(pathExtension: URL(fileURLWithPath: name).pathExtension)
    }
}

/// Running git.
enum Git {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `git arguments`; throws when it cannot start or exits non-zero (unless `allowFailure`).
    @discardableResult
    static func run(_ arguments: [String], allowFailure: Bool = false) throws -> (output: String, status: Int32) {
        guard let (output, status) = Subprocess.run("git", arguments, showingErrors: !allowFailure) else {
            throw Failure(description: "cannot run git")
        }
        if status != 0 && !allowFailure {
            throw Failure(description: "git \(arguments.joined(separator: " ")) failed (exit status \(status))")
        }
        return (output, status)
    }
}

/// Running a program found on PATH and collecting its standard output.
enum Subprocess {
    /// The output and exit status, or nil when the program cannot start.
    /// Its standard error goes to ours when `showingErrors`, else nowhere.
    static func run(_ program: String, _ arguments: [String], showingErrors: Bool) -> (output: String, status: Int32)? {
        runForBytes(program, arguments, showingErrors: showingErrors).map { (String(decoding: $0.output, as: UTF8.self), $0.status) }
    }

    /// `run`, the output as the bytes the program wrote.
    static func runForBytes(_ program: String, _ arguments: [String], showingErrors: Bool) -> (output: [UInt8], status: Int32)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = showingErrors ? FileHandle.standardError : FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ([UInt8](data), process.terminationStatus)
    }
}

/// `changeset git setup [--global] [--id FIELD] PATTERN... [--remove]`.
struct GitSetupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup",
        abstract: "Use changeset as git's diff and merge driver for the paths that match the patterns.",
        discussion: """
            Writes one line per pattern to .gitattributes at the top of the repository (with --global, to \
            git's global attributes file), PATTERN diff=changeset merge=changeset [changeset-id=FIELD], and \
            sets diff.changeset.command and merge.changeset.driver in the repository's git config (with \
            --global, the user's), naming this binary by its full path so that git finds it whatever PATH \
            runs git; it prints the lines that name it bare instead, to share the config across machines. Running it again replaces the lines for the same patterns; --remove \
            takes them out, and the config too once no pattern uses it.
            """
    )

    @Flag(help: "Set up for every repository of this user: git's global attributes file and global config.")
    var global = false

    @Option(help: ArgumentHelp("The field that identifies a record in these paths (as changeset's --id), recorded as the changeset-id attribute.", valueName: "field"))
    var id: String?

    @Flag(help: "Take the patterns' lines out again (all of changeset's lines when no pattern is given).")
    var remove = false

    @Argument(help: "gitattributes patterns of the dataset files, such as '*.csv' or 'data/**/*.json'.")
    var patterns: [String] = []

    func validate() throws {
        if patterns.isEmpty && !remove { throw ValidationError("name at least one pattern, such as '*.csv'") }
        if patterns.contains("") { throw ValidationError("an empty pattern matches no file; name one, such as '*.csv'") }
        if remove && id != nil { throw ValidationError("--remove takes no --id") }
        for pattern in patterns where pattern.contains(where: \.isWhitespace) || pattern.hasPrefix("#") || pattern.hasPrefix("!") {
            throw ValidationError("the pattern \"\(pattern)\" cannot be written to .gitattributes as it is (white space, or a leading # or !)")
        }
        if let id {
            _ = try FieldPath.parseList(id)
            if id.contains(where: \.isWhitespace) { throw ValidationError("an id with white space cannot be a gitattributes value") }
        }
    }

    func run() throws {
        do {
            try setUp()
        } catch let failure as Git.Failure {
            Diagnostics.report("\(failure)")
            throw ExitCode(ExitStatus.trouble)
        }
    }

    private func setUp() throws {
        // `git config --global ...`: the scope goes after the subcommand.
        let scope = global ? ["--global"] : []
        let attributesPath = try attributesFile()
        try Self.refuseLinkedAttributesFile(attributesPath, inWorkingTree: !global)
        let readable = FileManager.default.contents(atPath: attributesPath)
        if readable == nil && FileManager.default.fileExists(atPath: attributesPath) {
            throw Git.Failure(description: "cannot read \(attributesPath); it was left as it is")
        }
        let existing = readable.map { [UInt8]($0) } ?? []
        var attributes = GitAttributesFile(existing)
        var removed = 0
        if remove {
            removed = attributes.remove(patterns: patterns.isEmpty ? nil : Set(patterns))
        } else {
            // Without an id only the diff is changeset's: records matched by
            // content cannot tell an edited record from a replaced one, so
            // merges stay git's own.
            let ours = id.map { ["diff=\(GitAttributes.driver)", "merge=\(GitAttributes.driver)", "\(GitAttributes.id)=\($0)"] }
                ?? ["diff=\(GitAttributes.driver)"]
            attributes.set(ours, for: patterns)
        }
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: attributesPath).deletingLastPathComponent(), withIntermediateDirectories: true)
        if attributes.bytes != existing {
            try OutputSink.deliver(to: attributesPath) { sink in sink.write(bytes: attributes.bytes) }
        }
        let executable = GitSetupCommand.shellQuoted(GitSetupCommand.executable())
        if remove {
            if removed == 0 {
                print("\(attributesPath) sets changeset for \(patterns.isEmpty ? "no path" : "none of " + patterns.joined(separator: " ")); nothing removed")
            } else {
                print("removed changeset's attributes from \(removed) line\(removed == 1 ? "" : "s") of \(attributesPath)")
            }
            if attributes.driverLines.isEmpty {
                let sections = ["diff.\(GitAttributes.driver)", "merge.\(GitAttributes.driver)"].filter {
                    (try? Git.run(["config"] + scope + ["--remove-section", $0], allowFailure: true).status) == 0
                }
                if !sections.isEmpty { print("removed the git config section\(sections.count == 1 ? "" : "s") \(sections.joined(separator: " and "))") }
            }
            return
        }
        let settings = Self.settings(executable)
        for (name, value) in settings {
            try Git.run(["config"] + scope + [name, value])
        }
        let targets = Set(patterns)
        for line in attributes.lines where GitAttributesFile.setsDriver(line) && GitAttributesFile.pattern(line).map(targets.contains) == true {
            print("\(attributesPath): \(String(decoding: line.text, as: UTF8.self))")
        }
        if id == nil {
            print("no --id: git diff compares these files record by record (matched by content); git merge stays line by line")
        }
        for (name, value) in settings { print("git config\(global ? " --global" : "") \(name) '\(value)'") }
        // A full path is right for this machine only; a config shared across machines needs the bare name.
        print("the config names this changeset by its full path, so git finds it whatever PATH it runs with; "
              + "to share this config across machines where changeset is on PATH, name it bare:")
        for (name, value) in Self.settings("changeset") where name != "merge.\(GitAttributes.driver).name" {
            print("  git config\(global ? " --global" : "") \(name) '\(value)'")
        }
    }

    /// The git config that runs `executable` (a word for the shell) as the drivers.
    static func settings(_ executable: String) -> [(String, String)] {
        [
            // `--` ends the options: a path such as `-x.csv` is not one.
            ("diff.\(GitAttributes.driver).command", "\(executable) git-diff --"),
            ("merge.\(GitAttributes.driver).name", "changeset: record-level merge of datasets"),
            ("merge.\(GitAttributes.driver).driver", "\(executable) git merge-driver -- %O %A %B %P %L"),
        ]
    }

    /// Where the lines go: the repository's top-level .gitattributes, or the
    /// global attributes file (core.attributesFile, else git's default).
    private func attributesFile() throws -> String {
        if !global {
            let top = try Git.run(["rev-parse", "--show-toplevel"]).output.trimmingCharacters(in: .newlines)
            return top + "/.gitattributes"
        }
        let configured = try Git.run(["config", "--global", "--get", "core.attributesFile"], allowFailure: true).output
            .trimmingCharacters(in: .newlines)
        let environment = ProcessInfo.processInfo.environment
        if !configured.isEmpty {
            return configured.hasPrefix("~/") ? (environment["HOME"] ?? "") + configured.dropFirst() : configured
        }
        let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (environment["HOME"] ?? "") + "/.config"
        return configHome + "/git/attributes"
    }

    /// Throws, before anything is read or written, when the attributes file
    /// exists and is not a regular file. In a working tree a symbolic link
    /// is refused too: a cloned repository can hold a `.gitattributes` that
    /// points anywhere, and git itself does not follow it. The global file is
    /// the user's own, outside any repository, and may be a link (dotfile
    /// managers make them), as git allows.
    static func refuseLinkedAttributesFile(_ path: String, inWorkingTree: Bool) throws {
        var status = stat()
        let found = inWorkingTree ? lstat(FileSystemPath.bytes(path), &status) : stat(FileSystemPath.bytes(path), &status)
        guard found == 0 else { return }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            return
        case S_IFLNK:
            throw Git.Failure(description: "\(path) is a symbolic link; git does not follow a .gitattributes that is one, "
                              + "and changeset neither reads nor writes through it: nothing was written (make it a regular file)")
        default:
            throw Git.Failure(description: "\(path) is not a regular file; nothing was written")
        }
    }

    /// `text` as one word for the shell git runs commands with.
    static func shellQuoted(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "/._-+:@%".unicodeScalars.contains($0)) }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// How git should run this changeset: always this binary's full path,
    /// links resolved. git runs the drivers with the PATH of whatever runs
    /// git (a GUI client, a cron job, a hook), which may not find a bare
    /// `changeset`; the merge would then fail without conflict markers.
    static func executable() -> String {
        if let own = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return own }
        let invoked = CommandLine.arguments[0]
        if invoked.contains("/") { return URL(fileURLWithPath: invoked).resolvingSymlinksInPath().path }
        // Run by name: the first of that name on PATH is this binary.
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(invoked)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.resolvingSymlinksInPath().path }
        }
        return URL(fileURLWithPath: invoked).resolvingSymlinksInPath().path
    }
}

/// `changeset git merge-driver %O %A %B %P [%L]`: git's merge driver.
struct GitMergeDriverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-driver",
        abstract: "git's merge driver: merges %O (base), %A (ours) and %B (theirs) into %A.",
        discussion: """
            Exit status 0 when merged; on conflict, %A holds the merged records with each conflicting \
            record between <<<<<<< ======= >>>>>>> lines, and the status is 1. A file that cannot be \
            merged record by record (not a dataset, invalid) is merged by git merge-file as text instead.
            """
    )

    @OptionGroup var matching: RecordMatchingOptions

    @Option(help: ArgumentHelp("Resolve every conflict with this side's version: ours or theirs.", valueName: "side"))
    var prefer: MergePreference?

    @Argument(help: "%O: the common ancestor's version (a temporary file).")
    var base: String

    @Argument(help: "%A: our version, where the result is written.")
    var ours: String

    @Argument(help: "%B: their version.")
    var theirs: String

    @Argument(help: "%P: the path in the repository (for the format and the changeset-id attribute).")
    var path: String?

    @Argument(help: "%L: the conflict marker size.")
    var markerSize: Int?

    /// Runs the driver as git does; options that do not parse fall back to
    /// git's text merge of the files after `--`, so the merge goes on.
    static func executeForGit(_ arguments: [String]) -> Never {
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            Foundation.exit(ExitStatus.same)
        } catch let status as ExitCode {
            Foundation.exit(status.rawValue)
        } catch {
            if exitCode(for: error) == .success {
                print(fullMessage(for: error))
                Foundation.exit(ExitStatus.same)
            }
            Diagnostics.report(message(for: error))
            let files = Array(arguments.drop { $0 != "--" }.dropFirst())
            guard files.count >= 3 else { Foundation.exit(ExitStatus.trouble) }
            Foundation.exit(textMerge(base: files[0], ours: files[1], theirs: files[2], path: files.count > 3 ? files[3] : files[1],
                           markerSize: files.count > 4 ? boundedMarkerSize(Int(files[4])) : nil, reason: "the driver's options are wrong"))
        }
    }

    /// The longest conflict marker written. git passes `%L` from the
    /// `conflict-marker-size` attribute, which a commit can set to anything;
    /// markers are written once per conflicting line, so a size in the
    /// billions would ask for gigabytes. Past this, the longest is used.
    static let longestMarker = 1000

    /// `size` within 1...longestMarker (nil stays git's default, 7).
    static func boundedMarkerSize(_ size: Int?) -> Int? {
        size.map { min(max($0, 1), longestMarker) }
    }

    /// git's own line merge (`git merge-file`), into OURS; the exit status git expects.
    static func textMerge(base: String, ours: String, theirs: String, path: String, markerSize: Int?, reason: String) -> Int32 {
        Diagnostics.report("\(path): not merged record by record (\(reason)); merging it as text")
        if [base, ours, theirs].contains(where: { InputCompression.of(file: $0) != nil }) {
            return compressedTextMerge(base: base, ours: ours, theirs: theirs, path: path, markerSize: markerSize)
        }
        let merged = try? Git.run(
            ["merge-file", "--marker-size=\(markerSize ?? 7)", "-L", "ours", "-L", "base", "-L", "theirs", ours, base, theirs],
            allowFailure: true)
        guard let merged else { return ExitStatus.trouble }
        return merged.status == 0 ? ExitStatus.same : ExitStatus.different
    }

    /// `git merge-file` on the decompressed text, the result written into
    /// OURS compressed as OURS is: merged as they are, the compressed bytes
    /// would be cut and spliced as lines into a file no tool can read. A file
    /// that cannot be decompressed leaves OURS as it is, a conflict to settle
    /// by hand.
    private static func compressedTextMerge(base: String, ours: String, theirs: String, path: String, markerSize: Int?) -> Int32 {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("changeset-merge-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var plain: [String] = []
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
            for (file, side) in [(base, "base"), (ours, "ours"), (theirs, "theirs")] {
                let bytes = try InputBytes.contents(of: file)
                let copy = directory.appendingPathComponent(side)
                try Data(try bytes.copy(0..<bytes.count)).write(to: copy)
                plain.append(copy.path)
            }
        } catch {
            Diagnostics.report("\(path): not merged as text either (\(error)); ours is left as it is, to settle by hand")
            return ExitStatus.different
        }
        // merge-file's status: 0 merged, 1 to 127 the number of conflicts, negative (255) trouble.
        guard let merged = try? Git.run(
            ["merge-file", "--marker-size=\(markerSize ?? 7)", "-L", "ours", "-L", "base", "-L", "theirs", plain[1], plain[0], plain[2]],
            allowFailure: true), merged.status < 128,
              let result = FileManager.default.contents(atPath: plain[1]) else { return ExitStatus.trouble }
        do {
            try OutputSink.deliverCompressing(to: ours) { stream in stream.write(bytes: result) }
        } catch {
            return ExitStatus.trouble
        }
        return merged.status == 0 ? ExitStatus.same : ExitStatus.different
    }

    func run() throws {
        let markerSize = Self.boundedMarkerSize(self.markerSize)
        var matching = self.matching
        matching.id = path.flatMap { GitAttributes.id(for: $0, given: matching.id) } ?? matching.id
        let label = path ?? ours
        if let marked = [base, ours, theirs].first(where: { GitFileContent.hasConflictMarkers($0, size: markerSize ?? 7) }) {
            // Marker lines would be read as records and merged away as data.
            throw ExitCode(Self.textMerge(base: base, ours: ours, theirs: theirs, path: label, markerSize: markerSize,
                                          reason: "\(marked == ours ? "ours" : marked == theirs ? "theirs" : "the base") holds conflict markers"))
        }
        guard matching.id != nil else {
            // Records matched by content cannot tell an edit from a replacement.
            throw ExitCode(Self.textMerge(base: base, ours: ours, theirs: theirs, path: label, markerSize: markerSize,
                                          reason: "no changeset-id attribute names its id"))
        }
        var options: MergeOptions
        do {
            options = try matching.mergeOptions(format: GitAttributes.format(of: path), prefer: prefer)
        } catch {
            throw ExitCode(Self.textMerge(base: base, ours: ours, theirs: theirs, path: label, markerSize: markerSize,
                                          reason: "\(error)"))
        }
        if let path {
            // git's temporary files (.merge_file_XXXXXX) mean nothing to the user; the path and the side do.
            options.baseName = "\(path) (BASE)"
            options.oursName = "\(path) (OURS)"
            options.theirsName = "\(path) (THEIRS)"
        }
        let markers = MergeWriter.Markers(ours: "ours", theirs: "theirs", size: markerSize ?? 7)
        let status: Int32
        do {
            status = try MergeRun.merge(base: base, ours: ours, theirs: theirs, options: options,
                                        output: ours, conflictsFile: nil, markers: markers)
        } catch let exit as ExitCode where exit.rawValue == ExitStatus.trouble {
            // Not a dataset (or an invalid one): git's own line merge, so the merge goes on.
            throw ExitCode(Self.textMerge(base: base, ours: ours, theirs: theirs, path: label, markerSize: markerSize,
                                          reason: "see above"))
        }
        throw ExitCode(status)
    }
}

/// `changeset git-diff`: git's external diff (`diff.changeset.command`).
/// Always exits 0, so `git diff` goes on to the next file.
struct GitDiffCommand: ParsableCommand {
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

    @OptionGroup var matching: RecordMatchingOptions

    @Argument(parsing: .remaining, help: "What git passes to an external diff command.")
    var gitArguments: [String] = []

    /// Runs the diff driver as git does: whatever happens, exit 0, so `git diff` goes on.
    static func executeForGit(_ arguments: [String]) -> Never {
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch let status as ExitCode {
            _ = status
        } catch {
            if exitCode(for: error) == .success {
                print(fullMessage(for: error))
            } else {
                print("changeset: not compared record by record: \(message(for: error))")
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
        var matching = self.matching
        matching.id = GitAttributes.id(for: newPath, given: matching.id)
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
            var options = ComparisonOptions()
            options.records = try matching.recordOptions()
            options.oldFormat = format
            options.newFormat = format
            options.delimiter = matching.delimiterByte
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
        (format ?? .csv).delimiter(matching.delimiterByte)
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
            if symlink(FileSystemPath.bytes(realPath(files[index]) ?? files[index]), link) == 0 { files[index] = link }
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

/// What git itself looks for in a file before merging or showing it.
enum GitFileContent {
    /// git's rule: a NUL byte in the first 8000 bytes makes a file binary;
    /// but a gzip or zstd file is a compressed dataset, read as such.
    static func isBinary(_ path: String) -> Bool {
        guard path != "/dev/null", let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let start = [UInt8]((try? handle.read(upToCount: 8000)) ?? Data())
        return start.contains(0) && !InputCompression.isCompressed(start)
    }

    /// Whether a line of the file starts with a conflict marker of `size`
    /// (`<<<<<<<`, `=======` or `>>>>>>>`, alone or followed by a space).
    /// Read a megabyte at a time, so memory does not grow with the file.
    static func hasConflictMarkers(_ path: String, size: Int) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let markers = ["<", "=", ">"].map { Array(String(repeating: $0, count: size).utf8) }
        // Of each line, only its first size + 1 bytes and its length matter.
        var start: [UInt8] = []
        var length = 0
        func isMarker() -> Bool {
            guard start.count >= size, markers.contains(where: { start.starts(with: $0) }) else { return false }
            if length == size { return true }
            return start[size] == 0x20 || (start[size] == 0x0D && length == size + 1)
        }
        while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            for byte in chunk {
                if byte == 0x0A {
                    if isMarker() { return true }
                    start.removeAll(keepingCapacity: true)
                    length = 0
                } else {
                    if start.count <= size { start.append(byte) }
                    length += 1
                }
            }
        }
        return length > 0 && isMarker()
    }
}
