import Foundation

/// `changeset apply BASE PATCH`: replays a patch on the snapshot it was made
/// from and writes the result in the base's format. JSON and NDJSON records
/// the patch leaves alone are copied byte for byte; with `--records-at`, only
/// the records array of the document is rewritten.
///
/// Nothing is written unless every check passes, in this order: the base is
/// the snapshot the patch names (`base` line), the operations fit it and add
/// up to the `result` count, and the result they build has the `result`
/// fingerprint (so an edited, added or dropped line is refused; a patch cut
/// short never parses, see `PatchScript`).
package enum PatchApplier {
    /// One record of the result: a base record kept, or one from the patch
    /// (in place of a base record, for an update: its text is the frame the
    /// new one is written into). The row replaced is a UInt32 (as the
    /// record tables hold rows' lines): the element then takes 24 bytes, not
    /// 32, in the million-element arrays the replay builds.
    enum Element {
        case base(Int)
        case record(String, replacing: UInt32?)
    }

    package static func apply(_ patch: PatchScript, patchSource: String, to base: InputFile, output: inout some TextOutputStream) throws {
        guard base.format == patch.baseFormat else {
            throw InputError(
                source: base.name, location: nil,
                message: "the patch was made for a \(patch.baseFormat.rawValue) snapshot, but this is \(base.format.rawValue)")
        }
        let defaultDelimiter = base.format.defaultDelimiter
        let delimiter = patch.delimiter ?? defaultDelimiter
        let table = try base.readRecords(
            SnapshotFingerprint.options(for: base.format, recordsAt: patch.recordsAt), delimiter: delimiter)
        let found = SnapshotFingerprint(of: table)
        guard found == patch.base else {
            throw InputError(
                source: base.name, location: nil,
                message: "this is not the snapshot the patch \(patchSource) was made from "
                    + "(the patch expects \(patch.base.records) records with fingerprint \(patch.base), "
                    + "this has \(found.records) with fingerprint \(found)); nothing was written")
        }
        let result = try replay(patch, baseCount: table.count, patchSource: patchSource)
        let dataset = Snapshot(input: base, records: table, delimiter: delimiter)
        // Checked before the first byte goes out, so a refused patch writes
        // nothing, to a file or to standard output. Worked out from the
        // result's records, not from its bytes held back until the check (in
        // memory, or in a temporary file copied afterwards): the records are
        // at hand (the parsed patch, the base's table), so memory grows with
        // the number of records, not with the size of the output, and nothing
        // is written twice.
        let built = try fingerprint(of: result, patch: patch, base: dataset, patchSource: patchSource)
        guard built == patch.result else {
            throw InputError(
                source: patchSource, location: patch.resultLine > 0 ? InputLocation(line: patch.resultLine, column: 1) : nil,
                message: "the patch does not build the snapshot this line states (\(patch.result.records) records with fingerprint "
                    + "\(patch.result)); its records give \(built.records) with fingerprint \(built): the patch was edited or "
                    + "damaged after it was made; nothing was written")
        }
        let writer = try SnapshotWriter(dataset, style: patch.style)
        switch base.format {
        case .json, .ndjson:
            let style = writer.style, depth = writer.recordDepth
            try writer.write(count: result.count, to: &output) { index in
                switch result[index] {
                case .base(let row): return .kept(row)
                case .record(let json, nil): return .text(style.text(of: try value(ofRecord: json), depth: depth))
                case .record(let json, let replaced?):
                    let row = Int(replaced)
                    // An update keeps the base record's text but for the members it changes, at its indentation.
                    let frame = try writer.text(ofRecord: row)
                    let frameDepth = try writer.depth(ofRow: row, text: frame)
                    return .text(style.text(of: try value(ofRecord: json), frame: frame, frameDepth: frameDepth, depth: frameDepth))
                }
            }
        case .csv, .tsv:
            try writeCSV(result, patch: patch, base: dataset, writer: writer, patchSource: patchSource, output: &output)
        }
        // Base records were copied by byte range after the fingerprint check: from the file as it was checked?
        try base.bytes.checkUnchanged()
    }

    /// The result's records, in order: the patch's operations, checked
    /// against the base, applied by the engine's own `apply`.
    static func replay(_ patch: PatchScript, baseCount: Int, patchSource: String) throws -> [Element] {
        try check(patch, baseCount: baseCount, patchSource: patchSource)
        var changeset = SectionedChangeset<Int, Element>()
        changeset.oldSectionCount = 1
        changeset.newSectionCount = 1
        changeset.oldCount = baseCount
        changeset.newCount = patch.resultCount
        func at(_ index: Int) -> ItemPath { ItemPath(section: 0, item: index) }
        for operation in patch.operations {
            switch operation {
            case .delete(let old): changeset.deletions.append(.init(at: at(old)))
            case .insert(let new, let record): changeset.insertions.append(.init(at: at(new), element: .record(record, replacing: nil)))
            case .move(let old, let new, let record):
                changeset.moves.append(.init(from: at(old), to: at(new), element: record.map { .record($0, replacing: UInt32(old)) } ?? .base(old), isAcrossSections: false))
            case .update(let old, let record): changeset.updates.append(.init(old: at(old), new: at(old), element: .record(record, replacing: UInt32(old))))
            }
        }
        let result: [Element]
        do {
            result = try changeset.apply(to: (0..<baseCount).map(Element.base))
        } catch let error as ApplyError {
            throw InputError(source: patchSource, location: nil, message: "the patch is inconsistent: \(error.detail)")
        }
        guard result.count == patch.resultCount else {
            throw InputError(
                source: patchSource, location: nil,
                message: "the patch is inconsistent: it yields \(result.count) records, its header says \(patch.resultCount)")
        }
        return result
    }

    /// Every index in range and used once, and the counts adding up; errors name the line.
    static func check(_ patch: PatchScript, baseCount: Int, patchSource: String) throws {
        func fail(_ index: Int, _ message: String) -> InputError {
            let line = patch.operationLines.indices.contains(index) ? patch.operationLines[index] : 0
            return InputError(source: patchSource, location: line > 0 ? InputLocation(line: line, column: 1) : nil, message: message)
        }
        var baseUse: [Int: Int] = [:]
        var resultUse: [Int: Int] = [:]
        var count = baseCount
        func useBase(_ old: Int, _ index: Int) throws {
            guard old < baseCount else { throw fail(index, "there is no record \(old) in the base, which has \(baseCount)") }
            if let earlier = baseUse.updateValue(index, forKey: old) {
                throw fail(index, "record \(old) of the base is already used by line \(patch.operationLines[earlier])")
            }
        }
        func useResult(_ new: Int, _ index: Int) throws {
            guard new < patch.resultCount else {
                throw fail(index, "there is no record \(new) in the result, which has \(patch.resultCount)")
            }
            if let earlier = resultUse.updateValue(index, forKey: new) {
                throw fail(index, "record \(new) of the result is already placed by line \(patch.operationLines[earlier])")
            }
        }
        for (index, operation) in patch.operations.enumerated() {
            switch operation {
            case .delete(let old):
                try useBase(old, index)
                count -= 1
            case .insert(let new, _):
                try useResult(new, index)
                count += 1
            case .move(let old, let new, _):
                try useBase(old, index)
                try useResult(new, index)
            case .update(let old, _):
                try useBase(old, index)
            }
        }
        guard count == patch.resultCount else {
            throw InputError(
                source: patchSource, location: patch.resultLine > 0 ? InputLocation(line: patch.resultLine, column: 1) : nil,
                message: "the result would have \(count) records, but this line says \(patch.resultCount)")
        }
    }

    /// The result's fingerprint as `PatchScript.result` states it (the
    /// written snapshot read as the base is): a record copied as it is keeps
    /// the base's fingerprint; any other is the fingerprint of what is about
    /// to be written, as the base's format holds it (`WrittenRecordFingerprint`).
    /// A CSV record with a field the header lacks is refused here, before
    /// anything is written.
    static func fingerprint(of result: [Element], patch: PatchScript, base: Snapshot, patchSource: String) throws -> SnapshotFingerprint {
        var fingerprints: [UInt64] = []
        fingerprints.reserveCapacity(result.count)
        switch base.input.format {
        case .json, .ndjson:
            for element in result {
                switch element {
                case .base(let row): fingerprints.append(base.records.fingerprint(row))
                case .record(let json, _): fingerprints.append(WrittenRecordFingerprint.json(try value(ofRecord: json)))
                }
            }
        case .csv, .tsv:
            let baseColumns = base.records.fieldNames ?? []
            let columns = patch.columns ?? baseColumns
            let sameColumns = columns.count == baseColumns.count && zip(columns, baseColumns).allSatisfy(ExactText.same)
            for (index, element) in result.enumerated() {
                switch element {
                case .base(let row) where sameColumns:
                    fingerprints.append(base.records.fingerprint(row))
                case .base(let row):
                    fingerprints.append(WrittenRecordFingerprint.csv(cells: try cells(ofBaseRow: row, in: base, columns: columns), columns: columns))
                case .record(let json, _):
                    let cells = try cells(ofRecord: json, columns: columns, index: index, patchSource: patchSource)
                    fingerprints.append(WrittenRecordFingerprint.csv(cells: cells, columns: columns))
                }
            }
        }
        return SnapshotFingerprint(recordFingerprints: fingerprints)
    }

    /// A record of the patch (checked when the patch was parsed) as a value.
    static func value(ofRecord json: String) throws -> Value {
        try Value(json: json)
    }

    /// A base row's cells placed under `columns` (another header than the
    /// base's): each cell under its column's name, empty under a new column.
    static func cells(ofBaseRow row: Int, in base: Snapshot, columns: [String]) throws -> [String] {
        let baseColumns = base.records.fieldNames ?? []
        let cells = try CSVRecordReader.cells(of: base.input.bytes.copy(base.records.byteRange(row)), delimiter: base.delimiter)
        let byName = Dictionary(zip(baseColumns, cells), uniquingKeysWith: { first, _ in first })
        return columns.map { byName[$0] ?? "" }
    }

    /// A patch record's cells under `columns`: each member's `Value.cellText`,
    /// empty for a column it lacks. A member that is not a column is an error.
    static func cells(ofRecord json: String, columns: [String], index: Int, patchSource: String) throws -> [String] {
        guard case .object(let members) = try value(ofRecord: json) else { return columns.map { _ in "" } }
        for member in members where !columns.contains(where: { ExactText.same($0, member.name) }) {
            throw InputError(
                source: patchSource, location: nil,
                message: "record \(index) of the result has a field \"\(TerminalText.datum(member.name))\" that is not a column of the CSV output")
        }
        return columns.map { column in CSVField.cell(members.first { ExactText.same($0.name, column) }?.value) }
    }

    /// A CSV result: the base's header line and rows kept while the columns
    /// stay; under another header, every row written under it.
    static func writeCSV(
        _ result: [Element], patch: PatchScript, base: Snapshot, writer: SnapshotWriter, patchSource: String,
        output: inout some TextOutputStream
    ) throws {
        let baseColumns = base.records.fieldNames ?? []
        let columns = patch.columns ?? baseColumns
        let sameColumns = columns.count == baseColumns.count && zip(columns, baseColumns).allSatisfy(ExactText.same)
        var prefix: String?
        if !sameColumns {
            let hasByteOrderMark = try base.input.bytes.copy(0..<min(3, base.input.bytes.count)) == byteOrderMark
            prefix = (hasByteOrderMark ? "\u{FEFF}" : "") + writer.csvRow(columns) + writer.lineBreak
        }
        let quoting = writer.csvQuoting(of: columns)
        try writer.write(count: result.count, prefix: prefix, to: &output) { index in
            switch result[index] {
            case .base(let row) where sameColumns: return .kept(row)
            case .base(let row):
                return .text(writer.csvRow(try cells(ofBaseRow: row, in: base, columns: columns), quoting: quoting))
            case .record(let json, _):
                return .text(writer.csvRow(try cells(ofRecord: json, columns: columns, index: index, patchSource: patchSource), quoting: quoting))
            }
        }
    }
}
