/// How many updated records changed a field.
public struct FieldCount: Equatable, Sendable {
    public var path: FieldPath
    public var records: Int

    public init(path: FieldPath, records: Int) {
        self.path = path
        self.records = records
    }
}
