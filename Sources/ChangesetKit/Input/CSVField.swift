/// Writing CSV fields (RFC 4180).
enum CSVField {
    /// The text a CSV cell holds for a value (`Value.cellText`), empty for a missing field.
    static func cell(_ value: Value?) -> String {
        value?.cellText ?? ""
    }

    /// One row and its line break. A row of one empty field is written `""`:
    /// an empty line would be read as a blank line and skipped.
    /// `quotingEvery`: every field in quotes, as some files write them.
    static func row(_ fields: [String], delimiter: UInt8, quotingEvery: Bool = false) -> String {
        if fields.count == 1 && fields[0].isEmpty { return "\"\"\n" }
        return fields.map { quotingEvery ? inQuotes($0) : quoted($0, delimiter: delimiter) }
            .joined(separator: String(UnicodeScalar(delimiter))) + "\n"
    }

    /// The field quoted when it holds the delimiter, a quote or a line break,
    /// or starts with U+FEFF (at the start of a file a reader would take it
    /// for a byte order mark). Bytes, not Characters: a quote or comma
    /// followed by a combining mark is one Character, but still a quote or
    /// comma to a CSV reader.
    static func quoted(_ text: String, delimiter: UInt8) -> String {
        guard text.utf8.contains(where: { $0 == delimiter || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D })
            || text.utf8.starts(with: byteOrderMark)
        else { return text }
        return inQuotes(text)
    }

    /// The field between quotes, its quotes doubled.
    static func inQuotes(_ text: String) -> String {
        var bytes: [UInt8] = [0x22]
        for byte in text.utf8 {
            bytes.append(byte)
            if byte == 0x22 { bytes.append(0x22) }
        }
        bytes.append(0x22)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// How a CSV file quotes the cells of one column, learnt from its rows so
/// that a cell written into the file looks like the column's others: some
/// writers quote every cell, some every cell holding a space (dr5hn's
/// countries-states-cities files), most only the cells that must be.
package struct CSVQuoting: Sendable, Equatable {
    package enum Rule: Sendable, Equatable {
        /// Quotes only where a reader needs them (the delimiter, a quote, a line break).
        case required
        /// Also every cell that holds a space.
        case spaced
        /// Every cell that is not empty.
        case every
    }

    package var rule = Rule.required
    /// An empty cell written `""`.
    package var quotesEmpty = false
    /// Whether the file showed its habit: some cell of its rows voted (a
    /// file without rows, or whose cells all must be quoted, shows none).
    package var shown = false

    package init(rule: Rule = .required, quotesEmpty: Bool = false) {
        self.rule = rule
        self.quotesEmpty = quotesEmpty
    }

    /// How many rows `learn` reads: enough that a column whose first rows
    /// hold no space still shows how it quotes one, bounded for huge files.
    static let sampleRows = 4096
    static let sampleBytes = 1 << 22

    /// The same habit as `other`, or one of the two files did not show its own.
    func agrees(with other: CSVQuoting) -> Bool {
        !shown || !other.shown || (rule == other.rule && quotesEmpty == other.quotesEmpty)
    }

    /// `text` as a cell of this column.
    func cell(_ text: String, delimiter: UInt8) -> String {
        if text.isEmpty { return quotesEmpty ? "\"\"" : "" }
        switch rule {
        case .every: return CSVField.inQuotes(text)
        case .spaced where text.utf8.contains(0x20): return CSVField.inQuotes(text)
        default: return CSVField.quoted(text, delimiter: delimiter)
        }
    }

    /// Each column's quoting (by position in the header), by a vote of
    /// its cells in the snapshot's first `sampleRows` rows: among the cells
    /// that need no quotes, are those without a space mostly quoted (every
    /// cell), else those with one (spaced)? A column with no cell of a kind
    /// takes the vote of the whole file's; empty cells vote on their own. A
    /// row that cannot be split says nothing (a style guess never stops a write).
    /// `headerQuotesEvery`: the header quotes every name, what a file with
    /// no cell that needs no quotes shows of its habit.
    static func learn(_ snapshot: Snapshot, headerQuotesEvery: Bool = false) throws -> [CSVQuoting] {
        let table = snapshot.records
        let columns = table.fieldNames?.count ?? 0
        guard columns > 0 else { return [] }
        struct Votes { var quotedSpaced = 0, bareSpaced = 0, quotedPlain = 0, barePlain = 0, quotedEmpty = 0, bareEmpty = 0 }
        var votes = [Votes](repeating: Votes(), count: columns)
        var read = 0
        for row in 0..<min(table.count, sampleRows) where read < sampleBytes {
            let bytes = try snapshot.input.bytes.copy(table.byteRange(row))
            read += bytes.count
            guard let cells = try? CSVRecordReader.rawCells(of: bytes.span, delimiter: snapshot.delimiter) else { continue }
            for (column, range) in cells.prefix(columns).enumerated() {
                let raw = bytes[range]
                let quoted = raw.first == 0x22
                let content = quoted ? raw.dropFirst().dropLast() : raw
                if content.isEmpty {
                    if quoted { votes[column].quotedEmpty += 1 } else { votes[column].bareEmpty += 1 }
                    continue
                }
                // A cell that must be quoted says nothing of the column's habit.
                if content.contains(where: { $0 == snapshot.delimiter || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) { continue }
                if content.contains(0x20) {
                    if quoted { votes[column].quotedSpaced += 1 } else { votes[column].bareSpaced += 1 }
                } else {
                    if quoted { votes[column].quotedPlain += 1 } else { votes[column].barePlain += 1 }
                }
            }
        }
        // A column that shows no cell of a kind (no cell with a space yet) quotes it as the file's other columns do.
        let quotesSpaced = votes.reduce(0) { $0 + $1.quotedSpaced } > votes.reduce(0) { $0 + $1.bareSpaced }
        let (quotedPlain, barePlain) = (votes.reduce(0) { $0 + $1.quotedPlain }, votes.reduce(0) { $0 + $1.barePlain })
        let quotesPlain = quotedPlain + barePlain > 0 ? quotedPlain > barePlain : headerQuotesEvery
        let shown = quotedPlain + barePlain + votes.reduce(0) { $0 + $1.quotedSpaced + $1.bareSpaced } > 0
        return votes.map { vote in
            let every = vote.quotedPlain + vote.barePlain > 0 ? vote.quotedPlain > vote.barePlain : quotesPlain
            let spaced = vote.quotedSpaced + vote.bareSpaced > 0 ? vote.quotedSpaced > vote.bareSpaced : quotesSpaced
            let rule: Rule = every ? .every : spaced ? .spaced : .required
            // No empty cell seen: as the column quotes the others.
            let quotesEmpty = vote.quotedEmpty > vote.bareEmpty || (vote.quotedEmpty == vote.bareEmpty && rule == .every)
            var quoting = CSVQuoting(rule: rule, quotesEmpty: quotesEmpty)
            quoting.shown = shown
            return quoting
        }
    }
}
