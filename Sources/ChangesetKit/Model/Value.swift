/// A JSON value as read back for field-level output. Numbers keep their
/// source text; object members keep their source order. `==` compares
/// strings and names by their bytes (`ExactText`) and members in order;
/// `isEquivalent` is the comparison's rule (member order ignored).
public enum Value: Sendable, Equatable {
    // Not `indirect`: arrays and objects hold their elements in arrays already,
    // and an indirect enum put every value, a number or a string too, in a heap
    // box of its own, and a report reads millions of them.
    /// JSON's `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// The number's text exactly as written in the input.
    case number(String)
    /// A string (a CSV cell that is not a number is one).
    case string(String)
    /// An array's elements, in order.
    case array([Value])
    /// An object's members, in their order, duplicates kept.
    case object([Member])

    /// A member of an object: its name and value.
    public struct Member: Sendable, Equatable {
        /// The member's name.
        public var name: String
        /// The member's value.
        public var value: Value

        /// The member `name` holding `value`.
        public init(name: String, value: Value) {
            self.name = name
            self.value = value
        }

        /// The same name, byte for byte, and equal values.
        public static func == (a: Member, b: Member) -> Bool {
            ExactText.same(a.name, b.name) && a.value == b.value
        }
    }

    /// The same value: strings and numbers' text byte for byte, members in order.
    public static func == (a: Value, b: Value) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case let (.bool(x), .bool(y)): x == y
        case let (.number(x), .number(y)): ExactText.same(x, y)
        case let (.string(x), .string(y)): ExactText.same(x, y)
        case let (.array(x), .array(y)): x == y
        case let (.object(x), .object(y)): x == y
        default: false
        }
    }

    /// Is this value empty in a text comparison (null or empty text)?
    public var isEmptyText: Bool {
        switch self {
        case .null: true
        case .string(let text): text.isEmpty
        default: false
        }
    }

    /// The value's hash under the fingerprint rules (`ValueHasher`), so that
    /// two values are equal here exactly when the readers' fingerprints agree.
    package func contentHash(mode: ComparisonMode) -> UInt64 {
        var hasher = ValueHasher(mode: mode)
        return hash(&hasher)
    }

    /// Whether `old` -> `new` changes only a value's type, as `--loose-types`
    /// would not see it: a scalar of another kind holding the same text
    /// (`"3"` -> `3`; a missing field is null, as the text rule has it), or
    /// containers whose every difference is such. Two strings (or two
    /// numbers) that differ are a change of value, whatever they spell.
    package static func changesOnlyType(_ old: Value?, _ new: Value?) -> Bool {
        let old = old ?? .null, new = new ?? .null
        switch (old, new) {
        case (.string, .string), (.number, .number), (.bool, .bool), (.null, .null):
            return false
        case let (.array(a), .array(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isEquivalent(to: $1, mode: .typed) || changesOnlyType($0, $1) }
                && zip(a, b).contains { !$0.isEquivalent(to: $1, mode: .typed) }
        case let (.object(a), .object(b)):
            let names = Set(a.map { ExactTextKey($0.name) }).union(b.map { ExactTextKey($0.name) })
            func member(_ members: [Member], _ name: ExactTextKey) -> Value? { members.last { ExactTextKey($0.name) == name }?.value }
            var any = false
            for name in names {
                let x = member(a, name), y = member(b, name)
                if let x, let y, x.isEquivalent(to: y, mode: .typed) { continue }
                guard changesOnlyType(x, y) else { return false }
                any = true
            }
            return any
        case (.array, _), (_, .array), (.object, _), (_, .object):
            return false
        default:
            return old.isEquivalent(to: new, mode: .text)
        }
    }

    /// Whether `old` -> `new` is one number spelled two ways (`6199` ->
    /// `6.199e3`, `6696.0` -> `6696`, in CSV cells or JSON), what
    /// `--numbers-by-value` would not see.
    package static func respellsNumber(_ old: Value?, _ new: Value?) -> Bool {
        func literal(_ value: Value?) -> String? {
            switch value {
            case .number(let text)?: text
            case .string(let text)? where CanonicalNumber.isNumberLiteral(text): text
            default: nil
            }
        }
        guard let a = literal(old), let b = literal(new), !ExactText.same(a, b) else { return false }
        return Value.number(a).isEquivalent(to: .number(b), mode: .typed)
    }

    /// Whether the two values are equal under the comparison's rule in
    /// `mode`: member order ignored, numbers by value, and, in the text
    /// modes, values by the text a CSV cell would hold.
    public func isEquivalent(to other: Value, mode: ComparisonMode) -> Bool {
        // Same text, same value: the common case needs no hashing.
        switch (self, other) {
        case (.string(let a), .string(let b)) where ExactText.same(a, b): return true
        case (.number(let a), .number(let b)) where ExactText.same(a, b): return true
        case (.bool(let a), .bool(let b)) where a == b: return true
        case (.null, .null): return true
        default: return contentHash(mode: mode) == other.contentHash(mode: mode)
        }
    }

    private func hash(_ hasher: inout ValueHasher) -> UInt64 {
        switch self {
        case .null: return hasher.null().hash
        case .bool(let value): return hasher.boolean(value).hash
        case .number(let text):
            return text.withBytes { hasher.number($0) }.hash
        case .string(let text):
            return text.withBytes { hasher.string($0) }.hash
        case .array(let elements):
            var accumulator = ValueHasher.arrayStart()
            for element in elements { accumulator = ValueHasher.arrayElement(accumulator, element.hash(&hasher)) }
            return ValueHasher.arrayEnd(accumulator, count: elements.count)
        case .object(let members):
            var sum: UInt64 = 0
            var count = 0
            for member in members {
                if hasher.mode.isText && member.value.isEmptyText { continue }
                let nameHash = member.name.withBytes { ValueHasher.name($0) }
                sum &+= ValueHasher.member(name: nameHash, value: member.value.hash(&hasher))
                count += 1
            }
            return ValueHasher.objectEnd(sum, count: count)
        }
    }

    /// The value with the member at `path` (inside nested objects) renamed
    /// to `name`; the value itself when there is no such member.
    package func renamingMember(at path: [String], to name: String) -> Value {
        guard case .object(var members) = self, let first = path.first,
            let index = members.firstIndex(where: { ExactText.same($0.name, first) })
        else { return self }
        if path.count == 1 {
            members[index].name = name
        } else {
            members[index].value = members[index].value.renamingMember(at: Array(path.dropFirst()), to: name)
        }
        return .object(members)
    }

    /// The object with nested objects' members lifted into dotted names, as
    /// a CSV file names them (`{"a":{"b":1}}` is `{"a.b":1}`); an empty
    /// object stays a member. Anything but an object is itself.
    package func flattened() -> Value {
        guard case .object(let members) = self else { return self }
        var flat: [Member] = []
        func lift(_ members: [Member], prefix: String) {
            for member in members {
                if case .object(let inner) = member.value, !inner.isEmpty {
                    lift(inner, prefix: prefix + member.name + ".")
                } else {
                    flat.append(Member(name: prefix + member.name, value: member.value))
                }
            }
        }
        lift(members, prefix: "")
        return .object(flat)
    }

    /// Compact JSON text: numbers as written, members in source order.
    public var jsonText: String {
        var bytes: [UInt8] = []
        writeJSON(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    package func writeJSON(to output: inout String) {
        output += jsonText
    }

    /// The JSON text's UTF-8, appended to `output`. Reports write thousands of
    /// records, and appending bytes costs a fraction of appending short Strings
    /// (a third of a CSV report's formatting time went to those appends).
    func writeJSON(into output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let text): output.append(contentsOf: text.utf8)
        case .string(let text): Value.writeJSONString(text, into: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.writeJSON(into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Value.writeJSONString(member.name, into: &output)
                output.append(UInt8(ascii: ":"))
                member.value.writeJSON(into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// `writeJSONString(_:to:)`'s text as UTF-8 bytes.
    static func writeJSONString(_ text: String, into output: inout [UInt8]) {
        let plain = text.withBytes { bytes in
            // Most strings need no escape: append them whole.
            guard !bytes.containsByte(where: { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 }) else { return false }
            output.append(UInt8(ascii: "\""))
            output.append(bytes)
            output.append(UInt8(ascii: "\""))
            return true
        }
        if !plain {
            var escaped = ""
            writeJSONString(text, to: &escaped)
            output.append(contentsOf: escaped.utf8)
        }
    }

    /// A JSON string literal: `"`, `\` and control characters escaped, all else as is.
    package static func writeJSONString(_ text: String, to output: inout String) {
        // Most strings need no escape: append them whole rather than scalar by scalar.
        if !text.utf8.contains(where: { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 }) {
            output += "\""
            output += text
            output += "\""
            return
        }
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{8}": output += "\\b"
            case "\u{C}": output += "\\f"
            case "\u{0}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}

extension Value {
    /// The member at `path` inside nested objects, if there is one.
    package func member(at path: [String]) -> Value? {
        var current = self
        for name in path {
            guard case .object(let members) = current, let found = members.first(where: { ExactText.same($0.name, name) }) else { return nil }
            current = found.value
        }
        return current
    }
}

extension Value {
    /// The text a CSV cell holds for this value: strings and numbers as they
    /// are, `true`/`false`, empty for null, JSON for arrays and objects.
    var cellText: String {
        switch self {
        case .null: ""
        case .string(let text): text
        case .number(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .array, .object: jsonText
        }
    }
}
