import ArgumentParser

/// `--rules FILE` and `--no-rules`: which rules file gives per-path options
/// (see `CommandRules`). Without either, the `.changeset.json` found from
/// the working directory up to the repository's root.
struct RulesOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Take per-path options from this rules file instead of the .changeset.json found from the working directory up to the repository's root (see FILES in man changeset); options given here win.",
        valueName: "file"), completion: .file(extensions: ["json"]))
    var rules: String?

    @Flag(help: "Read no rules file.")
    var noRules = false

    func validate() throws {
        if rules != nil && noRules { throw ValidationError("--rules names a rules file that --no-rules leaves out; give one of them") }
    }
}

/// A command whose options a rules file entry can give: the entry is the
/// one for the first of `ruledPaths` that names a file.
protocol RuledCommand: ParsableCommand {
    /// `--rules` and `--no-rules`.
    var rulesOptions: RulesOptions { get }
    /// The paths that pick the entry, in order of preference (NEW before OLD).
    var ruledPaths: [String?] { get }
}
