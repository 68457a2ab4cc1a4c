/// One input as a report names it.
public struct InputSummary: Equatable, Sendable {
    /// The name as the user gave it (`<stdin>` for standard input).
    public var name: String
    /// The format the input was read as.
    public var format: InputFormat
    /// How many records it holds.
    public var records: Int

    /// An input named `name`, read as `format`, of `records` records.
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
