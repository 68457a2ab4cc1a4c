internal import CYajl
import Foundation

/// Where the records are in a JSON input.
public enum JSONLayout: Sendable, Equatable {
    /// The document is an array of record objects.
    case array
    /// JSON Lines / NDJSON: one record object per line; blank lines are skipped.
    case lines
    /// The records are the array at this path inside the document (`--records-at`).
    case nested(FieldPath)
}

/// Streams JSON through libyajl and hands back one `RecordTable` row per
/// record, never building a tree of the document.
///
/// Push-style: call `feed` with the input in chunks of any size (the result
/// and any error are the same for every chunking), then `finish`. Big chunks
/// are faster: yajl re-scans a token cut by a chunk boundary from its start,
/// so feeding a huge string in small pieces is quadratic. The file reader
/// feeds a whole mapped file at once.
///
/// Numbers go through yajl's raw number callback and keep their source text:
/// the integer and double callbacks would fail past Int64 and round `1e400`,
/// `1E-999` and `1.000000000000000005`.
///
/// The state is a class's (C callbacks reach it through one pointer), and
/// every access to a class's stored property is checked for exclusivity at
/// run time, which cost a fifth of the reading time. Each stored `var` is
/// marked `@exclusivity(unchecked)`: nothing here is reentrant (one reader,
/// one thread, callbacks never call back into `feed`), and the compile-time
/// checks still apply.
public final class JSONRecordReader {
    public let source: String
    public let layout: JSONLayout
    private let options: RecordOptions
    private let rules: FieldRules
    /// Named nodes a member matched, for `RecordTable.fieldsFound`.
    @exclusivity(unchecked) private var seenNodes: [Bool]
    @exclusivity(unchecked) private var renamesApplied = Set<[UInt8]>()
    private let hasRenames: Bool
    @exclusivity(unchecked) private var builder: RecordTableBuilder
    @exclusivity(unchecked) private var hasher: ValueHasher

    @exclusivity(unchecked) private var handle: yajl_handle?
    @exclusivity(unchecked) private var scanner = JSONTextScanner(startOffset: 0)
    @exclusivity(unchecked) private var scannerStarted = false
    @exclusivity(unchecked) private var byteOrderMark = ByteOrderMarkFilter()

    /// The chunk yajl is parsing and its offset in the file.
    @exclusivity(unchecked) private var chunk = UnsafeRawBufferPointer(start: nil, count: 0)
    @exclusivity(unchecked) private var chunkBase = 0
    @exclusivity(unchecked) private var fileLength = 0

    @exclusivity(unchecked) private var frames: [Frame] = []
    /// Member-name hashes of the open objects, for duplicate-name checks.
    @exclusivity(unchecked) private var memberNames: [UInt64] = []
    @exclusivity(unchecked) private var recordStart = 0
    /// Where the current record starts; its column is counted only for an error.
    @exclusivity(unchecked) private var recordMark = JSONTextScanner.Mark()
    private var recordLocation: SourceLocation { scanner.location(of: recordMark, chunk, chunkBase) }
    @exclusivity(unchecked) private var idParts: [String?]
    @exclusivity(unchecked) private var sectionName: String?
    /// NDJSON: the line the previous record ended on.
    @exclusivity(unchecked) private var previousRecordEndLine = 0
    @exclusivity(unchecked) private var sawRecordsArray = false
    @exclusivity(unchecked) private var recordsArrayStart = 0
    @exclusivity(unchecked) private var failure: InputError?
    @exclusivity(unchecked) private var scratch: [UInt8] = []
    @exclusivity(unchecked) private var schema = SchemaCollector()

    private enum Role {
        /// Outside the records, in a part of the document that is only checked.
        case outside
        /// `--records-at`: an object on the way to the records array.
        case pathStep(depth: Int)
        /// The array whose elements are the records.
        case recordArray
        /// A record or a value inside one.
        case record
    }

    private struct Frame {
        var isObject: Bool
        var role: Role
        /// Member-hash sum (objects) or running element hash (arrays).
        var hash: UInt64
        var count = 0
        /// Trie node of this container, and of the pending member's value.
        var node: Int32
        var pendingNode: Int32 = FieldRules.none
        /// `--only` filters this object's members.
        var filtered: Bool
        var pendingName: UInt64 = 0
        var pendingNameIsPathStep = false
        var namesStart: Int
        var isRecordRoot = false
    }

    /// Member names of objects with many members, by depth, so huge objects stay linear
    /// (kept out of `Frame` so frames hold no references to count).
    @exclusivity(unchecked) private var manyNames: [Int: Set<UInt64>] = [:]

    /// The whole input's size, when known: after the first records it gives an
    /// estimate of the record count, so the tables are sized once.
    public var expectedInputSize: Int?

    /// True when the input fed so far ends inside a token (a string, a
    /// number): the next chunk should be bigger, since yajl reads a cut token
    /// again from its start.
    public var endsInsideToken: Bool { scanner.isInsideToken }

    public init(source: String, layout: JSONLayout, options: RecordOptions) {
        self.source = source
        self.layout = layout
        self.options = options
        self.rules = FieldRules(options)
        self.seenNodes = Array(repeating: false, count: rules.nodes.count)
        self.builder = RecordTableBuilder(source: source, options: options)
        self.hasher = ValueHasher(mode: options.mode)
        self.idParts = Array(repeating: nil, count: options.id.count)
        self.hasRenames = options.appliesRenames && !options.renames.isEmpty
        scratch.reserveCapacity(64)
        handle = yajl_alloc(JSONRecordReader.callbacks, nil, Unmanaged.passUnretained(self).toOpaque())
        // Our scanner validates UTF-8 more strictly than yajl; no need to do it twice.
        _ = changeset_yajl_set_option(handle, yajl_dont_validate_strings, 1)
        if layout == .lines { _ = changeset_yajl_set_option(handle, yajl_allow_multiple_values, 1) }
    }

    deinit {
        if let handle { yajl_free(handle) }
    }

    /// Parses the next piece of the input.
    public func feed(_ bytes: UnsafeRawBufferPointer) throws {
        if let failure { throw failure }
        do {
            try byteOrderMark.process(bytes) { content, base in try parse(content, base: base) }
        } catch {
            failure = error as? InputError
            throw error
        }
    }

    /// Ends the input and returns the records.
    public func finish() throws -> RecordTable {
        if let failure { throw failure }
        do {
            try byteOrderMark.finish { content, base in try parse(content, base: base) }
            fileLength = byteOrderMark.fileOffset
            chunk = UnsafeRawBufferPointer(start: nil, count: 0)
            chunkBase = fileLength
            scanner.finish(chunk, chunkBase: chunkBase)
            if let problem = scanner.failure { throw error(problem.message, at: problem.location) }
            if !scanner.sawToken {
                // Nothing but whitespace.
                if layout == .lines { return builder.table }  // no records, no fields
                throw error("the input is empty; expected \(expectedTopLevel)", at: scanner.location(chunk, chunkBase))
            }
            let status = yajl_complete_parse(handle)
            try check(status)
            if case .nested(let path) = layout, !sawRecordsArray {
                throw error("the document has no \"\(path)\" array of records", at: SourceLocation(line: 1, column: 1))
            }
            let fields = schema.finish()
            builder.setSchema(fields.names, valueCounts: fields.valueCounts)
            builder.setFieldsFound(fieldsFound)
            return builder.table
        } catch {
            failure = error as? InputError
            throw error
        }
    }

    private var expectedTopLevel: String {
        switch layout {
        case .array: "a JSON array of record objects"
        case .lines: "one record object per line"
        case .nested(let path): "an object holding the \"\(path)\" array"
        }
    }

    private func parse(_ content: UnsafeRawBufferPointer, base: Int) throws {
        if !scannerStarted {
            scanner = JSONTextScanner(startOffset: base)
            scannerStarted = true
        }
        guard let start = content.baseAddress, content.count > 0 else { return }
        chunk = content
        chunkBase = base
        let status = yajl_parse(handle, start.assumingMemoryBound(to: UInt8.self), content.count)
        try check(status)
        scanner.scan(content, chunkBase: base, upTo: base + content.count)
        if let problem = scanner.failure { throw error(problem.message, at: problem.location) }
        // Count the columns later errors may need while this chunk's bytes are here.
        recordMark = scanner.resolved(recordMark, content, base)
        scanner.endChunk(content, chunkBase: base)
    }

    private func check(_ status: yajl_status) throws {
        switch status {
        case yajl_status_ok: return
        case yajl_status_client_canceled:
            throw failure ?? error("parsing stopped", at: scanner.location(chunk, chunkBase))
        default:
            throw yajlError()
        }
    }

    // MARK: Errors

    private func error(_ message: String, at location: SourceLocation) -> InputError {
        InputError(source: source, location: location, message: message)
    }

    /// Brings the scanner up to `offset`; if it finds a problem before there,
    /// that problem is the one to report (it comes first in the file).
    private func scanUpTo(_ offset: Int) -> InputError? {
        let end = min(max(offset, scanner.offset), chunkBase + chunk.count)
        if end > scanner.offset, chunk.count > 0 {
            scanner.scan(chunk, chunkBase: chunkBase, upTo: end)
        }
        if let problem = scanner.failure { return error(problem.message, at: problem.location) }
        return nil
    }

    /// Turns yajl's error into ours, placed by what kind of error it is:
    /// yajl stops *at* a bad character inside a string or number, but *after*
    /// a token that is out of place.
    private func yajlError() -> InputError {
        var text = "invalid JSON"
        if let raw = yajl_get_error(handle, 0, nil, 0) {
            text = String(cString: raw)
            yajl_free_error(handle, raw)
        }
        let consumed = chunkBase + Int(yajl_get_bytes_consumed(handle))
        if text.contains("premature EOF") {
            if let earlier = scanUpTo(chunkBase + chunk.count) { return earlier }
            return error("unexpected end of input; expected more JSON", at: scanner.location(chunk, chunkBase))
        }
        let insideToken: [(String, String)] = [
            ("invalid character inside string", "control character must be escaped in a string"),
            ("inside a string, '\\' occurs before a character", "invalid escape sequence in string"),
            ("non-hex) character occurs after '\\u'", "invalid \\u escape in string: four hex digits must follow \\u"),
            ("a digit is required after the decimal point", "malformed number: a digit must follow the decimal point"),
            ("a digit is required after the exponent", "malformed number: a digit must follow the exponent"),
            ("a digit is required after the minus sign", "malformed number: a digit must follow the minus sign"),
            ("probable comment found", "comments are not allowed in JSON"),
            ("invalid bytes in UTF8 string", "invalid UTF-8 in string"),
        ]
        for (pattern, message) in insideToken where text.contains(pattern) {
            if let earlier = scanUpTo(consumed) { return earlier }
            return error(message, at: scanner.location(chunk, chunkBase))
        }
        // The offending token ends at `consumed`: report where it starts.
        if let earlier = scanUpTo(consumed) { return earlier }
        var token = scanner.lastToken
        if text.contains("after key and value") {
            // Here yajl moves its offset back by the length of the token's
            // content, which depends on the token; instead, the offending token
            // is the first one after the last value yajl accepted, read to its end.
            token = scanner.scanThroughToken(after: lastValueEnd, chunk, chunkBase: chunkBase)
            if let problem = scanner.failure { return error(problem.message, at: problem.location) }
        }
        let shown = JSONRecordReader.describeToken(startingWith: token.firstByte)
        let message: String
        if scanner.wordHasLeadingZero && token.firstByte == UInt8(ascii: "0") {
            message = "malformed number: a number may not start with 0 followed by more digits"
        } else if text.contains("trailing garbage") {
            message = layout == .lines
                ? "unexpected \(shown) after a record"
                : "unexpected \(shown) after the end of the JSON document (a .json file holds one document)"
        } else if text.contains("invalid string in json text") {
            message = "invalid literal: expected true, false or null"
        } else if text.contains("invalid char in json text") {
            message = token.firstByte == UInt8(ascii: "'")
                ? "unexpected \(shown): JSON strings use double quotes"
                : "unexpected \(shown); NaN, Infinity and bare words are not JSON"
        } else if text.contains("after array element") {
            message = "expected ',' or ']' after an array element, found \(shown)"
        } else if text.contains("after key and value") {
            message = "expected ',' or '}' after an object member, found \(shown)"
        } else if text.contains("separated by a colon") {
            message = "expected ':' after an object key, found \(shown)"
        } else if text.contains("invalid object key") {
            message = token.firstByte == UInt8(ascii: "}")
                ? "unexpected '}' (a trailing comma is not allowed)"
                : "expected a string as object key, found \(shown)"
        } else if text.contains("unallowed token") {
            message = token.firstByte == UInt8(ascii: "]") || token.firstByte == UInt8(ascii: "}")
                ? "unexpected \(shown) (a trailing comma is not allowed)"
                : "unexpected \(shown)"
        } else {
            message = text.replacingOccurrences(of: "lexical error: ", with: "")
                .replacingOccurrences(of: "parse error: ", with: "")
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return error(message, at: scanner.location(of: token, chunk, chunkBase))
    }

    /// A token as a message names it: strings and numbers by kind, anything else by its first character.
    static func describeToken(startingWith byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "\""): "a string"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): "a number"
        default: describe(byte: byte)
        }
    }

    static func describe(byte: UInt8) -> String {
        if byte == UInt8(ascii: "'") { return "\"'\"" }
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return String(format: "byte 0x%02X", byte)
    }

    /// Fails the parse from inside a callback; returns yajl's "cancel".
    private func cancel(_ message: String, at location: SourceLocation) -> Int32 {
        if failure == nil {
            failure = scanUpTo(callbackOffset) ?? error(message, at: location)
        }
        return 0
    }

    /// Where the token that triggered the current callback starts.
    private func currentTokenStart() -> JSONTextScanner.Mark? {
        if let problem = scanUpTo(callbackOffset) {
            failure = problem
            return nil
        }
        return scanner.lastToken
    }

    private var callbackOffset: Int { chunkBase + Int(yajl_get_bytes_consumed(handle)) }

    /// Where the token of the latest callback ended (for placing one kind of yajl error).
    @exclusivity(unchecked) private var lastValueEnd = 0

    // MARK: Structure

    private enum Kind: String {
        case object = "an object", array = "an array", string = "a string", number = "a number"
        case trueValue = "true", falseValue = "false", null = "null"
    }

    /// Checks that a value may stand where it is, and opens a record when it is one.
    /// Returns the role the value (if a container) takes, or nil after an error.
    private func beginValue(_ kind: Kind) -> Role? {
        guard let parent = frames.last else {
            switch (layout, kind) {
            case (.array, .array): return .recordArray
            case (.lines, .object): return beginRecord()
            case (.nested, .object): return .pathStep(depth: 0)
            default:
                return misplaced(kind, expected: layout == .lines ? "a record object on each line" : expectedTopLevel)
            }
        }
        switch parent.role {
        case .record: return .record
        case .recordArray:
            return kind == .object ? beginRecord() : misplaced(kind, expected: "a record object in the array")
        case .pathStep(let depth):
            guard parent.pendingNameIsPathStep, case .nested(let path) = layout else { return .outside }
            let last = depth + 1 == path.components.count
            switch (last, kind) {
            case (true, .array):
                sawRecordsArray = true
                return .recordArray
            case (false, .object): return .pathStep(depth: depth + 1)
            default:
                let prefix = FieldPath(Array(path.components.prefix(depth + 1)))
                return misplaced(kind, expected: last ? "an array of records at \"\(prefix)\"" : "an object at \"\(prefix)\"")
            }
        case .outside: return .outside
        }
    }

    private func misplaced(_ kind: Kind, expected: String) -> Role? {
        guard let token = currentTokenStart() else { return nil }
        var message = "expected \(expected), found \(kind.rawValue)"
        if layout == .array && frames.isEmpty && kind == .object {
            message += " (use --records-at to name the array inside it, or .ndjson for one record per line)"
        }
        _ = cancel(message, at: scanner.location(of: token, chunk, chunkBase))
        return nil
    }

    private func beginRecord() -> Role? {
        guard let token = currentTokenStart() else { return nil }
        recordStart = token.offset
        recordMark = token
        if layout == .lines && token.line <= previousRecordEndLine {
            _ = cancel("a second record on one line (NDJSON holds one record per line)", at: recordLocation)
            return nil
        }
        for index in idParts.indices { idParts[index] = nil }
        sectionName = nil
        return .record
    }

    /// The deepest nesting of arrays and objects accepted. Reading itself has
    /// no limit, but changed records are shown through recursive code; a
    /// clean error beats a stack overflow, and real data is far shallower.
    public static let maximumDepth = 1000

    private func openContainer(isObject: Bool) -> Int32 {
        lastValueEnd = callbackOffset
        if frames.count >= JSONRecordReader.maximumDepth {
            guard let token = currentTokenStart() else { return 0 }
            return cancel(
                "arrays and objects nest deeper than \(JSONRecordReader.maximumDepth) levels here, more than changeset supports",
                at: scanner.location(of: token, chunk, chunkBase))
        }
        guard let role = beginValue(isObject ? .object : .array) else { return 0 }
        var node = FieldRules.none
        var filtered = false
        var isRoot = false
        if case .record = role {
            if let parent = frames.last, case .record = parent.role {
                if parent.isObject {
                    if !checkKeyField(parent.pendingNode, kind: isObject ? .object : .array) { return 0 }
                    node = parent.pendingNode
                    filtered = rules.isFiltered(node, parentFiltered: parent.filtered)
                }
            } else {
                isRoot = true
                node = rules.isEmpty ? FieldRules.none : FieldRules.root
                filtered = rules.onlyMode
            }
        }
        if case .recordArray = role { recordsArrayStart = callbackOffset - 1 }
        frames.append(Frame(
            isObject: isObject, role: role,
            hash: isObject ? 0 : ValueHasher.arrayStart(),
            node: node, filtered: filtered, namesStart: memberNames.count, isRecordRoot: isRoot))
        return 1
    }

    /// An id or section field must hold a scalar.
    private func checkKeyField(_ node: Int32, kind: Kind) -> Bool {
        guard let role = rules.role(node), role.idComponent >= 0 || role.isSection else { return true }
        guard let token = currentTokenStart() else { return false }
        let what = role.isSection
            ? "section field \"\(options.section?.description ?? "")\""
            : "id field \"\(options.id[role.idComponent])\""
        _ = cancel("the \(what) is \(kind.rawValue); it must be a string or a number", at: scanner.location(of: token, chunk, chunkBase))
        return false
    }

    private func closeContainer() -> Int32 {
        lastValueEnd = callbackOffset
        let frame = frames.removeLast()
        if frame.isRecordRoot && frame.isObject {
            schema.endRecord(memberCount: memberNames.count - frame.namesStart) { memberNames[frame.namesStart...] }
        }
        memberNames.removeSubrange(frame.namesStart...)
        if !manyNames.isEmpty { manyNames[frames.count] = nil }
        if case .recordArray = frame.role { builder.setContainerRange(recordsArrayStart..<callbackOffset) }
        guard case .record = frame.role else { return 1 }
        let hash = frame.isObject
            ? ValueHasher.objectEnd(frame.hash, count: frame.count)
            : ValueHasher.arrayEnd(frame.hash, count: frame.count)
        if frame.isRecordRoot { return endRecord(fingerprint: hash) }
        // An object --only filters that holds none of the named fields carries no value.
        deliver(hash, isEmpty: frame.filtered && frame.count == 0, isObject: frame.isObject)
        return 1
    }

    private func endRecord(fingerprint: UInt64) -> Int32 {
        let end = callbackOffset
        if let problem = scanUpTo(end) {
            failure = problem
            return 0
        }
        if layout == .lines {
            if scanner.line != recordMark.line {
                return cancel("a record must end on the line it starts on (NDJSON holds one record per line)", at: recordLocation)
            }
            previousRecordEndLine = scanner.line
        }
        for (index, part) in idParts.enumerated() where part == nil {
            return cancel("the record has no \"\(options.id[index])\" field (the --id)", at: recordLocation)
        }
        if builder.count == 1024, let size = expectedInputSize, end > 0 {
            builder.reserve(size / max(1, end / 1024) * 11 / 10)
        }
        do {
            try builder.append(
                key: idParts.count == 1 ? idParts[0] : RecordTableBuilder.key(idParts.map { $0! }), section: sectionName, fingerprint: fingerprint,
                range: recordStart..<end, line: recordMark.line, location: recordLocation)
        } catch {
            failure = error as? InputError
            return 0
        }
        return 1
    }

    /// Adds a finished value inside a record to the container that holds it.
    @inline(__always)
    private func deliver(_ hash: UInt64, isEmpty: Bool, isObject: Bool) {
        let top = frames.count - 1
        if frames[top].isObject {
            let node = frames[top].pendingNode
            guard !isEmpty, rules.isCompared(node, inFilteredObject: frames[top].filtered, valueIsObject: isObject) else { return }
            frames[top].hash &+= ValueHasher.member(name: frames[top].pendingName, value: hash)
        } else {
            frames[top].hash = ValueHasher.arrayElement(frames[top].hash, hash)
        }
        frames[top].count += 1
    }

    private func scalar(_ kind: Kind, _ value: ValueHasher.Scalar, text: () -> String?) -> Int32 {
        lastValueEnd = callbackOffset
        guard let parent = frames.last, case .record = parent.role else {
            guard beginValue(kind) != nil else { return 0 }
            return 1
        }
        if parent.isRecordRoot && parent.isObject && (kind == .null || value.isEmpty) {
            schema.noValue(parent.pendingName)
        }
        if parent.isObject, let role = rules.role(parent.pendingNode), role.idComponent >= 0 || role.isSection {
            let value = text()
            if role.isSection {
                sectionName = value
            }
            if role.idComponent >= 0 {
                guard let value else {
                    guard let token = currentTokenStart() else { return 0 }
                    return cancel("the id field \"\(options.id[role.idComponent])\" is null", at: scanner.location(of: token, chunk, chunkBase))
                }
                if value.isEmpty, options.mode == .text {
                    guard let token = currentTokenStart() else { return 0 }
                    return cancel("the id field \"\(options.id[role.idComponent])\" is empty", at: scanner.location(of: token, chunk, chunkBase))
                }
                idParts[role.idComponent] = value
            }
        }
        deliver(value.hash, isEmpty: value.isEmpty, isObject: false)
        return 1
    }

    /// The options' fields that some record has (see `RecordTable.fieldsFound`).
    private var fieldsFound: [FieldPath] {
        var found = seenNodes.indices.flatMap { seenNodes[$0] ? rules.namedPaths(Int32($0)) : [] }
        for rename in options.renames where renamesApplied.contains(Array(rename.new.components.last!.utf8)) {
            found.append(rename.new)
        }
        return found
    }

    private func memberName(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        if hasRenames, let frame = frames.last, case .record = frame.role, let old = rules.renamedName(bytes, in: frame.node) {
            // --rename: the new side's member is read as the old one, everywhere.
            renamesApplied.insert(Array(bytes))
            return old.withUnsafeBytes { resolvedMemberName($0) }
        }
        return resolvedMemberName(bytes)
    }

    @inline(__always)
    private func resolvedMemberName(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        lastValueEnd = callbackOffset
        let top = frames.count - 1
        let nameHash = ValueHasher.name(bytes)
        let start = frames[top].namesStart
        var duplicate = false
        if memberNames.count - start < 16 {
            duplicate = memberNames.withUnsafeBufferPointer { names in
                var index = start
                while index < names.count && names[index] != nameHash { index += 1 }
                return index < names.count
            }
        } else {
            if manyNames[top] == nil { manyNames[top] = Set(memberNames[start...]) }
            duplicate = !manyNames[top]!.insert(nameHash).inserted
        }
        if duplicate {
            guard let token = currentTokenStart() else { return 0 }
            let name = String(decoding: bytes, as: UTF8.self)
            let renamed = hasRenames && options.renames.contains { $0.old.components.last == name }
            return cancel("duplicate member name \"\(name)\" in an object" + (renamed ? ", after --rename read one member as the other" : ""),
                          at: scanner.location(of: token, chunk, chunkBase))
        }
        memberNames.append(nameHash)
        frames[top].pendingName = nameHash
        switch frames[top].role {
        case .record:
            let node = rules.child(of: frames[top].node, name: bytes)
            frames[top].pendingNode = node
            // Read before writing: a write to the array costs a uniqueness check per member.
            if node >= 0 && !seenNodes[Int(node)] { seenNodes[Int(node)] = true }
            if frames[top].isRecordRoot {
                schema.member(at: memberNames.count - start - 1, nameHash: nameHash, name: bytes)
            }
        case .pathStep(let depth):
            if case .nested(let path) = layout {
                frames[top].pendingNameIsPathStep = bytes.elementsEqual(path.components[depth].utf8)
            }
        default: break
        }
        return 1
    }

    // MARK: yajl callbacks

    /// Runs `body` on the reader behind yajl's context pointer without a
    /// retain and release per callback (millions of them): the reader owns
    /// the yajl handle, so it outlives every callback.
    @inline(__always)
    private static func withReader(_ context: UnsafeMutableRawPointer?, _ body: (JSONRecordReader) -> Int32) -> Int32 {
        Unmanaged<JSONRecordReader>.fromOpaque(context!)._withUnsafeGuaranteedRef(body)
    }

    nonisolated(unsafe) private static let callbacks: UnsafeMutablePointer<yajl_callbacks> = {
        let callbacks = UnsafeMutablePointer<yajl_callbacks>.allocate(capacity: 1)
        var c = yajl_callbacks()
        c.yajl_null = { context in
            withReader(context) { reader in reader.scalar(.null, reader.hasher.null()) { nil } }
        }
        c.yajl_boolean = { context, value in
            withReader(context) { reader in
                reader.scalar(value != 0 ? .trueValue : .falseValue, reader.hasher.boolean(value != 0)) {
                    value != 0 ? "true" : "false"
                }
            }
        }
        c.yajl_number = { context, text, length in
            withReader(context) { reader in
                let bytes = UnsafeRawBufferPointer(start: text, count: length)
                return reader.scalar(.number, reader.hasher.number(bytes)) {
                    ScalarText.fromNumber(bytes, scratch: &reader.scratch)
                }
            }
        }
        c.yajl_string = { context, text, length in
            withReader(context) { reader in
                let bytes = UnsafeRawBufferPointer(start: text, count: length)
                return reader.scalar(.string, reader.hasher.string(bytes)) {
                    ScalarText.fromText(bytes, scratch: &reader.scratch)
                }
            }
        }
        c.yajl_start_map = { context in withReader(context) { $0.openContainer(isObject: true) } }
        c.yajl_map_key = { context, text, length in
            withReader(context) { $0.memberName(UnsafeRawBufferPointer(start: text, count: length)) }
        }
        c.yajl_end_map = { context in withReader(context) { $0.closeContainer() } }
        c.yajl_start_array = { context in withReader(context) { $0.openContainer(isObject: false) } }
        c.yajl_end_array = { context in withReader(context) { $0.closeContainer() } }
        callbacks.initialize(to: c)
        return callbacks
    }()
}
