/// A deleted record and the inserted record equal to it in every field but
/// the `--id` fields: the ids as a change carries them (`Change.id`).
public struct RekeyedRecord: Equatable, Sendable {
    /// The deleted record's id parts, in `--id`'s order.
    public var old: [String]
    /// The inserted record's id parts.
    public var new: [String]

    /// A pair from the two records' ids.
    public init(old: [String], new: [String]) {
        self.old = old
        self.new = new
    }
}
