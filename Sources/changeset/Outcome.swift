import ArgumentParser
import ChangesetKit
import Foundation

/// The one place a diff's exit status is decided.
enum Outcome {
    /// Without assertions: 0 when nothing differs, else 1. With them: 0 when
    /// every one holds, else 1, after naming each that failed on standard error.
    static func status(_ summary: Summary, assertions: [Assertion]) -> Int32 {
        guard !assertions.isEmpty else { return summary.hasDifferences ? ExitStatus.different : ExitStatus.same }
        let failed = assertions.filter { !$0.holds(for: summary) }
        for assertion in failed {
            Diagnostics.report("assertion failed: \(assertion) (\(assertion.kind.rawValue) is \(assertion.actualDescription(summary)))")
        }
        return failed.isEmpty ? ExitStatus.same : ExitStatus.different
    }
}

