/// The input formats: JSON (an array of records, or a document holding one),
/// NDJSON (JSON Lines: one record a line), CSV and TSV (a header row names the fields).
public enum InputFormat: String, Sendable, CaseIterable {
    /// A JSON array of record objects, or a document holding one (``RecordOptions/recordsAt``).
    case json
    /// JSON Lines: one record object a line (`.ndjson`, `.jsonl`).
    case ndjson
    /// Comma-separated values (RFC 4180), the first row naming the fields.
    case csv
    /// Tab-separated values, the first row naming the fields (`.tsv`, `.tab`).
    case tsv

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

    /// Whether records are JSON objects (JSON or NDJSON), not rows of cells.
    public var isJSON: Bool { self == .json || self == .ndjson }

    /// The field delimiter when none is given: a tab for TSV, else a comma.
    /// The one place this rule is written.
    package var defaultDelimiter: UInt8 { self == .tsv ? 0x09 : UInt8(ascii: ",") }

    /// `given`, or this format's default.
    package func delimiter(_ given: UInt8?) -> UInt8 { given ?? defaultDelimiter }
}
