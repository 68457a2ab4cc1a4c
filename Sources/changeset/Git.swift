import ChangesetKit
import Foundation

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
