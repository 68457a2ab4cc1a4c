internal import CYajl
import Foundation

// Unsafe code here: yajl calls back through C function pointers with a
// context pointer and the bytes of each token; the reader's state is a
// class whose stored properties skip run-time exclusivity checks (see below).

/// Where the records are in a JSON input.
package enum JSONLayout: Sendable, Equatable {
    /// The document is an array of record objects.
    case array
    /// JSON Lines / NDJSON: one record object per line; blank lines are skipped.
    case lines
    /// The records are the array at this path inside the document (`--records-at`).
    case nested(FieldPath)
}

/// Streams JSON, lexed by libyajl or by the reader's own lexer (`Lexer`),
/// and hands back one `RecordTable` row per record, never building a tree
/// of the document.
///
/// Push-style: call `feed` with the input in chunks of any size (the result
/// and any error are the same for every chunking), then `finish`. Big chunks
/// are faster: both lexers read a token cut by a chunk boundary again from
/// its start, so feeding a huge string in small pieces is quadratic. The
/// file reader feeds chunks of 8 MiB.
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
package final class JSONRecordReader {
    package let source: String
    package let layout: JSONLayout
    let options: RecordOptions
    let rules: FieldRules
    /// Named nodes a member matched, for `RecordTable.fieldsFound`.
    @exclusivity(unchecked) var seenNodes: [Bool]
    @exclusivity(unchecked) var renamesApplied = Set<[UInt8]>()
    let hasRenames: Bool
    @exclusivity(unchecked) var builder: RecordTableBuilder
    /// Whether the builder indexes keys as they come (else an id's hash is not taken early).
    let indexesKeys: Bool
    @exclusivity(unchecked) var hasher: ValueHasher

    @exclusivity(unchecked) var handle: yajl_handle?
    @exclusivity(unchecked) var scanner = JSONTextScanner(startOffset: 0)
    @exclusivity(unchecked) var scannerStarted = false
    @exclusivity(unchecked) var byteOrderMark = ByteOrderMarkFilter()
    @exclusivity(unchecked) private var layoutScanner = FileLayoutScanner()

    /// The chunk yajl is parsing and its offset in the file.
    @exclusivity(unchecked) var chunk = UnsafeRawBufferPointer(start: nil, count: 0)
    @exclusivity(unchecked) var chunkBase = 0
    @exclusivity(unchecked) var fileLength = 0

    /// The open arrays and objects, innermost last. A `ScratchBuffer`, not an
    /// Array: each write through `frames[top]` (several per JSON value) cost
    /// an Array's uniqueness check, and `last` a copy.
    @exclusivity(unchecked) var frames = ScratchBuffer<Frame>(capacity: 32)
    /// Member-name hashes of the open objects, for duplicate-name checks.
    /// (A `ScratchBuffer`: as an Array, appending a name and dropping a
    /// record's names cost about 90 instructions a member.)
    @exclusivity(unchecked) var memberNames = ScratchBuffer<UInt64>(capacity: 64)
    @exclusivity(unchecked) var recordStart = 0
    /// Where the current record starts; its column is counted only for an error.
    @exclusivity(unchecked) var recordMark = JSONTextScanner.Mark()
    var recordLocation: InputLocation { location(of: recordMark) }
    /// The id's parts as text, for an id of several parts (a one-part id is in `oneID`).
    @exclusivity(unchecked) var idParts: [String?]
    /// A one-part id's text, copied from the token: made into a String, a
    /// number's or string's id cost about 160 instructions a record. (A
    /// `ScratchBuffer`: as an Array, emptying and refilling it a record
    /// cost about 165 more.)
    @exclusivity(unchecked) var oneID = ScratchBuffer<UInt8>(capacity: 64)
    @exclusivity(unchecked) var hasOneID = false
    /// A one-part id's key hash, taken when the id is read (see `RecordTableBuilder.hashPrefetchingSlot`).
    @exclusivity(unchecked) var idHash: UInt64?
    @exclusivity(unchecked) var sectionName: String?
    /// NDJSON: the line the previous record ended on.
    @exclusivity(unchecked) var previousRecordEndLine = 0
    @exclusivity(unchecked) var sawRecordsArray = false
    /// `--records-at`: the member names met on the way that were not the
    /// path's (at most 64), for a "did you mean" when the path is not there.
    var pathNeighbours: [FieldPath] = []
    @exclusivity(unchecked) var recordsArrayStart = 0
    @exclusivity(unchecked) var failure: InputError?
    /// The records' budget spent (`RecordBudget`): not an input error, but
    /// it stops yajl from a callback as one does.
    @exclusivity(unchecked) var budgetSpent: RecordBudget.Exceeded?
    @exclusivity(unchecked) var scratch: [UInt8] = []
    @exclusivity(unchecked) var schema = SchemaCollector()
    @exclusivity(unchecked) var recordMemberNames = RecordMemberNames()
    /// Where the latest value yajl accepted ended, for placing an error
    /// after a member's value (`yajlError`). Only a scalar's or a closing
    /// bracket's callback ends a value: asking yajl for its offset at every
    /// member name and opening bracket too cost about 10 instructions each.
    @exclusivity(unchecked) var lastValueEnd = 0

    /// What lexes the text and calls the handlers below (see `Lexer`).
    package let lexer: Lexer
    /// The own lexer's state (`JSONRecordReader+Lexer.swift`): what may
    /// come next, the line it is on, the token it is at.
    @exclusivity(unchecked) var expected = Expected.topValue
    @exclusivity(unchecked) var ownLine = 1
    @exclusivity(unchecked) var ownAfterCR = false
    /// Where the latest `{` or `[` starts in the input (on `ownLine`: no
    /// token spans a line break): a record's start. (Other tokens' starts
    /// would place errors, and the own lexer places none.)
    @exclusivity(unchecked) var ownTokenStart = 0
    /// Just past the token whose handler runs: the own lexer's `callbackOffset`.
    @exclusivity(unchecked) var ownTokenEnd = 0
    /// The own lexer met something it leaves to yajl: `feed` or `finish` throws `Lexer.GaveUp`, and reads no more.
    @exclusivity(unchecked) var gaveUp = false
    /// A token cut by the end of a chunk, from its first byte, and where it starts in the input.
    @exclusivity(unchecked) var carried = ScratchBuffer<UInt8>(capacity: 64)
    @exclusivity(unchecked) var carriedStart = 0
    /// The string just lexed has an escape to decode.
    @exclusivity(unchecked) var stringHasEscape = false
    /// A string with escapes, decoded.
    @exclusivity(unchecked) var decoded = ScratchBuffer<UInt8>(capacity: 64)

    enum Role {
        /// Outside the records, in a part of the document that is only checked.
        case outside
        /// `--records-at`: an object on the way to the records array.
        case pathStep(depth: Int)
        /// The array whose elements are the records.
        case recordArray
        /// A record or a value inside one.
        case record
    }

    struct Frame {
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

        /// The next member is named `name` and has the rules of `node`. (One
        /// mutating call: each write through `frames[top]` checks the array's
        /// uniqueness, millions of times a file.)
        @inline(__always)
        mutating func expect(name: UInt64, node: Int32) {
            pendingName = name
            pendingNode = node
        }

        /// Adds a value's hash: to an object as the pending member's, to an array as its next element.
        @inline(__always)
        mutating func add(_ valueHash: UInt64) {
            if isObject {
                hash &+= ValueHasher.member(name: pendingName, value: valueHash)
            } else {
                hash = ValueHasher.arrayElement(hash, valueHash)
            }
            count += 1
        }
    }

    /// Member names of objects with many members, by depth, so huge objects stay linear
    /// (kept out of `Frame` so frames hold no references to count).
    @exclusivity(unchecked) var manyNames: [Int: Set<UInt64>] = [:]

    /// The whole input's size, when known: after the first records it gives an
    /// estimate of the record count, so the tables are sized once.
    @exclusivity(unchecked) package var expectedInputSize: Int?

    /// The last chunk ended inside a token that began before it: a token
    /// longer than a chunk, which yajl lexes again from its start with each
    /// chunk, so the next chunk should be bigger. (A token merely cut by the
    /// chunk's end is finished by the next chunk; asking for more then grew
    /// the buffer to 64 MiB on an ordinary file.) Always false for the own
    /// lexer, which leaves a token longer than a chunk to yajl.
    package var endsInsideLongToken: Bool { lexer == .yajl && scanner.isInsideToken(begunBefore: chunkBase) }

    /// A reader of a whole input, or, given `partStart`, of a part of an
    /// NDJSON file or JSON array that starts at that offset (its lines count
    /// from 1; see `InputFile.readRecordsInParts`).
    /// Without `indexesKeys`, the table's key index is left to `RecordTable.indexKeys`.
    package init(
        source: String, layout: JSONLayout, options: RecordOptions, partStart: Int? = nil, indexesKeys: Bool = true,
        lexer: Lexer = .yajl
    ) {
        precondition(partStart == nil || layout == .lines || layout == .array, "a document whose records sit at a path is read whole")
        self.source = source
        self.layout = layout
        self.options = options
        self.rules = FieldRules(options)
        self.seenNodes = Array(repeating: false, count: rules.nodes.count)
        self.builder = RecordTableBuilder(source: source, options: options, indexesKeys: indexesKeys)
        self.indexesKeys = indexesKeys
        if let partStart { byteOrderMark = ByteOrderMarkFilter(partStartingAt: partStart) }
        self.hasher = ValueHasher(mode: options.mode)
        self.idParts = Array(repeating: nil, count: options.id.count)
        self.hasRenames = options.appliesRenames && !options.renames.isEmpty
        self.lexer = lexer
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
    package func feed(_ bytes: Span<UInt8>) throws {
        if let failure { throw failure }
        layoutScanner.observe(bytes)
        do {
            try byteOrderMark.process(bytes) { content, base in try parse(content, base: base) }
        } catch {
            failure = error as? InputError
            throw error
        }
    }

    /// The line breaks read so far (a CRLF is one).
    var lineBreaksRead: Int { lineNow - 1 }

    /// The line the lexer is on.
    var lineNow: Int { lexer == .own ? ownLine : scanner.line }

    /// Parses a few bytes held in an array (a part's `[` or `]`).
    func feed(_ bytes: [UInt8]) throws {
        try feed(bytes.span)
    }

    /// Ends the input and returns the records.
    package func finish() throws -> RecordTable {
        if lexer == .own { return try finishOwn() }
        if let failure { throw failure }
        do {
            try byteOrderMark.finish { content, base in try parse(content, base: base) }
            fileLength = byteOrderMark.fileOffset
            chunk = UnsafeRawBufferPointer(start: nil, count: 0)
            chunkBase = fileLength
            withChunk { scanner.finish($0, chunkBase: chunkBase) }
            if let problem = scanner.failure { throw error(problem.message, at: problem.location) }
            if !scanner.sawToken {
                // Nothing but whitespace.
                if layout == .lines { return try finishedTable() }  // no records, no fields
                throw error("the input is empty; expected \(expectedTopLevel)", at: currentLocation)
            }
            let status = yajl_complete_parse(handle)
            try check(status)
            if case .nested(let path) = layout, !sawRecordsArray {
                throw error("the document has no \"\(path)\" array of records" + Self.pathHint(path, pathNeighbours), at: InputLocation(line: 1, column: 1))
            }
            let fields = schema.finish()
            builder.setSchema(fields.names, valueCounts: fields.valueCounts)
            builder.setFieldsFound(fieldsFound)
            return try finishedTable()
        } catch {
            failure = error as? InputError
            throw error
        }
    }

    /// The builder's table, with the layout of the bytes fed.
    func finishedTable() throws -> RecordTable {
        var table = try builder.finished()
        table.layout = layoutScanner.layout(lineBreaks: lineBreaksRead, byteOrderMark: byteOrderMark.contentStart > 0, columns: nil)
        return table
    }

    var expectedTopLevel: String {
        switch layout {
        case .array: "a JSON array of record objects"
        case .lines: "one record object per line"
        case .nested(let path): "an object holding the \"\(path)\" array"
        }
    }

    func parse(_ content: Span<UInt8>, base: Int) throws {
        if !scannerStarted {
            scanner = JSONTextScanner(startOffset: base)
            scannerStarted = true
        }
        guard content.count > 0 else { return }
        if lexer == .own {
            tokenize(content, base: base)
            if gaveUp { throw gaveUpError() }
            return
        }
        // `chunk` is the callbacks' (and errors') view of these bytes while yajl parses them.
        try content.withUnsafeBytes { content in
            chunk = content
            chunkBase = base
            defer { chunk = UnsafeRawBufferPointer(start: nil, count: 0) }
            try check(yajl_parse(handle, content.baseAddress!.assumingMemoryBound(to: UInt8.self), content.count))
        }
        scanner.scan(content, chunkBase: base, upTo: base + content.count)
        if let problem = scanner.failure { throw error(problem.message, at: problem.location) }
        // Count the columns later errors may need while this chunk's bytes are here.
        recordMark = scanner.resolved(recordMark, content, base)
        scanner.endChunk(content, chunkBase: base)
    }

    func check(_ status: yajl_status) throws {
        switch status {
        case yajl_status_ok: return
        case yajl_status_client_canceled:
            if failure == nil, let budgetSpent { throw budgetSpent }
            throw failure ?? error("parsing stopped", at: currentLocation)
        default:
            throw yajlError()
        }
    }

    /// What a null or boolean hands on as its text.
    private static let noBytes: [UInt8] = []

    /// `body` with the bytes of the chunk yajl is parsing (empty between chunks).
    @inline(__always)
    func withChunk<Result>(_ body: (Span<UInt8>) throws -> Result) rethrows -> Result {
        try body(chunk.assumingMemoryBound(to: UInt8.self).span)
    }

    /// The place of `mark`, its column counted from the chunk if need be.
    func location(of mark: JSONTextScanner.Mark) -> InputLocation {
        // The own lexer counts no columns: any error it meets is yajl's to place.
        if lexer == .own { return InputLocation(line: mark.line, column: 1) }
        return withChunk { scanner.location(of: mark, $0, chunkBase) }
    }

    /// The place of the scanner's next byte.
    var currentLocation: InputLocation {
        if lexer == .own { return InputLocation(line: ownLine, column: 1) }
        return withChunk { scanner.location($0, chunkBase) }
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
            withReader(context) { reader in reader.scalar(.null, reader.hasher.null(), literal: noBytes.span) }
        }
        c.yajl_boolean = { context, value in
            withReader(context) { reader in
                reader.scalar(value != 0 ? .trueValue : .falseValue, reader.hasher.boolean(value != 0), literal: noBytes.span)
            }
        }
        c.yajl_number = { context, text, length in
            withReader(context) { reader in
                UnsafeRawBufferPointer(start: text, count: length).withSpan { bytes in
                    reader.scalar(.number, reader.hasher.number(bytes), literal: bytes)
                }
            }
        }
        c.yajl_string = { context, text, length in
            withReader(context) { reader in
                UnsafeRawBufferPointer(start: text, count: length).withSpan { bytes in
                    reader.scalar(.string, reader.hasher.string(bytes), literal: bytes)
                }
            }
        }
        c.yajl_start_map = { context in withReader(context) { $0.openContainer(isObject: true) } }
        c.yajl_map_key = { context, text, length in
            withReader(context) { reader in UnsafeRawBufferPointer(start: text, count: length).withSpan { reader.memberName($0) } }
        }
        c.yajl_end_map = { context in withReader(context) { $0.closeContainer() } }
        c.yajl_start_array = { context in withReader(context) { $0.openContainer(isObject: false) } }
        c.yajl_end_array = { context in withReader(context) { $0.closeContainer() } }
        callbacks.initialize(to: c)
        return callbacks
    }()
}

extension JSONRecordReader {
    /// "; did you mean "data.items"?" from the names met beside the path
    /// (each in place of the path's name at its depth), when one is close.
    static func pathHint(_ path: FieldPath, _ neighbours: [FieldPath]) -> String {
        var close: [(path: FieldPath, distance: Int)] = []
        for neighbour in neighbours {
            // The name met instead of the path's at that depth, and the rest of the path after it.
            let depth = neighbour.components.count - 1
            let wanted = path.components[depth].lowercased(), name = neighbour.components[depth]
            let distance = NameHint.editDistance(wanted, name.lowercased())
            // One name's typo, not another name: at most one edit in three.
            if distance <= max(1, wanted.count / 3) && distance < min(wanted.count, name.count) {
                close.append((FieldPath(neighbour.components + path.components.dropFirst(depth + 1)), distance))
            }
        }
        close.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.path.flatName < $1.path.flatName }
        guard !close.isEmpty else { return "" }
        let named: [String] = close.prefix(3).map { "\"" + TerminalText.datum($0.path.description) + "\"" }
        return "; did you mean " + named.joined(separator: " or ") + "?"
    }
}
