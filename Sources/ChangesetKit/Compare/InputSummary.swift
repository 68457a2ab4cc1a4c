/// One input as a report names it.
public struct InputSummary: Equatable, Sendable {
    /// The name as the user gave it (`<stdin>` for standard input).
    public var name: String
    public var format: InputFormat
    public var records: Int

    public init(name: String, format: InputFormat, records: Int) {
        self.name = name
        self.format = format
        self.records = records
    }
}

extension Snapshot {
    /// The input as a report names it.
    package var summary: InputSummary {
        InputSummary(name: input.name, format: input.format, records: recordCount)
    }
}
