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
    /// How many records took OURS's change (an insertion too).
    public var fromOurs = 0
    /// How many records took THEIRS's change (an insertion too).
    public var fromTheirs = 0
    /// How many records took changes from both sides, merged field by field.
    public var fromBoth = 0
    /// How many of BASE's records were deleted without a conflict: by one
    /// side while the other left them alone, or by both.
    public var deleted = 0

    /// Whether conflicts remain for conflict markers to show (no `--prefer`).
    public var hasUnresolvedConflicts: Bool { !conflicts.isEmpty && resolvedBy == nil }
}
