/// Reads CSV and TSV (RFC 4180) into records; the first row names the fields.
///
/// Written by hand rather than with CSV.swift or SwiftCSV: both decode into
/// `String` cells and give no byte offsets, so they can neither report a
/// ragged row or an unclosed quote at its line and column, nor tell where a
/// record lies in the file so it can be read again; and both were slower on
/// the benchmark (see the README). This is a byte-level state machine, push
/// style like the JSON reader: `feed` chunks of any size, then `finish`. Most
/// rows skip it: a row that lies whole in the chunk without quotes is read
/// where it lies (`readPlainRow`), and anything else goes through it.
///
/// Rules: fields are separated by the delimiter (`,`, or tab for TSV); a field
/// in double quotes may hold delimiters, quotes (doubled) and line breaks;
/// rows end at LF, CRLF or a lone CR; a UTF-8 byte order mark is skipped;
/// blank lines are skipped; the last row may lack a line break. A quote inside
/// an unquoted field is an ordinary character. Every row must have as many
/// fields as the header (unless `options.csvRows` is `.lenient`: then a
/// missing cell is empty, and an extra one a field named by its column, see
/// `RecordOptions.positionalFieldName`), header names must be unique, and the
/// text must be UTF-8.
///
/// The state is a class's, and every access to a class's stored property is
/// checked for exclusivity at run time, which cost a fifth of the reading
/// time. Each stored `var` is marked `@exclusivity(unchecked)`: nothing here
/// is reentrant (one reader, one thread, nothing calls back into `feed`),
/// and the compile-time checks still apply.
// Unsafe code here: the loop over a chunk reads rows where they lie by
// address (eight bytes at a time between quotes and line breaks, no bounds
// check per byte: this loop is most of the time a CSV comparison takes; a
// cell's last word is read up to seven bytes past the cell, only where the
// chunk holds them), and the state skips run-time exclusivity checks as said
// above.
package final class CSVRecordReader {
    package let source: String
    package let delimiter: UInt8
    private let options: RecordOptions
    /// `options.id.count`, read once: reading it from `options` row by row retained and released the list.
    private let idPartCount: Int
    @exclusivity(unchecked) var builder: RecordTableBuilder
    /// Whether the builder indexes keys as they come (else an id's hash is not taken early).
    private let indexesKeys: Bool
    @exclusivity(unchecked) private var hasher: ValueHasher
    /// Whether cells hash as their bytes (`.cellText`), which `hashCell` reads where they lie.
    private let hashesCellText: Bool
    @exclusivity(unchecked) private var byteOrderMark = ByteOrderMarkFilter()
    @exclusivity(unchecked) private var layoutScanner = FileLayoutScanner()
    @exclusivity(unchecked) private var utf8 = UTF8Validator()
    @exclusivity(unchecked) private var utf8SequenceStart = (offset: 0, location: InputLocation(line: 1, column: 1), byte: UInt8(0))
    @exclusivity(unchecked) private var position = LinePosition()
    @exclusivity(unchecked) private var offset = 0
    @exclusivity(unchecked) private var started = false
    @exclusivity(unchecked) private var failure: InputError?

    private enum State { case fieldStart, unquoted, quoted, quoteInQuoted }
    @exclusivity(unchecked) private var state = State.fieldStart
    /// The byte before was a CR that ended a row; an LF right after it belongs to the same line break.
    @exclusivity(unchecked) private var afterCR = false

    /// The row being read: its cells' bytes, back to back, and where each ends.
    @exclusivity(unchecked) private var cellBytes = ScratchBuffer<UInt8>()
    @exclusivity(unchecked) private var cellEnds = ScratchBuffer<Int>(capacity: 64)
    @exclusivity(unchecked) private var rowStart = 0
    @exclusivity(unchecked) private var rowLocation = InputLocation(line: 1, column: 1)
    @exclusivity(unchecked) private var rowHasQuotedField = false
    @exclusivity(unchecked) private var quoteLocation = InputLocation(line: 1, column: 1)
    @exclusivity(unchecked) private var extraFieldLocation = InputLocation(line: 1, column: 1)
    @exclusivity(unchecked) private var extraFieldNoted = false
    @exclusivity(unchecked) private var fieldLocations: [InputLocation] = []

    @exclusivity(unchecked) private var header: [String]?
    /// A `ScratchBuffer`, not an Array: walking an Array property row by row
    /// retained and released it once a row.
    @exclusivity(unchecked) private var columns = ScratchBuffer<Column>(capacity: 16)
    /// Per column, how many rows leave it empty: counted instead of the cells
    /// that hold a value, because empty cells are rare and a count costs a
    /// uniqueness check of the array.
    @exclusivity(unchecked) private var emptyCells: [Int] = []
    /// The cells past the header that lenient rows held, by position: their
    /// names, and per column how many rows hold a value there.
    @exclusivity(unchecked) private var extraColumns: [Column] = []
    @exclusivity(unchecked) private var extraNames: [String] = []
    @exclusivity(unchecked) private var extraValueCounts: [Int] = []
    @exclusivity(unchecked) private var scratch: [UInt8] = []

    private struct Column {
        var nameHash: UInt64
        var role: FieldRole
        var compared: Bool
        /// Whether the cell is (part of) the id or the section: one test a cell for the rest.
        var keysRecord: Bool

        init(nameHash: UInt64, role: FieldRole, compared: Bool) {
            self.nameHash = nameHash
            self.role = role
            self.compared = compared
            keysRecord = role.idComponent >= 0 || role.isSection
        }
    }

    /// A reader of a whole file or (see `beginPart(at:)`) of a part of one.
    /// Without `indexesKeys`, the table's key index is left to `RecordTable.indexKeys`.
    package init(source: String, delimiter: UInt8, options: RecordOptions, indexesKeys: Bool = true) {
        self.source = source
        self.delimiter = delimiter
        self.options = options
        self.idPartCount = options.id.count
        self.builder = RecordTableBuilder(source: source, options: options, indexesKeys: indexesKeys)
        self.indexesKeys = indexesKeys
        // Cells are text: by their bytes when both sides are CSV, else numbers by value.
        self.hasher = ValueHasher(mode: options.mode == .cellText ? .cellText : .text)
        // A delimiter that is also a quote, a line break or part of a UTF-8
        // sequence gives a byte two meanings, which the state machine settles
        // by where the byte stands; such files take the state machine only.
        readsPlainRows = delimiter < 0x80 && delimiter != 0x22 && delimiter != 0x0A && delimiter != 0x0D
        hashesCellText = hasher.mode == .cellText
        plainCellEnds = .allocate(capacity: 1)
        stops = .allocate(capacity: 512)
        plainRowClasses = .allocate(capacity: 256)
        for byte in 0...255 {
            // NUL stops a run too: it is refused (see `scan`).
            let endsLine = byte == 0x0A || byte == 0x0D || byte >= 0x80 || byte == 0
            stops[byte] = endsLine || byte == Int(delimiter)
            stops[256 + byte] = endsLine || byte == 0x22
            plainRowClasses[byte] = switch byte {
            case Int(delimiter): PlainRowClass.delimiter
            case 0x0A, 0x0D: PlainRowClass.lineBreak
            case 0x22: PlainRowClass.quote
            case 0x80...: PlainRowClass.nonASCII
            case 0: PlainRowClass.nul
            default: PlainRowClass.plain
            }
        }
    }

    deinit {
        stops.deallocate()
        plainRowClasses.deallocate()
        plainCellEnds.deallocate()
    }

    /// The whole input's size, when known: after the first rows it gives an
    /// estimate of the row count, so the tables are sized once.
    @exclusivity(unchecked) package var expectedInputSize: Int?

    package func feed(_ bytes: Span<UInt8>) throws {
        if let failure { throw failure }
        layoutScanner.observe(bytes)
        do {
            try byteOrderMark.process(bytes) { content, base in try scan(content, base: base) }
        } catch {
            failure = error as? InputError
            throw error
        }
    }

    /// After the header row has been fed (and nothing more), makes the next
    /// byte fed the one at file offset `offset`, at line 1 of a part that
    /// begins at a row (see `InputFile.readRecordsInParts`).
    /// False when what was fed is not exactly one header row and its line break.
    func beginPart(at offset: Int) -> Bool {
        guard failure == nil, header != nil, builder.count == 0, state == .fieldStart, cellEnds.isEmpty, cellBytes.isEmpty,
              !rowHasQuotedField, !afterCR, utf8.pending == 0 else { return false }
        byteOrderMark = ByteOrderMarkFilter(partStartingAt: offset)
        layoutScanner = FileLayoutScanner()  // the header row fed is the first part's
        self.offset = offset
        rowStart = offset
        position = LinePosition()
        rowLocation = position.location
        return true
    }

    /// The line breaks read so far (a CRLF is one).
    var lineBreaksRead: Int { position.line - 1 }

    /// Reads bytes held in an array (a part's copy of the header row).
    func feed(_ bytes: [UInt8]) throws {
        try feed(bytes.span)
    }

    package func finish() throws -> RecordTable {
        if let failure { throw failure }
        do {
            try byteOrderMark.finish { content, base in try scan(content, base: base) }
            if !utf8.isComplete { throw invalidUTF8() }
            switch state {
            case .quoted:
                throw error("unclosed quote: the quoted field that starts here never ends", at: quoteLocation)
            case .fieldStart where cellEnds.isEmpty:
                break  // the input ended with a line break (or is empty)
            default:
                try endRow(at: offset)
            }
            guard header != nil else {
                throw error("the input is empty; expected a header row naming the fields", at: position.location)
            }
            builder.setSchema((header ?? []) + extraNames, valueCounts: emptyCells.map { builder.count - $0 } + extraValueCounts)
            var table = try builder.finished()
            table.layout = layoutScanner.layout(lineBreaks: lineBreaksRead, byteOrderMark: byteOrderMark.contentStart > 0, columns: header)
            return table
        } catch {
            failure = error as? InputError
            throw error
        }
    }

    private func error(_ message: String, at location: InputLocation) -> InputError {
        InputError(source: source, location: location, message: message)
    }

    /// An error whose message names settings (see `LibrarySetting`).
    private func error(_ parts: [MessagePart], at location: InputLocation) -> InputError {
        InputError(source: source, location: location, parts: parts)
    }

    private func invalidUTF8() -> InputError {
        error(
            UTF8Validator.invalidSequenceMessage(firstByte: utf8SequenceStart.byte),
            at: utf8SequenceStart.location)
    }

    private func scan(_ content: Span<UInt8>, base: Int) throws {
        try content.withUnsafeBytes { try scan(raw: $0, base: base) }
    }

    private func scan(raw content: UnsafeRawBufferPointer, base: Int) throws {
        if !started {
            started = true
            offset = base
            rowStart = base
        }
        guard let start = content.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let count = content.count
        var index = 0
        while index < count {
            // The commonest case: a whole plain row, read where it lies.
            if readsPlainRows && state == .fieldStart && header != nil && cellEnds.isEmpty && cellBytes.isEmpty && !rowHasQuotedField
                && !afterCR && utf8.pending == 0 {
                let used = try readPlainRow(start + index, count: count - index)
                if used > 0 {
                    index += used
                    continue
                }
            }
            // The common case: a run of plain bytes inside a field, copied at once.
            if utf8.pending == 0 && !afterCR && (state == .unquoted || state == .quoted) {
                var end = index
                let stop = state == .unquoted ? stops : stops + 256
                while end < count && !stop[Int(start[end])] { end += 1 }
                if end > index {
                    cellBytes.append(start + index, count: end - index)
                    position.advance(overPlainASCII: end - index)
                    offset += end - index
                    index = end
                    continue
                }
            }
            let byte = start[index]
            index += 1
            if byte == 0 {
                // No text holds NUL: this is a binary file (or /dev/zero), and a
                // header or cell of NULs would otherwise grow without end.
                throw error("a NUL byte (0x00): CSV is text, and this looks like a binary file", at: position.location)
            }
            if byte >= 0x80 || utf8.pending > 0 {
                if utf8.pending == 0 { utf8SequenceStart = (offset, position.location, byte) }
                if !utf8.accept(byte) { throw invalidUTF8() }
            }
            if afterCR {
                afterCR = false
                if byte == 0x0A {
                    position.advance(over: byte)
                    offset += 1
                    rowStart = offset
                    rowLocation = position.location
                    continue
                }
            }
            try step(byte)
            position.advance(over: byte)
            offset += 1
        }
    }

    /// Two tables of 256: the bytes that end a run in an unquoted field (the
    /// delimiter, line breaks, non-ASCII), then those that end a run in a
    /// quoted one (the quote, line breaks, which are counted, non-ASCII).
    /// Raw memory, not two `[Bool]`s: choosing an Array per run retained and
    /// released it, 16 times a record.
    private let stops: UnsafeMutablePointer<Bool>

    /// What `readPlainRow` makes of each byte (raw memory, like `stops`).
    private let plainRowClasses: UnsafeMutablePointer<UInt8>
    /// Whether rows may take `readPlainRow` (not with an odd delimiter, see `init`).
    private let readsPlainRows: Bool
    private enum PlainRowClass {
        static let plain: UInt8 = 0, delimiter: UInt8 = 1, lineBreak: UInt8 = 2, quote: UInt8 = 3, nonASCII: UInt8 = 4, nul: UInt8 = 5
    }

    /// Reads a row that starts at `start` (a row start, at column 1) and lies
    /// whole in the `count` bytes there, when it is plain: no quote, valid
    /// UTF-8, and as many fields as the header. It is crossed a word at a
    /// time (`PlainRowWord`), every delimiter of a word found in one step,
    /// and its cells are hashed where they lie, not copied cell by cell and
    /// stepped through the state machine byte by byte, which was a third of
    /// the reading time. Returns
    /// the bytes it used (the row and its line break), or 0 to leave the row
    /// to the state machine: a quote, a blank line, a bad byte, a row that
    /// runs past the chunk or a CR that ends it (an LF may follow in the next
    /// chunk), or a field count that does not match; each has rules and error
    /// places the state machine keeps, and it reads the row from its start.
    private func readPlainRow(_ start: UnsafePointer<UInt8>, count: Int) throws -> Int {
        // The row's delimiters, then its end, go to `plainCellEnds`; one
        // delimiter more than the header allows leaves the row to the state machine.
        let lastDelimiter = columns.count - 1
        let ends = plainCellEnds
        var found = 0
        var index = 0
        var check = UTF8Validator()
        let delimiters = PlainRowWord.ones &* UInt64(delimiter)
        scanning: while true {
            var stop = -1
            while index + 8 <= count {
                let word = PlainRowWord(UnsafeRawPointer(start + index).loadUnaligned(as: UInt64.self), delimiters: delimiters)
                var delimiterBits = word.delimiters
                if word.others != 0 {
                    // Only the delimiters before the first byte to look at.
                    let first = word.others.trailingZeroBitCount
                    delimiterBits &= (1 << UInt64(first)) &- 1
                    stop = index + first / 8
                }
                while delimiterBits != 0 {
                    guard found < lastDelimiter else { return 0 }
                    ends[found] = index + delimiterBits.trailingZeroBitCount / 8
                    found += 1
                    delimiterBits &= delimiterBits &- 1
                }
                if stop >= 0 { break }
                index += 8
            }
            if stop < 0 {
                // Fewer than eight bytes left in the chunk: a byte at a time.
                while index < count && plainRowClasses[Int(start[index])] <= PlainRowClass.delimiter {
                    if start[index] == delimiter {
                        guard found < lastDelimiter else { return 0 }
                        ends[found] = index
                        found += 1
                    }
                    index += 1
                }
                guard index < count else { return 0 }  // the row runs past the chunk
                stop = index
            }
            index = stop
            switch plainRowClasses[Int(start[index])] {
            case PlainRowClass.plain:
                index += 1  // a control byte, such as a tab in a CSV file
            case PlainRowClass.lineBreak:
                break scanning
            case PlainRowClass.nonASCII:
                // A whole sequence at once; its continuation bytes are all past ASCII.
                repeat {
                    guard index < count, check.accept(start[index]) else { return 0 }
                    index += 1
                } while check.pending > 0
            default:
                return 0  // a quote or a NUL
            }
        }
        guard index > 0, found == lastDelimiter else { return 0 }
        var used = index + 1
        if start[index] == 0x0D {
            guard index + 1 < count else { return 0 }
            if start[index + 1] == 0x0A { used += 1 }
        }
        ends[found] = index
        rowStart = offset
        rowLocation = position.location
        try readRecord(
            end: offset + index, cells: start, ends: UnsafePointer(ends), count: columns.count, separated: true, readable: count)
        position.advance(overPlainASCII: index)  // the column is not kept: the line break resets it
        for byte in UnsafeBufferPointer(start: start + index, count: used - index) { position.advance(over: byte) }
        offset += used
        rowStart = offset
        rowLocation = position.location
        return used
    }

    /// Where a plain row's ends are written (as many as the header has columns).
    @exclusivity(unchecked) private var plainCellEnds: UnsafeMutablePointer<Int>

    /// Eight bytes of a plain row, tested at once (SWAR: one 64-bit word,
    /// a byte a lane). Each test is exact in every byte, not only the
    /// lowest that matches: no sum carries from one byte into the next
    /// (seven low bits plus at most 0x7F), so every delimiter of the word is
    /// found in one step and a row is crossed without stopping at each cell.
    private struct PlainRowWord {
        static let ones: UInt64 = 0x0101_0101_0101_0101
        static let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        static let highs: UInt64 = 0x8080_8080_8080_8080
        /// 0x80 in each byte that is the delimiter.
        let delimiters: UInt64
        /// 0x80 in each byte a plain row must look at: a quote, a byte below
        /// 0x0E (NUL, the line breaks, and a tab or other control byte that is
        /// plain) or past ASCII, and never the delimiter.
        let others: UInt64

        @inline(__always)
        init(_ word: UInt64, delimiters delimiterBytes: UInt64) {
            let low = word & Self.lows
            // In each byte, the high bit of (its low seven bits + 0x7F) says they are not zero.
            let notDelimiter = ((low ^ delimiterBytes) &+ Self.lows) & Self.highs
            let notQuote = ((low ^ (Self.ones &* 0x22)) &+ Self.lows) & Self.highs
            let atLeast0E = (low &+ (Self.ones &* (0x80 - 0x0E))) & Self.highs
            delimiters = Self.highs & ~(notDelimiter | word)
            others = (word | ~(notQuote & atLeast0E)) & Self.highs & ~delimiters
        }
    }

    @inline(__always)
    private func step(_ byte: UInt8) throws {
        switch state {
        case .fieldStart:
            if cellEnds.isEmpty && cellBytes.isEmpty && !rowHasQuotedField {
                rowStart = offset
                rowLocation = position.location
            }
            noteFieldStart()
            if byte == UInt8(ascii: "\"") {
                state = .quoted
                rowHasQuotedField = true
                quoteLocation = position.location
            } else if byte == delimiter {
                endField()
            } else if byte == 0x0A || byte == 0x0D {
                try endLine(byte)
            } else {
                cellBytes.append(byte)
                state = .unquoted
            }
        case .unquoted:
            if byte == delimiter {
                endField()
                state = .fieldStart
            } else if byte == 0x0A || byte == 0x0D {
                try endLine(byte)
            } else {
                cellBytes.append(byte)
            }
        case .quoted:
            if byte == UInt8(ascii: "\"") {
                state = .quoteInQuoted
            } else {
                cellBytes.append(byte)
            }
        case .quoteInQuoted:
            if byte == UInt8(ascii: "\"") {
                cellBytes.append(byte)
                state = .quoted
            } else if byte == delimiter {
                endField()
                state = .fieldStart
            } else if byte == 0x0A || byte == 0x0D {
                try endLine(byte)
            } else {
                throw error(
                    "unexpected \(JSONRecordReader.describe(byte: byte)) after the closing quote of a field (a quote inside a quoted field is written \"\")",
                    at: position.location)
            }
        }
    }

    /// Remembers where fields start when an error may need to point there.
    @inline(__always)
    private func noteFieldStart() {
        if header == nil {
            fieldLocations.append(position.location)
        } else if cellEnds.count == columns.count {
            extraFieldLocation = position.location
            extraFieldNoted = true
        }
    }

    @inline(__always)
    private func endField() {
        // An empty last field at the end of the input never saw a byte of its own.
        if header == nil && fieldLocations.count == cellEnds.count {
            fieldLocations.append(position.location)
        } else if header != nil && cellEnds.count == columns.count && !extraFieldNoted {
            extraFieldLocation = position.location
        }
        cellEnds.append(cellBytes.count)
    }

    private func endLine(_ byte: UInt8) throws {
        let end = offset
        if byte == 0x0D { afterCR = true }
        state = .fieldStart
        // A line with nothing on it is skipped, not read as a row of one empty field.
        if cellEnds.isEmpty && cellBytes.isEmpty && !rowHasQuotedField {
            fieldLocations.removeAll(keepingCapacity: true)
            rowStart = end + 1
            rowLocation = InputLocation(line: position.location.line + 1, column: 1)
            return
        }
        try endRow(at: end)
        rowStart = end + 1
        rowLocation = InputLocation(line: position.location.line + 1, column: 1)
    }

    private func endRow(at end: Int) throws {
        endField()
        defer {
            cellBytes.removeAll()
            cellEnds.removeAll()
            rowHasQuotedField = false
            extraFieldNoted = false
            state = .fieldStart
        }
        guard header != nil else { return try readHeader() }
        if cellEnds.count != columns.count {
            guard options.csvRows == .lenient else {
                let location = cellEnds.count > columns.count ? extraFieldLocation : position.location
                throw error(
                    [.text("this row has \(cellEnds.count) fields but the header has \(columns.count) ("),
                     .assignment(.csvRows, library: ".lenient", argument: "lenient"),
                     .text(" reads such rows: a missing cell as empty, an extra one as a field named by its column number, such as "
                           + "\(RecordOptions.positionalFieldName(column: columns.count + 1, header: header ?? [])))")],
                    at: location)
            }
            // The cells are back to back: a missing one is an empty one at the end.
            while cellEnds.count < columns.count { cellEnds.append(cellBytes.count) }
            if cellEnds.count > columns.count + extraColumns.count { addExtraColumns(upTo: cellEnds.count) }
        }
        // `cellBytes` and `cellEnds` stay valid while readRecord runs: nothing is appended to them.
        try readRecord(
            end: end, cells: cellBytes.elements.baseAddress!, ends: cellEnds.elements.baseAddress!, count: cellEnds.count,
            separated: false, readable: cellBytes.count)
    }

    /// Names the cells past the header up to column `count` (see `RecordOptions.positionalFieldName`).
    private func addExtraColumns(upTo count: Int) {
        let header = header ?? []
        let rules = FieldRules(options, flat: true)
        var found: [FieldPath] = []
        for column in (columns.count + extraColumns.count + 1)...count {
            let name = RecordOptions.positionalFieldName(column: column, header: header)
            let node = rules.child(of: FieldRules.root, name: Array(name.utf8))
            found.append(contentsOf: rules.namedPaths(node))
            extraColumns.append(Column(
                nameHash: name.withBytes { ValueHasher.name($0) }, role: FieldRole(),
                compared: rules.isCompared(node, inFilteredObject: rules.onlyMode, valueIsObject: false)))
            extraNames.append(name)
            extraValueCounts.append(0)
        }
        builder.addFieldsFound(found)
    }

    private func readHeader() throws {
        var names: [String] = []
        var seen: [ExactTextKey: Int] = [:]
        // CSV has no nesting: a path names the column whose name is its names joined by dots.
        let rules = FieldRules(options, flat: true)
        var found: [FieldPath] = []
        for index in cellEnds.indices {
            var name = String(decoding: cellRange(index, in: cellBytes.bytes), as: UTF8.self)
            if let renamed = name.withBytes({ rules.renamedName($0, in: FieldRules.root) }) {
                // --rename on the new side: the column is read under its old name.
                found.append(contentsOf: options.renames.filter { $0.new.flatName == name }.map(\.new))
                name = String(decoding: renamed, as: UTF8.self)
            }
            if let first = seen.updateValue(index, forKey: ExactTextKey(name)) {
                throw error(
                    [.text("duplicate column name \"\(TerminalText.datum(name))\" in the header (also column \(first + 1))")]
                        + (options.renames.contains { $0.old.flatName == name } && options.appliesRenames
                            ? [.text(", after "), .setting(.rename), .text(" read one column as the other")] : []),
                    at: fieldLocations[index])
            }
            names.append(name)
        }
        fieldLocations = []
        let headerLocation = rowLocation
        func hint(_ path: FieldPath) -> [MessagePart] {
            NameHint.separatorHint(header: names, delimiter: delimiter) ?? [.text(NameHint.hint(path, names, kind: "columns", ordered: true))]
        }
        for path in options.id where !names.contains(where: { ExactText.same($0, path.flatName) }) {
            throw error([.text("no \"\(TerminalText.datum(path.description))\" column for "), .setting(.id), .text("; ")] + hint(path),
                        at: headerLocation)
        }
        if let section = options.section, !names.contains(where: { ExactText.same($0, section.flatName) }) {
            throw error([.text("no \"\(TerminalText.datum(section.description))\" column for "), .setting(.section), .text("; ")] + hint(section),
                        at: headerLocation)
        }
        for name in names {
            let node = rules.child(of: FieldRules.root, name: Array(name.utf8))
            found.append(contentsOf: rules.namedPaths(node))
            let role = rules.role(node) ?? FieldRole()
            let compared = rules.isCompared(node, inFilteredObject: rules.onlyMode, valueIsObject: false)
            let hash = name.withBytes { ValueHasher.name($0) }
            columns.append(Column(nameHash: hash, role: role, compared: compared))
        }
        header = names
        plainCellEnds.deallocate()
        plainCellEnds = .allocate(capacity: max(names.count, 1))
        builder.setFieldsFound(found)
        emptyCells = Array(repeating: 0, count: names.count)
        builder.setFieldNames(names)
    }

    /// The cells of one row, read again by its byte range. The row passed the
    /// reader's checks when the file was read, so this only undoes the
    /// quoting; it is kept apart from the streaming tokenizer because it runs
    /// once per changed record and must be cheap to start.
    package static func cells(of row: Span<UInt8>, delimiter: UInt8) throws -> [String] {
        var cells: [String] = []
        for cell in try rawCells(of: row, delimiter: delimiter) { cells.append(text(ofRawCell: row.extracting(cell))) }
        return cells
    }

    package static func cells(of row: [UInt8], delimiter: UInt8) throws -> [String] {
        try cells(of: row.span, delimiter: delimiter)
    }

    /// Where each cell of a row read again stands in it, quotes and all: two
    /// cells with the same bytes here hold the same text, so a report can
    /// leave out the cells an updated row kept without undoing their quoting.
    package static func rawCells(of row: Span<UInt8>, delimiter: UInt8, expecting expected: Int = 0) throws -> [Range<Int>] {
        var cells: [Range<Int>] = []
        cells.reserveCapacity(expected)
        var index = 0
        let count = row.count
        while true {
            let start = index
            if index < count && row[index] == 0x22 {
                // A quoted field: up to the closing quote ("" is a quote), then up to the delimiter.
                index += 1
                while true {
                    guard index < count else {
                        throw JSONValueReader.Failure(description: "a row could not be read again (did the file change while changeset ran?)")
                    }
                    if row[index] == 0x22 {
                        index += 1
                        guard index < count && row[index] == 0x22 else { break }
                    }
                    index += 1
                }
            }
            // Up to the delimiter (after a closing quote the reader let nothing else come first).
            while index < count && row[index] != delimiter { index += 1 }
            cells.append(start..<index)
            guard index < count else { return cells }
            index += 1  // the delimiter
        }
    }

    /// A cell's text from its bytes in the row (`rawCells`): the quotes of a
    /// quoted cell taken away, `""` read as one quote.
    package static func text(ofRawCell cell: Span<UInt8>) -> String {
        guard !cell.isEmpty, cell[0] == 0x22 else { return cell.decoded }
        var text: [UInt8] = []
        text.reserveCapacity(cell.count)
        var index = 1
        var pieceStart = index
        while index < cell.count {
            if cell[index] == 0x22 {
                text.append(cell.extracting(pieceStart..<index))
                index += 1
                guard index < cell.count && cell[index] == 0x22 else {
                    // The closing quote; whatever follows it up to the delimiter is kept as it stands.
                    text.append(cell.extracting(index..<cell.count))
                    return String(decoding: text, as: UTF8.self)
                }
                pieceStart = index  // the second quote of "" starts the next piece
            }
            index += 1
        }
        // `rawCells` ends a quoted cell only after its closing quote.
        text.append(cell.extracting(pieceStart..<cell.count))
        return String(decoding: text, as: UTF8.self)
    }

    /// Cell `index` of `bytes`, by `cellEnds`. The cells are back to back
    /// (`cellBytes`) or, when `separated`, a raw row's, a delimiter between each two.
    @inline(__always)
    private func cellRange(_ index: Int, in bytes: UnsafeRawBufferPointer, separated: Bool = false) -> UnsafeRawBufferPointer {
        let start = index == 0 ? 0 : cellEnds[index - 1] + (separated ? 1 : 0)
        return UnsafeRawBufferPointer(rebasing: bytes[start..<cellEnds[index]])
    }

    /// A non-empty cell's hash, as `hasher.string` gives it. With cells
    /// compared as text (`.cellText`, both inputs CSV) the words are read
    /// where the cell lies, its last one in a single load when the `readable`
    /// bytes from `cell` reach that word's end (see
    /// `forEachLittleEndianWord(overReading:)`).
    @inline(__always)
    private func hashCell(_ cell: UnsafePointer<UInt8>, count: Int, readable: Int) -> UInt64 {
        guard hashesCellText, (count &+ 7) & ~7 <= readable else {
            return hasher.string(UnsafeBufferPointer(start: cell, count: count).span).hash
        }
        // `ValueHasher.string`'s rule for `.cellText`: the bytes under the text seed.
        var accumulator = StableHash.Accumulator(seed: ValueHasher.Seed.text, count: count)
        cell.forEachLittleEndianWord(overReading: count) { accumulator.add($0) }
        return accumulator.finished
    }

    /// Reads the record whose `cellCount` cells lie in `bytes`, cell `i`
    /// ending at `ends[i]` (back to back, or when `separated`, a raw row's, a
    /// delimiter between each two), and whose text ends at `end`. The
    /// `readable` bytes from `bytes` may be read past a cell's end.
    private func readRecord(
        end: Int, cells bytes: UnsafePointer<UInt8>, ends: UnsafePointer<Int>, count cellCount: Int, separated: Bool, readable: Int
    ) throws {
        // One id field (the usual case) needs no array per row, and no String:
        // its text is the cell's bytes (a CSV id is text, `0E0` is not `0`;
        // the reader has checked the cell's UTF-8).
        var singleIDCell: UnsafeBufferPointer<UInt8>?
        var singleIDHash: UInt64?
        // (nil, not an empty Array, for one part: releasing even an empty Array costs a call a row.)
        var idParts: [String]? = idPartCount > 1 ? Array(repeating: "", count: idPartCount) : nil
        var section: String?
        var memberSum: UInt64 = 0
        var memberCount = 0
        let step = separated ? 1 : 0
        var cellStart = 0
        let columns = columns.elements
        for index in 0..<columns.count {
            let column = columns[index]
            let cellEnd = ends[index]
            let length = cellEnd &- cellStart
            if column.keysRecord {
                let cell = UnsafeBufferPointer(start: bytes + cellStart, count: length)
                if column.role.idComponent >= 0 {
                    guard length > 0 else {
                        throw error("the id field \"\(options.id[column.role.idComponent])\" is empty", at: rowLocation)
                    }
                    if idParts == nil {
                        singleIDCell = cell
                        singleIDHash = !indexesKeys ? nil : builder.hashPrefetchingSlot(key: cell.span)
                    } else {
                        idParts![column.role.idComponent] = ScalarText.fromText(cell.span)
                    }
                }
                if column.role.isSection && length > 0 {
                    section = ScalarText.fromText(cell.span)
                }
            }
            // An empty cell counts as a missing field: it adds nothing to the fingerprint.
            if length == 0 {
                emptyCells[index] += 1
            } else if column.compared {
                let value = hashCell(bytes + cellStart, count: length, readable: readable &- cellStart)
                memberSum &+= ValueHasher.member(name: column.nameHash, value: value)
                memberCount &+= 1
            }
            cellStart = cellEnd &+ step
        }
        // Cells past the header (lenient rows only): fields named by their column.
        if cellCount > columns.count {
            for index in columns.count..<cellCount {
                let cellEnd = ends[index]
                let length = cellEnd - cellStart
                defer { cellStart = cellEnd + step }
                guard length > 0 else { continue }
                let column = extraColumns[index - columns.count]
                extraValueCounts[index - columns.count] += 1
                guard column.compared else { continue }
                let value = hashCell(bytes + cellStart, count: length, readable: readable - cellStart)
                memberSum &+= ValueHasher.member(name: column.nameHash, value: value)
                memberCount += 1
            }
        }
        builder.sizeAfterFirstRecords(endingAt: end, inputSize: expectedInputSize)
        let fingerprint = ValueHasher.objectEnd(memberSum, count: memberCount)
        if let idParts {
            try builder.append(key: RecordTableBuilder.key(idParts), section: section, fingerprint: fingerprint,
                               range: rowStart..<end, line: rowLocation.line, location: rowLocation)
        } else if let singleIDCell {
            try builder.append(keyText: singleIDCell.span, keyHash: singleIDHash, section: section,
                               fingerprint: fingerprint, range: rowStart..<end, line: rowLocation.line, location: rowLocation)
        } else {
            try builder.append(keyText: nil, keyHash: singleIDHash, section: section,
                               fingerprint: fingerprint, range: rowStart..<end, line: rowLocation.line, location: rowLocation)
        }
    }
}
