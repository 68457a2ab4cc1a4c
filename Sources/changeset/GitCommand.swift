import ArgumentParser
import ChangesetKit
import Foundation

/// `changeset git setup|merge-driver|diff`: changeset as git's diff and merge driver.
struct GitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "git",
        abstract: "Make git diff and git merge work record by record on dataset files.",
        discussion: """
            changeset git setup --id sku '*.csv' writes the .gitattributes lines and the git config for \
            both drivers. The id for a path is the gitattributes attribute changeset-id (read with \
            git check-attr); without it, records are matched by content.
            """,
        subcommands: [GitSetupCommand.self, GitMergeDriverCommand.self, GitDiffCommand.self]
    )
}
