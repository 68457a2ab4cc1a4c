import Foundation
import Testing

/// The command is one tree (diff, apply, merge, report, git and git's three), so
/// `changeset help` and the completion scripts know every subcommand and
/// every option; the options are read from each subcommand's own `--help`.
@Suite struct CommandTreeTests {
    /// Every subcommand, as its words on the command line.
    static let subcommands: [[String]] = [["diff"], ["apply"], ["merge"], ["report"], ["git"], ["git", "setup"], ["git", "merge-driver"], ["git", "diff"]]

    /// The options a help text lists in its OPTIONS section (`-o`, `--output`, ...).
    static func listedOptions(_ help: String) -> [String] {
        var options: [String] = []
        var inOptions = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") { inOptions = line.hasSuffix("OPTIONS:") && !line.contains("SUB") }
            // An option's line starts two spaces in; a wrapped description, further.
            guard inOptions, line.hasPrefix("  -") else { continue }
            // `  -o, --output <file>   Write ...`: the spellings before the value name.
            for word in line.split(separator: " ").map({ $0.trimmingCharacters(in: CharacterSet(charactersIn: ",")) }) {
                guard word.hasPrefix("-"), word.count > 1 else { break }
                options.append(word)
            }
        }
        return options
    }

    /// The bash function that completes `words`' subcommand: `_changeset_git_setup`.
    static func bashFunction(_ words: [String]) -> String {
        "_changeset_" + words.joined(separator: "_")
    }

    /// The body of `function` in a bash completion script.
    static func body(of function: String, in script: String) -> Substring? {
        guard let start = script.range(of: "\n\(function)() {\n") else { return nil }
        let rest = script[start.upperBound...]
        return rest[..<(rest.range(of: "\n}\n")?.lowerBound ?? rest.endIndex)]
    }

    @Test func everySubcommandHasHelpListingItsOptions() throws {
        for words in Self.subcommands {
            let help = try changeset(words + ["--help"])
            #expect(help.status == 0 && help.stdout.contains("USAGE: changeset"), "\(help)")
            #expect(Self.listedOptions(help.stdout).contains("--help"), "\(help)")
        }
        // report lists the report options it shares with the diff.
        let report = Self.listedOptions(try changeset(["report", "--help"]).stdout)
        for option in ["--format", "--stat", "--assert", "--group", "--limit", "--kinds", "-L", "-o"] {
            #expect(report.contains(option), "\(option) not in report's options \(report)")
        }
        // The merge's own options are in its help's OPTIONS list.
        let merge = Self.listedOptions(try changeset(["merge", "--help"]).stdout)
        for option in ["--prefer", "--markers", "--conflicts", "-o", "--output", "--id"] {
            #expect(merge.contains(option), "\(option) not in merge's options \(merge)")
        }
    }

    @Test func helpNamesEachSubcommandsOwnHelp() throws {
        for words in Self.subcommands {
            let viaHelp = try changeset(["help"] + words)
            let viaFlag = try changeset(words + ["--help"])
            #expect(viaHelp.status == 0 && viaFlag.status == 0)
            #expect(viaHelp.stdout == viaFlag.stdout, "changeset help \(words.joined(separator: " ")) differs from its --help:\n\(viaHelp.stdout)")
        }
        // Without a subcommand, and with the diff named: the diff's help, its options included.
        let diff = try changeset(["diff", "--help"]).stdout
        for words in [["help"], ["--help"], ["-h"], ["help", "diff"]] {
            let help = try changeset(words)
            #expect(help.status == 0 && help.stdout == diff, "\(help)")
        }
        #expect(try changeset(["help", "git-diff"]).stdout == changeset(["git", "diff", "--help"]).stdout)
    }

    @Test func helpOfAnUnknownSubcommandIsAUsageError() throws {
        let unknown = try changeset(["help", "nope"])
        #expect(unknown.status == 2 && unknown.stdout.isEmpty, "\(unknown)")
        #expect(unknown.stderr.hasPrefix("changeset: help: no subcommand \"nope\"; the subcommands are diff, apply, merge, report and git"), "\(unknown)")
    }

    /// The parser lays a list of values out on lines of their own: they stay lines.
    @Test func aValueNotAmongTheChoicesListsThemOnLines() throws {
        let wrong = try changeset(["a.csv", "b.csv", "--format", "nope"])
        #expect(wrong.status == 2, "\(wrong)")
        #expect(wrong.stderr.hasPrefix("changeset: The value 'nope' is invalid for '--format <format>'. Please provide one of the following:\n  - text\n  - json\n"), "\(wrong)")
        #expect(!wrong.stderr.contains("\\u000A"), "\(wrong)")
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptNamesEverySubcommandAndOption(shell: String) throws {
        let script = try changeset(["--generate-completion-script", shell])
        #expect(script.status == 0 && !script.stdout.isEmpty, "\(script)")
        for words in Self.subcommands {
            #expect(script.stdout.contains(words.last!), "\(shell): no \(words.last!)")
            let options = Self.listedOptions(try changeset(words + ["--help"]).stdout)
            #expect(!options.isEmpty)
            // bash: each subcommand's function offers its own options.
            let scope = shell == "bash" ? Self.body(of: Self.bashFunction(words), in: script.stdout) : script.stdout[...]
            #expect(scope != nil, "\(shell): no function \(Self.bashFunction(words))")
            for option in options where option != "--help" && option != "-h" {
                // fish writes `-l prefer` and `-s o`; bash and zsh the option as typed.
                let spelling = shell != "fish" ? option : option.hasPrefix("--") ? "-l '\(option.dropFirst(2))'" : "-s '\(option.dropFirst())'"
                #expect(scope?.contains(spelling) == true, "\(shell) completion for \(words.joined(separator: " ")) lacks \(option)")
            }
        }
    }

    /// `changeset OLD NEW` names no subcommand, so the top of the tree offers
    /// the diff's options too, in every shell: `changeset --ig<TAB>`.
    @Test(arguments: ["bash", "zsh", "fish"])
    func theTopOfTheTreeOffersTheDiffsOptions(shell: String) throws {
        let script = try changeset(["--generate-completion-script", shell]).stdout
        let options = Self.listedOptions(try changeset(["diff", "--help"]).stdout).filter { $0 != "--help" && $0 != "-h" }
        #expect(options.contains("--ignore") && options.contains("--format") && options.contains("--memory-limit"), "\(options)")
        for option in options {
            switch shell {
            case "fish":
                let top = script.split(separator: "\n").filter { $0.contains("_flags_or_options \"changeset\" ") || $0.contains("_flags_or_options \"changeset\"'") }
                let spelling = option.hasPrefix("--") ? "-l '\(option.dropFirst(2))'" : "-s '\(option.dropFirst())'"
                #expect(top.contains { $0.contains(spelling) }, "fish offers no \(option) at the top")
            default:
                let top = try #require(Self.body(of: "_changeset", in: script), "\(shell): no _changeset function")
                #expect(top.contains(option), "\(shell) offers no \(option) at the top")
            }
        }
    }

    @Test func bashCompletesTheDiffsOptionsAndFilesWithoutTheSubcommandsName() throws {
        #expect(try Self.bashCompletions(["changeset", "--ig"]) == ["--ignore-case", "--ignore-whitespace", "--ignore-order", "--ignore"])
        // After OLD (or an option), the words are the diff's: `changeset OLD NEW --fo<TAB>`.
        #expect(try Self.bashCompletions(["changeset", "a.csv", "--memory-l"]) == ["--memory-limit"])
        #expect(try Self.bashCompletions(["changeset", "a.csv", "b.csv", "--format", "mark"]) == ["markdown"])
        #expect(try Self.bashCompletions(["changeset", "--id", "sku", "a.csv", "--pr"]) == [])
        #expect(try Self.bashCompletions(["changeset", "a.csv", "catal"]) == ["catalog"])
        // The first word: OLD's file names beside the subcommands' names.
        #expect(try Self.bashCompletions(["changeset", "catal"]) == ["catalog"])
        let first = try Self.bashCompletions(["changeset", ""])
        #expect(first.contains("merge") && first.contains("catalog") && first.contains("--id"), "\(first)")
        // The snapshots are files: the diff's own arguments complete them, and at
        // the top, where a word may also be a subcommand's name, readline's own
        // file-name completion takes over from an empty answer.
        #expect(try Self.bashCompletions(["changeset", "diff", "catal"]) == ["catalog"])
        let script = try changeset(["--generate-completion-script", "bash"]).stdout
        #expect(script.hasSuffix("\ncomplete -o filenames -o bashdefault -o default -F _changeset_or_diff changeset\n"), "\(script.suffix(200))")
        let unknown = try changeset(["--generate-completion-script", "tcsh"])
        #expect(unknown.status == 2 && unknown.stdout.isEmpty && unknown.stderr.hasPrefix("changeset: Can't generate completion scripts for 'tcsh'."), "\(unknown)")
    }

    /// What bash offers for the command line `words` (the last one being completed).
    static func bashCompletions(_ words: [String]) throws -> [String] {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("completion-\(UUID().uuidString).bash")
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data(try changeset(["--generate-completion-script", "bash"]).stdout.utf8).write(to: scratch)
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let program = """
            source '\(scratch.path)'
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
            registered="$(complete -p changeset)"; registered="${registered#* -F }"
            "${registered%% *}" changeset "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["bash", "-c", program],
                                    environment: ["PATH": changesetBinary.deletingLastPathComponent().path + ":/usr/bin:/bin"])
        #expect(result.status == 0, "\(result)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesSubcommandsAndTheirOptions() throws {
        #expect(try Self.bashCompletions(["changeset", "merge", "--pr"]) == ["--prefer"])
        #expect(try Self.bashCompletions(["changeset", "merge", "--ma"]) == ["--markers"])
        #expect(try Self.bashCompletions(["changeset", "me"]) == ["merge"])
        #expect(try Self.bashCompletions(["changeset", "git", "se"]) == ["setup"])
        #expect(try Self.bashCompletions(["changeset", "git", "setup", "--gl"]) == ["--global"])
        #expect(try Self.bashCompletions(["changeset", "apply", "--ou"]) == ["--output"])
        // `report` takes the diff's report options, and files for its streams.
        #expect(try Self.bashCompletions(["changeset", "rep"]) == ["report"])
        #expect(try Self.bashCompletions(["changeset", "report", "--ass"]) == ["--assert"])
        #expect(try Self.bashCompletions(["changeset", "report", "--format", "mark"]) == ["markdown"])
        #expect(try Self.bashCompletions(["changeset", "report", "catal"]) == ["catalog"])
        #expect(try Self.bashCompletions(["changeset", "diff", "--memory-l"]) == ["--memory-limit"])
    }
}
