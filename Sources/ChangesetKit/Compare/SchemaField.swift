/// A field added to or removed from the schema, with how many records of the
/// side that has it hold a value for it (not null, not an empty cell).
public struct SchemaField: Equatable, Sendable {
    public var path: FieldPath
    public var records: Int

    public init(path: FieldPath, records: Int) {
        self.path = path
        self.records = records
    }
}
