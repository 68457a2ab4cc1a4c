/// How many updated records changed a field.
public struct FieldCount: Equatable, Sendable {
    /// The field.
    public var path: FieldPath
    /// How many updated records changed it.
    public var records: Int

    /// The field `path`, changed by `records` updated records.
    public init(path: FieldPath, records: Int) {
        self.path = path
        self.records = records
    }
}
