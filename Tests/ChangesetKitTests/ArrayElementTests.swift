import Foundation
import Testing
@testable import ChangesetKit

/// Arrays compared element by element (`--arrays elements`): the alignment
/// is a longest common subsequence, elements holding the `--id` fields are
/// matched by them, and the changes come in an order a JSON Patch replays.
@Suite struct ArrayElementTests {
    static func value(_ json: String) throws -> Value {
        try Array(json.utf8).withSpan { try JSONValueReader.read($0) }
    }

    static func changes(_ old: String, _ new: String, tolerance: ValueTolerance = .exact, arrays: ArrayComparison = .elements, key: [String] = []) throws -> [String] {
        try FieldChange.between(
            value(old), value(new), rules: FieldRules(RecordOptions()), mode: .typed, tolerance: tolerance,
            arrays: arrays, elementKey: key.map { FieldPath([$0]) }
        ).map { change in
            "\(change.location) \(change.pointer): \(change.old.map(ReportValueText.value) ?? "-") -> \(change.new.map(ReportValueText.value) ?? "-")"
        }
    }

    @Test func oneElementInsertedIsOneChangeAtItsIndex() throws {
        #expect(try Self.changes(#"{"tags":["a","b"]}"#, #"{"tags":["a","x","b"]}"#) == [#"tags[1] /tags/1: - -> "x""#])
        #expect(try Self.changes(#"{"tags":["a","b"]}"#, #"{"tags":["a","x","b"]}"#, arrays: .whole) == [#"tags /tags: ["a","b"] -> ["a","x","b"]"#])
    }

    @Test func deletionsInsertionsThenChangesInsideEachAscending() throws {
        // "a" and "c" stay; "b" goes; after "c", "d" and "e" pair with "x" and "z" in place; "w" arrives.
        let result = try Self.changes(#"{"a":["a","b","c","d","e"]}"#, #"{"a":["a","c","x","z","w"]}"#)
        #expect(result == [
            #"a[1] /a/1: "b" -> -"#,
            #"a[4] /a/4: - -> "w""#,
            #"a[2] /a/2: "d" -> "x""#,
            #"a[3] /a/3: "e" -> "z""#,
        ], "\(result)")
    }

    @Test func nestedArraysAndObjectsInsideElements() throws {
        let result = try Self.changes(#"{"m":[[1,2],[3,4]],"o":[{"p":1,"q":[1]}]}"#, #"{"m":[[1,2],[3,5],[6]],"o":[{"p":2,"q":[1,2]}]}"#)
        #expect(result == [
            "m[2] /m/2: - -> [6]",
            "m[1][1] /m/1/1: 4 -> 5",
            "o[0].p /o/0/p: 1 -> 2",
            "o[0].q[1] /o/0/q/1: - -> 2",
        ], "\(result)")
    }

    @Test func objectsHoldingTheKeyAreMatchedByIt() throws {
        let old = #"{"s":[{"code":"A","n":1},{"code":"B","n":2}]}"#
        let new = #"{"s":[{"code":"B","n":3},{"code":"C","n":2}]}"#
        #expect(try Self.changes(old, new, key: ["code"]) == [
            #"s[0] /s/0: {"code":"A","n":1} -> -"#,
            #"s[1] /s/1: - -> {"code":"C","n":2}"#,
            "s[0].n /s/0/n: 2 -> 3",
        ])
        // Without the key, elements pair in place.
        #expect(try Self.changes(old, new) == [
            #"s[0].code /s/0/code: "A" -> "B""#, "s[0].n /s/0/n: 1 -> 3", #"s[1].code /s/1/code: "B" -> "C""#,
        ])
        // A key that repeats on a side, or an element without it, is no key.
        let repeated = #"{"s":[{"code":"A","n":1},{"code":"A","n":2}]}"#
        #expect(try Self.changes(repeated, #"{"s":[{"code":"A","n":1}]}"#, key: ["code"]) == [#"s[1] /s/1: {"code":"A","n":2} -> -"#])
    }

    @Test func tolerancesHoldInsideArrays() throws {
        let tolerance = ValueTolerance(all: .init(absolute: Decimal(string: "0.1")))
        #expect(try Self.changes(#"{"v":[1.0,2.0,3]}"#, #"{"v":[1.05,2.0,3]}"#, tolerance: tolerance).isEmpty)
        #expect(try Self.changes(#"{"v":[1.0,2.0]}"#, #"{"v":[1.5,2.0]}"#, tolerance: tolerance) == ["v[0] /v/0: 1.0 -> 1.5"])
    }

    @Test func pointersEscapeAndLocationsShowPositions() throws {
        #expect(try Self.changes(#"{"a/b":{"c~d":[0]}}"#, #"{"a/b":{"c~d":[0,1]}}"#) == [#"a/b.c~d[1] /a~1b/c~0d/1: - -> 1"#])
    }

    @Test func theReplayOrderTakesDeletionsLastFirst() throws {
        let changes = try FieldChange.between(
            Self.value(#"{"a":[1,2,3,4],"b":[5,6]}"#), Self.value(#"{"a":[1,9],"b":[]}"#), rules: FieldRules(RecordOptions()), mode: .typed)
        let order = JSONPatchFormatter.replayOrder(changes).map(\.pointer)
        // a: 1 stays, 2 changes in place to 9, 3 and 4 go; b: both go.
        #expect(order == ["/a/3", "/a/2", "/a/1", "/b/1", "/b/0"], "\(order)")
    }

    @Test func runsJoinElementsInsertedOneAfterAnother() throws {
        let changes = try FieldChange.between(
            Self.value(#"{"a":[0],"b":1}"#), Self.value(#"{"a":[0,1,2,3,4],"b":2}"#), rules: FieldRules(RecordOptions()), mode: .typed)
        let runs = FieldChange.runs(changes)
        #expect(runs.map(\.count) == [4, 1])
        #expect(runs[0].first!.location(throughCount: 4) == "a[1…4]")
        #expect(FieldChange.runs(Array(changes.prefix(3))).map(\.count) == [1, 1, 1])
    }

    // MARK: The alignment

    /// The length of a longest common subsequence, by the textbook table.
    static func lcsLength(_ a: [Int], _ b: [Int]) -> Int {
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in a.indices.reversed() {
            for j in b.indices.reversed() {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        return table[0][0]
    }

    static func alignment(_ a: [Int], _ b: [Int]) -> [(old: Int, new: Int)] {
        ElementAlignment(oldHashes: a.map { UInt64(bitPattern: Int64($0)) }, newHashes: b.map { UInt64(bitPattern: Int64($0)) }, same: { a[$0] == b[$1] }).matches()
    }

    static func expectValid(_ matches: [(old: Int, new: Int)], _ a: [Int], _ b: [Int], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        for (position, match) in matches.enumerated() {
            #expect(a[match.old] == b[match.new], sourceLocation: sourceLocation)
            if position > 0 {
                #expect(match.old > matches[position - 1].old && match.new > matches[position - 1].new, sourceLocation: sourceLocation)
            }
        }
    }

    @Test func smallArraysAlignOnALongestCommonSubsequence() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<400 {
            let a = (0..<Int.random(in: 0...14, using: &random)).map { _ in Int.random(in: 0...4, using: &random) }
            let b = (0..<Int.random(in: 0...14, using: &random)).map { _ in Int.random(in: 0...4, using: &random) }
            let matches = Self.alignment(a, b)
            Self.expectValid(matches, a, b)
            #expect(matches.count == Self.lcsLength(a, b), "\(a) vs \(b)")
        }
    }

    /// A long array with few edits is aligned exactly, repeated values or
    /// not; past `editLimit` edits, unique elements anchor the alignment.
    @Test func largeArraysAlignExactlyOrOnUniqueAnchors() {
        let a = Array(0..<20_000)
        var b = a
        b.removeSubrange(9_000..<9_050)
        b.insert(contentsOf: 100_000..<100_100, at: 5_000)
        b.insert(-1, at: 0)
        b.append(-2)
        b.swapAt(15_000, 15_001)
        let matches = Self.alignment(a, b)
        Self.expectValid(matches, a, b)
        #expect(matches.count == 20_000 - 50 - 1)
        // Found by review: 5,000 zeros and ones (no element is unique), one inserted in front and the last flipped.
        var random = SystemRandomNumberGenerator()
        let bits = (0..<5_000).map { _ in Int.random(in: 0...1, using: &random) }
        var shifted = [2] + bits
        shifted[shifted.count - 1] = 1 - shifted[shifted.count - 1]
        let few = Self.alignment(bits, shifted)
        Self.expectValid(few, bits, shifted)
        #expect(few.count == 4_999)
        // 600 edits, more than the limit: the unique elements that stayed are all found.
        var many = a
        for index in stride(from: 19_700, to: 100, by: -66) { many.remove(at: index) }
        for index in stride(from: 100, to: 19_000, by: 63) { many.insert(-index, at: index) }
        let anchored = Self.alignment(a, many)
        Self.expectValid(anchored, a, many)
        #expect(anchored.count == many.filter { $0 >= 0 }.count)
        // Nothing in common: nothing matched, quickly.
        let other = Array(50_000..<54_000)
        #expect(Self.alignment(Array(0..<4_000), other).isEmpty)
    }
}
