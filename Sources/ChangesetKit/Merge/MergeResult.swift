/// What a merge made.
public struct MergeResult: Sendable {
    /// The result's records in order.
    public var records: [MergedRecord] = []
    /// For each record of the result, the rows of OURS's and THEIRS's
    /// versions of it (nil where a side has none): a writer keeps their text
    /// wherever the merged value allows.
    package var sources: [RecordSources] = []
    /// Every conflict, in the result's order (resolved ones too when a
    /// preference was given).
    public var conflicts: [MergeConflict] = []
    /// Whether `conflicts` were resolved by `--prefer` (then `records` holds no `.conflict`).
    public var resolvedBy: MergePreference?
    /// How many records took a change from each side, or from both.
    public var fromOurs = 0
    public var fromTheirs = 0
    public var fromBoth = 0
    public var deleted = 0

    public var hasUnresolvedConflicts: Bool { !conflicts.isEmpty && resolvedBy == nil }
}
