/// `--prefer`: how conflicts are resolved when the user says so.
public enum MergePreference: String, Sendable, CaseIterable {
    case ours, theirs
}
