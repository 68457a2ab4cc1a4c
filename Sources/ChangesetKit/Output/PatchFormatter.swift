/// The `patch` format: a `PatchScript` that `changeset apply` replays on
/// OLD to rebuild NEW. It follows the files' record order (sections play no
/// part) and is written one line at a time, never held whole.
public struct PatchFormatter {
    public init() {}

    public struct Unsupported: Error, CustomStringConvertible {
        public var description: String
    }

    public func write(_ comparison: Comparison, to output: inout some TextOutputStream) throws {
        let flat = try comparison.fileOrderChangeset()
        let old = comparison.old
        let new = comparison.new
        let defaultDelimiter: UInt8 = old.input.format == .tsv ? 0x09 : UInt8(ascii: ",")
        let script = PatchScript(
            baseFormat: old.input.format,
            base: try SnapshotFingerprint(of: old, readWith: comparison.options.records),
            recordsAt: old.input.format == .json ? comparison.options.records.recordsAt : nil,
            delimiter: !old.input.format.isJSON && old.delimiter != defaultDelimiter ? old.delimiter : nil,
            columns: !old.input.format.isJSON && !new.input.format.isJSON ? new.records.fieldNames : nil,
            resultCount: new.records.count, operations: [])
        output.write(script.headerText)
        // A CSV snapshot can only be given values for its columns.
        let columns = old.input.format.isJSON ? nil : Set(script.columns ?? old.records.fieldNames ?? [])
        func record(_ ref: RecordRef) throws -> String {
            let value = try new.value(ofRecord: ref.row)
            if let columns, case .object(let members) = value, let extra = members.first(where: { !columns.contains($0.name) }) {
                throw PatchFormatter.Unsupported(description:
                    "--format patch: the record at line \(new.records.line(ref.row)) of \(new.input.name) has a field "
                    + "\"\(extra.name)\" that \(old.input.name) has no column for; a patch for a CSV snapshot can only fill its columns")
            }
            return value.jsonText
        }
        let updatedAndMoved = Set(flat.moves.map(\.from.item)).intersection(flat.updates.map(\.old.item))
        for deletion in flat.deletions {
            output.write(PatchScript.line(.delete(old: deletion.at.item)))
        }
        try OrderedConcurrentMap.forEach(flat.insertions, transform: { try record($0.element) }) { insertion, text in
            output.write(PatchScript.line(.insert(new: insertion.at.item, record: text)))
        }
        for move in flat.moves {
            let changed = updatedAndMoved.contains(move.from.item) ? try record(move.element) : nil
            output.write(PatchScript.line(.move(old: move.from.item, new: move.to.item, record: changed)))
        }
        let updates = flat.updates.filter { !updatedAndMoved.contains($0.old.item) }
        try OrderedConcurrentMap.forEach(updates, transform: { try record($0.element) }) { update, text in
            output.write(PatchScript.line(.update(old: update.old.item, record: text)))
        }
    }
}
