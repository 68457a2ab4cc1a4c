internal import CYajl

// Unsafe code here: yajl calls back through C function pointers with a
// context pointer and each token's bytes, and the cursor that finds an
// object's members walks the record's bytes by address (it runs for every
// updated record of a report).

/// Reads one JSON value (a record, read again by its byte range) into a
/// `Value` tree, for field-level output. Only records that changed are read
/// this way; the first pass never builds trees.
package enum JSONValueReader {
    /// What the reader throws (public, for the calls that read records again).
    package typealias Failure = ValueReadError

    private final class Builder {
        @exclusivity(unchecked) var stack: [(isObject: Bool, elements: [Value], members: [Value.Member], pendingName: String)] = []
        @exclusivity(unchecked) var result: Value?
        /// Set when arrays and objects nest past `JSONRecordReader.maximumDepth`:
        /// a `Value` that deep would overflow the stack when compared or freed.
        var tooDeep = false
        /// Set for `readCommented`: the parse whose offsets `keyEnds` records.
        var handle: yajl_handle?
        /// With `handle`: the byte offset just past each object key, in the order yajl met them.
        var keyEnds: [Int] = []

        /// Opens an array or object, or stops the parse when that goes too deep.
        func open(isObject: Bool) -> Int32 {
            guard stack.count < JSONRecordReader.maximumDepth else {
                tooDeep = true
                return 0
            }
            stack.append((isObject, [], [], ""))
            return 1
        }

        func add(_ value: Value) {
            guard !stack.isEmpty else {
                result = value
                return
            }
            let top = stack.count - 1
            if stack[top].isObject {
                stack[top].members.append(Value.Member(name: stack[top].pendingName, value: value))
            } else {
                stack[top].elements.append(value)
            }
        }

        func close() {
            let frame = stack.removeLast()
            add(frame.isObject ? .object(frame.members) : .array(frame.elements))
        }
    }

    nonisolated(unsafe) private static let callbacks: UnsafeMutablePointer<yajl_callbacks> = {
        func builder(_ context: UnsafeMutableRawPointer?) -> Builder {
            Unmanaged<Builder>.fromOpaque(context!).takeUnretainedValue()
        }
        func text(_ bytes: UnsafePointer<UInt8>?, _ length: Int) -> String {
            String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
        }
        var c = yajl_callbacks()
        c.yajl_null = { context in builder(context).add(.null); return 1 }
        c.yajl_boolean = { context, value in builder(context).add(.bool(value != 0)); return 1 }
        c.yajl_number = { context, bytes, length in
            builder(context).add(.number(String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)))
            return 1
        }
        c.yajl_string = { context, bytes, length in builder(context).add(.string(text(bytes, length))); return 1 }
        c.yajl_start_map = { context in builder(context).open(isObject: true) }
        c.yajl_map_key = { context, bytes, length in
            let b = builder(context)
            b.stack[b.stack.count - 1].pendingName = text(bytes, length)
            if let handle = b.handle { b.keyEnds.append(Int(yajl_get_bytes_consumed(handle))) }
            return 1
        }
        c.yajl_end_map = { context in builder(context).close(); return 1 }
        c.yajl_start_array = { context in builder(context).open(isObject: false) }
        c.yajl_end_array = { context in builder(context).close(); return 1 }
        let pointer = UnsafeMutablePointer<yajl_callbacks>.allocate(capacity: 1)
        pointer.initialize(to: c)
        return pointer
    }()

    package static func read(_ bytes: Span<UInt8>) throws -> Value {
        try bytes.withUnsafeBytes { try read(raw: $0) }
    }

    private static func read(raw bytes: UnsafeRawBufferPointer) throws -> Value {
        let builder = Builder()
        let handle = yajl_alloc(callbacks, nil, Unmanaged.passUnretained(builder).toOpaque())
        defer { yajl_free(handle) }
        var status = yajl_status_ok
        if let base = bytes.baseAddress, bytes.count > 0 {
            status = yajl_parse(handle, base.assumingMemoryBound(to: UInt8.self), bytes.count)
        }
        if status == yajl_status_ok { status = yajl_complete_parse(handle) }
        guard status == yajl_status_ok, let result = builder.result else {
            throw Failure(description: "a record could not be read again (did the file change while changeset ran?)")
        }
        return result
    }

    /// One JSON value from text a caller gives (`Value(json:)`): the
    /// failure says what yajl found wrong and where, and nesting past
    /// `JSONRecordReader.maximumDepth` is refused as the readers refuse it.
    package static func read(text: Span<UInt8>) throws -> Value {
        try text.withUnsafeBytes { try read(rawText: $0) }
    }

    private static func read(rawText bytes: UnsafeRawBufferPointer) throws -> Value {
        let builder = Builder()
        let handle = yajl_alloc(callbacks, nil, Unmanaged.passUnretained(builder).toOpaque())
        defer { yajl_free(handle) }
        var status = yajl_status_ok
        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        if let base, bytes.count > 0 { status = yajl_parse(handle, base, bytes.count) }
        if status == yajl_status_ok { status = yajl_complete_parse(handle) }
        if builder.tooDeep {
            throw Failure(description: "arrays and objects nest deeper than \(JSONRecordReader.maximumDepth) levels, more than changeset supports")
        }
        guard status == yajl_status_ok, let result = builder.result else {
            var detail = "not one JSON value"
            if status == yajl_status_error, let message = yajl_get_error(handle, 0, base, bytes.count) {
                // yajl's own words ("lexical error: invalid char in json text."), on one line.
                detail = String(cString: message).split(whereSeparator: \.isNewline)
                    .map { $0.drop { $0 == " " } }.filter { !$0.isEmpty }.joined(separator: " ")
                yajl_free_error(handle, message)
            }
            throw Failure(description: detail)
        }
        return result
    }

    /// A document as a person writes a settings file: one JSON value that
    /// may hold `//` and `/* */` comments (yajl's `yajl_allow_comments`).
    /// Besides the value, the byte offset just past each object key, in
    /// document order (a depth-first walk of the value meets the keys in
    /// that order), so a caller can say where a member stands.
    package struct CommentedDocument: Sendable {
        /// The value the text holds.
        package var value: Value
        /// The offset just past each object key's closing quote, in document order.
        package var keyEnds: [Int]
    }

    /// Why a commented document could not be read: yajl's words, on one
    /// line, and the byte offset where yajl stopped.
    package struct CommentedDocumentFailure: Error, Sendable {
        /// What yajl found wrong.
        package var message: String
        /// The byte offset where yajl stopped.
        package var offset: Int
    }

    /// Reads `text` as one JSON value that may hold comments (see `CommentedDocument`).
    package static func readCommented(text: [UInt8]) throws(CommentedDocumentFailure) -> CommentedDocument {
        let builder = Builder()
        let handle = yajl_alloc(callbacks, nil, Unmanaged.passUnretained(builder).toOpaque())
        defer { yajl_free(handle) }
        _ = changeset_yajl_set_option(handle, yajl_allow_comments, 1)
        builder.handle = handle
        var status = yajl_status_ok
        var failure: CommentedDocumentFailure?
        text.withUnsafeBufferPointer { bytes in
            if let base = bytes.baseAddress, bytes.count > 0 { status = yajl_parse(handle, base, bytes.count) }
            if status == yajl_status_ok { status = yajl_complete_parse(handle) }
            guard status != yajl_status_ok else { return }
            var detail = "not one JSON value"
            if let message = yajl_get_error(handle, 0, bytes.baseAddress, bytes.count) {
                detail = String(cString: message).split(whereSeparator: \.isNewline).first
                    .map { $0.drop { $0 == " " } }.map(String.init) ?? detail
                yajl_free_error(handle, message)
            }
            failure = CommentedDocumentFailure(message: detail, offset: min(Int(yajl_get_bytes_consumed(handle)), bytes.count))
        }
        if builder.tooDeep {
            throw CommentedDocumentFailure(
                message: "arrays and objects nest deeper than \(JSONRecordReader.maximumDepth) levels, more than changeset supports", offset: 0)
        }
        if let failure { throw failure }
        guard let value = builder.result else { throw CommentedDocumentFailure(message: "no JSON value", offset: text.count) }
        return CommentedDocument(value: value, keyEnds: builder.keyEnds)
    }

    /// A top-level member of an object as it stands in the text: its name
    /// between the quotes, escapes and all, and its value's bytes.
    package struct RawMember: Equatable, Sendable {
        package var name: Range<Int>
        package var value: Range<Int>
    }

    /// The members of the object `bytes` holds, found without reading their
    /// values: a report compares an updated record's members by their text
    /// and reads only those that differ. Nil when the text is not an object
    /// or does not hold together (the caller then reads it whole, which tells
    /// what is wrong); the values themselves are not checked here.
    package static func rawMembers(ofObject bytes: Span<UInt8>) -> [RawMember]? {
        bytes.withUnsafeBytes { rawMembers(ofRawObject: $0) }
    }

    private static func rawMembers(ofRawObject bytes: UnsafeRawBufferPointer) -> [RawMember]? {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        var text = ObjectText(base: base, count: bytes.count)
        var members: [RawMember] = []
        members.reserveCapacity(16)
        text.skipSpace()
        guard text.take(0x7B) else { return nil }
        text.skipSpace()
        if text.take(0x7D) { return text.atEndAfterSpace ? members : nil }
        while true {
            text.skipSpace()
            guard text.peek == 0x22 else { return nil }
            let nameStart = text.index + 1
            guard text.skipString() else { return nil }
            let nameEnd = text.index - 1
            text.skipSpace()
            guard text.take(0x3A) else { return nil }
            text.skipSpace()
            let valueStart = text.index
            guard text.skipValue() else { return nil }
            members.append(RawMember(name: nameStart..<nameEnd, value: valueStart..<text.index))
            text.skipSpace()
            if text.take(0x2C) { continue }
            guard text.take(0x7D) else { return nil }
            return text.atEndAfterSpace ? members : nil
        }
    }

    /// The elements of the array `bytes` holds, as byte ranges, found as
    /// `rawMembers` finds an object's: nil when the text is not an array or
    /// does not hold together.
    package static func rawElements(ofArray bytes: Span<UInt8>) -> [Range<Int>]? {
        bytes.withUnsafeBytes { rawElements(ofRawArray: $0) }
    }

    private static func rawElements(ofRawArray bytes: UnsafeRawBufferPointer) -> [Range<Int>]? {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        var text = ObjectText(base: base, count: bytes.count)
        var elements: [Range<Int>] = []
        text.skipSpace()
        guard text.take(0x5B) else { return nil }
        text.skipSpace()
        if text.take(0x5D) { return text.atEndAfterSpace ? elements : nil }
        while true {
            text.skipSpace()
            let start = text.index
            guard text.skipValue() else { return nil }
            elements.append(start..<text.index)
            text.skipSpace()
            if text.take(0x2C) { continue }
            guard text.take(0x5D) else { return nil }
            return text.atEndAfterSpace ? elements : nil
        }
    }

    /// A cursor over an object's text for `rawMembers`: a struct with inlined
    /// steps (nested functions capturing the index took twice the instructions).
    private struct ObjectText {
        let base: UnsafePointer<UInt8>
        let count: Int
        var index = 0

        /// The byte at the cursor, or 0 at the end.
        var peek: UInt8 { index < count ? base[index] : 0 }

        @inline(__always)
        mutating func take(_ byte: UInt8) -> Bool {
            guard index < count, base[index] == byte else { return false }
            index += 1
            return true
        }

        @inline(__always)
        mutating func skipSpace() {
            while index < count {
                switch base[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index += 1
                default: return
                }
            }
        }

        var atEndAfterSpace: Bool {
            mutating get {
                skipSpace()
                return index == count
            }
        }

        /// From an opening quote to past its closing one.
        @inline(__always)
        mutating func skipString() -> Bool {
            index += 1
            // Eight bytes at a time up to the first quote or backslash (SWAR,
            // as `Span.jsonStringStop` crosses strings): the record was read and
            // checked before, so only those two end a run here. The lowest
            // byte a word flags is a true match (a borrow only runs upwards),
            // and the lowest byte is the first in memory on the little-endian
            // machines changeset runs on, as in the scanner.
            let ones: UInt64 = 0x0101_0101_0101_0101
            while index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5C)
                let flagged = ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash) & (ones &* 0x80)
                if flagged != 0 {
                    index += flagged.trailingZeroBitCount / 8
                    break
                }
                index += 8
            }
            while index < count {
                switch base[index] {
                case 0x22:
                    index += 1
                    return true
                case 0x5C: index += 2
                default: index += 1
                }
            }
            return false
        }

        /// Past a value: a string, an array or object (to its matching bracket, strings skipped), or a scalar's run of bytes.
        mutating func skipValue() -> Bool {
            guard index < count else { return false }
            switch base[index] {
            case 0x22:
                return skipString()
            case 0x7B, 0x5B:
                var depth = 0
                while index < count {
                    switch base[index] {
                    case 0x22:
                        guard skipString() else { return false }
                        continue
                    case 0x7B, 0x5B: depth += 1
                    case 0x7D, 0x5D: depth -= 1
                    default: break
                    }
                    index += 1
                    if depth == 0 { return true }
                }
                return false
            default:
                let start = index
                while index < count {
                    switch base[index] {
                    case 0x20, 0x0A, 0x0D, 0x09, 0x2C, 0x7D, 0x5D: return index > start
                    default: index += 1
                    }
                }
                return index > start
            }
        }
    }

    /// A record read again: an object is split into its members
    /// (`rawMembers`), each read as `name(ofRawMember:)` and
    /// `value(ofRawMember:)` read them, which for the plain names and scalars
    /// records mostly hold is several times quicker than yajl's callbacks
    /// building the same tree; anything else is read by yajl whole. Either
    /// way the same `Value` comes out, or the same error.
    package static func readRecord(_ bytes: Span<UInt8>) throws -> Value {
        guard let members = rawMembers(ofObject: bytes) else { return try read(bytes) }
        return .object(try members.map { try member($0, in: bytes) })
    }

    /// A member found by `rawMembers` in `object`, read.
    package static func member(_ raw: RawMember, in object: Span<UInt8>) throws -> Value.Member {
        Value.Member(name: try name(ofRawMember: object.extracting(raw.name)),
                     value: try value(ofRawMember: object.extracting(raw.value)))
    }

    /// A member's name from its bytes between the quotes (`rawMembers`):
    /// printable ASCII is its own text; anything else is read by yajl (escapes
    /// undone, UTF-8 checked).
    package static func name(ofRawMember name: Span<UInt8>) throws -> String {
        if isPlainText(name) { return name.decoded }
        // Read as the JSON string it is, quotes put back.
        var quoted: [UInt8] = [0x22]
        quoted.append(name)
        quoted.append(0x22)
        guard case .string(let text) = try read(quoted.span) else {
            throw Failure(description: "a record could not be read again (did the file change while changeset ran?)")
        }
        return text
    }

    /// A member's value from its bytes (`rawMembers`). The scalars records
    /// mostly hold (numbers, `true`, `false`, `null`, strings of printable
    /// ASCII without escapes) are made directly, as yajl would read them;
    /// anything else is read by yajl.
    package static func value(ofRawMember text: Span<UInt8>) throws -> Value {
        guard !text.isEmpty else { return try read(text) }
        switch text[0] {
        case 0x22:
            if text.count >= 2, text[text.count - 1] == 0x22 {
                let inner = text.extracting(1..<(text.count - 1))
                if isPlainText(inner) { return .string(inner.decoded) }
            }
        case 0x2D, 0x30...0x39:
            if CanonicalNumber.isNumberLiteral(text) { return .number(text.decoded) }
        case 0x74 where isWord(text, "true"): return .bool(true)
        case 0x66 where isWord(text, "false"): return .bool(false)
        case 0x6E where isWord(text, "null"): return .null
        default: break
        }
        return try read(text)
    }

    private static func isWord(_ text: Span<UInt8>, _ word: StaticString) -> Bool {
        String.withBytes(of: word) { text.sameBytes(as: $0) }
    }

    /// Whether `bytes` (a string's, between its quotes) are their own text:
    /// printable ASCII with no quote or backslash.
    static func isPlainText(_ bytes: Span<UInt8>) -> Bool {
        for index in bytes.indices {
            let byte = bytes[index]
            if byte < 0x20 || byte >= 0x7F || byte == 0x22 || byte == 0x5C { return false }
        }
        return true
    }
}
