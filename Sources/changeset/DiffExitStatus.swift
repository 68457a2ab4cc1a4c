import ChangesetKit

/// The diff's exit status: its `DiffVerdict` as the contract's numbers.
enum DiffExitStatus {
    /// 0 when the verdict passes, else 1, after naming each assertion that
    /// failed on standard error.
    static func of(_ summary: Summary, assertions: [Assertion]) -> Int32 {
        let verdict = DiffVerdict(summary, assertions: assertions)
        for assertion in verdict.failedAssertions {
            Diagnostics.report("assertion failed: \(assertion) (\(assertion.kind.rawValue) is \(assertion.actualDescription(summary)))")
        }
        return verdict.passes ? ExitStatus.same : ExitStatus.different
    }
}
