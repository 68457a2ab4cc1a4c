/// The `patch` format: a `PatchScript` that `changeset apply` replays on
/// OLD to rebuild NEW. It follows the files' record order (sections play no
/// part) and is written one line at a time, never held whole: the header
/// (with the fingerprints of the base and of the result, both known before
/// the first operation), the operations, and the `end` line.
package struct PatchFormatter {
    package init() {}

    /// Writes the patch of `replay`, which must have been made with `.records`.
    package func write(_ replay: Replay, to output: inout some TextOutputStream) throws {
        guard let result = replay.result else {
            throw OutputSettingsError.patchWithoutResultFingerprint
        }
        let script = PatchScript(
            baseFormat: replay.old.format, base: replay.base, recordsAt: replay.recordsAt, delimiter: replay.delimiter,
            columns: replay.columns, style: replay.newStyle, result: result, operations: [])
        output.write(script.headerText)
        // A CSV snapshot can only be given values for its columns.
        let columns = replay.baseColumns.map { Set((replay.columns ?? $0).map(ExactTextKey.init)) }
        func text(_ record: Value, line: Int) throws -> String {
            if let columns, case .object(let members) = record, let extra = members.first(where: { !columns.contains(ExactTextKey($0.name)) }) {
                throw OutputSettingsError.patchFieldWithoutColumn(field: extra.name, line: line, snapshot: replay.new.name, base: replay.old.name)
            }
            return record.jsonText
        }
        for old in replay.deleted {
            output.write(PatchScript.line(.delete(old: old)))
        }
        try replay.steps.forEach { step in
            switch step {
            case .inserted(let new, let record, let line):
                output.write(PatchScript.line(.insert(new: new, record: try text(record, line: line))))
            case .moved(let old, let new, let record, let line):
                output.write(PatchScript.line(.move(old: old, new: new, record: try record.map { try text($0, line: line) })))
            case .updated(let old, _, let record, _, let line):
                // A record that also moved travels with its move.
                if let record { output.write(PatchScript.line(.update(old: old, record: try text(record, line: line)))) }
            }
        }
        output.write(PatchScript.trailerText)
    }
}
