/// The release of changeset this library is: what `changeset --version`
/// prints after the command's name, and what a change stream's header
/// names (`changeset report` reads only streams of its own release).
public enum ChangesetRelease {
    /// The version number, `0.1.0`.
    public static let version = "0.1.0"
    /// `changeset 0.1.0`: the version as `--version` prints it.
    public static let versionLine = "changeset " + version
}
