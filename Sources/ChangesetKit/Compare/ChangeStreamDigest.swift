/// The digest of a change stream (`--format ndjson`), which its end line
/// carries and `changeset report` checks: a `StableHash` chain over every
/// line before the end line, each with its line feed, and the end line up
/// to its `digest` member, where what follows `"index":` in a change line's
/// top-level `old` and `new` objects (its positions: the index, and the line
/// when there is one) is left out, so that a job that splits the data (the
/// Spark job) can rewrite part-local positions to whole-file ones in place,
/// without lines when it read a table; any
/// other edit (a record, a field change, an id, a section, a count, the
/// header) changes the digest. Not cryptographic: it tells a cut or edited
/// stream, not a forged one.
package struct ChangeStreamDigest: Sendable {
    private var state: UInt64 = 0x6368_616E_6765_7331

    package init() {}

    /// Adds one line (its bytes, line feed included); `isChange`: a change
    /// line, whose positions are left out.
    package mutating func add(line: [UInt8], isChange: Bool) {
        guard isChange, let positions = Self.positionContents(in: line), !positions.isEmpty else {
            state = StableHash.bytes(line.span, seed: state)
            return
        }
        var kept: [UInt8] = []
        kept.reserveCapacity(line.count)
        var start = 0
        for range in positions {
            kept.append(contentsOf: line[start..<range.lowerBound])
            start = range.upperBound
        }
        kept.append(contentsOf: line[start...])
        state = StableHash.bytes(kept.span, seed: state)
    }

    /// The digest as the end line writes it: 16 lowercase hex digits.
    package var hex: String {
        let digits = String(state, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The byte ranges from the `index` value to the closing brace of a change
    /// line's top-level `old` and `new` objects, in order; nil when the line is not
    /// one JSON object. Strings are skipped whole, so a name or value that
    /// holds `"old":{` is never taken for a position.
    static func positionContents(in line: [UInt8]) -> [Range<Int>]? {
        var scanner = TopLevelMembers(line)
        var ranges: [Range<Int>] = []
        guard scanner.open() else { return nil }
        while let (name, valueStart) = scanner.nextMember() {
            guard let valueEnd = scanner.skipValue() else { return nil }
            guard (name == "old" || name == "new") && line[valueStart] == UInt8(ascii: "{") else { continue }
            // From the index's value to the closing brace: the index, and the line when there is one
            // (a job that reads a table writes none); the section before them is digested.
            var place = TopLevelMembers(Array(line[valueStart..<valueEnd]))
            guard place.open() else { return nil }
            while let (member, start) = place.nextMember() {
                guard place.skipValue() != nil else { return nil }
                if member == "index" {
                    ranges.append(valueStart + start..<valueEnd - 1)
                    break
                }
            }
        }
        return ranges
    }

    /// The digest member that ends an end line: what comes before it is digested too.
    static let endLineDigestMember = Array(",\"digest\":\"".utf8)
}

/// A walk over the members of one JSON object's top level, skipping each
/// value (strings, nesting and all) without building it.
struct TopLevelMembers {
    private let bytes: [UInt8]
    private var at = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    private mutating func skipSpace() {
        while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
    }

    /// Steps into the object; false when the text does not start with one.
    mutating func open() -> Bool {
        skipSpace()
        guard at < bytes.count, bytes[at] == UInt8(ascii: "{") else { return false }
        at += 1
        return true
    }

    /// The next member's name (its text between the quotes, escapes as
    /// written) and where its value starts; nil at the object's end.
    mutating func nextMember() -> (name: String, valueStart: Int)? {
        skipSpace()
        if at < bytes.count, bytes[at] == UInt8(ascii: ",") { at += 1; skipSpace() }
        guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { return nil }
        let nameStart = at + 1
        guard let nameEnd = skipString() else { return nil }
        let name = String(decoding: bytes[nameStart..<nameEnd - 1], as: UTF8.self)
        skipSpace()
        guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { return nil }
        at += 1
        skipSpace()
        guard at < bytes.count else { return nil }
        return (name, at)
    }

    /// Skips the value at the current place; where it ends (one past), or nil when it is cut.
    mutating func skipValue() -> Int? {
        guard at < bytes.count else { return nil }
        switch bytes[at] {
        case UInt8(ascii: "\""):
            return skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while at < bytes.count {
                switch bytes[at] {
                case UInt8(ascii: "\""):
                    guard skipString() != nil else { return nil }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        at += 1
                        return at
                    }
                default: break
                }
                at += 1
            }
            return nil
        default:
            while at < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].contains(bytes[at]) { at += 1 }
            return at
        }
    }

    /// Skips a string from its opening quote; one past its closing quote, or nil when it is cut.
    private mutating func skipString() -> Int? {
        at += 1
        while at < bytes.count {
            switch bytes[at] {
            case UInt8(ascii: "\\"): at += 2
            case UInt8(ascii: "\""):
                at += 1
                return at
            default: at += 1
            }
        }
        return nil
    }
}
