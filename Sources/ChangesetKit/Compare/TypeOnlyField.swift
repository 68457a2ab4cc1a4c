/// A field some of whose changes were only of a value's type (`"3"` -> `3`).
public struct TypeOnlyField: Equatable, Sendable {
    /// The field.
    public var path: FieldPath
    /// Updated records whose every change of the field changed only a value's type.
    public var records: Int
    /// The first such change, the note's example.
    public var example: FieldChange

    /// The field `path`, changed only in type in `records` records, as in `example`.
    public init(path: FieldPath, records: Int, example: FieldChange) {
        self.path = path
        self.records = records
        self.example = example
    }
}
