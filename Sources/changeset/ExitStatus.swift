/// The exit-status contract every subcommand keeps: 0 same (or merged,
/// or every assertion held), 1 different (or conflicts, or an assertion
/// failed), 2 trouble, usage errors included.
enum ExitStatus {
    static let same: Int32 = 0
    static let different: Int32 = 1
    static let trouble: Int32 = 2
}
