import Foundation

/// Reading one file on several cores: the file is cut into parts at line
/// breaks, each part is read by a reader of its own, and the parts' tables
/// are joined in file order.
///
/// A cut may fall inside a record (a CSV field in quotes holding a line
/// break, an NDJSON record over several lines). Part 0 starts at a record,
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
    /// yet: see `readRecords`), or nil when this input is
    /// not read in parts (a JSON document, a compressed or piped input, too
    /// small a file, no line break to cut at) or a part failed: then the
    /// caller reads it whole.
    func readRecordsInParts(_ options: RecordOptions, delimiter: UInt8, parts: Int, minimumPartSize: Int) -> RecordTable? {
        guard parts > 1, format == .ndjson || format == .csv || format == .tsv, let size = bytes.knownCount,
              size >= 2 * max(1, minimumPartSize) else { return nil }
        let isCSV = format != .ndjson
        do {
            // CSV: each part's reader reads the header row first (up to the first line break).
            let headerEnd = isCSV ? try lineStart(after: 0) : 0
            guard let headerEnd else { return nil }
            let header = isCSV ? try bytes.copy(0..<headerEnd) : []
            let cuts = try partStarts(parts: min(parts, size / max(1, minimumPartSize)), size: size, from: headerEnd)
            guard cuts.count > 1 else { return nil }
            let ranges = zip(cuts, cuts.dropFirst() + [size]).map { $0..<$1 }
            let input = self
            let read = try OrderedConcurrentMap.mapEachOnItsOwnThread(Array(ranges.enumerated())) { part, range in
                try input.readPart(range, isFirst: part == 0, header: header, options: options, delimiter: delimiter)
            }
            var pieces = read.map(Optional.some)
            var table = pieces[0]!.table
            var lineOffset = pieces[0]!.lineBreaks
            pieces[0] = nil
            for part in 1..<pieces.count {
                let piece = pieces[part]!
                pieces[part] = nil  // each part's table goes as soon as it is joined
                guard !table.keys.wouldOverflow(adding: piece.table.keys.byteCount) else { return nil }
                table.append(part: piece.table, lineOffset: lineOffset)
                lineOffset += piece.lineBreaks
            }
            return table
        } catch {
            return nil
        }
    }

    /// One part's records, and the line breaks in it. The first part's table
    /// is sized for the whole file (room reserved and never written costs
    /// address space, not memory), so the others join it without a copy.
    private func readPart(
        _ range: Range<Int>, isFirst: Bool, header: [UInt8], options: RecordOptions, delimiter: UInt8
    ) throws -> (table: RecordTable, lineBreaks: Int) {
        if format == .ndjson {
            let reader = JSONRecordReader(source: name, layout: .lines, options: options, partStart: range.lowerBound, indexesKeys: false)
            reader.expectedInputSize = range.lowerBound == 0 ? bytes.count : range.count
            try bytes.forEachChunk(in: range, reader.feed, wantsMore: { reader.endsInsideLongToken })
            let table = try reader.finish()
            return (table, reader.lineBreaksRead)
        }
        let reader = CSVRecordReader(source: name, delimiter: delimiter, options: options, indexesKeys: false)
        reader.expectedInputSize = isFirst ? bytes.count : range.count
        if !isFirst {
            try header.withUnsafeBytes { try reader.feed($0) }
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
