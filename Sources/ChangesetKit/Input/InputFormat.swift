/// The input formats: JSON (an array of records, or a document holding one),
/// NDJSON (JSON Lines: one record a line), CSV and TSV (a header row names the fields).
public enum InputFormat: String, Sendable, CaseIterable {
    case json, ndjson, csv, tsv

    /// The format an extension names, if any.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "json": self = .json
        case "ndjson", "jsonl": self = .ndjson
        case "csv": self = .csv
        case "tsv", "tab": self = .tsv
        default: return nil
        }
    }

    public var isJSON: Bool { self == .json || self == .ndjson }

    /// The field delimiter when none is given: a tab for TSV, else a comma.
    /// The one place this rule is written.
    package var defaultDelimiter: UInt8 { self == .tsv ? 0x09 : UInt8(ascii: ",") }

    /// `given`, or this format's default.
    package func delimiter(_ given: UInt8?) -> UInt8 { given ?? defaultDelimiter }
}
