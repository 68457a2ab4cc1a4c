import ArgumentParser

/// The tree the shell completion scripts are written from: the command
/// tree's subcommands, with the default subcommand's options at the top as
/// well, so `changeset --ig<TAB>` offers `--ignore` as `changeset diff
/// --ig<TAB>` does (swift-argument-parser writes a default subcommand's
/// options under its name only: apple/swift-argument-parser#488). Its
/// arguments are left out: a word in their place would be taken for OLD,
/// and the subcommand after it never completed. Parsing never uses this tree.
struct CompletionTree: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: ChangesetCommand.configuration.commandName,
        abstract: ChangesetCommand.configuration.abstract,
        version: ChangesetCommand.configuration.version,
        subcommands: ChangesetCommand.configuration.subcommands
    )

    @OptionGroup var comparing: ComparingOptions

    @OptionGroup var rules: RulesOptions

    @OptionGroup var report: ReportOptions

    /// What `changeset --generate-completion-script SHELL` prints (the
    /// script), or the error of a shell it cannot write for.
    static func script(_ arguments: [String]) -> Result<String, any Error> {
        do {
            _ = try parseAsRoot(arguments)
        } catch where exitCode(for: error) == .success {
            return .success(completingTheDiffByDefault(fullMessage(for: error)))
        } catch {
            return .failure(error)
        }
        return .failure(ValidationError("name a shell: bash, zsh or fish"))
    }

    /// bash: `changeset OLD NEW --fo<TAB>` names no subcommand, and the
    /// generated script would take OLD for an unknown one and offer nothing
    /// after it; so a first word that is not a subcommand's name completes
    /// the rest as `changeset diff` would, and the first word itself offers
    /// file names beside the subcommands' names. Where the script offers
    /// nothing, readline's own completion of file names takes over.
    static func completingTheDiffByDefault(_ script: String) -> String {
        let names = (configuration.subcommands.map { $0.configuration.commandName ?? "" } + ["help"]).joined(separator: " ")
        let registration = "\ncomplete -o filenames -F _changeset changeset"
        guard script.contains(registration) else { return script }
        return script.replacingOccurrences(of: registration, with: """

            _changeset_or_diff() {
                if [[ "${COMP_CWORD}" -ge 2 && " \(names) " != *" ${COMP_WORDS[1]} "* ]]; then
                    local -r rest="${COMP_LINE#"${COMP_WORDS[0]}"}"
                    COMP_WORDS=("${COMP_WORDS[0]}" diff "${COMP_WORDS[@]:1}")
                    COMP_CWORD=$((COMP_CWORD + 1))
                    COMP_LINE="${COMP_WORDS[0]} diff${rest}"
                    COMP_POINT=$((COMP_POINT + 5))
                fi
                _changeset "${@}"
                # The first word may be OLD as well as a subcommand's name: file names too.
                if [[ "${COMP_CWORD}" -eq 1 && "${2}" != -* ]]; then
                    local file
                    local -A offered=()
                    for file in "${COMPREPLY[@]}"; do offered["${file}"]=1; done
                    while IFS='' read -r file; do
                        [[ -n "${offered["${file}"]:-}" ]] || COMPREPLY+=("${file}")
                    done < <(compgen -f -- "${2}")
                fi
            }
            complete -o filenames -o bashdefault -o default -F _changeset_or_diff changeset
            """)
    }
}
