import ArgumentParser
import ChangesetKit
import Foundation

/// Parses a command line with the rules file's entry for its file: the
/// entry's options go in as arguments before the user's own, so an option
/// given once on the command line wins, and a repeatable one (`--ignore`)
/// takes the file's values and then the command line's.
enum CommandRules {
    /// A rules file that cannot be used: its own error, or an option of its
    /// entry the command refuses, placed in the file.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// What an entry may set: the options that say what counts as a
    /// difference (the diff's and git's drivers' `ComparingOptions`, which
    /// hold the merge's `RecordMatchingOptions`), and `assert`, a check per
    /// file. Named as the man page names them, from the parser's own list.
    static let ruleOptions: [RuleOption] = options(of: ComparingOptions.self) + options(of: DiffCommand.self).filter { $0.name == "assert" }

    /// The long options of `type`, as swift-argument-parser describes them.
    static func options(of type: ParsableArguments.Type) -> [RuleOption] {
        // The parser's own description (what `--experimental-dump-help` prints), so no list is kept by hand;
        // one that no longer decodes is a change of swift-argument-parser to follow, not a rules file to ignore.
        guard let description = try? JSONDecoder().decode(ParserDescription.self, from: Data(type._dumpHelp().utf8)) else {
            preconditionFailure("swift-argument-parser's description of \(type) no longer decodes: follow its format in CommandRules")
        }
        return (description.command.arguments ?? []).compactMap { argument in
            guard argument.kind != "positional", let name = argument.names?.first(where: { $0.kind == "long" })?.name,
                  !["help", "version"].contains(name) else { return nil }
            return RuleOption(name: name, takes: argument.kind == "flag" ? .flag : argument.isRepeating ? .values : .value)
        }
    }

    /// `commandPath + arguments` parsed with `ChangesetCommand`'s tree; for
    /// a `RuledCommand`, parsed again with its rules entry's options
    /// inserted after the command's name, before the user's arguments.
    static func parse(_ commandPath: [String], _ arguments: [String]) throws -> ParsableCommand {
        let given = commandPath + arguments
        let parsed = try ChangesetCommand.parseAsRoot(given)
        guard let ruled = parsed as? RuledCommand, !ruled.rulesOptions.noRules else { return parsed }
        let workingDirectory = FileManager.default.currentDirectoryPath
        // One found in the working directory is named as a user would name it there.
        let found = RulesFile.find(from: workingDirectory).map {
            $0 == FileSystemPath.normalized(workingDirectory + "/" + RulesFile.fileName) ? RulesFile.fileName : $0
        }
        guard let file = ruled.rulesOptions.rules ?? found else { return parsed }
        let rules: RulesFile
        do {
            rules = try RulesFile.read(file, workingDirectory: workingDirectory, options: ruleOptions)
        } catch {
            throw Failure(description: error.description)
        }
        guard let path = RulesFile.placedPath(ruled.ruledPaths), let entry = rules.entry(for: path, workingDirectory: workingDirectory) else {
            return parsed
        }
        let inserted = entry.arguments(taking: Set(options(of: type(of: parsed)).map(\.name)))
        guard !inserted.isEmpty else { return parsed }
        // After the subcommand's name when the user wrote it (`changeset diff ...`); the diff is also the default.
        let commandName = type(of: parsed).configuration.commandName
        let position = commandPath.count + (commandPath.isEmpty && arguments.first == commandName ? 1 : 0)
        var ruledArguments = given
        ruledArguments.insert(contentsOf: inserted, at: position)
        do {
            return try ChangesetCommand.parseAsRoot(ruledArguments)
        } catch {
            let message = ChangesetCommand.message(for: error)
            let place = entry.setting(namedIn: message)?.location ?? entry.location
            throw Failure(description: "\(rules.source):\(place): the entry \"\(entry.pattern.text)\": \(message)")
        }
    }
}

/// The part of swift-argument-parser's `--experimental-dump-help` JSON that lists a type's arguments.
private struct ParserDescription: Decodable {
    struct Command: Decodable { var arguments: [Argument]? }
    struct Argument: Decodable {
        var kind: String
        var names: [Name]?
        var isRepeating: Bool
    }
    struct Name: Decodable {
        var kind: String
        var name: String
    }
    var command: Command
}
