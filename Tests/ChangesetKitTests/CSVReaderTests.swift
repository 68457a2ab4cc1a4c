import Foundation
import Testing
@testable import ChangesetKit

@Suite struct CSVReaderTests {
    let byID = RecordOptions(id: [FieldPath(["id"])], mode: .text)

    @Test func quotedFieldsHoldDelimitersQuotesAndLineBreaks() throws {
        let text = "id,name,note\n1,\"a, b\",\"say \"\"hi\"\"\"\n2,\"two\nlines\",x\n3,plain,\n"
        let table = try #require(read(text, format: .csv, options: byID).table)
        #expect(table.keys == ["1", "2", "3"])
        #expect(table.lines == [2, 3, 5])
        let bytes = Array(text.utf8)
        let row = try bytes.withSpan { try CSVRecordReader.cells(of: $0.extracting(table.ranges[0]), delimiter: 0x2C) }
        #expect(row == ["1", "a, b", "say \"hi\""])
        let second = try bytes.withSpan { try CSVRecordReader.cells(of: $0.extracting(table.ranges[1]), delimiter: 0x2C) }
        #expect(second == ["2", "two\nlines", "x"])
    }

    @Test func lineEndingsAreLFOrCRLFOrCR() throws {
        let lf = try #require(read("id,a\n1,x\n2,y\n", format: .csv, options: byID).table)
        let crlf = try #require(read("id,a\r\n1,x\r\n2,y\r\n", format: .csv, options: byID).table)
        let cr = try #require(read("id,a\r1,x\r2,y", format: .csv, options: byID).table)
        #expect(lf.keys == ["1", "2"] && crlf.keys == lf.keys && cr.keys == lf.keys)
        #expect(lf.fingerprints == crlf.fingerprints && cr.fingerprints == lf.fingerprints)
        #expect(crlf.lines == [2, 3] && cr.lines == [2, 3])
        // The row's byte range stops before its line break.
        #expect(crlf.ranges == [6..<9, 11..<14])
    }

    @Test func byteOrderMarkIsStripped() throws {
        let plain = try #require(read("id,a\n1,x\n", format: .csv, options: byID).table)
        let marked = try #require(read(byteOrderMark + Array("id,a\n1,x\n".utf8), format: .csv, options: byID).table)
        #expect(marked.keys == plain.keys && marked.fingerprints == plain.fingerprints)
    }

    @Test func headerOnlyHoldsZeroRecords() throws {
        #expect(try #require(read("id,a\n", format: .csv, options: byID).table).keys.isEmpty)
        #expect(try #require(read("id,a", format: .csv, options: byID).table).keys.isEmpty)
    }

    @Test func blankLinesAreSkippedAndTheLastLineBreakIsOptional() throws {
        let table = try #require(read("\nid,a\n\n1,x\n\r\n2,y", format: .csv, options: byID).table)
        #expect(table.keys == ["1", "2"])
        #expect(table.lines == [4, 6])
    }

    @Test func quotedEmptyFieldIsARowNotABlankLine() throws {
        let table = try #require(read("id\n\"\"\n", format: .csv, options: RecordOptions(mode: .text)).table)
        #expect(table.fingerprints.count == 1)
    }

    @Test func tsvAndOtherDelimiters() throws {
        let tsv = try #require(read("id\tname\n1\ta,b\n", format: .tsv, options: byID).table)
        let csv = try #require(read("id,name\n1,\"a,b\"\n", format: .csv, options: byID).table)
        #expect(tsv.fingerprints == csv.fingerprints)
        let reader = CSVRecordReader(source: "semi", delimiter: UInt8(ascii: ";"), options: byID)
        try Array("id;name\n1;\"a,b\"\n".utf8).withSpan { try reader.feed($0) }
        #expect(try reader.finish().fingerprints == csv.fingerprints)
    }

    @Test func aQuoteInsideAnUnquotedFieldIsLiteral() throws {
        let table = try #require(read("id,a\n1,5\" disk\n", format: .csv, options: byID).table)
        #expect(table.keys == ["1"])
    }

    @Test func columnsMatchDottedPaths() throws {
        let options = RecordOptions(id: [FieldPath(["meta", "key"])], mode: .text)
        #expect(try #require(read("meta.key,a\nk1,x\n", format: .csv, options: options).table).keys == ["k1"])
    }

    @Test func missingSectionColumnIsAnError() {
        var options = byID
        options.section = FieldPath(["cat"])
        #expect(read("id,a\n1,x\n", format: .csv, options: options).failureMessage
            == "test:1:1: no \"cat\" column for RecordOptions.section; the columns are: id, a")
    }

    @Test func errorsNameTheLineWhereTheQuoteOpened() {
        #expect(read("id,a\n1,\"x\n\n\n", format: .csv, options: byID).failureMessage
            == "test:2:3: unclosed quote: the quoted field that starts here never ends")
    }

    @Test func raggedRowAfterAMultiLineField() {
        #expect(read("id,a\n1,\"x\ny\",z\n", format: .csv, options: byID).failureMessage
            == "test:3:4: this row has 3 fields but the header has 2 (RecordOptions.csvRows .lenient reads such rows: a missing cell as empty, an extra one as a field named by its column number, such as #3)")
    }
}

@Suite struct ScratchBufferTests {
    /// Single values and runs, past several doublings, then emptied and filled again.
    @Test func holdsWhatWasAppendedThroughGrowth() {
        var buffer = ScratchBuffer<UInt8>(capacity: 1)
        var expected: [UInt8] = []
        for round in 0..<2 {
            for value in 0..<300 {
                let byte = UInt8(truncatingIfNeeded: value &* 7 &+ round)
                if value % 3 == 0 {
                    let run = [byte, byte &+ 1, byte &+ 2]
                    run.withUnsafeBufferPointer { buffer.append($0.baseAddress!, count: $0.count) }
                    expected += run
                } else {
                    buffer.append(byte)
                    expected.append(byte)
                }
            }
            #expect(Array(buffer.bytes) == expected && buffer.count == expected.count)
            #expect(buffer.indices.allSatisfy { buffer[$0] == expected[$0] })
            buffer.removeAll()
            expected.removeAll()
            #expect(buffer.isEmpty && buffer.bytes.isEmpty)
        }
    }
}

/// Rows that lie whole in a chunk without quotes are read where they lie
/// (`readPlainRow`); anything else falls back to the state machine. Chunks of
/// one byte never hold a whole row, so `read`, which checks that every
/// chunking agrees, compares the two paths on each input here.
@Suite struct CSVPlainRowTests {
    let byID = RecordOptions(id: [FieldPath(["id"])], mode: .text)

    @Test func plainRowsAgreeWithTheStateMachine() throws {
        // CRLF, a lone CR, blank lines, non-ASCII, a quote inside a field, a
        // quoted field among plain rows, empty cells, a missing last line break.
        let text = "id,name,note\r\n1,Zoë,\r\n2,\"x, y\",q\r3,5\" pipe,\n\n4,日本,z\n\r\n5,,\n6,a,b"
        let table = try #require(read(text, format: .csv, options: byID).table)
        #expect(table.keys == ["1", "2", "3", "4", "5", "6"])
        #expect(table.lines == [2, 3, 4, 6, 8, 9])
        let bytes = Array(text.utf8)
        let rows = try table.ranges.map { range in
            try bytes.withSpan { try CSVRecordReader.cells(of: $0.extracting(range), delimiter: 0x2C) }
        }
        #expect(rows == [["1", "Zoë", ""], ["2", "x, y", "q"], ["3", "5\" pipe", ""], ["4", "日本", "z"], ["5", "", ""], ["6", "a", "b"]])
        // The same rows, all plain, give the same fingerprints as the mixed file.
        let plain = "id,name,note\n1,Zoë,\n4,日本,z\n5,,\n6,a,b\n"
        let plainTable = try #require(read(plain, format: .csv, options: byID).table)
        #expect(plainTable.fingerprints == [0, 3, 4, 5].map { table.fingerprints[$0] })
    }

    /// The plain-row path skips eight bytes at a time: delimiters, quotes,
    /// line breaks and bytes past ASCII are found at every place in a word.
    @Test func specialBytesAreFoundAtEveryPlaceInAWord() throws {
        var text = "id,a,b\r\n"
        var expected: [[String]] = []
        for n in 0..<20 {
            let row = ["\(n)", String(repeating: "x", count: n), String(repeating: "é", count: n % 5) + "y" + String(repeating: "z", count: n)]
            expected.append(row)
            text += row.joined(separator: ",") + (n % 2 == 0 ? "\n" : "\r\n")
        }
        for n in 0..<10 {
            let row = ["q\(n)", String(repeating: "x", count: n + 1) + "\"q", "b"]  // a quote inside, not first
            expected.append(row)
            text += row.joined(separator: ",") + "\n"
        }
        let table = try #require(read(text, format: .csv, options: byID).table)
        let bytes = Array(text.utf8)
        let rows = try table.ranges.map { range in
            try bytes.withSpan { try CSVRecordReader.cells(of: $0.extracting(range), delimiter: 0x2C) }
        }
        #expect(rows == expected)
        #expect(table.lines == Array(2...31))
    }

    /// The plain-row scan tests eight bytes at once, all the delimiters of a
    /// word in one step, and hashes a cell's last word with one load that
    /// runs past the cell: a delimiter, a quote, a control byte, a byte past
    /// ASCII and a line break (LF, CRLF, lone CR) at each offset 0...70 of a
    /// line, in cells of every length 0...71, read as the simple paths read
    /// them: the state machine (`read` compares chunks of 1, 7 and 65536
    /// bytes), `cells(of:)` reading the row again, and the fingerprint of
    /// the cells as values (`WrittenRecordFingerprint.csv`).
    @Test(arguments: [InputFormat.csv, .tsv])
    func specialBytesAtEveryOffsetOfALongLineReadAsTheSimplePaths(format: InputFormat) throws {
        let delimiter = format == .tsv ? "\t" : ","
        let control = format == .tsv ? "\u{0B}" : "\t"  // plain, and below 0x0E like the line breaks
        let columns = ["a", "b", "c", "id"]
        var text = columns.joined(separator: delimiter) + "\n"
        var expected: [[String]] = []
        func add(_ cells: [String], written: [String]? = nil, lineBreak: String = "\n") {
            expected.append(cells)
            text += (written ?? cells).joined(separator: delimiter) + lineBreak
        }
        for offset in 0...70 {
            let x = String(repeating: "x", count: offset), y = String(repeating: "y", count: 70 - offset)
            add([x, y, "", "d\(offset)"])  // the delimiter at `offset`, then an empty cell
            add([x + control + y, "", "z", "t\(offset)"])
            add([x + "é" + y, "b", "", "u\(offset)"])
            add([x + (format == .tsv ? "," : ";") + y + y, "", "", "v\(offset)"])  // a cell past 64 bytes
            if offset > 0 {
                add([x + "\"" + y, "b", "c", "q\(offset)"])  // a quote inside an unquoted cell is plain
            } else {
                add(["q\(delimiter)\"\ny", "b", "c", "q0"], written: ["\"q\(delimiter)\"\"\ny\"", "b", "c", "q0"])
            }
            let id = "e\(offset)"
            if offset >= 3 + id.utf8.count {  // the line break at `offset`
                add(["", "", String(repeating: "w", count: offset - 3 - id.utf8.count), id], lineBreak: ["\n", "\r\n", "\r"][offset % 3])
            }
        }
        add(["last", "", "", "end"], lineBreak: "")
        let options = RecordOptions(id: [FieldPath(["id"])], mode: .cellText)
        let table = try #require(read(text, format: format, options: options).table)
        #expect(table.keys == expected.map { $0[3] })
        let bytes = Array(text.utf8)
        let rows = try table.ranges.map { range in
            try bytes.withSpan { try CSVRecordReader.cells(of: $0.extracting(range), delimiter: format == .tsv ? 0x09 : 0x2C) }
        }
        #expect(rows == expected)
        #expect(table.fingerprints == expected.map { WrittenRecordFingerprint.csv(cells: $0, columns: columns) })
    }

    /// A row read again (`cells(of:)`, for reports and patches) gives the
    /// cells the reader saw: quotes undone, "" a quote, empty cells kept.
    @Test func rowsReadAgainGiveTheirCells() throws {
        let cases: [(String, [String])] = [
            ("", [""]), (",", ["", ""]), ("a,", ["a", ""]), (",b", ["", "b"]),
            (#""""#, [""]), (#""""""""#, [#""""#]), (#""a""b",c"#, [#"a"b"#, "c"]),
            (#""""a""",x"#, [#""a""#, "x"]), (#"a"b,"c,d""#, [#"a"b"#, "c,d"]), ("\"x\ny\",é", ["x\ny", "é"]),
        ]
        for (row, cells) in cases {
            #expect(try Array(row.utf8).withSpan { try CSVRecordReader.cells(of: $0, delimiter: 0x2C) } == cells, "\(row)")
        }
        #expect(throws: (any Error).self) { try Array(#""open"#.utf8).withSpan { try CSVRecordReader.cells(of: $0, delimiter: 0x2C) } }
    }

    /// Whatever the delimiter (the command takes any ASCII character, even a
    /// quote or a line break), every chunking reads a file the same way.
    /// Regression: with `"` as the delimiter, a row `"x` was two cells in one
    /// chunk (the plain-row path took the quote for the delimiter) and an
    /// unclosed quote in chunks of one byte; such delimiters now keep to the
    /// state machine.
    @Test(arguments: [UInt8(ascii: "\""), 0x0A, 0x0D, UInt8(ascii: "a"), 0x20])
    func oddDelimitersReadTheSameInEveryChunking(delimiter: UInt8) {
        for text in ["id,a\"b\nx\"y\r\n1,2\"3\n\"q\"\"r\",s\n4 5,a6\n", "a\"b\n\"x\n", "a\"b\nx\"\"\n"].map({ Array($0.utf8) }) {
            #expect(outcome(text, chunkSize: 1) == outcome(text, chunkSize: 4096))
            #expect(outcome(text, chunkSize: 3) == outcome(text, chunkSize: 4096))
        }
        func outcome(_ text: [UInt8], chunkSize: Int) -> ReadOutcome {
            let reader = CSVRecordReader(source: "test", delimiter: delimiter, options: RecordOptions(mode: .text))
            do {
                for start in stride(from: 0, to: text.count, by: chunkSize) {
                    try text[start..<min(start + chunkSize, text.count)].withSpan { try reader.feed($0) }
                }
                return ReadOutcome(try reader.finish())
            } catch {
                return .failure("\(error)")
            }
        }
    }

    /// Errors in rows that would otherwise be plain are placed as the state machine places them.
    @Test func errorsInPlainRowsKeepTheirPlaces() {
        func failure(_ text: [UInt8]) -> String? { read(text, format: .csv, options: byID).failureMessage }
        let header = Array("id,a\n1,x\n".utf8)
        #expect(failure(header + Array("2,y,z\n".utf8)) == "test:3:5: this row has 3 fields but the header has 2 (RecordOptions.csvRows .lenient reads such rows: a missing cell as empty, an extra one as a field named by its column number, such as #3)")
        #expect(failure(header + Array("2\n".utf8)) == "test:3:2: this row has 1 fields but the header has 2 (RecordOptions.csvRows .lenient reads such rows: a missing cell as empty, an extra one as a field named by its column number, such as #3)")
        #expect(failure(header + [0x32, 0x2C, 0x61, 0xC3, 0x28, 0x0A]) == "test:3:4: invalid UTF-8 (a bad byte sequence starting with byte 0xC3)")
        #expect(failure(header + [0x32, 0x2C, 0xE6, 0x97, 0x0A]) == "test:3:3: invalid UTF-8 (a bad byte sequence starting with byte 0xE6)")
        for run in 0..<10 {  // a bad byte at every place in a word
            let row = Array("2,".utf8) + Array(repeating: UInt8(ascii: "x"), count: run) + [0xFF] + Array("yyyyyyyyy\n".utf8)
            #expect(failure(header + row) == "test:3:\(3 + run): invalid UTF-8 (a bad byte sequence starting with byte 0xFF)")
        }
        #expect(failure(header + Array(",y\n".utf8)) == "test:3:1: the id field \"id\" is empty")
        #expect(failure(header + Array("1,y\n".utf8)) == "test:3:1: duplicate id \"1\": the record at line 2 has it too; it is the only repeated id. An RecordOptions.id that is unique (several fields: RecordOptions.id [\"a\", \"b\"]) or RecordOptions.duplicates .occurrence (the k-th copy matches the k-th) compares them")
    }
}

/// Rows with fewer or more cells than the header (issue 34: real files have
/// them): an error at the row that names `RecordOptions.csvRows` `.lenient`, or, with it,
/// missing cells read as empty and extra ones as fields named by their
/// column. `read` feeds every input in chunks of 1, 7 and 65536 bytes and
/// checks they agree, so each row here goes through the state machine and
/// (where it lies whole in a chunk) the plain-row path.
@Suite struct CSVRaggedRowTests {
    let strict = RecordOptions(id: [FieldPath(["id"])], mode: .cellText)
    var lenient: RecordOptions {
        var options = strict
        options.csvRows = .lenient
        return options
    }

    @Test func raggedRowErrorKeepsItsPlaceAndNamesTheLenientOption() {
        let hint = " (RecordOptions.csvRows .lenient reads such rows: a missing cell as empty, an extra one as a field named by its column number, such as #3)"
        #expect(read("id,a\n1,x\n2,y,z\n", format: .csv, options: strict).failureMessage
            == "test:3:5: this row has 3 fields but the header has 2" + hint)
        #expect(read("id,a\n1,x\n2\n", format: .csv, options: strict).failureMessage
            == "test:3:2: this row has 1 fields but the header has 2" + hint)
        #expect(read("id,a\n1,\"x\ny\",z\n", format: .csv, options: strict).failureMessage
            == "test:3:4: this row has 3 fields but the header has 2" + hint)
    }

    @Test func shortRowsReadTheirMissingCellsAsEmpty() throws {
        // Short rows plain, quoted, at the end without a line break, with CRLF.
        let text = "id,name,region,area\n1,Aruba\n2,\"Chad\",Africa\r\n3,Peru,Americas,1285216\n4,Fiji,,"
        let table = try #require(read(text, format: .csv, options: lenient).table)
        #expect(table.keys == ["1", "2", "3", "4"])
        #expect(table.lines == [2, 3, 4, 5])
        #expect(table.schema == ["id", "name", "region", "area"])
        #expect(table.schemaValueCounts == [4, 4, 2, 1])
        // The same records written out in full read the same.
        let full = "id,name,region,area\n1,Aruba,,\n2,\"Chad\",Africa,\r\n3,Peru,Americas,1285216\n4,Fiji,,"
        let fullTable = try #require(read(full, format: .csv, options: strict).table)
        #expect(table.fingerprints == fullTable.fingerprints)
    }

    @Test func longRowsHoldTheirExtraCellsAsFieldsNamedByColumn() throws {
        let text = "id,name\n1,MMM,\"Saint Paul\",x\n2,AOS\n3,ABT,,y\n4,ABBV,\n"
        let table = try #require(read(text, format: .csv, options: lenient).table)
        #expect(table.keys == ["1", "2", "3", "4"])
        #expect(table.lines == [2, 3, 4, 5])
        #expect(table.schema == ["id", "name", "#3", "#4"])
        #expect(table.schemaValueCounts == [4, 4, 1, 2])
        // An extra cell is compared like a column: a value changes the record,
        // an empty one (row 4) does not.
        let plain = try #require(read("id,name\n1,MMM\n2,AOS\n3,ABT\n4,ABBV\n", format: .csv, options: lenient).table)
        #expect(table.fingerprints[0] != plain.fingerprints[0])
        #expect(table.fingerprints[1] == plain.fingerprints[1])
        #expect(table.fingerprints[2] != plain.fingerprints[2])
        #expect(table.fingerprints[3] == plain.fingerprints[3])
        // An extra cell is the same field as a header column of that name.
        let widened = try #require(read("id,name,#3,#4\n1,MMM,Saint Paul,x\n", format: .csv, options: strict).table)
        let shortHeader = try #require(read("id,name,#3\n1,MMM,Saint Paul,x\n", format: .csv, options: lenient).table)
        #expect(widened.fingerprints[0] == table.fingerprints[0])
        #expect(shortHeader.fingerprints[0] == table.fingerprints[0])
    }

    /// A header that has the name `#3` keeps it, and a third cell past a
    /// header of two is `##3`: no extra cell is read as a column it is not in.
    @Test func positionalNamesNeverTakeAHeaderName() throws {
        #expect(RecordOptions.positionalFieldName(column: 3, header: ["id", "name"]) == "#3")
        #expect(RecordOptions.positionalFieldName(column: 3, header: ["#3", "x"]) == "##3")
        #expect(RecordOptions.positionalFieldName(column: 3, header: ["#3", "##3"]) == "###3")
        #expect(RecordOptions.positionalColumn(ofFieldName: "##3", header: ["#3", "x"]) == 3)
        #expect(RecordOptions.positionalColumn(ofFieldName: "#3", header: ["#3", "x"]) == nil)
        #expect(RecordOptions.positionalColumn(ofFieldName: "#2", header: ["id", "x"]) == nil)
        #expect(RecordOptions.positionalColumn(ofFieldName: "#03", header: ["id", "x"]) == nil)
        let table = try #require(read("id,#3\n1,a,b\n", format: .csv, options: lenient).table)
        #expect(table.schema == ["id", "#3", "##3"])
        #expect(table.schemaValueCounts == [1, 1, 1])
    }

    /// Ragged rows read again (for a report or a merge) give the fields the reader saw.
    @Test func raggedRowsReadAgainAsTheReaderSawThem() throws {
        let text = "id,#3\n1\n2,b,\"c, d\",\n3,x\n"
        let input = InputFile(name: "test", bytes: InputBytes(copying: Array(text.utf8)), format: .csv)
        let records = try input.readWhole(lenient, delimiter: 0x2C, indexesKeys: true)
        let snapshot = Snapshot(input: input, records: records, delimiter: 0x2C)
        #expect(try snapshot.value(ofRecord: 0) == .object([Value.Member(name: "id", value: .number("1"))]))
        #expect(try snapshot.value(ofRecord: 1) == .object([
            Value.Member(name: "id", value: .number("2")), Value.Member(name: "#3", value: .string("b")),
            Value.Member(name: "##3", value: .string("c, d")), Value.Member(name: "#4", value: .string("")),
        ]))
        // Read strictly, a row that no longer splits as the header says is refused, not guessed at.
        var strictRecords = records
        strictRecords.raggedRows = false
        #expect(throws: (any Error).self) { try Snapshot(input: input, records: strictRecords, delimiter: 0x2C).value(ofRecord: 0) }
    }
}
