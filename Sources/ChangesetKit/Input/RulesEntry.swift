/// One entry of a rules file's `"files"`: a glob and the options it sets
/// for the files that match it.
package struct RulesEntry: Sendable {
    /// One option the entry sets, as the command line would give it.
    package struct Setting: Sendable, Equatable {
        /// The option's long name, without `--`.
        package var name: String
        /// The values, as text: none for a flag (an entry holds only the
        /// flags set to true), one for a single value, one or more for a
        /// repeatable option.
        package var values: [String]
        /// Whether the option is a flag.
        package var isFlag: Bool
        /// Where the option's name stands in the rules file.
        package var location: InputLocation
    }

    /// The key, as written.
    package var pattern: PathGlob
    /// Where the key stands in the rules file.
    package var location: InputLocation
    /// The options, in the order written.
    package var settings: [Setting]

    /// The entry as command-line arguments, `--name=value` each (so that a
    /// value starting with `-` is not read as an option), for the options
    /// `taken` names; the others are left out (a merge takes no
    /// `--tolerance`).
    package func arguments(taking taken: Set<String>) -> [String] {
        settings.filter { taken.contains($0.name) }.flatMap { setting in
            setting.isFlag ? ["--" + setting.name] : setting.values.map { "--\(setting.name)=\($0)" }
        }
    }

    /// The setting a message about the command line names (`--arrays`),
    /// so an option the command refuses is placed in the rules file; the
    /// longest name that fits wins (`--ignore-case` over `--ignore`).
    package func setting(namedIn message: String) -> Setting? {
        settings.filter { message.contains("--" + $0.name) }.max { $0.name.count < $1.name.count }
    }
}
