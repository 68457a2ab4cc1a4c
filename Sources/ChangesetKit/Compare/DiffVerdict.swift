/// Whether a comparison passes, as `changeset` decides its exit status:
/// without assertions, when nothing differs; with them, when every one
/// holds (the differences themselves then decide nothing).
public struct DiffVerdict: Equatable, Sendable {
    /// The assertions that do not hold, in the order given.
    public let failedAssertions: [Assertion]
    /// Whether the comparison passes.
    public let passes: Bool

    /// The verdict on a comparison that counted `summary`, checked against `assertions`.
    public init(_ summary: Summary, assertions: [Assertion]) {
        failedAssertions = assertions.filter { !$0.holds(for: summary) }
        passes = assertions.isEmpty ? !summary.hasDifferences : failedAssertions.isEmpty
    }
}
