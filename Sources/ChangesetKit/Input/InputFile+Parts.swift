import Foundation

/// Reading one file on several cores: the file is cut into parts at line
/// breaks (a JSON array where a record starts a line), each part is read by a
/// reader of its own, and the parts' tables are joined in file order.
///
/// A cut may fall inside a record (a CSV field in quotes holding a line
/// break, an NDJSON record over several lines, an object inside a JSON record
/// indented as records are). Part 0 starts at a record,
/// and a part that starts at a record and reads to its end without an error
/// ends at one (a record cut open ends the part inside a quote or a value,
/// which its reader reports), so if every part reads cleanly, every cut was
/// at a record and the joined table is the one a single reader makes. If any
/// part fails, for that reason or a real error, the file is read again by a
/// single reader, which gives the error, with its line and column, exactly
/// as ever.
extension InputFile {
    /// Below this many bytes a part is not worth a reader of its own.
    package static let minimumPartSize = 8 << 20

    /// How many parts each input is read in, with `workers` cores for all of
    /// them: each input a share of the cores as large as its share of the
    /// bytes, at least one, and no part under `minimumPartSize`. Two inputs
    /// of one size on two cores take one core each, as they always did.
    package static func parts(sizes: [Int?], workers: Int, minimumPartSize: Int = InputFile.minimumPartSize) -> [Int] {
        let total = sizes.reduce(0) { $0 + ($1 ?? 0) }
        return sizes.map { size in
            guard let size, total > 0 else { return 1 }
            let share = Int((Double(workers) * Double(size) / Double(total)).rounded())
            return max(1, min(share, size / max(1, minimumPartSize)))
        }
    }

    /// The records read in `parts` parts at once (their key index not built
    /// yet: see `readRecords`), or nil when this input is not read in parts
    /// (a JSON document read with `--records-at`, a JSON array on one line, a
    /// compressed or piped input, too small a file, no line break to cut at)
    /// or a part failed: then the caller reads it whole.
    func readRecordsInParts(_ options: RecordOptions, delimiter: UInt8, parts: Int, minimumPartSize: Int, budget: RecordBudget? = nil) -> RecordTable? {
        guard parts > 1, options.recordsAt == nil, let size = bytes.knownCount,
              size >= 2 * max(1, minimumPartSize) else { return nil }
        let isCSV = format == .csv || format == .tsv
        let count = min(parts, size / max(1, minimumPartSize))
        do {
            // CSV: each part's reader reads the header row first (up to the first line break).
            let headerEnd = isCSV ? try lineStart(after: 0) : 0
            guard let headerEnd else { return nil }
            let header = isCSV ? try bytes.copy(0..<headerEnd) : []
            let pieces: [Part]
            if format == .json {
                guard let array = try arrayParts(count, size: size) else { return nil }
                pieces = array
            } else {
                let cuts = try partStarts(parts: count, size: size, from: headerEnd)
                pieces = zip(cuts, cuts.dropFirst() + [size]).map { Part(range: $0..<$1) }
            }
            guard pieces.count > 1 else { return nil }
            let input = self
            var read = try OrderedConcurrentMap.mapOnNewThreads(Array(pieces.enumerated())) { index, part in
                try input.readPart(part, isFirst: index == 0, header: header, options: options, delimiter: delimiter, budget: budget)
            }
            // The array runs from the first part's `[` to the last part's `]`.
            let container = read[0].table.containerRange.flatMap { first in
                read[read.count - 1].table.containerRange.map { first.lowerBound..<$0.upperBound }
            }
            var tables = read.map(Optional.some)
            read.removeAll()
            var table = tables[0]!.table
            var lineOffset = tables[0]!.lineBreaks + pieces[0].lineBreaksAfter
            tables[0] = nil
            for index in 1..<tables.count {
                let piece = tables[index]!
                tables[index] = nil  // each part's table goes as soon as it is joined
                guard !table.keys.wouldOverflow(adding: piece.table.keys.byteCount) else { return nil }
                table.append(part: piece.table, lineOffset: lineOffset)
                lineOffset += piece.lineBreaks + pieces[index].lineBreaksAfter
            }
            if format == .json {
                guard let container else { return nil }
                table.containerRange = container
            }
            // The line breaks between a JSON array's parts (after a record's `,`) no part's reader saw.
            if var layout = table.layout {
                for (piece, next) in zip(pieces, pieces.dropFirst()) where piece.lineBreaksAfter > 0 {
                    var scanner = FileLayoutScanner()
                    try bytes.withBytes(in: piece.range.upperBound..<next.range.lowerBound) { scanner.observe($0) }
                    layout.lineEndings = layout.lineEndings
                        + scanner.layout(lineBreaks: piece.lineBreaksAfter, byteOrderMark: false, columns: nil).lineEndings
                }
                table.layout = layout
            }
            return table
        } catch {
            return nil
        }
    }

    /// A part of a file: the bytes its reader reads; for a JSON array, whether
    /// the reader is given a `[` before them (every part but the first) and a
    /// `]` after (every part but the last), and the line breaks between this
    /// part's end and the next one's start (the `,` and white space between
    /// two records, which no part reads).
    private struct Part: Sendable {
        var range: Range<Int>
        var opensArray = false
        var closesArray = false
        var lineBreaksAfter = 0
    }

    /// A JSON array of records cut into about `count` parts, each starting at
    /// a record that starts a line, indented as the first record is (a
    /// pretty-printed array, or one record a line), after a `,`: a nested
    /// object is indented deeper, and no string holds a raw line break. Nil
    /// when the array is not laid out so (one line, say): it is read whole.
    private func arrayParts(_ count: Int, size: Int) throws -> [Part]? {
        let head = try bytes.leading(1 << 16)
        var index = head.starts(with: byteOrderMark) ? 3 : 0
        func skipSpace() { while index < head.count, [0x20, 0x09, 0x0A, 0x0D].contains(head[index]) { index += 1 } }
        skipSpace()
        guard index < head.count, head[index] == UInt8(ascii: "[") else { return nil }
        index += 1
        let afterBracket = index
        skipSpace()
        guard index < head.count, head[index] == UInt8(ascii: "{") else { return nil }
        // The first record's indentation: the spaces and tabs between the line break before it and its `{`.
        var lineStart = index
        while lineStart > afterBracket && head[lineStart - 1] != 0x0A && head[lineStart - 1] != 0x0D { lineStart -= 1 }
        guard lineStart > afterBracket || head[lineStart - 1] == 0x0A else { return nil }  // the first record does not start a line
        let indent = Array(head[lineStart..<index])
        guard indent.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { return nil }
        var parts: [Part] = []
        var start = 0
        for part in 1..<max(1, count) {
            let aim = max(size * part / count, start + 1)
            guard aim < size, let cut = try recordStart(after: aim, indent: indent), cut.record < size else { break }
            parts.append(Part(range: start..<cut.comma, opensArray: start > 0, closesArray: true, lineBreaksAfter: cut.lineBreaks))
            start = cut.record
        }
        parts.append(Part(range: start..<size, opensArray: start > 0))
        return parts
    }

    /// The first place at or after `offset` where a line starts with `indent`
    /// and `{`, and the last byte before the line break that is not white
    /// space is a `,`: the `,`'s offset, the `{`'s, and the line breaks between.
    private func recordStart(after offset: Int, indent: [UInt8]) throws -> (comma: Int, record: Int, lineBreaks: Int)? {
        let size = bytes.count
        let window = 1 << 16
        var from = offset
        while from < size {
            let end = min(size, from + window + indent.count + 1)
            let found: (Int, Int, Int)? = try bytes.withBytes(in: from..<end) { piece in
                var position = 0
                while let newline = piece.firstIndex(of: 0x0A, from: position) {
                    position = newline + 1
                    let record = newline + 1 + indent.count
                    guard record < piece.count, piece[record] == UInt8(ascii: "{"),
                          piece.extracting((newline + 1)..<record).sameBytes(as: indent.span) else { continue }
                    var comma = newline - 1
                    var lineBreaks = 1
                    while comma >= 0, [0x20, 0x09, 0x0A, 0x0D].contains(piece[comma]) {
                        if piece[comma] == 0x0A || (piece[comma] == 0x0D && piece[comma + 1] != 0x0A) { lineBreaks += 1 }
                        comma -= 1
                    }
                    if comma >= 0 && piece[comma] == UInt8(ascii: ",") { return (from + comma, from + record, lineBreaks) }
                }
                return nil
            }
            if let found { return (found.0, found.1, found.2) }
            from += window
        }
        return nil
    }

    /// One part's records, and the line breaks in it. The first part's table
    /// is sized for the whole file (room reserved and never written costs
    /// address space, not memory), so the others join it without a copy.
    private func readPart(
        _ part: Part, isFirst: Bool, header: [UInt8], options: RecordOptions, delimiter: UInt8, budget: RecordBudget?
    ) throws -> (table: RecordTable, lineBreaks: Int) {
        let range = part.range
        if format.isJSON {
            var lineBreaks = 0
            let table = try Self.readJSON(ownLexerFirst: true) { lexer in
                // A JSON array's later parts get a `[` just before their first byte, so offsets stay the file's.
                let reader = JSONRecordReader(source: name, layout: format == .ndjson ? .lines : .array, options: options,
                                              partStart: isFirst ? nil : range.lowerBound - (part.opensArray ? 1 : 0),
                                              indexesKeys: false, lexer: lexer)
                reader.builder.budget = budget
                reader.expectedInputSize = isFirst ? bytes.count : range.count
                if part.opensArray { try reader.feed([UInt8(ascii: "[")]) }
                try bytes.forEachChunk(in: range, reader.feed, wantsMore: { reader.endsInsideLongToken })
                if part.closesArray { try reader.feed([UInt8(ascii: "]")]) }
                let table = try reader.finish()
                lineBreaks = reader.lineBreaksRead
                return table
            }
            return (table, lineBreaks)
        }
        let reader = CSVRecordReader(source: name, delimiter: delimiter, options: options, indexesKeys: false)
        reader.builder.budget = budget
        reader.expectedInputSize = isFirst ? bytes.count : range.count
        if !isFirst {
            try reader.feed(header)
            guard reader.beginPart(at: range.lowerBound) else { throw PartFailure() }
        }
        try bytes.forEachChunk(in: range, reader.feed)
        let table = try reader.finish()
        return (table, reader.lineBreaksRead)
    }

    private struct PartFailure: Error {}

    /// Where each part starts: 0, then the line start after about each
    /// `size / parts` bytes (after `first`), as long as they advance.
    private func partStarts(parts: Int, size: Int, from first: Int) throws -> [Int] {
        var starts = [0]
        for part in 1..<max(1, parts) {
            let aim = max(size * part / parts, first, starts.last! + 1)
            guard aim < size, let start = try lineStart(after: aim), start < size else { break }
            if start > starts.last! { starts.append(start) }
        }
        return starts
    }

    /// The offset just past the first LF at or after `offset`, if any.
    private func lineStart(after offset: Int) throws -> Int? {
        let size = bytes.count
        var from = offset
        let window = 1 << 16
        while from < size {
            let end = min(size, from + window)
            let found: Int? = try bytes.withBytes(in: from..<end) { piece in
                piece.firstIndex(of: 0x0A)
            }
            if let found { return from + found + 1 }
            from = end
        }
        return nil
    }
}
