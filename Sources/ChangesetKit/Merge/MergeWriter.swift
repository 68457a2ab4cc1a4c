/// Writes a merge's result in OURS's format: OURS's records it keeps are
/// copied byte for byte (a JSON document around the records array too, but
/// for the members the merge changed), the others written from their merged
/// values. A CSV result's header is
/// OURS's, less the columns THEIRS removed, plus those THEIRS added (after
/// the column that precedes them in THEIRS); a removed column stays while a
/// record of the result still holds a value in it.
public struct MergeWriter {
    /// Git-style conflict markers around the two versions of each conflicting record.
    public struct Markers: Sendable {
        /// The label after `<<<<<<<` (OURS's version follows).
        public var ours: String
        /// The label after `>>>>>>>` (THEIRS's version precedes it).
        public var theirs: String
        /// How many `<`, `=` and `>` a marker has (at least 7, as git writes them).
        public var size: Int

        /// Markers labelled `ours` and `theirs`, each `size` characters long (7 at least).
        public init(ours: String = "ours", theirs: String = "theirs", size: Int = 7) {
            self.ours = ours
            self.theirs = theirs
            self.size = max(size, 7)
        }
    }

    let merge: DatasetMerge

    /// A writer of `merge`'s result.
    public init(_ merge: DatasetMerge) {
        self.merge = merge
    }

    /// Writes the result. Unresolved conflicts need `markers`: each is
    /// written as OURS's version and THEIRS's between conflict markers (a
    /// member of the document around the records too, around its lines).
    /// The result is OURS's file with the merge's changes in it (THEIRS's,
    /// for a JSON document around the records that only THEIRS changed, when
    /// OURS's is BASE's byte for byte; else OURS's text with the merged
    /// members put in, as for a record): every
    /// record and every byte between records that the merge did not change
    /// is copied (`SnapshotWriter`); a record THEIRS changed is THEIRS's
    /// text, one both changed is OURS's text with THEIRS's changed members
    /// put in, in the file's style (`JSONStyle`).
    public func write(to output: inout some TextOutputStream, markers: Markers? = nil) throws {
        precondition(markers != nil || !merge.result.hasUnresolvedConflicts, "unresolved conflicts are written with markers")
        let ours = merge.ours
        let markerLines = markers.map {
            SnapshotWriter.MarkerLines(
                start: String(repeating: "<", count: $0.size) + " " + $0.ours, middle: String(repeating: "=", count: $0.size),
                end: String(repeating: ">", count: $0.size) + " " + $0.theirs)
        }
        let records = merge.result.records
        let sources = merge.result.sources
        // OURS is BASE byte for byte: the merge is THEIRS (the merge laws,
        // which the fuzz target holds it to), and so is the file, bytes and
        // all, as git's merge has it, whatever its layout: written record by
        // record into OURS's file, a file whose lines end both ways would
        // take OURS's line ends.
        if try resultIsTheirsWhole() {
            let theirs = merge.theirs.input.bytes
            try theirs.forEachPiece(in: 0..<theirs.count) { output.write($0) }
            return
        }
        switch ours.input.format {
        case .json, .ndjson:
            let documentSide = ours.input.format == .json && merge.documentFrom == .theirs ? merge.theirs : ours
            var writer = try SnapshotWriter(documentSide, alsoLearningFrom: [merge.theirs, ours, merge.base].filter { $0.input.bytes !== documentSide.input.bytes })
            // Text taken from the other file moves into the writer's indentation unit, level by level.
            let units = try IndentUnits(writer: writer, ours: ours, theirs: merge.theirs)
            if documentSide.input.bytes === ours.input.bytes, let document = merge.mergedDocument {
                writer.documentAround = try documentText(document, writer: writer, units: units, markers: markerLines)
            }
            if merge.result.hasUnresolvedConflicts {
                // Conflicts: the comma rule needs to know where the last record that is not one stands.
                let written = try records.indices.map {
                    try jsonRecord(records[$0], from: sources[$0], writer: writer, units: units, markers: markerLines)
                }
                try writer.write(written, markers: markerLines, to: &output)
            } else {
                try writer.write(count: records.count, to: &output) {
                    try jsonRecord(records[$0], from: sources[$0], writer: writer, units: units, markers: nil)
                }
            }
        case .csv, .tsv:
            let writer = try SnapshotWriter(ours, alsoLearningFrom: [merge.theirs, merge.base])
            let columns = try csvColumns()
            let oursColumns = ours.records.fieldNames ?? []
            let header = columns.map { outputName(FieldPath([$0])).flatName }
            // OURS's header line is kept when the result's header is the same names.
            var prefix: String?
            if !Self.sameNames(header, oursColumns) {
                let hasByteOrderMark = try ours.input.bytes.copy(0..<min(3, ours.input.bytes.count)) == byteOrderMark
                prefix = (hasByteOrderMark ? "\u{FEFF}" : "") + writer.csvRow(header) + writer.lineBreak
            }
            let theirsColumns = merge.theirs.records.fieldNames ?? []
            let theirsRowsStand = Self.sameNames(columns, theirsColumns) && merge.theirs.delimiter == ours.delimiter && !merge.theirs.input.format.isJSON
            let oursRowsStand = Self.sameNames(columns, oursColumns)
            let quoting = writer.csvQuoting(of: columns)
            // A THEIRS that quotes a column otherwise than OURS (no quotes where OURS
            // quotes every cell with a space) has its rows written in OURS's quoting.
            let theirsQuoting = try SnapshotWriter(merge.theirs).quotingByColumn
            let theirsQuotesAlike = theirsQuoting.allSatisfy { name, quoting in writer.quotingByColumn[name].map(quoting.agrees) ?? true }
            func row(_ record: MergedRecord) throws -> SnapshotWriter.Record {
                switch record {
                case .ours(let row) where oursRowsStand: return .kept(row)
                case .theirs(let row) where theirsRowsStand && theirsQuotesAlike:
                    // THEIRS's row as THEIRS writes it, quoting and all.
                    return .text(String(decoding: try merge.theirs.input.bytes.copy(merge.theirs.records.byteRange(row)), as: UTF8.self))
                case .conflict(let oursValue, let theirsValue):
                    return .alternatives(
                        ours: try oursValue.map { try csvRow(.value($0), columns: columns, quoting: quoting, writer: writer) },
                        theirs: try theirsValue.map { try csvRow(.value($0), columns: columns, quoting: quoting, writer: writer) })
                default:
                    return .text(try csvRow(Source(record), columns: columns, quoting: quoting, writer: writer))
                }
            }
            if merge.result.hasUnresolvedConflicts {
                try writer.write(try records.map(row), prefix: prefix, markers: markerLines, to: &output)
            } else {
                try writer.write(count: records.count, prefix: prefix, to: &output) { try row(records[$0]) }
            }
        }
        // Records were copied and read again by byte range: from the files as they were merged?
        for side in [merge.base, merge.ours, merge.theirs] { try side.input.bytes.checkUnchanged() }
    }

    /// The JSON document around the records as the merge resolved it:
    private func resultIsTheirsWhole() throws -> Bool {
        let ours = merge.ours, theirs = merge.theirs
        // (OURS's document, when there is one, is BASE's: THEIRS's is the merge's.)
        guard ours.input.format == theirs.input.format, !merge.result.hasUnresolvedConflicts, merge.mergedDocument == nil,
              merge.result.records.count == theirs.records.count
        else { return false }
        return try merge.base.input.bytes.sameBytes(as: ours.input.bytes)
    }

    /// OURS's text with the members the merge changed put in (`JSONStyle`'s
    /// splice; a member whose value THEIRS's text holds is THEIRS's text),
    /// cut where the records array stands. While conflicts are unresolved,
    /// OURS's and THEIRS's resolutions are written once, with conflict
    /// markers around the lines of each member in conflict.
    private func documentText(
        _ document: DatasetMerge.MergedDocument, writer: SnapshotWriter, units: IndentUnits, markers: SnapshotWriter.MarkerLines?
    ) throws -> (before: String, after: String) {
        let ours = merge.ours
        guard let frame = try DatasetMerge.documentFrame(ours), let recordsAt = merge.options.records.recordsAt else {
            throw InputError(source: ours.input.name, location: nil, message: "the records are not inside a JSON document")
        }
        let donors = try DatasetMerge.documentFrame(merge.theirs).map { [(units.converted($0.text, of: merge.theirs), "")] } ?? []
        let byteOrderMark = frame.hasByteOrderMark ? "\u{FEFF}" : ""
        func text(_ value: Value) throws -> (before: String, after: String) {
            let spliced = Array(writer.style.text(of: value, frame: frame.text, frameDepth: "", depth: "", donors: donors).utf8)
            guard let records = Self.place(of: recordsAt, in: spliced) else {
                throw InputError(source: ours.input.name, location: nil,
                                 message: "the merged document around the records has no \(recordsAt) to put the records in")
            }
            return (byteOrderMark + String(decoding: spliced[..<records.lowerBound], as: UTF8.self),
                    String(decoding: spliced[records.upperBound...], as: UTF8.self))
        }
        if document.ours == document.theirs { return try text(document.ours) }
        if let resolvedBy = merge.result.resolvedBy { return try text(resolvedBy == .theirs ? document.theirs : document.ours) }
        guard let markers else { preconditionFailure("unresolved conflicts are written with markers") }
        let (oursText, theirsText) = (try text(document.ours), try text(document.theirs))
        return (writer.markedText(ours: oursText.before, theirs: theirsText.before, markers: markers, startsLine: true, endsBeforeRecords: true),
                writer.markedText(ours: oursText.after, theirs: theirsText.after, markers: markers, startsLine: false, endsBeforeRecords: false))
    }

    /// Where the value at `path` (member names, each the first member of
    /// that name) stands in the JSON object `text`; nil when it is not there.
    static func place(of path: FieldPath, in text: [UInt8]) -> Range<Int>? {
        var range = 0..<text.count
        for name in path.components {
            let object = text.span.extracting(range)
            guard let members = JSONValueReader.rawMembers(ofObject: object),
                  let member = members.first(where: { member in
                      (try? JSONValueReader.name(ofRawMember: object.extracting(member.name))).map { ExactText.same($0, name) } ?? false
                  })
            else { return nil }
            range = (range.lowerBound + member.value.lowerBound)..<(range.lowerBound + member.value.upperBound)
        }
        return range
    }

    /// Two lists of column names, name by name by their bytes.
    static func sameNames(_ a: [String], _ b: [String]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy(ExactText.same)
    }

    /// One record of a JSON or NDJSON result, for `writer` (over OURS, or
    /// THEIRS when the document is THEIRS's): a record of the writer's own
    /// file is kept; any other is the other file's text, moved to the
    /// writer's indentation, or written from its value in the writer's
    /// style around a version's text (`JSONStyle.text(of:frame:...)`).
    private func jsonRecord(
        _ record: MergedRecord, from source: RecordSources, writer: SnapshotWriter, units: IndentUnits, markers: SnapshotWriter.MarkerLines?
    ) throws -> SnapshotWriter.Record {
        let style = writer.style
        // The record stands where the writer's file has a version of it (at that one's
        // indentation), or where a new record goes.
        // Found only for a record written as text (most are kept as they are).
        var foundDepth: String?
        func depth() throws -> String {
            if let foundDepth { return foundDepth }
            let depth: String
            if writer.snapshot.input.bytes === merge.ours.input.bytes, let row = source.ours {
                depth = try writer.depth(ofRow: row)
            } else if writer.snapshot.input.bytes === merge.theirs.input.bytes, let row = source.theirs {
                depth = try writer.depth(ofRow: row)
            } else {
                depth = writer.recordDepth
            }
            foundDepth = depth
            return depth
        }
        /// A side's text of its record at `row`, with the indentation its lines have; nil when it cannot stand in the writer's file.
        func version(_ side: Snapshot, _ row: Int?) throws -> ([UInt8], String)? {
            guard let row else { return nil }
            let text = try side.input.bytes.copy(side.records.byteRange(row))
            // An NDJSON record is one line.
            if writer.snapshot.input.format == .ndjson && (text.contains(0x0A) || text.contains(0x0D)) { return nil }
            let depth = try SnapshotWriter.depth(ofRow: row, in: side, text: text)
            return (units.converted(text, of: side), units.converted(depth, of: side, wholeLine: true))
        }
        func written(_ value: Value, frame: ([UInt8], String)?, donor: ([UInt8], String)?) throws -> String {
            let depth = try depth()
            return style.text(of: renamedForOutput(value), frame: frame?.0, frameDepth: frame?.1 ?? depth, depth: depth, donors: donor.map { [$0] } ?? [])
        }
        func kept(_ side: Snapshot, _ row: Int) throws -> SnapshotWriter.Record {
            if namesStand(side) {
                if side.input.bytes === writer.snapshot.input.bytes { return .kept(row) }
                if let (text, textDepth) = try version(side, row) {
                    return .text(JSONStyle.reindented(String(decoding: text, as: UTF8.self), from: textDepth, to: try depth()))
                }
            }
            return .text(try written(try side.value(ofRecord: row), frame: try version(side, row), donor: nil))
        }
        switch record {
        case .ours(let row): return try kept(merge.ours, row)
        case .theirs(let row): return try kept(merge.theirs, row)
        case .merged(let value):
            return .text(try written(value, frame: try version(merge.ours, source.ours), donor: try version(merge.theirs, source.theirs)))
        case .conflict(let oursValue, let theirsValue):
            let oursVersion = try version(merge.ours, source.ours), theirsVersion = try version(merge.theirs, source.theirs)
            let oursText = try oursValue.map { try written($0, frame: oursVersion ?? theirsVersion, donor: theirsVersion) }
            let theirsText = try theirsValue.map { try written($0, frame: theirsVersion ?? oursVersion, donor: oursVersion) }
            // Both sides have the record: markers around the lines in conflict only, when it spans lines.
            if let oursText, let theirsText, let markers, let marked = writer.markedRecord(ours: oursText, theirs: theirsText, markers: markers) {
                return .text(marked)
            }
            return .alternatives(ours: oursText, theirs: theirsText)
        }
    }

    /// The indentation unit of each side's own file and of the file written:
    /// a side's text moved into the written file has its lines re-indented
    /// from its unit to the writer's (tabs to four spaces, two spaces to
    /// four...) at every depth, not only moved by the depth it stands at.
    struct IndentUnits {
        let writerFile: InputBytes
        let writerUnit: String?
        let oursUnit: String?
        let theirsUnit: String?
        let ours: InputBytes

        init(writer: SnapshotWriter, ours: Snapshot, theirs: Snapshot) throws {
            writerFile = writer.snapshot.input.bytes
            writerUnit = writer.style.indent
            self.ours = ours.input.bytes
            oursUnit = try SnapshotWriter.ownStyle(of: ours).indent
            theirsUnit = try SnapshotWriter.ownStyle(of: theirs).indent
        }

        /// `text` of `side` in the writer's unit (unchanged when it is the writer's file, or either unit is unknown).
        func converted(_ text: [UInt8], of side: Snapshot) -> [UInt8] {
            guard let (from, to) = units(of: side) else { return text }
            return Array(JSONStyle.converted(String(decoding: text, as: UTF8.self), fromUnit: from, toUnit: to).utf8)
        }

        func converted(_ text: String, of side: Snapshot, wholeLine: Bool) -> String {
            guard let (from, to) = units(of: side) else { return text }
            return JSONStyle.converted(text, fromUnit: from, toUnit: to, wholeLine: wholeLine)
        }

        private func units(of side: Snapshot) -> (String, String)? {
            guard side.input.bytes !== writerFile, let writerUnit,
                  let unit = side.input.bytes === ours ? oursUnit : theirsUnit, unit != writerUnit else { return nil }
            return (unit, writerUnit)
        }
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
            case .conflict: preconditionFailure("a conflict is two versions, each written from its value")
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
    private func namesStand(_ side: Snapshot) -> Bool {
        merge.renamesInResult.allSatisfy { side.records.fieldsFound.contains($0.new) }
    }

    /// A record as a row of the result (without its line break), in OURS's quoting.
    private func csvRow(_ source: Source, columns: [String], quoting: [CSVQuoting], writer: SnapshotWriter) throws -> String {
        guard case .object(let members) = try value(source) else { return writer.csvRow([]) }
        let byName = Dictionary(members.map { (ExactTextKey($0.name), $0.value) }, uniquingKeysWith: { first, _ in first })
        var cells = columns.map { CSVField.cell(byName[ExactTextKey($0)]) }
        // Cells past the header (`--csv-rows lenient`) go back to their column.
        for member in members where !columns.contains(where: { ExactText.same($0, member.name) }) {
            if let column = RecordOptions.positionalColumn(ofFieldName: member.name, header: columns) {
                while cells.count < column { cells.append("") }
                cells[column - 1] = CSVField.cell(member.value)
            } else if case let digits = member.name.drop(while: { $0 == "#" }), digits.count < member.name.count, !digits.isEmpty,
                      digits.allSatisfy({ ("0"..."9").contains($0) }), !member.value.isEmptyText {
                // Its column number was counted past another header: written elsewhere, it would change meaning.
                throw InputError(
                    source: merge.ours.input.name, location: nil,
                    message: "a merged record holds \"\(TerminalText.datum(member.name))\", a cell past the header of a ragged row, but the result's header has \(columns.count) columns, so the cell has no column to keep it in; merge with the columns unchanged, or fix the row")
            }
        }
        return writer.csvRow(cells, quoting: quoting)
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
        // A column THEIRS added goes after the nearest column before it in THEIRS that the result has.
        var previous: String?
        for column in theirs {
            if !holds(baseSet, column) && !holds(oursSet, column) && !holds(columns, column) {
                columns.insert(column, at: previous.flatMap { position($0, in: columns) }.map { $0 + 1 } ?? 0)
            }
            if holds(columns, column) { previous = column }
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
