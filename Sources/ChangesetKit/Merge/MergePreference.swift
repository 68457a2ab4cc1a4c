/// `--prefer`: how conflicts are resolved when the user says so.
public enum MergePreference: String, Sendable, CaseIterable {
    /// The side whose version settles a conflict.
    case ours, theirs
}
