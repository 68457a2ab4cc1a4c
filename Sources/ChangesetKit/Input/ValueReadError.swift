/// A value that could not be read from its bytes: a record read again for
/// a report, a merge or a patch (by its byte range in an input that changed
/// since it was read, say), or JSON nested deeper than the readers allow.
/// Thrown by the calls that read records again (``Comparison/report(showing:context:recordsPerKind:)``,
/// ``Comparison/write(_:to:showingNothing:)``, ``MergeWriter/write(to:markers:)``);
/// what goes wrong on the first read of an input is an ``InputError``.
public struct ValueReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    /// An error saying `description`.
    public init(description: String) {
        self.description = description
    }
}
