import Testing

/// The tags of this target's suites, in one place. A suite that runs for
/// more than about 20 seconds is tagged `.slow` and with what makes it slow;
/// docs/architecture.md's quick test command skips the `.slow` suites by name, and
/// `QuickTestCommandTests` (ChangesetCLITests) checks that its pattern names
/// exactly them.
extension Tag {
    /// More than about 20 seconds: left out of the quick test command.
    @Tag static var slow: Self
    /// Works through large generated data (long texts, tables past what one core matches), slow in a debug build.
    @Tag static var largeData: Self
}
