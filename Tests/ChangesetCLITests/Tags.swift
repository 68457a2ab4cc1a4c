import Testing

/// The tags of this target's suites, in one place. A suite that runs for
/// more than about 20 seconds is tagged `.slow` and with what makes it slow;
/// docs/architecture.md's quick test command skips the `.slow` suites by name (this
/// toolchain's `swift test` filters by name, not by tag), and
/// `QuickTestCommandTests` checks that its pattern names exactly them.
extension Tag {
    /// More than about 20 seconds: left out of the quick test command.
    @Tag static var slow: Self
    /// Builds the command in release mode and installs it (`scripts/install`, `scripts/package-deb`).
    @Tag static var install: Self
    /// Builds a scratch package that depends on this one by version.
    @Tag static var libraryPackage: Self
    /// Loads the html report in a headless browser.
    @Tag static var browser: Self
    /// Checks the GitHub Actions workflow of `examples/` with its tools and runs its check step.
    @Tag static var workflow: Self
    /// Checks `action.yml` and the pre-commit hook with their tools (check-jsonschema, zizmor, pre-commit).
    @Tag static var action: Self
    /// Runs the PySpark job of `examples/spark/` in Spark's local mode (Java 17 and pyspark).
    @Tag static var spark: Self
    /// Validates outputs against the JSON Schemas with check-jsonschema.
    @Tag static var schema: Self
}
