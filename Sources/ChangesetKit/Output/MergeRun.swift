/// A merge as `changeset merge` and git's merge driver carry it out: what
/// is said, what is written and in which order, and how the run ends.
///
/// A run lists every conflict (`conflictLines`), then writes the result
/// (`writeResult`) unless conflicts are left unresolved and no markers are
/// asked for, then the conflicts as JSON (`conflictsJSON`) where they are
/// wanted: after the result, so a conflicts file never describes a result
/// that failed to be written.
public struct MergeRun {
    /// The merge carried out.
    public let merge: DatasetMerge
    /// The markers unresolved conflicts are written between, or nil to
    /// write no result while any is left.
    public let markers: MergeWriter.Markers?
    private let formatter = MergeConflictFormatter()

    /// A run of `merge`, writing conflicts between `markers` (nil: not at all).
    public init(_ merge: DatasetMerge, markers: MergeWriter.Markers?) {
        self.merge = merge
        self.markers = markers
    }

    /// Whether records were matched by an id (else by their whole content).
    private var byID: Bool { !merge.options.records.id.isEmpty }

    /// One line a conflict, saying which records and fields conflict and
    /// how a preference resolved them, if one did.
    public var conflictLines: [String] {
        formatter.lines(merge.result.conflicts, resolvedBy: merge.result.resolvedBy, byID: byID)
    }

    /// The conflicts as a JSON list (empty when there are none), with how they were resolved.
    public var conflictsJSON: String {
        formatter.json(merge.result.conflicts, resolvedBy: merge.result.resolvedBy, byID: byID)
    }

    /// Whether the result is written: unless conflicts are left unresolved and there are no markers.
    public var writesResult: Bool {
        !merge.result.hasUnresolvedConflicts || markers != nil
    }

    /// Whether the run ends with conflicts left unresolved (`changeset` exits 1):
    /// the result was not written, or holds markers.
    public var endsWithConflicts: Bool {
        merge.result.hasUnresolvedConflicts
    }

    /// Writes the merged result, in OURS's format and layout, with `markers`
    /// around each unresolved conflict.
    public func writeResult(to output: inout some TextOutputStream) throws {
        try MergeWriter(merge).write(to: &output, markers: markers)
    }
}
