/// A snapshot: an input and the records read from it, which it reads
/// again by byte range (whole, or only the members that differ).
package struct Snapshot: Sendable {
    package let input: InputFile
    package private(set) var records: RecordTable
    package let delimiter: UInt8
    /// `--rename` pairs this side's reader applied (the new side's): a record
    /// read again gets the same names the fingerprints saw.
    package var renames: [Rename] = []
    /// A JSON side compared with a CSV one: nested objects are read again as
    /// dotted names (`{"meta":{"key":1}}` as `{"meta.key":1}`), the CSV
    /// side's column names for the same fields.
    package var flattensObjects = false
    /// How many records the input holds: `records.count`, but for a
    /// comparison in partitions, whose table holds only the records it shows.
    package let recordCount: Int
    /// Each column's name as a JSON member name, `"name":`, written once for
    /// the rows a report writes as JSON (`appendRecordJSON`): written again
    /// for every row, they took a third of that.
    let memberNamesJSON: [[UInt8]]

    package init(input: InputFile, records: RecordTable, delimiter: UInt8, renames: [Rename] = [], flattensObjects: Bool = false,
                 recordCount: Int? = nil) {
        self.input = input
        self.recordCount = recordCount ?? records.count
        self.records = records
        self.delimiter = delimiter
        self.renames = renames
        self.flattensObjects = flattensObjects
        memberNamesJSON = (records.fieldNames ?? []).map { name in
            var json: [UInt8] = []
            Value.writeJSONString(name, into: &json)
            json.append(UInt8(ascii: ":"))
            return json
        }
    }

    /// Frees the key index's hash table (see `KeyIndex.removeLookups`).
    package mutating func removeKeyLookups() {
        records.keyIndex.removeLookups()
    }

    /// Frees the section of each record (`RecordTable.sections`), once a
    /// comparison has grouped the records by it: 4 bytes a record.
    package mutating func removeSectionColumn() {
        records.sections = []
    }

    /// The error a reader that indexes ids as it reads gives for this
    /// input's first repeated id (read again; `options` as it was read with).
    package func repeatedIDError(_ options: RecordOptions) -> Error {
        do {
            _ = try input.readWhole(options, delimiter: delimiter, indexesKeys: true)
            return InputFile.changed(input.name)  // the records matched had an id twice; read again, they do not
        } catch {
            return error
        }
    }

    /// The full record at `row`, read again from its byte range. CSV rows
    /// become objects keyed by column; a cell that is a number literal is a
    /// number (its text unchanged), any other cell a string.
    package func value(ofRecord row: Int) throws -> Value {
        try input.bytes.withBytes(in: records.byteRange(row)) { try value(parsing: $0) }
    }

    /// A hash of how the record at `row` is spelled: its bytes, less (in
    /// JSON) the whitespace between tokens. Records equal in value differ
    /// here when a number, an escape, key order or quoting was written
    /// otherwise (`2.50` -> `2.5`): a merge carries such a change from the
    /// side that made it, as git's text merge does, while layout alone
    /// (indentation, line breaks) is not a change to carry.
    package func spelling(ofRecord row: Int) throws -> UInt64 {
        var scratch: [UInt8] = []
        return try spelling(ofRecord: row, scratch: &scratch)
    }

    /// Every record's spelling, in order, with one scratch buffer for them all.
    package func spellings() throws -> [UInt64] {
        var scratch: [UInt8] = []
        return try (0..<records.count).map { try spelling(ofRecord: $0, scratch: &scratch) }
    }

    private func spelling(ofRecord row: Int, scratch tokens: inout [UInt8]) throws -> UInt64 {
        try input.bytes.withBytes(in: records.byteRange(row)) { bytes in
            guard input.format.isJSON else { return StableHash.bytes(bytes, seed: Snapshot.spellingSeed) }
            tokens.removeAll(keepingCapacity: true)
            tokens.reserveCapacity(bytes.count)
            var inString = false, escaped = false
            for index in bytes.indices {
                let byte = bytes[index]
                if inString {
                    if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                } else if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                    continue
                } else if byte == UInt8(ascii: "\"") {
                    inString = true
                }
                tokens.append(byte)
            }
            return StableHash.bytes(tokens.span, seed: Snapshot.spellingSeed)
        }
    }

    private static var spellingSeed: UInt64 { 0x7370_656C_6C }

    /// Reads each input on a thread of its own, as `read` says; the first
    /// error in argument order wins.
    static func read(_ inputs: [InputFile], _ read: @Sendable (Int, InputFile) throws -> Snapshot) throws -> [Snapshot] {
        try OrderedConcurrentMap.mapEachOnItsOwnThread(Array(inputs.enumerated())) { try read($0.offset, $0.element) }
    }

    /// A record from its bytes (see `value(ofRecord:)`).
    func value(parsing bytes: Span<UInt8>) throws -> Value {
        switch input.format {
        case .json, .ndjson:
            var value = try JSONValueReader.readRecord(bytes)
            if !renames.isEmpty { value = renames.reduce(value) { $0.renamingMember(at: $1.new.components, to: $1.old.components.last!) } }
            return flattensObjects ? value.flattened() : value
        case .csv, .tsv:
            let names = records.fieldNames ?? []
            let cells = try CSVRecordReader.rawCells(of: bytes, delimiter: delimiter, expecting: names.count)
            guard cells.count == names.count || records.raggedRows else {
                throw JSONValueReader.Failure(description: "a record could not be read again (did the file change while changeset ran?)")
            }
            // A lenient short row lacks the last fields (absent, as an empty
            // cell is); a long one holds fields named by their column.
            var members = zip(names, cells).map { name, cell in
                Value.Member(name: name, value: Snapshot.cellValue(bytes.extracting(cell)))
            }
            for column in cells.indices.dropFirst(names.count) {
                members.append(Value.Member(
                    name: RecordOptions.positionalFieldName(column: column + 1, header: names),
                    value: Snapshot.cellValue(bytes.extracting(cells[column]))))
            }
            return .object(members)
        }
    }

    /// A CSV cell read again, from its bytes in the row (quotes and all): a
    /// number literal is a number (its text unchanged), any other cell a string.
    static func cellValue(_ rawCell: Span<UInt8>) -> Value {
        guard !rawCell.isEmpty, rawCell[0] == 0x22 else {
            // Unquoted: the bytes are the text, checked before any String is made.
            let text = rawCell.decoded
            return CanonicalNumber.isNumberLiteral(rawCell) ? .number(text) : .string(text)
        }
        let text = CSVRecordReader.text(ofRawCell: rawCell)
        return CanonicalNumber.isNumberLiteral(text) ? .number(text) : .string(text)
    }
}
