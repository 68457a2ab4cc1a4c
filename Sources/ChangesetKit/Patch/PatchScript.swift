import Foundation

/// A replayable patch: what `--format patch` writes and `changeset apply` reads.
///
/// Grammar (one item per line; lines end with LF; `#` starts a comment line;
/// blank lines are ignored):
///
///     changeset-patch VERSION            2, or 3 when there is a style line
///     base FORMAT COUNT FINGERPRINT      the snapshot the patch applies to
///     [records-at PATH]                  JSON: the records array in the document
///     [delimiter JSON-STRING]            CSV/TSV: a delimiter other than the default
///     [columns JSON-ARRAY]               CSV/TSV output: the header to write
///     [style JSON-OBJECT]                JSON: how NEW's records are laid out
///     result COUNT FINGERPRINT           the snapshot the patch builds
///     delete OLD
///     insert NEW RECORD
///     move OLD NEW [RECORD]              RECORD when the moved record also changed
///     update OLD RECORD
///     end                                the last line: nothing but comments after it
///
/// FORMAT is json, ndjson, csv or tsv; COUNT a record count; FINGERPRINT 16
/// hex digits (see `SnapshotFingerprint`); RECORD a JSON object on one line,
/// the record's whole new content. OLD is a 0-based index in the base, NEW in
/// the result; the operations follow UIKit's batch-update rules: deletions,
/// updates and move sources name base positions, insertions and move targets
/// result positions.
///
/// The `style` line says what NEW's file showed of its layout (`JSONStyle`:
/// `lineBreak`, `indent` (null for records on one line), `nameSeparator`,
/// `inlineSeparator`, `escapesNonASCII`, `uppercaseHex`), only the parts it
/// showed. `apply` writes in OLD's layout and takes from it only what OLD
/// cannot show (a file of one record on one line has no line break to
/// copy), as a merge learns from the other versions of a file.
///
/// The `result` fingerprint is the one the `base` line uses, of the snapshot
/// `apply` writes, read as the base is (its format's rules, the same
/// `records-at`, `columns` as its header): `apply` works it out before it
/// writes anything and refuses a patch whose records build another result
/// (an edited, added or dropped line). A patch without its `end` line was cut
/// short, and is refused. Version 1 had neither; it is refused with a request
/// to make the patch again.
package struct PatchScript: Equatable, Sendable {
    /// The newest format this changeset reads and writes. A patch is written
    /// in the oldest format that holds it, so older changesets apply what
    /// they can: format 3 is format 2 with a `style` line.
    package static let version = 3
    /// The oldest format this changeset reads (format 1 had no result fingerprint).
    package static let oldestVersion = 2
    /// The first line of a patch with no `style` line.
    package static let header = "changeset-patch \(oldestVersion)"
    package static let endLine = "end"

    package enum Operation: Equatable, Sendable {
        case delete(old: Int)
        case insert(new: Int, record: String)
        case move(old: Int, new: Int, record: String?)
        case update(old: Int, record: String)
    }

    package var baseFormat: InputFormat
    package var base: SnapshotFingerprint
    package var recordsAt: FieldPath?
    package var delimiter: UInt8?
    package var columns: [String]?
    /// NEW's layout, for what the base's file does not show of its own.
    package var style: JSONStyle?
    /// The snapshot the patch builds: its record count and fingerprint.
    package var result: SnapshotFingerprint
    package var operations: [Operation]
    /// Where each operation stands in the patch file (1-based lines), for errors; empty for a patch made in memory.
    package var operationLines: [Int] = []
    /// The line of the `result` header.
    package var resultLine = 0

    package init(
        baseFormat: InputFormat, base: SnapshotFingerprint, recordsAt: FieldPath? = nil, delimiter: UInt8? = nil,
        columns: [String]? = nil, style: JSONStyle? = nil, result: SnapshotFingerprint, operations: [Operation]
    ) {
        self.style = style
        self.baseFormat = baseFormat
        self.base = base
        self.recordsAt = recordsAt
        self.delimiter = delimiter
        self.columns = columns
        self.result = result
        self.operations = operations
    }

    /// The number of records in the result.
    package var resultCount: Int { result.records }

    /// The header lines, up to and including `result`.
    package var headerText: String {
        var text = "changeset-patch \(style == nil ? PatchScript.oldestVersion : PatchScript.version)\n"
        text += "base \(baseFormat.rawValue) \(base.records) \(base)\n"
        if let recordsAt { text += "records-at \(recordsAt)\n" }
        if let delimiter {
            text += "delimiter "
            Value.writeJSONString(String(UnicodeScalar(delimiter)), to: &text)
            text += "\n"
        }
        if let columns {
            text += "columns " + Value.array(columns.map { .string($0) }).jsonText + "\n"
        }
        if let style, let value = Self.value(of: style) { text += "style " + value.jsonText + "\n" }
        text += "result \(result.records) \(result)\n"
        return text
    }

    /// The `style` line's object: the parts of `style` it knows.
    static func value(of style: JSONStyle) -> Value? {
        var members: [Value.Member] = []
        if style.known.contains(.lineBreak) { members.append(.init(name: "lineBreak", value: .string(style.lineBreak))) }
        if style.known.contains(.members) {
            members.append(.init(name: "indent", value: style.indent.map(Value.string) ?? .null))
            members.append(.init(name: "nameSeparator", value: .string(style.nameSeparator)))
            members.append(.init(name: "inlineSeparator", value: .string(style.inlineSeparator)))
        }
        if style.known.contains(.escaping) {
            members.append(.init(name: "escapesNonASCII", value: .bool(style.escapesNonASCII)))
            members.append(.init(name: "uppercaseHex", value: .bool(style.uppercaseHex)))
        }
        return members.isEmpty ? nil : .object(members)
    }

    /// The style a `style` line's object describes, or why it describes none:
    /// line breaks are LF or CRLF, indentation and the space around
    /// separators spaces and tabs (anything else would put other text in
    /// the file `apply` writes).
    static func style(from value: Value) -> Result<JSONStyle, StyleError> {
        guard case .object(let members) = value else { return .failure(StyleError(message: "the style must be a JSON object")) }
        var style = JSONStyle()
        func blank(_ text: Substring) -> Bool { text.allSatisfy { $0 == " " || $0 == "\t" } }
        for member in members {
            switch (member.name, member.value) {
            case ("lineBreak", .string(let text)) where text == "\n" || text == "\r\n":
                style.lineBreak = text
                style.known.insert(.lineBreak)
            case ("indent", .null):
                style.indent = nil
                style.known.insert(.members)
            case ("indent", .string(let text)) where !text.isEmpty && blank(Substring(text)):
                style.indent = text
                style.known.insert(.members)
            case ("nameSeparator", .string(let text)) where text.filter({ $0 == ":" }).count == 1 && blank(Substring(text.filter { $0 != ":" })):
                style.nameSeparator = text
                style.known.insert(.members)
            case ("inlineSeparator", .string(let text)) where text.filter({ $0 == "," }).count == 1 && blank(Substring(text.filter { $0 != "," })):
                style.inlineSeparator = text
                style.known.insert(.members)
            case ("escapesNonASCII", .bool(let flag)):
                style.escapesNonASCII = flag
                style.known.insert(.escaping)
            case ("uppercaseHex", .bool(let flag)):
                style.uppercaseHex = flag
                style.known.insert(.escaping)
            default:
                return .failure(StyleError(message: "the style's member \"\(TerminalText.datum(member.name))\" is unknown or holds a value it cannot have"))
            }
        }
        return .success(style)
    }

    struct StyleError: Error {
        var message: String
    }

    /// The last line, after the operations.
    package static var trailerText: String { endLine + "\n" }

    package static func line(_ operation: Operation) -> String {
        switch operation {
        case .delete(let old): "delete \(old)\n"
        case .insert(let new, let record): "insert \(new) \(record)\n"
        case .move(let old, let new, let record?): "move \(old) \(new) \(record)\n"
        case .move(let old, let new, nil): "move \(old) \(new)\n"
        case .update(let old, let record): "update \(old) \(record)\n"
        }
    }

    /// The text of the script, as `--format patch` writes it. A records-at
    /// path with a control character in a name has no text that reads back
    /// (see `Comparison.write`, which refuses it).
    package var text: String {
        operations.reduce(headerText) { $0 + PatchScript.line($1) } + PatchScript.trailerText
    }

    // MARK: Parsing

    /// Reads a patch; errors name the patch file, line and column.
    package static func parse(_ bytes: [UInt8], source: String) throws -> PatchScript {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw InputError(source: source, location: nil, message: "not a changeset patch: the file is not UTF-8 text")
        }
        // Lines end at LF or CRLF ("\r\n" is one Character in Swift, so both are named).
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated()
            .map { (number: $0.offset + 1, text: $0.element) }
            .filter { !$0.text.isEmpty && !$0.text.hasPrefix("#") }
        func fail(_ line: Int, _ column: Int, _ message: String) -> InputError {
            InputError(source: source, location: InputLocation(line: line, column: column), message: message)
        }
        let readable = (PatchScript.oldestVersion...PatchScript.version).map { "changeset-patch \($0)" }
        guard let first = lines.first, readable.contains(String(first.text)) else {
            let line = lines.first?.number ?? 1
            if let first = lines.first, first.text.hasPrefix("changeset-patch "),
                let version = Int(first.text.dropFirst("changeset-patch ".count)), version >= 1 {
                if version < PatchScript.oldestVersion {
                    throw InputError(source: source, location: InputLocation(line: line, column: 1), parts: [
                        .text("this patch was made by an older changeset (patch format \(version)): it has no fingerprint "
                              + "of its result, so a cut or edited copy could not be told from a whole one; make the patch again "
                              + "with this changeset ("),
                        .alternative(library: "the output format .patch", command: "changeset OLD NEW --format patch"), .text(")"),
                    ])
                }
                throw fail(line, 1, "this patch was made by a newer changeset (patch format \(version)); this one reads formats "
                    + "\(PatchScript.oldestVersion) to \(PatchScript.version)")
            }
            throw fail(line, 1, "not a changeset patch: the first line must be \"\(readable.joined(separator: "\" or \""))\"")
        }
        lines.removeFirst()

        var baseFormat: InputFormat?
        var base: SnapshotFingerprint?
        var recordsAt: FieldPath?
        var delimiter: UInt8?
        var columns: [String]?
        var style: JSONStyle?
        var result: SnapshotFingerprint?
        var resultLine = 0
        var operations: [Operation] = []
        var operationLines: [Int] = []
        var endLine: Int?

        for line in lines {
            var fields = PatchFields(line.text, line: line.number, source: source)
            if let endLine { throw fail(line.number, 1, "text after the \"\(PatchScript.endLine)\" line (line \(endLine))") }
            let keyword = try fields.word("a keyword")
            switch keyword {
            case "base":
                guard baseFormat == nil else { throw fail(line.number, 1, "a second \"base\" line") }
                let formatWord = try fields.word("the base format")
                guard let format = InputFormat(rawValue: formatWord) else {
                    throw fields.failure(at: fields.lastStart, "unknown base format \"\(formatWord)\" (json, ndjson, csv or tsv)")
                }
                baseFormat = format
                base = try fields.fingerprint("base")
            case "records-at":
                let text = try fields.rest("a path")
                do { recordsAt = try FieldPath(parsing: text) } catch { throw fields.failure(at: fields.lastStart, "\(error)") }
                if recordsAt!.holdsControlCharacter {
                    // Written as it stands on its line, such a name would not read back as itself (a CR before the LF is a line end).
                    throw fields.failure(at: fields.lastStart, "a records-at path with a control character in a name cannot be carried by a patch")
                }
            case "delimiter":
                let value = try fields.json("a delimiter as a JSON string")
                guard case .string(let character) = value, character.utf8.count == 1 else {
                    throw fields.failure(at: fields.lastStart, "the delimiter must be one ASCII character in a JSON string")
                }
                delimiter = character.utf8.first
            case "columns":
                let value = try fields.json("the columns as a JSON array of strings")
                guard case .array(let names) = value else {
                    throw fields.failure(at: fields.lastStart, "the columns must be a JSON array of strings")
                }
                columns = try names.map { name in
                    guard case .string(let text) = name else {
                        throw fields.failure(at: fields.lastStart, "the columns must be a JSON array of strings")
                    }
                    return text
                }
            case "style":
                guard style == nil else { throw fail(line.number, 1, "a second \"style\" line") }
                switch Self.style(from: try fields.json("the style as a JSON object")) {
                case .success(let learnt): style = learnt
                case .failure(let error): throw fields.failure(at: fields.lastStart, error.message)
                }
            case "result":
                guard result == nil else { throw fail(line.number, 1, "a second \"result\" line") }
                result = try fields.fingerprint("result")
                resultLine = line.number
            case PatchScript.endLine:
                endLine = line.number
            case "delete", "insert", "move", "update":
                guard base != nil, result != nil else {
                    throw fail(line.number, 1, "\"\(keyword)\" before the \"base\" and \"result\" lines")
                }
                operationLines.append(line.number)
                switch keyword {
                case "delete": operations.append(.delete(old: try fields.count("a base index")))
                case "insert":
                    let index = try fields.count("a result index")
                    operations.append(.insert(new: index, record: try fields.record()))
                case "move":
                    let old = try fields.count("a base index")
                    let new = try fields.count("a result index")
                    operations.append(.move(old: old, new: new, record: fields.isAtEnd ? nil : try fields.record()))
                default:
                    let old = try fields.count("a base index")
                    operations.append(.update(old: old, record: try fields.record()))
                }
            default:
                throw fields.failure(at: 1, "unknown patch line \"\(keyword)\"")
            }
            try fields.expectEnd()
        }
        // Before anything else is missed: a patch cut short lacks the rest too.
        guard endLine != nil else {
            throw fail(lines.last?.number ?? first.number, 1, "the patch ends here without its \"\(PatchScript.endLine)\" line: "
                + "it was cut short, and the rest of the change is missing")
        }
        guard let baseFormat, let base else {
            throw fail((lines.last?.number ?? 1), 1, "the patch has no \"base\" line")
        }
        guard let result else { throw fail((lines.last?.number ?? 1), 1, "the patch has no \"result\" line") }
        var script = PatchScript(
            baseFormat: baseFormat, base: base, recordsAt: recordsAt, delimiter: delimiter, columns: columns,
            style: style, result: result, operations: operations)
        script.operationLines = operationLines
        script.resultLine = resultLine
        return script
    }
}

/// Splits one patch line into its fields, keeping columns for errors. It
/// works on the line's UTF-8 bytes (fields are split at ASCII spaces): a
/// record line of hundreds of megabytes as Characters cost 16 bytes a byte.
/// Columns count code points, as `InputLocation` does, and are counted only
/// for an error.
private struct PatchFields {
    let bytes: [UInt8]
    let line: Int
    let source: String
    var index = 0
    /// The byte where the last field read starts.
    var lastStartByte = 0

    init(_ text: Substring, line: Int, source: String) {
        bytes = Array(text.utf8)
        self.line = line
        self.source = source
    }

    /// The 1-based column of the byte at `offset`.
    func column(_ offset: Int) -> Int {
        bytes[..<min(offset, bytes.count)].reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    }

    var lastStart: Int { column(lastStartByte) }

    func failure(at column: Int, _ message: String) -> InputError {
        InputError(source: source, location: InputLocation(line: line, column: column), message: message)
    }

    var isAtEnd: Bool {
        var probe = index
        while probe < bytes.count && bytes[probe] == 0x20 { probe += 1 }
        return probe == bytes.count
    }

    mutating func skipSpaces() {
        while index < bytes.count && bytes[index] == 0x20 { index += 1 }
        lastStartByte = index
    }

    mutating func word(_ what: String) throws -> String {
        skipSpaces()
        guard index < bytes.count else { throw failure(at: column(index), "expected \(what)") }
        let start = index
        while index < bytes.count && bytes[index] != 0x20 { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    mutating func count(_ what: String) throws -> Int {
        let text = try word(what)
        guard let value = Int(text), value >= 0, text.allSatisfy(\.isASCII) else {
            throw failure(at: lastStart, "expected \(what), found \"\(TerminalText.datum(text))\"")
        }
        return value
    }

    /// `COUNT FINGERPRINT` of the `base` or `result` line.
    mutating func fingerprint(_ line: String) throws -> SnapshotFingerprint {
        let count = try count("the \(line) record count")
        let hashText = try word("the \(line) fingerprint")
        guard hashText.count == 16, hashText.allSatisfy({ $0.isASCII && $0.isHexDigit }), let hash = UInt64(hashText, radix: 16) else {
            throw failure(at: lastStart, "the \(line) fingerprint must be 16 hex digits")
        }
        return SnapshotFingerprint(records: count, hash: hash)
    }

    /// The bytes from the next field to the end of the line.
    private mutating func restBytes(_ what: String) throws -> Range<Int> {
        skipSpaces()
        guard index < bytes.count else { throw failure(at: column(index), "expected \(what)") }
        defer { index = bytes.count }
        return index..<bytes.count
    }

    mutating func rest(_ what: String) throws -> String {
        String(decoding: bytes[try restBytes(what)], as: UTF8.self)
    }

    mutating func json(_ what: String) throws -> Value {
        let range = try restBytes(what)
        do {
            return try JSONValueReader.read(bytes.span.extracting(range))
        } catch {
            throw failure(at: lastStart, "expected \(what)")
        }
    }

    /// A record: a JSON object, checked as strictly as an input record so a
    /// bad patch fails before anything is written.
    mutating func record() throws -> String {
        // Whitespace around the object is no part of the record (nor a CR before the line's LF).
        var range = try restBytes("a record (a JSON object)")
        let blank: Set<UInt8> = [0x20, 0x09, 0x0D]
        while let first = range.first, blank.contains(bytes[first]) { range = (first + 1)..<range.upperBound }
        while let last = range.last, blank.contains(bytes[last]) { range = range.lowerBound..<(range.upperBound - 1) }
        let reader = JSONRecordReader(source: source, layout: .lines, options: RecordOptions())
        let table: RecordTable
        do {
            try reader.feed(bytes.span.extracting(range))
            table = try reader.finish()
        } catch let problem as InputError {
            let column = lastStart - 1 + (problem.location?.column ?? 1)
            let message = problem.message.replacingOccurrences(of: "a record object on each line", with: "a JSON object")
            throw failure(at: column, "invalid record: \(message)")
        }
        guard table.count == 1 else { throw failure(at: lastStart, "invalid record: expected one JSON object") }
        return String(decoding: bytes[range], as: UTF8.self)
    }

    mutating func expectEnd() throws {
        skipSpaces()
        guard index == bytes.count else { throw failure(at: column(index), "unexpected text at the end of the line") }
    }
}
