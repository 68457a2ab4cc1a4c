/// Writes a snapshot's records back, changed, in the snapshot's own style:
/// the one writer behind `apply`, `merge` and the git merge driver.
///
/// The bytes the change did not touch are copied as they are: the document
/// around a JSON records array, the header of a CSV file whose columns
/// stay, each record kept, and the bytes between records wherever two
/// records keep their neighbours (indentation, blank lines, CRLF, a missing
/// final newline, a byte order mark). A record written anew takes the
/// separator the file uses next to where it goes, and its text comes from
/// the caller, made with `style` at `recordDepth` (see `JSONStyle`).
package struct SnapshotWriter {
    /// A record of what is written.
    package enum Record {
        /// The snapshot's record at this row, as its bytes are.
        case kept(Int)
        /// A record's full text (JSON, or one CSV row without its line break).
        case text(String)
        /// Two versions of a record between conflict marker lines (nil: that
        /// side has none), written so that keeping either side's lines
        /// leaves a valid file.
        case alternatives(ours: String?, theirs: String?)
    }

    /// The conflict marker lines, without their line breaks.
    package struct MarkerLines: Sendable {
        package var start: String
        package var middle: String
        package var end: String

        package init(start: String, middle: String, end: String) {
            self.start = start
            self.middle = middle
            self.end = end
        }
    }

    package let snapshot: Snapshot
    /// How the snapshot's JSON records are written (unused for CSV).
    package let style: JSONStyle
    /// The indentation of the lines records start on (JSON arrays that span lines).
    package let recordDepth: String
    /// The line break the file uses first.
    package let lineBreak: String
    /// A CSV file whose header line puts every name in quotes.
    package let quotesEveryName: Bool
    /// How each of the CSV file's columns quotes its cells, by column name
    /// (`CSVQuoting.learn`); a column the file does not have takes `otherColumns`.
    let quotingByColumn: [ExactTextKey: CSVQuoting]
    /// The quoting of a column the file does not have: every cell quoted
    /// when every column of the file quotes every cell, cells with a space
    /// when most columns quote those, else only as needed.
    package let otherColumns: CSVQuoting
    /// What replaces the JSON document around the records array (a merge
    /// of it): the text before the array's `[` and the text after its `]`.
    /// Nil copies the file's.
    package var documentAround: (before: String, after: String)?

    private let before: Range<Int>
    private let after: Range<Int>
    /// The records array with its brackets (JSON); the whole file otherwise.
    private let container: Range<Int>
    /// Inside the brackets of a JSON records array; the end of the file otherwise.
    private let inner: Range<Int>
    private let opening: String
    private let closing: String
    /// The separator for two records the file never had side by side: its first, or another version's.
    private let typicalGap: String

    /// A writer over `snapshot`, in its style; what the snapshot does not
    /// show of it (a file of one record on one line has no line break to
    /// copy) is learnt from `others`, other versions of the same file, then
    /// from `style`, another version's as a patch states it.
    package init(_ snapshot: Snapshot, alsoLearningFrom others: [Snapshot] = [], style stated: JSONStyle? = nil) throws {
        self.snapshot = snapshot
        let table = snapshot.records
        let bytes = snapshot.input.bytes
        let count = bytes.count
        let isArray = snapshot.input.format == .json
        let container = isArray ? (table.containerRange ?? 0..<count) : 0..<count
        self.container = container
        // What comes before the records and after them, kept whole; in a JSON
        // document, the brackets of the records array go with them.
        let inner = isArray ? (container.lowerBound + 1)..<max(container.lowerBound + 1, container.upperBound - 1) : count..<count
        self.inner = inner
        if table.count > 0 {
            before = 0..<table.start(0)
            after = table.byteRange(table.count - 1).upperBound..<count
        } else {
            // No records: all of it comes before them, but for a JSON array's
            // closing bracket (and its inside, when records go in).
            before = 0..<inner.lowerBound
            after = inner.upperBound..<count
        }
        let own = try Self.learn(snapshot)
        // What this file cannot show (it has no records, or one) the other versions may.
        // Their layout in this file's indentation unit, when they indent with another.
        let learntFromOthers = others.compactMap { other in
            other.input.format == snapshot.input.format ? try? Self.learn(other) : nil
        }.map { other in
            guard let from = other.style.indent, let to = own.style.indent, from != to else { return other }
            var other = other
            func convert(_ text: String?, wholeLine: Bool = false) -> String? {
                text.map { JSONStyle.converted($0, fromUnit: from, toUnit: to, wholeLine: wholeLine) }
            }
            other.layout.typicalGap = convert(other.layout.typicalGap)
            other.layout.opening = convert(other.layout.opening)
            other.layout.closing = convert(other.layout.closing)
            other.layout.depth = convert(other.layout.depth, wholeLine: true)
            return other
        }
        var style = learntFromOthers.reduce(own.style) { $0.completed(by: $1.style) }
        if let stated { style = style.completed(by: stated) }
        if snapshot.input.format != .json { style.indent = nil }
        // An empty records array written with white space inside (`[\n]`,
        // `[ ]`), or inside a document that indents its lines, with no other
        // version to show how records go in it: records go on lines of their
        // own, one level in from the line of its closing bracket, at the unit
        // the document around it indents with (else two spaces).
        var emptyArray: (depth: String, closing: String)?
        if isArray, table.count == 0, !learntFromOthers.contains(where: { $0.layout.opening != nil }) {
            let insideText = try bytes.copy(inner)
            let documentUnit = Self.indentUnit(ofDocument: own.head)
            if insideText.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }), !insideText.isEmpty || documentUnit != nil {
                let closingIndent: [UInt8], closingText: String
                if let lastBreak = insideText.lastIndex(of: 0x0A) {
                    closingIndent = Array(insideText[(lastBreak + 1)...])
                    let lineStart = lastBreak > 0 && insideText[lastBreak - 1] == 0x0D ? lastBreak - 1 : lastBreak
                    closingText = String(decoding: insideText[lineStart...], as: UTF8.self)
                } else {
                    // On the line of its `[`: that line's indentation.
                    let lineBefore = try bytes.copy(max(0, container.lowerBound - 4096)..<container.lowerBound)
                    let line = lineBefore.lastIndex(of: 0x0A).map { lineBefore[($0 + 1)...] } ?? lineBefore[...]
                    closingIndent = Array(line.prefix { $0 == 0x20 || $0 == 0x09 })
                    closingText = style.lineBreak + String(decoding: closingIndent, as: UTF8.self)
                }
                let unit = style.indent ?? documentUnit ?? "  "
                style.indent = unit
                // As pretty-printers write (`json.dumps(indent=)`, `JSON.stringify(_, null, 2)`), unless the file shows otherwise.
                if !style.known.contains(.members) { style.nameSeparator = ": " }
                emptyArray = (String(decoding: closingIndent, as: UTF8.self) + unit, closingText)
            }
        }
        self.style = style
        lineBreak = style.lineBreak
        if snapshot.input.format.isJSON {
            quotesEveryName = false
            quotingByColumn = [:]
            otherColumns = CSVQuoting()
        } else {
            // The header line: is every name quoted? (A quoted header cell may
            // hold a line break: the line ends at the first one outside quotes.)
            let headerLine = Self.firstLine(ofCSV: own.head)
            var header = headerLine.last == 0x0D ? Array(headerLine.dropLast()) : headerLine
            if header.starts(with: byteOrderMark) { header.removeFirst(byteOrderMark.count) }
            // A style guess: a header it cannot split says "no", never stops the write.
            quotesEveryName = !header.isEmpty
                && ((try? CSVRecordReader.rawCells(of: header.span, delimiter: snapshot.delimiter).allSatisfy { header[$0].first == 0x22 }) ?? false)
            var columns = try CSVQuoting.learn(snapshot, headerQuotesEvery: quotesEveryName)
            var names = table.fieldNames ?? []
            // A file with no row to show its quoting (a header alone) quotes as another version does.
            if !(columns.first?.shown ?? false) {
                for other in others where other.input.format == snapshot.input.format {
                    let learnt = try CSVQuoting.learn(other)
                    guard learnt.first?.shown == true else { continue }
                    (columns, names) = (learnt, other.records.fieldNames ?? [])
                    break
                }
            }
            var byName: [ExactTextKey: CSVQuoting] = [:]
            for (name, quoting) in zip(names, columns) where byName[ExactTextKey(name)] == nil { byName[ExactTextKey(name)] = quoting }
            quotingByColumn = byName
            let quotesEveryCell = !columns.isEmpty && columns.allSatisfy { $0.rule == .every }
            let quotingSpaces = columns.filter { $0.rule != .required }.count * 2 > columns.count
            otherColumns = quotesEveryCell ? CSVQuoting(rule: .every, quotesEmpty: columns.allSatisfy(\.quotesEmpty))
                : quotingSpaces ? CSVQuoting(rule: .spaced) : CSVQuoting()
        }
        let layouts = [own.layout] + learntFromOthers.map(\.layout)
        // A CSV row's leading spaces are its first cell's: rows have no indentation to copy.
        recordDepth = snapshot.input.format.isJSON
            ? emptyArray?.depth ?? layouts.lazy.compactMap(\.depth).first ?? (isArray ? style.indent ?? "" : "") : ""
        typicalGap = own.layout.typicalGap ?? learntFromOthers.lazy.compactMap(\.layout.typicalGap).first
            ?? (isArray ? "," : "") + lineBreak + recordDepth
        if table.count > 0 {
            opening = ""
            closing = ""
        } else if isArray {
            opening = learntFromOthers.lazy.compactMap(\.layout.opening).first ?? lineBreak + recordDepth
            closing = learntFromOthers.lazy.compactMap(\.layout.closing).first ?? emptyArray?.closing ?? lineBreak
        } else {
            // An NDJSON or CSV file with no records: each record on a line of its own after what is there.
            let text = try bytes.copy(before)
            let endsLine = text.isEmpty || text.last == 0x0A
            opening = endsLine ? "" : lineBreak
            // The last line ends as the other versions end theirs, if they say; else as this file does.
            let othersEnd = learntFromOthers.lazy.compactMap(\.layout.endsWithLineBreak).first
            closing = (othersEnd ?? endsLine) ? lineBreak : ""
        }
    }

    /// The line break that ends the last line of `bytes` to end in one ("\n" or "\r\n").
    /// The line break that ends the line record `row` ends in the file (the
    /// first after it, before the next record or within the text after the
    /// last), if one comes soon enough to be that line's.
    private func lineBreak(endingRow row: Int) throws -> String? {
        let table = snapshot.records
        let end = row + 1 < table.count ? table.start(row + 1) : snapshot.input.bytes.count
        let start = table.byteRange(row).upperBound
        let following = try snapshot.input.bytes.copy(start..<min(end, start + 4096))
        guard let lineFeed = following.firstIndex(of: 0x0A) else { return nil }
        return lineFeed > 0 && following[lineFeed - 1] == 0x0D ? "\r\n" : "\n"
    }

    static func lastLineBreak(in bytes: [UInt8]) -> String? {
        guard let lineFeed = bytes.lastIndex(of: 0x0A) else { return nil }
        return lineFeed > 0 && bytes[lineFeed - 1] == 0x0D ? "\r\n" : "\n"
    }

    /// `text` with every line break (LF or CRLF) written `lineBreak`.
    static func withLineBreaks(_ text: String, _ lineBreak: String) -> String {
        let bytes = Array(text.utf8)
        guard bytes.contains(0x0A) else { return text }
        let wanted = Array(lineBreak.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 16)
        for (index, byte) in bytes.enumerated() {
            if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { continue }
            if byte == 0x0A { result.append(contentsOf: wanted) } else { result.append(byte) }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The smallest indentation of a line of a JSON document (`text`, around
    /// its records), the unit it indents with; nil when no line is indented.
    static func indentUnit(ofDocument text: [UInt8]) -> String? {
        var best: ArraySlice<UInt8>?
        for line in text.split(separator: 0x0A) {
            let indentation = line.prefix { $0 == 0x20 || $0 == 0x09 }
            guard !indentation.isEmpty, indentation.count < line.count else { continue }
            if best == nil || indentation.count < best!.count { best = indentation }
        }
        return best.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The first line of CSV text, up to the first line feed outside quotes (without it).
    static func firstLine(ofCSV bytes: [UInt8]) -> [UInt8] {
        var quoted = false
        for (index, byte) in bytes.enumerated() {
            if byte == 0x22 { quoted.toggle() }
            if byte == 0x0A && !quoted { return Array(bytes[..<index]) }
        }
        return bytes
    }

    /// The style `snapshot`'s own bytes show, learnt from none of its other versions.
    package static func ownStyle(of snapshot: Snapshot) throws -> JSONStyle {
        try learn(snapshot).style
    }

    /// How a file places its records, where it shows it: the bytes between
    /// two records, before the first and after the last (inside a JSON
    /// array's brackets), the indentation of the lines records start on,
    /// and whether a line break ends the last record's line.
    struct RecordLayout {
        var typicalGap: String?
        var opening: String?
        var closing: String?
        var depth: String?
        var endsWithLineBreak: Bool?
    }

    /// What `snapshot`'s bytes show of its style and layout, its first 64 KiB
    /// (a CSV header), and its first records' text (each cut at
    /// `JSONStyle.sampleSize`, a megabyte in all: a huge first record does
    /// not hide the others).
    private static func learn(_ snapshot: Snapshot) throws -> (style: JSONStyle, layout: RecordLayout, head: [UInt8], sample: [[UInt8]]) {
        let table = snapshot.records
        let bytes = snapshot.input.bytes
        let count = bytes.count
        let firstStart = table.count > 0 ? table.start(0) : count
        let head = try bytes.copy(0..<min(firstStart, 1 << 16))
        // The bytes just before the first record: the end of the line it starts on.
        let leading = try bytes.copy(max(0, firstStart - (1 << 16))..<firstStart)
        var sample: [[UInt8]] = []
        var sampled = 0
        for row in 0..<min(table.count, 64) where sampled < 1 << 20 {
            let range = table.byteRange(row)
            let cut = range.lowerBound..<min(range.upperBound, range.lowerBound + JSONStyle.sampleSize)
            sample.append(try bytes.copy(cut))
            sampled += cut.count
            if cut.count < range.count {
                // A huge record's end too: its escapes may all be past the cut.
                sample.append(try bytes.copy(max(cut.upperBound, range.upperBound - JSONStyle.sampleSize)..<range.upperBound))
                sampled += JSONStyle.sampleSize
            }
        }
        let end = table.count > 0 ? table.byteRange(table.count - 1).upperBound : count
        let trailing = try bytes.copy(end..<min(count, end + (1 << 16)))
        func gap(afterRow row: Int) throws -> [UInt8] {
            try bytes.copy(table.byteRange(row).upperBound..<table.start(row + 1))
        }
        let firstGap = table.count > 1 ? try gap(afterRow: 0) : nil
        // The bytes between the first two records hold the line break when nothing else does.
        let style = JSONStyle.learn(records: sample, around: head + leading + (firstGap ?? []) + trailing, oneRecordPerLine: snapshot.input.format != .json)

        var layout = RecordLayout()
        layout.typicalGap = firstGap.map { String(decoding: $0, as: UTF8.self) }
        if table.count > 0 {
            if snapshot.input.format.isJSON { layout.depth = try depth(ofRow: 0, in: snapshot) }
            if snapshot.input.format == .json, let container = table.containerRange {
                layout.opening = String(decoding: try bytes.copy((container.lowerBound + 1)..<firstStart), as: UTF8.self)
                layout.closing = String(decoding: try bytes.copy(end..<max(end, container.upperBound - 1)), as: UTF8.self)
            } else {
                layout.endsWithLineBreak = trailing.prefix(2).contains(0x0A)
            }
        }
        return (style, layout, head, sample)
    }

    /// The indentation record `row` stands at: the indentation of its
    /// closing line, for a record that spans lines (what its inner lines are
    /// indented from), else of the line it starts on.
    package func depth(ofRow row: Int, text: [UInt8]? = nil) throws -> String {
        try Self.depth(ofRow: row, in: snapshot, text: text)
    }

    /// `text`: the record's bytes when the caller has them already (they are not read again).
    package static func depth(ofRow row: Int, in snapshot: Snapshot, text: [UInt8]? = nil) throws -> String {
        let range = snapshot.records.byteRange(row)
        let bytes = snapshot.input.bytes
        let window = 4096
        let tail: [UInt8]
        if let text, text.count <= window {
            tail = text
        } else if let text {
            tail = Array(text.suffix(window))
        } else {
            tail = try bytes.copy(max(range.lowerBound, range.upperBound - window)..<range.upperBound)
        }
        if tail.count < range.count || tail.contains(0x0A) {
            let spanning = depth(ofRecord: tail)
            if !spanning.isEmpty || tail.contains(0x0A) { return spanning }
        }
        // On one line: the spaces and tabs that start the line it starts on,
        // looked for in the few bytes before it first (a record's line is
        // usually short), then in up to `window` of them.
        for reach in [256, window] {
            let before = try bytes.copy(max(0, range.lowerBound - reach)..<range.lowerBound)
            let line: ArraySlice<UInt8>
            if let lineBreak = before.lastIndex(of: 0x0A) {
                line = before[(lineBreak + 1)...]
            } else if range.lowerBound <= reach {
                line = before[...]
            } else if reach < window {
                continue
            } else {
                line = []
            }
            return String(decoding: line.prefix { $0 == 0x20 || $0 == 0x09 }, as: UTF8.self)
        }
        return ""
    }

    /// A record both sides have, in two versions, written once with conflict
    /// markers around only the lines that differ: in a record that spans
    /// lines, the members in conflict, as git marks a conflict in text.
    /// Nil when the versions differ in their first or last line (a record on
    /// one line): the record is then two alternatives.
    package func markedRecord(ours: String, theirs: String, markers: MarkerLines) -> String? {
        let oursLines = Self.lines(ours), theirsLines = Self.lines(theirs)
        guard oursLines.count > 2, theirsLines.count > 2,
              ExactText.same(oursLines[0], theirsLines[0]), ExactText.same(oursLines.last!, theirsLines.last!) else { return nil }
        return marked(oursLines, theirsLines, markers: markers).lines.joined(separator: "\n")
    }

    /// Two versions of text around the records (the JSON document before
    /// the records array, or after it), written once with conflict markers
    /// around the lines that differ, as `markedRecord` marks a record's.
    /// Marker lines start lines: where the text starts inside a line
    /// (`startsLine` false: after the array's `]`) and its first line
    /// differs, a line break goes before the first marker; where the records
    /// follow on its last line (`endsBeforeRecords`) and that line differs, a
    /// line break goes after the last. Either side's lines still make valid
    /// JSON, as line breaks between tokens are white space.
    package func markedText(ours: String, theirs: String, markers: MarkerLines, startsLine: Bool, endsBeforeRecords: Bool) -> String {
        guard !ExactText.same(ours, theirs) else { return ours }
        let (lines, first, last) = marked(Self.lines(ours), Self.lines(theirs), markers: markers)
        var text = lines.joined(separator: "\n")
        if first && !startsLine { text = lineBreak + text }
        if last && endsBeforeRecords { text += lineBreak }
        return text
    }

    /// Lines split at line feeds; a CR stays at the end of its line.
    private static func lines(_ text: String) -> [String] {
        Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Two versions' lines as one list of lines, the stretches that differ
    /// between marker lines; and whether it starts and ends with a stretch in conflict.
    private func marked(_ oursLines: [String], _ theirsLines: [String], markers: MarkerLines) -> (lines: [String], first: Bool, last: Bool) {
        // The longest common subsequence of lines (records are short; past a
        // bound, only the common first and last lines are kept).
        let n = oursLines.count, m = theirsLines.count
        var common: [(Int, Int)] = []
        if n * m <= 1 << 22 {
            var length = [[Int32]](repeating: [Int32](repeating: 0, count: m + 1), count: n + 1)
            for i in stride(from: n - 1, through: 0, by: -1) {
                for j in stride(from: m - 1, through: 0, by: -1) {
                    length[i][j] = ExactText.same(oursLines[i], theirsLines[j]) ? length[i + 1][j + 1] + 1 : max(length[i + 1][j], length[i][j + 1])
                }
            }
            var i = 0, j = 0
            while i < n && j < m {
                if ExactText.same(oursLines[i], theirsLines[j]) {
                    common.append((i, j))
                    i += 1
                    j += 1
                } else if length[i + 1][j] >= length[i][j + 1] {
                    i += 1
                } else {
                    j += 1
                }
            }
        } else {
            var prefix = 0
            while prefix < min(n, m) - 1 && ExactText.same(oursLines[prefix], theirsLines[prefix]) { prefix += 1 }
            var suffix = 0
            while suffix < min(n, m) - prefix && ExactText.same(oursLines[n - 1 - suffix], theirsLines[m - 1 - suffix]) { suffix += 1 }
            common = (0..<prefix).map { ($0, $0) } + (0..<suffix).reversed().map { (n - 1 - $0, m - 1 - $0) }
        }
        let carriageReturn = lineBreak == "\r\n" ? "\r" : ""
        var output: [String] = []
        var (first, last) = (false, false)
        var i = 0, j = 0
        for (nextOurs, nextTheirs) in common + [(n, m)] {
            last = false
            if i < nextOurs || j < nextTheirs {
                if output.isEmpty { first = true }
                output.append(markers.start + carriageReturn)
                output += oursLines[i..<nextOurs]
                output.append(markers.middle + carriageReturn)
                output += theirsLines[j..<nextTheirs]
                output.append(markers.end + carriageReturn)
                last = true
            }
            if nextOurs < n { output.append(oursLines[nextOurs]) }
            i = nextOurs + 1
            j = nextTheirs + 1
        }
        return (output, first, last)
    }

    /// A CSV header line of `names` as this file writes its header, without its line break.
    package func csvRow(_ names: [String]) -> String {
        String(CSVField.row(names, delimiter: snapshot.delimiter, quotingEvery: quotesEveryName).dropLast())
    }

    /// The quoting of each of `columns`, for `csvRow(_:quoting:)`: looked up
    /// once for a result's rows, not once a cell.
    package func csvQuoting(of columns: [String]) -> [CSVQuoting] {
        columns.map { quotingByColumn[ExactTextKey($0)] ?? otherColumns }
    }

    /// A CSV row of `fields` (the cells of the columns `quoting` was looked
    /// up for, in order; cells past them as a column the file does not
    /// have) as this file writes one, each cell quoted as the file quotes
    /// its column, without its line break.
    package func csvRow(_ fields: [String], quoting: [CSVQuoting]) -> String {
        if fields.count == 1 && fields[0].isEmpty { return "\"\"" }
        let delimiter = snapshot.delimiter
        return fields.enumerated().map { position, field in
            (position < quoting.count ? quoting[position] : otherColumns).cell(field, delimiter: delimiter)
        }.joined(separator: String(UnicodeScalar(delimiter)))
    }

    /// The text of record `row` as the file holds it.
    package func text(ofRecord row: Int) throws -> [UInt8] {
        try snapshot.input.bytes.copy(snapshot.records.byteRange(row))
    }

    /// The indentation of the closing line of a record's text (what its
    /// inner lines are indented from), or "" for a record on one line.
    static func depth(ofRecord text: [UInt8]) -> String {
        guard text.count > 1, let indentation = JSONStyle.indentation(ofLineAt: text.count - 1, in: text) else { return "" }
        return String(decoding: indentation, as: UTF8.self)
    }

    /// `range` of the file, with `documentAround`'s text in place of the
    /// part of the document around the records array that it covers: the
    /// text goes to `text`, the bytes still to copy to `bytes`.
    private func aroundDocument(_ range: Range<Int>, text: (String) -> Void, bytes: (Range<Int>) throws -> Void) rethrows {
        guard let documentAround else { return try bytes(range) }
        var range = range
        if range.lowerBound < container.lowerBound {
            text(documentAround.before)
            range = container.lowerBound..<max(container.lowerBound, range.upperBound)
        }
        let reachesPast = range.upperBound > container.upperBound
        if reachesPast { range = min(range.lowerBound, container.upperBound)..<container.upperBound }
        try bytes(range)
        if reachesPast { text(documentAround.after) }
    }

    /// `range` of the file as text, the document around the records as `documentAround` has it.
    private func text(_ range: Range<Int>) throws -> String {
        var result = ""
        try aroundDocument(range, text: { result += $0 }) { result += String(decoding: try snapshot.input.bytes.copy($0), as: UTF8.self) }
        return result
    }

    /// Writes `records` in the snapshot's place. `prefix`: what replaces the
    /// bytes before the first record (a CSV header whose columns changed,
    /// with its line break); nil keeps the file's.
    package func write(_ records: [Record], prefix: String? = nil, markers: MarkerLines? = nil, to output: inout some TextOutputStream) throws {
        if records.contains(where: { if case .alternatives = $0 { true } else { false } }) {
            return try writeWithAlternatives(records, prefix: prefix, markers: markers!, to: &output)
        }
        try write(count: records.count, prefix: prefix, to: &output) { records[$0] }
    }

    /// `write` for `count` records made one at a time by `record` (never
    /// `.alternatives`), in order: a result of a million records is never
    /// held as texts at once.
    package func write(count: Int, prefix: String? = nil, to output: inout some TextOutputStream, record: (Int) throws -> Record) throws {
        let bytes = snapshot.input.bytes
        let table = snapshot.records
        func copy(_ range: Range<Int>) throws {
            try aroundDocument(range, text: { output.write($0) }) { range in
                guard !range.isEmpty else { return }
                try bytes.forEachPiece(in: range) { output.write($0) }
            }
        }
        if count == 0 && table.count > 0 {
            // Every record gone: the brackets close up (a JSON array), the
            // header stays (CSV), what came before the first record stays (NDJSON).
            if snapshot.input.format == .json {
                try copy(0..<inner.lowerBound)
                try copy(inner.upperBound..<bytes.count)
            } else {
                // Without a final line break after the last record, none after what is left.
                var text = try prefix ?? self.text(before)
                if after.isEmpty, text.utf8.last == 0x0A {
                    text.removeLast()
                }
                output.write(text)
            }
            return
        }
        if let prefix { output.write(prefix) } else { try copy(before) }
        if table.count == 0, count == 0 {
            try copy(before.upperBound..<after.lowerBound)
        } else {
            output.write(opening)
        }
        // In a file whose lines end both ways, a line written anew ends as
        // the line before it does: the last line break copied from the file.
        var neighbourLineBreak = try Self.lastLineBreak(in: bytes.copy(max(0, before.upperBound - 256)..<before.upperBound)) ?? lineBreak
        var previous: Int?? = nil
        // Kept records that stand as the file has them, one after the other,
        // go out as one copy of their bytes and the gaps between them.
        var run: Range<Int>?
        func flush() throws {
            if let pending = run { try copy(pending) }
            run = nil
        }
        for index in 0..<count {
            let record = try record(index)
            let row: Int? = if case .kept(let row) = record { row } else { nil }
            if let row, let pending = run, case .some(.some(let last)) = previous, last + 1 == row {
                run = pending.lowerBound..<table.byteRange(row).upperBound
                previous = .some(row)
                continue
            }
            try flush()
            if let previous {
                // The line before ends as it does in the file, whatever separator comes next.
                if case .some(let last) = previous, let ending = try lineBreak(endingRow: last) { neighbourLineBreak = ending }
                if let gapRow = SeparatorChoice.gap(before: row, after: previous, count: table.count) {
                    let gap = table.byteRange(gapRow).upperBound..<table.start(gapRow + 1)
                    if case .some(let last) = previous, last == gapRow {
                        try copy(gap)
                    } else if gap.count <= 4096 {
                        // A separator from elsewhere in the file, with the line break of the line it now ends.
                        output.write(Self.withLineBreaks(String(decoding: try bytes.copy(gap), as: UTF8.self), neighbourLineBreak))
                    } else {
                        try copy(gap)
                    }
                } else {
                    output.write(Self.withLineBreaks(typicalGap, neighbourLineBreak))
                }
            }
            switch record {
            case .kept(let row): run = table.byteRange(row)
            case .text(let text):
                // Line breaks inside JSON text are white space; inside a CSV row, a quoted cell's own.
                output.write(snapshot.input.format.isJSON ? Self.withLineBreaks(text, neighbourLineBreak) : text)
            case .alternatives: preconditionFailure("written by writeWithAlternatives")
            }
            previous = .some(row)
        }
        try flush()
        if table.count == 0 && count > 0 { output.write(closing) }
        try copy(after)
    }

    /// `write` for a result with conflicts. Marker lines must start lines,
    /// and in a JSON array either side's lines must leave the commas right:
    /// records up to the last one that is not a conflict carry their comma
    /// after them, records past it carry it in front, so a side with no
    /// record there leaves none dangling. The bytes between records are the
    /// file's, as `write` picks them, with their comma taken out.
    private func writeWithAlternatives(_ records: [Record], prefix: String?, markers: MarkerLines, to output: inout some TextOutputStream) throws {
        let bytes = snapshot.input.bytes
        let table = snapshot.records
        let isArray = snapshot.input.format == .json
        func gap(afterRow row: Int) throws -> String {
            String(decoding: try bytes.copy(table.byteRange(row).upperBound..<table.start(row + 1)), as: UTF8.self)
        }
        func withoutComma(_ gap: String) -> String {
            guard isArray, let comma = gap.firstIndex(of: ",") else { return gap }
            var gap = gap
            gap.remove(at: comma)
            return gap
        }
        let lastCertain = records.lastIndex { if case .alternatives = $0 { false } else { true } }
        // Whether a record of each side was written yet: with no record
        // certain, each side's records carry a comma in front after its first.
        var oursHasOne = false, theirsHasOne = false
        func record(_ text: String, at index: Int, sideHasOne: Bool) -> String {
            guard isArray else { return text }
            guard let lastCertain else { return (sideHasOne ? "," : "") + text }
            return (index > lastCertain ? "," : "") + text + (index < lastCertain ? "," : "")
        }
        var endsLine = true
        func emit(_ text: String) {
            guard !text.isEmpty else { return }
            output.write(text)
            endsLine = text.utf8.last == 0x0A
        }
        var pending: String
        if let prefix {
            pending = prefix
        } else {
            pending = try text(before)
        }
        pending += opening
        let typical = withoutComma(typicalGap)
        var previous: Int?? = nil
        // After a closing marker, what follows starts a line of its own.
        var owesLineBreak = false
        for (index, element) in records.enumerated() {
            let row: Int? = if case .kept(let row) = element { row } else { nil }
            if let previous {
                pending += try SeparatorChoice.gap(before: row, after: previous, count: table.count).map { withoutComma(try gap(afterRow: $0)) } ?? typical
            }
            if owesLineBreak && pending.utf8.first != 0x0A && pending.utf8.first != 0x0D { pending = lineBreak + pending }
            owesLineBreak = false
            switch element {
            case .kept(let row):
                emit(pending)
                emit(record(String(decoding: try bytes.copy(table.byteRange(row)), as: UTF8.self), at: index, sideHasOne: true))
                (oursHasOne, theirsHasOne) = (true, true)
            case .text(let text):
                emit(pending)
                emit(record(text, at: index, sideHasOne: true))
                (oursHasOne, theirsHasOne) = (true, true)
            case .alternatives(let ours, let theirs):
                // The indentation the record would have had goes inside the markers, which start their lines.
                let indentation = String(pending.reversed().prefix { $0 == " " || $0 == "\t" }.reversed())
                emit(String(pending.dropLast(indentation.count)))
                if !endsLine { emit(lineBreak) }
                emit(markers.start + lineBreak)
                if let ours {
                    emit(indentation + record(ours, at: index, sideHasOne: oursHasOne) + lineBreak)
                    oursHasOne = true
                }
                emit(markers.middle + lineBreak)
                if let theirs {
                    emit(indentation + record(theirs, at: index, sideHasOne: theirsHasOne) + lineBreak)
                    theirsHasOne = true
                }
                emit(markers.end)
                owesLineBreak = true
            }
            pending = ""
            previous = .some(row)
        }
        var tail = table.count == 0 ? closing : ""
        tail += try text(after)
        if owesLineBreak && tail.utf8.first != 0x0A && tail.utf8.first != 0x0D { tail = lineBreak + tail }
        emit(tail)
    }
}
