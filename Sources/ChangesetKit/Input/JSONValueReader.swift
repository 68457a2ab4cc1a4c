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
}
