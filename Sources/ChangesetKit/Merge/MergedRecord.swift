/// One record of a merge's result.
public enum MergedRecord: Sendable, Equatable {
    /// OURS's record as it is.
    case ours(Int)
    /// THEIRS's version of the record (THEIRS changed or inserted it, OURS did not).
    case theirs(Int)
    /// Fields from both sides.
    case merged(Value)
    /// An unresolved conflict: the record as OURS and as THEIRS would have it
    /// (each with the other side's non-conflicting changes); nil where that
    /// side has no record.
    case conflict(ours: Value?, theirs: Value?)

    package var isConflict: Bool { if case .conflict = self { true } else { false } }
}
