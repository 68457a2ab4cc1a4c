import Foundation

/// One side of the comparison: a named input, its bytes and its format.
package struct InputFile: Sendable {
    /// The name as the user gave it; `<stdin>` for `-`.
    package let name: String
    package let bytes: InputBytes
    package let format: InputFormat
    /// Records made from a database's rows (`SQLiteTable.input`): text
    /// that no file holds, so it has no layout (line ends, final newline) to
    /// tell.
    package var holdsDatabaseRows = false

    package static let standardInputName = "<stdin>"

    /// Opens `path` (`-` for standard input), decompressing a gzip or zstd
    /// input, and settles its format: the one given, else the extension's
    /// (the one under `.gz`/`.zst`: `x.csv.gz` is CSV), else a look at the
    /// (decompressed) content.
    ///
    /// `displayName`, when given, is the input's `name` in every error and
    /// message instead of the path: for a file that stands for another, such
    /// as the temporary copies git hands a merge driver (`data.csv (THEIRS)`
    /// says more than `.merge_file_OW3i9q`). The path alone is opened, and
    /// its extension still settles the format.
    package static func open(
        _ path: String, format: InputFormat? = nil, recordsAt: FieldPath? = nil, displayName: String? = nil
    ) throws -> InputFile {
        let name = displayName ?? (path == "-" ? standardInputName : path)
        if SQLiteTable.isDatabase(path) {
            // A comparison reads a database's tables itself (`Comparison.run`); merge and apply
            // come here, and they write their result in the input's own format.
            throw InputError(source: name, location: nil, parts: [
                .text("changeset cannot write SQLite yet: merge and apply refuse a database; compare its tables with "),
                .alternative(library: "a comparison that names them (", command: "`changeset OLD.db NEW.db "),
                .assignment(.tables, library: "[\"TABLE\"]", argument: "TABLE"),
                .alternative(library: ")", command: "`"),
            ])
        }
        let bytes = try InputBytes.contents(of: path, name: name)
        return try settled(bytes, name: name, format: format ?? (path == "-" ? nil : formatOfName(path)), recordsAt: recordsAt)
    }

    /// Opens `source`: a file as `open(_:format:recordsAt:displayName:)`
    /// opens its path; data a caller holds into memory (decompressed when it
    /// is gzip or zstd), its format the one it names, else `format`, else a
    /// look at its first bytes; records in memory as NDJSON text, one record
    /// a line. `displayName`, when given, names the input instead of the
    /// source's own name.
    package static func open(
        _ source: DatasetSource, format: InputFormat? = nil, recordsAt: FieldPath? = nil, displayName: String? = nil
    ) throws -> InputFile {
        let name = displayName ?? source.name
        switch source {
        case .path, .file:
            guard let path = source.path else {
                throw InputError(source: name, location: nil, message: "is not a file URL; only file URLs are read")
            }
            return try open(path, format: format, recordsAt: recordsAt, displayName: displayName)
        case .data(let data, let given, let compression, _):
            let bytes = try InputBytes.holding(data, compression: compression, name: name)
            return try settled(bytes, name: name, format: given ?? format, recordsAt: recordsAt)
        case .records(let records, _):
            var text: [UInt8] = []
            for record in records {
                record.writeJSON(into: &text)
                text.append(0x0A)
            }
            return InputFile(name: name, bytes: InputBytes(copying: text), format: .ndjson)
        }
    }

    /// An input over `bytes`, once their encoding is checked (UTF-16 and the
    /// like are refused at their first bytes), in `format`, else the one a
    /// look at the first bytes suggests.
    private static func settled(_ bytes: InputBytes, name: String, format: InputFormat?, recordsAt: FieldPath?) throws -> InputFile {
        let start = try bytes.leading(1 << 16)
        if let encoding = ForeignEncoding(start) {
            throw InputError(source: name, location: InputLocation(line: 1, column: 1), message: encoding.message)
        }
        return InputFile(name: name, bytes: bytes, format: format ?? sniff(start.span, recordsAt: recordsAt))
    }

    /// Whether `a` and `b` name one file: the same device and inode (`-`
    /// is standard input's). Neither is opened, so a FIFO is not waited on.
    package static func isSameFile(_ a: String, _ b: String) -> Bool {
        func identity(_ path: String) -> (dev_t, ino_t)? {
            var status = stat()
            let found = path == "-" ? fstat(STDIN_FILENO, &status) : stat(FileSystemPath.bytes(path), &status)
            return found == 0 ? (status.st_dev, status.st_ino) : nil
        }
        guard let first = identity(a), let second = identity(b) else { return false }
        return first == second
    }

    /// This input under the name `path` gives it (`-`: standard input), its bytes shared.
    package func named(_ path: String) -> InputFile {
        InputFile(name: path == "-" ? Self.standardInputName : path, bytes: bytes, format: format)
    }

    /// Whether the two inputs are one (opened once: see `isSameFile`).
    package func isSameInput(as other: InputFile) -> Bool {
        bytes === other.bytes && format == other.format
    }

    /// The format a file name gives: its extension's, or, under a compression
    /// extension, the one before it.
    static func formatOfName(_ path: String) -> InputFormat? {
        var name = (path as NSString).lastPathComponent as NSString
        if InputCompression(pathExtension: name.pathExtension) != nil { name = name.deletingPathExtension as NSString }
        return InputFormat(pathExtension: name.pathExtension)
    }

    /// An input held in memory (tests, and callers that have the bytes already).
    package init(name: String, bytes: InputBytes, format: InputFormat) {
        self.name = name
        self.bytes = bytes
        self.format = format
    }

    /// The format a look at the content suggests: `[` is a JSON array, `{` is
    /// NDJSON (or, with `--records-at`, a JSON document); anything else is
    /// CSV, or TSV when the first line has tabs and no commas.
    package static func sniff(_ bytes: Span<UInt8>, recordsAt: FieldPath?) -> InputFormat {
        var index = bytes.count >= 3 && bytes[0] == byteOrderMark[0] && bytes[1] == byteOrderMark[1] && bytes[2] == byteOrderMark[2] ? 3 : 0
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        guard index < bytes.count else { return .json }
        switch bytes[index] {
        case UInt8(ascii: "["): return .json
        case UInt8(ascii: "{"): return recordsAt == nil ? .ndjson : .json
        default:
            var hasTab = false, hasComma = false
            while index < bytes.count && bytes[index] != 0x0A && bytes[index] != 0x0D {
                if bytes[index] == 0x09 { hasTab = true }
                if bytes[index] == UInt8(ascii: ",") { hasComma = true }
                index += 1
            }
            return hasTab && !hasComma ? .tsv : .csv
        }
    }

    /// Reads the records, with the options given. The format decides the
    /// reader. With `parts` over 1, an NDJSON or CSV file is read in that
    /// many parts at once (see `readRecordsInParts`; NDJSON, CSV and JSON
    /// arrays whose records start lines); the table is the same.
    ///
    /// The key index is built once the records are read, a group of keys at
    /// a time with their slots prefetched (`RecordTable.indexKeys`): a reader
    /// that inserted each key as it read the record waited for a cache miss
    /// a record, 15% of reading 10M CSV rows. When an id repeats and that is
    /// an error, the file is read again by a reader that indexes as it goes,
    /// whose error says where the first repeat is and how many ids repeat.
    /// Without `indexesKeys` there is no index, and no check that ids are
    /// unique: the caller's (a comparison checks NEW's ids as it matches them).
    ///
    /// With a `budget`, reading stops (`RecordBudget.Exceeded`) once the
    /// records read, with those of the readers sharing it, pass the budget;
    /// a stream is still copied to its end, so it can be read again.
    package func readRecords(
        _ options: RecordOptions, delimiter: UInt8? = nil, parts: Int = 1, minimumPartSize: Int = InputFile.minimumPartSize,
        indexesKeys: Bool = true, budget: RecordBudget? = nil
    ) throws -> RecordTable {
        var table: RecordTable
        if parts > 1, let parted = readRecordsInParts(options, delimiter: format.delimiter(delimiter), parts: parts, minimumPartSize: minimumPartSize,
                                                      budget: budget) {
            table = parted
        } else {
            // Parts that stopped for the budget are not read again whole.
            try budget?.check()
            table = try readWhole(options, delimiter: delimiter, indexesKeys: false, budget: budget)
        }
        if indexesKeys && !options.id.isEmpty && table.indexKeys() && options.duplicates == .error {
            return try readWhole(options, delimiter: delimiter, indexesKeys: true)
        }
        return table
    }

    /// The records, read by one reader (with `indexesKeys`, one that indexes
    /// ids as it reads and says where an id first repeats).
    ///
    /// With `batches`, an input larger than memory: the records are handed
    /// to it `batchSize` or more at a time as they are read (each batch's
    /// rows count from 0), and the table returned holds the last of them
    /// beside what holds for the whole input (names, schema, fields found).
    /// `located` is then given the place of record `locating` (counted from
    /// the input's first), if there is one.
    package func readWhole(
        _ options: RecordOptions, delimiter: UInt8?, indexesKeys: Bool,
        batchSize: Int = 1 << 16, batches: ((RecordTable) throws -> Void)? = nil,
        locating: Int? = nil, located: (InputLocation?) -> Void = { _ in }, budget: RecordBudget? = nil
    ) throws -> RecordTable {
        precondition(locating == nil || batches != nil, "a record is placed in a read a batch at a time")
        switch format {
        case .json, .ndjson:
            let layout: JSONLayout
            if format == .ndjson {
                if options.recordsAt != nil {
                    throw InputError(source: name, location: nil, parts: [.setting(.recordsAt), .text(" needs a JSON document, but this input is NDJSON")])
                }
                layout = .lines
            } else {
                layout = options.recordsAt.map { .nested($0) } ?? .array
            }
            // Batches are handed on as they are read and cannot be taken
            // back, and a stream is read once (and may not end: /dev/zero),
            // so those are yajl's from the start; so is a read that indexes
            // ids as it goes to say where an id repeats (an error to place).
            let ownLexerFirst = batches == nil && bytes.knownCount != nil && !(indexesKeys && options.duplicates == .error)
            return try Self.readJSON(ownLexerFirst: ownLexerFirst) { lexer in
                let reader = JSONRecordReader(source: name, layout: layout, options: options, indexesKeys: indexesKeys, lexer: lexer)
                reader.builder.budget = budget
                return try read(with: reader, wantsMore: { reader.endsInsideLongToken }, batchSize: batchSize, batches: batches,
                                locating: locating, located: located)
            }
        case .csv, .tsv:
            let reader = CSVRecordReader(
                source: name, delimiter: format.delimiter(delimiter), options: options, indexesKeys: indexesKeys)
            reader.builder.budget = budget
            return try read(with: reader, wantsMore: { false }, batchSize: batchSize, batches: batches, locating: locating, located: located)
        }
    }

    /// `read` with the JSON reader's own lexer, then, if it gave up (an
    /// error to place, or text it leaves to yajl), again from the start with
    /// yajl (see `JSONRecordReader.Lexer`).
    static func readJSON(ownLexerFirst: Bool, _ read: (JSONRecordReader.Lexer) throws -> RecordTable) throws -> RecordTable {
        if ownLexerFirst {
            do {
                return try read(.own)
            } catch is JSONRecordReader.Lexer.GaveUp {}
        }
        return try read(.yajl)
    }

    /// The chunk a reader that hands on batches is fed at a time.
    static let batchChunkSize = 1 << 20

    /// The bytes fed to `reader` (see `readWhole`).
    private func read<Reader: BuildsRecordTable>(
        with reader: Reader, wantsMore: () -> Bool, batchSize: Int, batches: ((RecordTable) throws -> Void)?,
        locating: Int?, located: (InputLocation?) -> Void
    ) throws -> RecordTable {
        guard let batches else {
            reader.expectedInputSize = bytes.knownCount
            try bytes.forEachChunk(reader.feed, wantsMore: wantsMore)
            return try reader.finish()
        }
        reader.rowToLocate = locating
        // Chunks of 1 MiB, not 8: a batch is handed on between chunks, and a
        // chunk of 8 MiB held a million records of a few bytes (40 MB).
        try bytes.forEachChunk({ chunk in
            try reader.feed(chunk)
            if reader.heldRecords >= batchSize { try batches(reader.takeRecords()) }
        }, standardSize: Self.batchChunkSize, wantsMore: wantsMore)
        defer { located(reader.locatedRow) }
        return try reader.finish()
    }

    // MARK: Errors

    static func systemError(_ name: String, _ what: String) -> InputError {
        InputError(source: name, location: nil, message: "\(what): \(String(cString: strerror(errno)))")
    }

    static func changed(_ name: String) -> InputError {
        InputError(source: name, location: nil, message: "the file changed while changeset was reading it; nothing was compared")
    }
}
