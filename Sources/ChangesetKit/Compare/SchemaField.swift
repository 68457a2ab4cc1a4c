/// A field added to or removed from the schema, with how many records of the
/// side that has it hold a value for it (not null, not an empty cell).
public struct SchemaField: Equatable, Sendable {
    /// The field (a top-level member or CSV column).
    public var path: FieldPath
    /// How many records of the side that has the field hold a value in it.
    public var records: Int

    /// The field `path`, with a value in `records` records.
    public init(path: FieldPath, records: Int) {
        self.path = path
        self.records = records
    }
}
