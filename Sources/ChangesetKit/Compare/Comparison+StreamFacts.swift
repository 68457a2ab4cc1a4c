import Foundation

extension Comparison {
    /// What a change stream written from this comparison says in its header
    /// and end line besides the report (see `ChangeStreamFacts`);
    /// `keyedArrayFirstUpdates` as `report` found them.
    func streamFacts(keyedArrayFirstUpdates: [Int]) -> ChangeStreamFacts {
        var facts = ChangeStreamFacts()
        facts.options = streamOptionsJSON
        facts.mode = options.records.mode
        // Past memory the tables hold only the records a report shows: the sums were taken as every record was read.
        facts.fingerprints = kept?.fingerprintSums ?? (old.records.fingerprintSum, new.records.fingerprintSum)
        facts.keyless = rekeyKeylessNames
        facts.keyedArrayFirstUpdates = keyedArrayFirstUpdates
        return facts
    }

    /// The header's `options` object: every rule that decides what counts as
    /// a change and how the report counts it, each always written, so two
    /// streams made under the same rules have the same text.
    var streamOptionsJSON: String {
        let records = options.records
        func strings(_ texts: [String]) -> String { Value.array(texts.map { .string($0) }).jsonText }
        func decimal(_ number: Decimal?) -> String { number.map { Value.string("\($0)").jsonText } ?? "null" }
        func bounds(_ bounds: ValueTolerance.Bounds) -> String { "{\"absolute\":\(decimal(bounds.absolute)),\"relative\":\(decimal(bounds.relative))}" }
        let tolerance = options.tolerance
        let fieldBounds = tolerance.fields.sorted { $0.key.description < $1.key.description }
            .map { Value.string($0.key.description).jsonText + ":" + bounds($0.value) }.joined(separator: ",")
        let members: [(String, String)] = [
            ("ignoreOrder", "\(options.ignoreOrder)"),
            ("sortSections", "\(options.sortSections)"),
            ("mode", Value.string(records.mode.streamName).jsonText),
            ("looseTypes", "\(options.looseTypes)"),
            ("numbersByValue", "\(options.numbersByValue)"),
            ("arrays", Value.string(options.arrays.rawValue).jsonText),
            ("arrayKeys", strings(records.arrayKeys.map { FieldPath($0.path).description + "=" + FieldPath.listArgument($0.key) })),
            ("ignore", strings(records.ignore.map(\.description))),
            ("only", strings(records.only.map(\.description))),
            ("renames", strings(records.renames.map(\.argument))),
            ("recordsAt", records.recordsAt.map { Value.string($0.description).jsonText } ?? "null"),
            ("duplicates", Value.string(records.duplicates.rawValue).jsonText),
            ("csvRows", Value.string(records.csvRows.rawValue).jsonText),
            ("tables", strings(options.tables)),
            ("tolerance", "{\"all\":\(bounds(tolerance.all)),\"fields\":{\(fieldBounds)}}"),
            ("ignoreCase", "\(tolerance.ignoreCase)"),
            ("ignoreWhitespace", "\(tolerance.ignoreWhitespace)"),
        ]
        return "{" + members.map { Value.string($0.0).jsonText + ":" + $0.1 }.joined(separator: ",") + "}"
    }
}
