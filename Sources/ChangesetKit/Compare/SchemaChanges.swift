/// Fields in one snapshot's schema and not the other's, reported once
/// instead of in every record. A field is in a snapshot's schema when its
/// CSV header names it, or when any of its JSON records has it as a
/// top-level member (nested members are compared as part of their parent).
public struct SchemaChanges: Equatable, Sendable {
    /// Fields only NEW's schema has, that the comparison counts.
    public var added: [SchemaField] = []
    /// Fields only OLD's schema has, that the comparison counts.
    public var removed: [SchemaField] = []
    /// `--rename OLD=NEW` pairs that matched a field, as old and new paths.
    public var renamed: [Rename] = []
    /// Fields added and removed that `--ignore` or `--only` leave out of
    /// the comparison: listed, never counted as differences.
    public var ignoredAdded: [SchemaField] = []
    /// Fields only OLD has that `--ignore` or `--only` leave out.
    public var ignoredRemoved: [SchemaField] = []
    /// A removed and an added field that hold equal values in most matched
    /// records: probably one field renamed (`--rename OLD=NEW` would say so).
    public var suggestedRenames: [RenameSuggestion] = []

    /// Schema changes made of these lists (`suggestedRenames` starts empty).
    public init(
        added: [SchemaField] = [], removed: [SchemaField] = [], renamed: [Rename] = [],
        ignoredAdded: [SchemaField] = [], ignoredRemoved: [SchemaField] = []
    ) {
        self.added = added
        self.removed = removed
        self.renamed = renamed
        self.ignoredAdded = ignoredAdded
        self.ignoredRemoved = ignoredRemoved
    }

    /// No field added or removed that counts (ignored ones aside).
    public var isEmpty: Bool { added.isEmpty && removed.isEmpty }
    /// Fields added plus fields removed that count (`--assert 'schema == 0'`).
    public var count: Int { added.count + removed.count }
    /// Whether a report has anything to say about the schema: changes, ignored ones or renames.
    public var isWorthListing: Bool {
        !isEmpty || !renamed.isEmpty || !ignoredAdded.isEmpty || !ignoredRemoved.isEmpty || !suggestedRenames.isEmpty
    }
}
