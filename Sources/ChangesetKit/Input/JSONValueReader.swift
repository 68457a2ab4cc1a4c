internal import CYajl

/// Reads one JSON value (a record, read again by its byte range) into a
/// `Value` tree, for field-level output. Only records that changed are read
/// this way; the first pass never builds trees.
public enum JSONValueReader {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    private final class Builder {
        @exclusivity(unchecked) var stack: [(isObject: Bool, elements: [Value], members: [Value.Member], pendingName: String)] = []
        @exclusivity(unchecked) var result: Value?

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
        c.yajl_start_map = { context in builder(context).stack.append((true, [], [], "")); return 1 }
        c.yajl_map_key = { context, bytes, length in
            let b = builder(context)
            b.stack[b.stack.count - 1].pendingName = text(bytes, length)
            return 1
        }
        c.yajl_end_map = { context in builder(context).close(); return 1 }
        c.yajl_start_array = { context in builder(context).stack.append((false, [], [], "")); return 1 }
        c.yajl_end_array = { context in builder(context).close(); return 1 }
        let pointer = UnsafeMutablePointer<yajl_callbacks>.allocate(capacity: 1)
        pointer.initialize(to: c)
        return pointer
    }()

    public static func read(_ bytes: UnsafeRawBufferPointer) throws -> Value {
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
    package static func rawMembers(ofObject bytes: UnsafeRawBufferPointer) -> [RawMember]? {
        let count = bytes.count
        var index = 0
        func skipSpace() {
            while index < count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 { index += 1 }
        }
        /// From an opening quote to past its closing one.
        func skipString() -> Bool {
            index += 1
            while index < count {
                switch bytes[index] {
                case 0x22: index += 1; return true
                case 0x5C: index += 2
                default: index += 1
                }
            }
            return false
        }
        func skipValue() -> Bool {
            guard index < count else { return false }
            switch bytes[index] {
            case 0x22:
                return skipString()
            case 0x7B, 0x5B:
                var depth = 0
                while index < count {
                    switch bytes[index] {
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
                    switch bytes[index] {
                    case 0x20, 0x0A, 0x0D, 0x09, 0x2C, 0x7D, 0x5D: return index > start
                    default: index += 1
                    }
                }
                return index > start
            }
        }
        var members: [RawMember] = []
        skipSpace()
        guard index < count, bytes[index] == 0x7B else { return nil }
        index += 1
        skipSpace()
        if index < count, bytes[index] == 0x7D {
            index += 1
            skipSpace()
            return index == count ? members : nil
        }
        while true {
            skipSpace()
            guard index < count, bytes[index] == 0x22 else { return nil }
            let nameStart = index + 1
            guard skipString() else { return nil }
            let nameEnd = index - 1
            skipSpace()
            guard index < count, bytes[index] == 0x3A else { return nil }
            index += 1
            skipSpace()
            let valueStart = index
            guard skipValue() else { return nil }
            members.append(RawMember(name: nameStart..<nameEnd, value: valueStart..<index))
            skipSpace()
            guard index < count else { return nil }
            switch bytes[index] {
            case 0x2C:
                index += 1
            case 0x7D:
                index += 1
                skipSpace()
                return index == count ? members : nil
            default:
                return nil
            }
        }
    }

    /// A member's name from its bytes between the quotes (`rawMembers`).
    package static func name(ofRawMember name: UnsafeRawBufferPointer) throws -> String {
        if !name.contains(0x5C) { return String(decoding: name, as: UTF8.self) }
        // With escapes: read as the JSON string it is, quotes put back.
        var quoted: [UInt8] = [0x22]
        quoted.append(contentsOf: name)
        quoted.append(0x22)
        guard case .string(let text) = try quoted.withUnsafeBytes({ try read($0) }) else {
            throw Failure(description: "a record could not be read again (did the file change while changeset ran?)")
        }
        return text
    }

    /// A member's value from its bytes (`rawMembers`). The scalars records
    /// mostly hold (numbers, `true`, `false`, `null`, strings of printable
    /// ASCII without escapes) are made directly, as yajl would read them;
    /// anything else is read by yajl.
    package static func value(ofRawMember text: UnsafeRawBufferPointer) throws -> Value {
        guard let first = text.first else { return try read(text) }
        switch first {
        case 0x22:
            let inner = UnsafeRawBufferPointer(rebasing: text.dropFirst().dropLast())
            if text.count >= 2, text.last == 0x22, inner.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) {
                return .string(String(decoding: inner, as: UTF8.self))
            }
        case 0x2D, 0x30...0x39:
            if CanonicalNumber.isNumberLiteral(text) { return .number(String(decoding: text, as: UTF8.self)) }
        case 0x74 where text.elementsEqual("true".utf8): return .bool(true)
        case 0x66 where text.elementsEqual("false".utf8): return .bool(false)
        case 0x6E where text.elementsEqual("null".utf8): return .null
        default: break
        }
        return try read(text)
    }
}
