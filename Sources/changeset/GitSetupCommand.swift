import ArgumentParser
import ChangesetKit
import Foundation

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
        let rulesIDs = remove ? nil : rulesWithID(attributesPath)
        var removed = 0
        if remove {
            removed = attributes.remove(patterns: patterns.isEmpty ? nil : Set(patterns))
        } else {
            // Without an id (here or in the rules file) only the diff is
            // changeset's: records matched by content cannot tell an edited
            // record from a replaced one, so merges stay git's own.
            let merge = id != nil || rulesIDs != nil
            let ours = id.map { ["diff=\(GitAttributes.driver)", "merge=\(GitAttributes.driver)", "\(GitAttributes.id)=\($0)"] }
                ?? ["diff=\(GitAttributes.driver)"] + (merge ? ["merge=\(GitAttributes.driver)"] : [])
            attributes.set(ours, for: patterns)
        }
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: attributesPath).deletingLastPathComponent(), withIntermediateDirectories: true)
        if attributes.bytes != existing {
            try OutputTargets.deliverPlain(to: attributesPath) { sink in sink.write(bytes: attributes.bytes) }
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
        if id == nil, let rules = rulesIDs {
            print("no --id: git diff and git merge take the id from \(rules.source) for the paths its entries give one "
                  + "(\(rules.patterns.joined(separator: ", "))); other paths are compared by content and merged line by line")
        } else if id == nil {
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

    /// The repository's rules file and the globs of its entries that give
    /// an `id`, when there are some: git's drivers run at the repository's
    /// top, so they find the rules file found from there. Not for --global
    /// (it sets up every repository, whatever rules each holds) nor with an
    /// --id; a rules file that cannot be read gives a note and no rules.
    private func rulesWithID(_ attributesPath: String) -> (source: String, patterns: [String])? {
        guard !global, id == nil, let file = RulesFile.find(from: FileSystemPath.parent(of: attributesPath)) else { return nil }
        do {
            let rules = try RulesFile.read(file, workingDirectory: FileManager.default.currentDirectoryPath, options: CommandRules.ruleOptions)
            let patterns = rules.entries.filter { $0.settings.contains { $0.name == "id" } }.map(\.pattern.text)
            return patterns.isEmpty ? nil : (file, patterns)
        } catch {
            Diagnostics.report("note: \(error); its ids are not used")
            return nil
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
