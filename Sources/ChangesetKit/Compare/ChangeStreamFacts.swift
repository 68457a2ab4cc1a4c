/// What a change stream's header and end line carry beyond the report
/// itself (`--format ndjson`): the rules the comparison ran under and what
/// only the inputs know, so that `changeset report` can refuse streams
/// made under other rules, tell a repeated stream from another part, and
/// rebuild the report to the byte.
package struct ChangeStreamFacts: Equatable, Sendable {
    /// The comparison's rules as the header's `options` object's members
    /// (JSON text, `--kinds` and `--show` left out: the writer adds those).
    package var options: String = "{}"
    /// The comparison mode the options came to (`typed`, `text`, `cellText`).
    package var mode: ComparisonMode = .typed
    /// The fields `--show` asked for, as written (none: empty).
    package var show: [String] = []
    /// Per side, the sum of its records' fingerprints (under the
    /// comparison's rules): the same whatever the records' order, and the
    /// sum of the parts' sums for data split into parts. Nil for a report
    /// not made by a comparison.
    package var fingerprints: (old: UInt64, new: UInt64)?
    /// The top-level names a record is compared without when looking for
    /// re-keyed records (`Comparison.rekeyedRecords`).
    package var keyless: [String] = []
    /// The key hint the text report says (records matched by content, some
    /// deleted or inserted).
    package var keyHint: KeyHint?
    /// Per keyed array of `Summary.keyedArrays`, the 0-based number of the
    /// updated record (among the updated ones, in order) it was first met in.
    package var keyedArrayFirstUpdates: [Int] = []

    package init() {}

    package static func == (a: ChangeStreamFacts, b: ChangeStreamFacts) -> Bool {
        a.options == b.options && a.mode == b.mode && a.show == b.show && a.fingerprints?.old == b.fingerprints?.old
            && a.fingerprints?.new == b.fingerprints?.new && a.keyless == b.keyless && a.keyHint == b.keyHint
            && a.keyedArrayFirstUpdates == b.keyedArrayFirstUpdates
    }

    /// The version of the stream's form the header names (`"stream": 1`).
    package static let formatVersion = 1

    /// A fingerprint sum as the header writes it: 16 lowercase hex digits.
    package static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

extension ComparisonMode {
    /// The mode's name in a change stream's header.
    package var streamName: String {
        switch self {
        case .typed: "typed"
        case .text: "text"
        case .cellText: "cellText"
        }
    }

    /// The mode a header names; nil for a name that is none.
    package init?(streamName: String) {
        switch streamName {
        case "typed": self = .typed
        case "text": self = .text
        case "cellText": self = .cellText
        default: return nil
        }
    }
}
