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

    private let before: Range<Int>
    private let after: Range<Int>
    /// Inside the brackets of a JSON records array; the whole file otherwise.
    private let inner: Range<Int>
    private let opening: String
    private let closing: String

    package init(_ snapshot: Snapshot) throws {
        self.snapshot = snapshot
        let table = snapshot.records
        let bytes = snapshot.input.bytes
        let count = bytes.count
        let isArray = snapshot.input.format == .json
        let container = isArray ? (table.containerRange ?? 0..<count) : 0..<count
        // What comes before the records and after them, kept whole; in a JSON
        // document, the brackets of the records array go with them.
        let inner = isArray ? (container.lowerBound + 1)..<max(container.lowerBound + 1, container.upperBound - 1) : container
        self.inner = inner
        if table.count > 0 {
            before = 0..<table.starts[0]
            after = table.byteRange(table.count - 1).upperBound..<count
        } else {
            // No records: all of it comes before them, but for a JSON array's
            // closing bracket (and its inside, when records go in).
            before = 0..<inner.lowerBound
            after = inner.upperBound..<count
        }
        let leading = try bytes.copy(0..<min(count, table.count > 0 ? table.starts[0] : count, 1 << 16))
        var sample: [[UInt8]] = []
        var sampled = 0
        for row in 0..<min(table.count, 64) where sampled < JSONStyle.sampleSize {
            let range = table.byteRange(row)
            let cut = range.lowerBound..<min(range.upperBound, range.lowerBound + JSONStyle.sampleSize)
            sample.append(try bytes.copy(cut))
            sampled += cut.count
        }
        var style = snapshot.input.format.isJSON
            ? JSONStyle.learn(records: sample, around: leading, oneRecordPerLine: snapshot.input.format == .ndjson) : JSONStyle()
        if snapshot.input.format == .ndjson { style.indent = nil }
        self.style = style
        lineBreak = style.lineBreak
        // Records go at the indentation the first one has (after the last line break before it).
        if table.count > 0, let lastBreak = leading.lastIndex(of: 0x0A) {
            let indentation = leading[(lastBreak + 1)...]
            recordDepth = indentation.allSatisfy { $0 == 0x20 || $0 == 0x09 } ? String(decoding: indentation, as: UTF8.self) : ""
        } else {
            recordDepth = isArray && style.indent != nil ? style.indent! : ""
        }
        if table.count > 0 {
            opening = ""
            closing = ""
        } else if isArray {
            opening = lineBreak + recordDepth
            closing = lineBreak
        } else {
            // An NDJSON or CSV file with no records: each record on a line of its own after what is there.
            let text = try bytes.copy(before)
            let endsLine = text.isEmpty || text.last == 0x0A
            opening = endsLine ? "" : lineBreak
            closing = lineBreak
        }
    }

    /// The text of record `row` as the file holds it.
    package func text(ofRecord row: Int) throws -> [UInt8] {
        try snapshot.input.bytes.copy(snapshot.records.byteRange(row))
    }

    /// The indentation of the closing line of a record's text (what its
    /// inner lines are indented from), or "" for a record on one line.
    package static func depth(ofRecord text: [UInt8]) -> String {
        text.withUnsafeBytes { bytes in
            guard bytes.count > 1, let indentation = JSONStyle.indentation(ofLineAt: bytes.count - 1, in: bytes) else { return "" }
            return String(decoding: indentation, as: UTF8.self)
        }
    }

    /// Writes `records` in the snapshot's place. `prefix`: what replaces the
    /// bytes before the first record (a CSV header whose columns changed,
    /// with its line break); nil keeps the file's.
    package func write(_ records: [Record], prefix: String? = nil, markers: MarkerLines? = nil, to output: inout some TextOutputStream) throws {
        if records.contains(where: { if case .alternatives = $0 { true } else { false } }) {
            return try writeWithAlternatives(records, prefix: prefix, markers: markers!, to: &output)
        }
        let bytes = snapshot.input.bytes
        let table = snapshot.records
        func copy(_ range: Range<Int>) throws {
            guard !range.isEmpty else { return }
            try bytes.forEachPiece(in: range) { output.write($0) }
        }
        func gap(afterRow row: Int) throws -> String {
            String(decoding: try bytes.copy(table.byteRange(row).upperBound..<table.starts[row + 1]), as: UTF8.self)
        }
        if records.isEmpty && table.count > 0 {
            // Every record gone: the brackets close up (a JSON array), the
            // header stays (CSV), what came before the first record stays (NDJSON).
            if snapshot.input.format == .json {
                try copy(0..<inner.lowerBound)
                try copy(inner.upperBound..<bytes.count)
            } else if let prefix {
                output.write(prefix)
            } else {
                try copy(before)
            }
            return
        }
        if let prefix { output.write(prefix) } else { try copy(before) }
        if table.count == 0, records.isEmpty {
            try copy(before.upperBound..<after.lowerBound)
        } else {
            output.write(opening)
        }
        // A typical separator: the file's first, else a line break (after a comma in an array).
        let typical = table.count > 1 ? try gap(afterRow: 0)
            : (snapshot.input.format == .json ? "," : "") + lineBreak + recordDepth
        var previous: Int?? = nil
        for record in records {
            let row: Int? = if case .kept(let row) = record { row } else { nil }
            if let previous {
                output.write(try SeparatorChoice.gap(before: row, after: previous, count: table.count).map(gap) ?? typical)
            }
            switch record {
            case .kept(let row): try copy(table.byteRange(row))
            case .text(let text): output.write(text)
            case .alternatives: preconditionFailure("written by writeWithAlternatives")
            }
            previous = .some(row)
        }
        if table.count == 0 {
            if !records.isEmpty { output.write(closing) }
        }
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
            String(decoding: try bytes.copy(table.byteRange(row).upperBound..<table.starts[row + 1]), as: UTF8.self)
        }
        func withoutComma(_ gap: String) -> String {
            guard isArray, let comma = gap.firstIndex(of: ",") else { return gap }
            var gap = gap
            gap.remove(at: comma)
            return gap
        }
        /// `text` without the spaces and tabs that end it: a marker starts its line.
        func lineStart(_ text: String) -> String {
            var text = text
            while text.last == " " || text.last == "\t" { text.removeLast() }
            return text.utf8.last == 0x0A || text.isEmpty ? text : text + lineBreak
        }
        let lastCertain = records.lastIndex { if case .alternatives = $0 { false } else { true } }
        func record(_ text: String, at index: Int) -> String {
            guard isArray else { return text }
            let before = lastCertain.map { index > $0 } ?? true
            let after = lastCertain.map { index < $0 } ?? false
            return (before && index > 0 ? "," : "") + text + (after ? "," : "")
        }
        var head: String
        if let prefix {
            head = prefix
        } else {
            head = String(decoding: try bytes.copy(before), as: UTF8.self)
        }
        head += opening
        let typical = withoutComma(table.count > 1 ? try gap(afterRow: 0) : (isArray ? "," : "") + lineBreak + recordDepth)
        var pending = head
        var previous: Int?? = nil
        var atLineStart = false
        for (index, element) in records.enumerated() {
            let row: Int? = if case .kept(let row) = element { row } else { nil }
            if let previous {
                pending += try SeparatorChoice.gap(before: row, after: previous, count: table.count).map { withoutComma(try gap(afterRow: $0)) } ?? typical
            }
            if atLineStart, let first = pending.utf8.first, first != 0x0A && first != 0x0D { pending = lineBreak + pending }
            atLineStart = false
            switch element {
            case .kept(let row):
                output.write(pending)
                output.write(record(String(decoding: try bytes.copy(table.byteRange(row)), as: UTF8.self), at: index))
            case .text(let text):
                output.write(pending)
                output.write(record(text, at: index))
            case .alternatives(let ours, let theirs):
                let indentation = String(pending.reversed().prefix { $0 == " " || $0 == "\t" }.reversed())
                output.write(lineStart(pending))
                output.write(markers.start + lineBreak)
                if let ours { output.write(indentation + record(ours, at: index) + lineBreak) }
                output.write(markers.middle + lineBreak)
                if let theirs { output.write(indentation + record(theirs, at: index) + lineBreak) }
                output.write(markers.end)
                atLineStart = true
            }
            pending = ""
            previous = .some(row)
        }
        var tail = table.count == 0 ? closing : ""
        tail += String(decoding: try bytes.copy(after), as: UTF8.self)
        if atLineStart, let first = tail.utf8.first, first != 0x0A && first != 0x0D { tail = lineBreak + tail }
        if atLineStart && tail.isEmpty { tail = lineBreak }
        output.write(tail)
    }
}
