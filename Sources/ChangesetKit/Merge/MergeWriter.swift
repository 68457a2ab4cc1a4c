/// Writes a merge's result in OURS's format: OURS's records it keeps are
/// copied byte for byte (a JSON document around the records array too),
/// the others written from their merged values. A CSV result's header is
/// OURS's, less the columns THEIRS removed, plus those THEIRS added (after
/// the column that precedes them in THEIRS); a removed column stays while a
/// record of the result still holds a value in it.
public struct MergeWriter {
    /// Git-style conflict markers around the two versions of each conflicting record.
    public struct Markers: Sendable {
        public var ours: String
        public var theirs: String
        public var size: Int

        public init(ours: String = "ours", theirs: String = "theirs", size: Int = 7) {
            self.ours = ours
            self.theirs = theirs
            self.size = max(size, 7)
        }
    }

    let merge: DatasetMerge

    public init(_ merge: DatasetMerge) {
        self.merge = merge
    }

    /// Writes the result. Unresolved conflicts need `markers`: each is
    /// written as OURS's version and THEIRS's between conflict markers.
    public func write(to output: inout some TextOutputStream, markers: Markers? = nil) throws {
        precondition(markers != nil || !merge.result.hasUnresolvedConflicts, "unresolved conflicts are written with markers")
        let ours = merge.ours
        let lineEnding = try self.lineEnding()
        switch ours.input.format {
        case .json:
            // The document around the records: OURS's, or THEIRS's when only THEIRS changed it.
            let document = merge.documentFrom == .theirs ? merge.theirs : ours
            let container = document.records.containerRange ?? 0..<0
            let records = merge.result.records
            output.write(String(decoding: try document.input.bytes.copy(0..<container.lowerBound), as: UTF8.self))
            output.write(records.isEmpty ? "[" : "[\n")
            // Records after the last one that is not a conflict take their
            // comma in front, so that choosing a side that has no record
            // there leaves no trailing comma.
            let lastCertain = records.lastIndex { if case .conflict = $0 { false } else { true } }
            for (index, record) in records.enumerated() {
                let isLast = index + 1 == records.count
                let leading = lastCertain.map { index > $0 } ?? false
                let separator = isLast || (lastCertain.map { index >= $0 } ?? false) ? "\n" : ",\n"
                try writeRecord(record, markers: markers, lineEnding: "\n", to: &output) { try (leading ? "," : "") + jsonText($0) + separator }
            }
            output.write("]")
            output.write(String(decoding: try document.input.bytes.copy(container.upperBound..<document.input.bytes.count), as: UTF8.self))
        case .ndjson:
            for record in merge.result.records {
                try writeRecord(record, markers: markers, lineEnding: lineEnding, to: &output) { try jsonText($0) + lineEnding }
            }
        case .csv, .tsv:
            let columns = try csvColumns()
            let header = columns.map { outputName(FieldPath([$0])).flatName }
            if try ours.input.bytes.copy(0..<min(3, ours.input.bytes.count)) == byteOrderMark { output.write("\u{FEFF}") }
            output.write(String(CSVField.row(header, delimiter: ours.delimiter).dropLast()) + lineEnding)
            for record in merge.result.records {
                try writeRecord(record, markers: markers, lineEnding: lineEnding, to: &output) {
                    String(try csvRow($0, columns: columns).dropLast()) + lineEnding
                }
            }
        }
        // Records were copied and read again by byte range: from the files as they were merged?
        for side in [merge.base, merge.ours, merge.theirs] { try side.input.bytes.checkUnchanged() }
    }

    /// OURS's line ending (CR LF or LF), which the result keeps.
    private func lineEnding() throws -> String {
        let bytes = try merge.ours.input.bytes.copy(0..<min(merge.ours.input.bytes.count, 1 << 16))
        guard let newline = bytes.firstIndex(of: 0x0A) else { return "\n" }
        return newline > 0 && bytes[newline - 1] == 0x0D ? "\r\n" : "\n"
    }

    /// One record's text as `text` makes it, or a conflict's two versions between markers.
    private func writeRecord(
        _ record: MergedRecord, markers: Markers?, lineEnding: String, to output: inout some TextOutputStream,
        text: (Source) throws -> String
    ) throws {
        guard case .conflict(let oursValue, let theirsValue) = record else {
            output.write(try text(Source(record)))
            return
        }
        let markers = markers!
        output.write(String(repeating: "<", count: markers.size) + " " + markers.ours + lineEnding)
        if let oursValue { output.write(try text(.value(oursValue))) }
        output.write(String(repeating: "=", count: markers.size) + lineEnding)
        if let theirsValue { output.write(try text(.value(theirsValue))) }
        output.write(String(repeating: ">", count: markers.size) + " " + markers.theirs + lineEnding)
    }

    /// Where a record's text comes from.
    private enum Source {
        case oursRow(Int)
        case theirsRow(Int)
        case value(Value)

        init(_ record: MergedRecord) {
            switch record {
            case .ours(let row): self = .oursRow(row)
            case .theirs(let row): self = .theirsRow(row)
            case .merged(let value): self = .value(value)
            case .conflict: preconditionFailure("conflicts are written by writeRecord")
            }
        }
    }

    private func value(_ source: Source) throws -> Value {
        switch source {
        case .oursRow(let row): try merge.ours.value(ofRecord: row)
        case .theirsRow(let row): try merge.theirs.value(ofRecord: row)
        case .value(let value): value
        }
    }

    /// The result names a renamed field by its new name when OURS or THEIRS does.
    private func outputName(_ path: FieldPath) -> FieldPath {
        for rename in merge.renamesInResult where rename.old == path { return rename.new }
        return path
    }

    private func renamedForOutput(_ value: Value) -> Value {
        merge.renamesInResult.reduce(value) { $0.renamingMember(at: $1.old.components, to: $1.new.components.last!) }
    }

    /// A side's records go out as they are when the result names fields as that side does.
    private func namesStand(_ side: Dataset) -> Bool {
        merge.renamesInResult.allSatisfy { side.records.fieldsFound.contains($0.new) }
    }

    private func jsonText(_ source: Source) throws -> String {
        switch source {
        case .oursRow(let row) where namesStand(merge.ours):
            return String(decoding: try merge.ours.input.bytes.copy(merge.ours.records.byteRange(row)), as: UTF8.self)
        // A record of a JSON array may span lines; an NDJSON record may not.
        case .theirsRow(let row) where namesStand(merge.theirs) && (merge.ours.input.format != .ndjson || merge.theirs.input.format == .ndjson):
            return String(decoding: try merge.theirs.input.bytes.copy(merge.theirs.records.byteRange(row)), as: UTF8.self)
        default:
            return renamedForOutput(try value(source)).jsonText
        }
    }

    private func csvRow(_ source: Source, columns: [String]) throws -> String {
        let ours = merge.ours
        if case .oursRow(let row) = source, columns == ours.records.fieldNames ?? [] {
            return String(decoding: try ours.input.bytes.copy(ours.records.byteRange(row)), as: UTF8.self) + "\n"
        }
        guard case .object(let members) = try value(source) else { return CSVField.row([], delimiter: ours.delimiter) }
        let byName = Dictionary(members.map { (ExactTextKey($0.name), $0.value) }, uniquingKeysWith: { first, _ in first })
        return CSVField.row(columns.map { CSVField.cell(byName[ExactTextKey($0)]) }, delimiter: ours.delimiter)
    }

    /// The result's columns (by the names the readers gave them).
    func csvColumns() throws -> [String] {
        let base = merge.base.records.fieldNames ?? []
        let ours = merge.ours.records.fieldNames ?? []
        let theirs = merge.theirs.records.fieldNames ?? []
        // Names match by their bytes (`ExactText`), as the readers' do.
        let baseSet = Set(base.map(ExactTextKey.init)), oursSet = Set(ours.map(ExactTextKey.init)), theirsSet = Set(theirs.map(ExactTextKey.init))
        func holds(_ set: Set<ExactTextKey>, _ name: String) -> Bool { set.contains(ExactTextKey(name)) }
        func holds(_ list: [String], _ name: String) -> Bool { list.contains { ExactText.same($0, name) } }
        func position(_ name: String, in list: [String]) -> Int? { list.firstIndex { ExactText.same($0, name) } }
        var columns = ours.filter { !(holds(baseSet, $0) && !holds(theirsSet, $0)) }
        let removed = ours.filter { holds(baseSet, $0) && !holds(theirsSet, $0) }
        var previous: String?
        for column in theirs {
            if !holds(baseSet, column) && !holds(oursSet, column) && !holds(columns, column) {
                columns.insert(column, at: previous.flatMap { position($0, in: columns) }.map { $0 + 1 } ?? 0)
            }
            previous = column
        }
        // A removed column stays while a record still holds a value in it,
        // and so does any other column a merged record holds.
        var kept = Set<ExactTextKey>()
        // Only a column THEIRS has and the result lacks can be held by THEIRS's records.
        let theirsHoldsOthers = theirs.contains { !holds(columns, $0) }
        for record in merge.result.records {
            let versions: [Source]
            switch record {
            case .ours(let row): versions = removed.isEmpty ? [] : [.oursRow(row)]
            // THEIRS's version holds a value in a column OURS removed that
            // is new when BASE's record has another there (or is absent).
            case .theirs(let row):
                guard theirsHoldsOthers else { continue }
                let theirsValue = try value(.theirsRow(row))
                guard case .object(let members) = theirsValue else { continue }
                let baseMembers: [ExactTextKey: Value]
                if let baseRow = merge.baseRow(ofTheirs: row), case .object(let old) = try merge.base.value(ofRecord: baseRow) {
                    baseMembers = Dictionary(old.map { (ExactTextKey($0.name), $0.value) }, uniquingKeysWith: { first, _ in first })
                } else {
                    baseMembers = [:]
                }
                for member in members where !member.value.isEmptyText && !holds(columns, member.name) {
                    if let old = baseMembers[ExactTextKey(member.name)], old.isEquivalent(to: member.value, mode: .text) { continue }
                    kept.insert(ExactTextKey(member.name))
                }
                continue
            case .merged(let value): versions = [.value(value)]
            case .conflict(let oursValue, let theirsValue): versions = [oursValue, theirsValue].compactMap { $0 }.map(Source.value)
            }
            for version in versions {
                guard case .object(let members) = try value(version) else { continue }
                for member in members where !member.value.isEmptyText && !holds(columns, member.name) {
                    kept.insert(ExactTextKey(member.name))
                }
            }
        }
        // Each goes after the column that precedes it in its own header.
        for header in [ours, theirs] {
            for (index, column) in header.enumerated() where holds(kept, column) && !holds(columns, column) {
                let anchor = header[..<index].last { holds(columns, $0) }
                columns.insert(column, at: anchor.flatMap { position($0, in: columns) }.map { $0 + 1 } ?? 0)
            }
        }
        return columns
    }
}
