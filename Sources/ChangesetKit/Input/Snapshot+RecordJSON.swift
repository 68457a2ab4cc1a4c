/// A deleted or inserted record's JSON text for a report, made from the
/// record's bytes in the file: what `value(ofRecord:)` then
/// `Value.writeJSON(into:)` would write, without the `Value` tree between
/// them: building and freeing that tree is most of what such a record costs
/// a report (docs/performance.md).
extension Snapshot {
    /// The record at `row` as JSON, byte for byte the text of
    /// `value(ofRecord:)` written by `Value.writeJSON(into:)`, appended to
    /// `json`. The records a report shows mostly take the quick way; the rest
    /// (escapes, quoted CSV cells, renames, flattened objects, ragged rows)
    /// are read into a `Value` and written from it, so the text is the same
    /// either way and so is any error.
    package func appendRecordJSON(ofRecord row: Int, to json: inout [UInt8]) throws {
        try input.bytes.withBytes(in: records.byteRange(row)) { bytes in
            let start = json.count
            if renames.isEmpty && !flattensObjects {
                let written = switch input.format {
                case .json, .ndjson: Snapshot.appendCompactJSON(bytes, to: &json)
                case .csv, .tsv: try appendCSVRecordJSON(bytes, to: &json)
                }
                if written { return }
                json.removeSubrange(start...)
            }
            try value(parsing: bytes).writeJSON(into: &json)
        }
    }

    /// A JSON value's text without the white space between its tokens, when
    /// its strings hold no escape: then each string's bytes are its text
    /// (the reader checked them for UTF-8 and control characters), numbers
    /// keep their spelling in a `Value`, and members keep their order and
    /// repeats, so this is the text `Value.writeJSON` writes of it. False
    /// (with `json` partly written) at the first backslash, whose escape
    /// `Value.writeJSON` may spell otherwise (`\u0041` is `A`, `\/` is `/`).
    static func appendCompactJSON(_ bytes: Span<UInt8>, to json: inout [UInt8]) -> Bool {
        var inString = false
        var runStart = 0
        for index in bytes.indices {
            let byte = bytes[index]
            if inString {
                if byte == 0x22 {
                    inString = false
                } else if byte == 0x5C {
                    return false
                }
                continue
            }
            switch byte {
            case 0x22: inString = true
            case 0x20, 0x0A, 0x0D, 0x09:
                // White space between tokens: the run before it is copied whole.
                if index > runStart { json.append(bytes.extracting(runStart..<index)) }
                runStart = index + 1
            default: break
            }
        }
        if bytes.count > runStart { json.append(bytes.extracting(runStart..<bytes.count)) }
        return !inString
    }

    /// A CSV row as the JSON object `value(parsing:)` makes of it, written
    /// from its cells' bytes: an unquoted cell of printable ASCII without a
    /// quote or backslash is its own text, a number literal as written, any
    /// other a string in quotes; other cells are made values and written as
    /// such. False for a row whose cells do not match the header (a ragged
    /// row, or an error `value(parsing:)` tells).
    private func appendCSVRecordJSON(_ bytes: Span<UInt8>, to json: inout [UInt8]) throws -> Bool {
        let cells = try CSVRecordReader.rawCells(of: bytes, delimiter: delimiter, expecting: memberNamesJSON.count)
        guard cells.count == memberNamesJSON.count else { return false }
        // Room for the names, the cells and a comma and two quotes a cell, made once.
        let namesLength = memberNamesJSON.reduce(0) { $0 + $1.count }
        json.reserveCapacity(json.count + namesLength + bytes.count + 3 * cells.count + 2)
        json.append(UInt8(ascii: "{"))
        for (index, cell) in cells.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            // A span's bytes in one copy, not `append(contentsOf:)`'s walk (see RawMemory).
            let name = memberNamesJSON[index]
            json.append(name.span)
            let raw = bytes.extracting(cell)
            guard Snapshot.isPlainCell(raw) else {
                Snapshot.cellValue(raw).writeJSON(into: &json)
                continue
            }
            if CanonicalNumber.isNumberLiteral(raw) {
                json.append(raw)
            } else {
                json.append(UInt8(ascii: "\""))
                json.append(raw)
                json.append(UInt8(ascii: "\""))
            }
        }
        json.append(UInt8(ascii: "}"))
        return true
    }

    /// Printable ASCII without a quote or a backslash: an unquoted cell whose
    /// bytes are its text and need no escape in a JSON string.
    private static func isPlainCell(_ bytes: Span<UInt8>) -> Bool {
        for index in bytes.indices {
            let byte = bytes[index]
            if byte < 0x20 || byte >= 0x7F || byte == 0x22 || byte == 0x5C { return false }
        }
        return true
    }
}
