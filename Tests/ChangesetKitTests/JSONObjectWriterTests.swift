@testable import ChangesetKit
import Testing

/// The writer behind every change object of the `json` and `ndjson` formats:
/// members, nested objects and arrays of objects written into one run of
/// bytes, commas only between members of the same object.
struct JSONObjectWriterTests {
    @Test func nestedObjectsAndArraysGetTheirOwnCommas() {
        var object = JSONObjectWriter()
        object.add("kind", string: "up\"dated")
        object.add("old", object: { $0.add("index", int: -3); $0.add("line", int: 40) })
        object.add("empty", object: { _ in })
        object.add("none", array: [Int]()) { _, _ in }
        object.add("fields", array: [1, 2]) { entry, number in
            entry.add("path", string: "p\(number)")
            entry.add("new", value: .array([.number("1.50"), .null]))
        }
        object.add("raw", raw: "[true]")
        #expect(object.text == #"{"kind":"up\"dated","old":{"index":-3,"line":40},"empty":{},"none":[],"#
            + #""fields":[{"path":"p1","new":[1.50,null]},{"path":"p2","new":[1.50,null]}],"raw":[true]}"#)
        #expect(JSONObjectWriter().text == "{}")
    }

    @Test func decimalsAreWrittenAsStringWritesThem() {
        var random = SplitMix(seed: 31)
        for number in [0, -1, Int.max, Int.min] + (0..<500).map({ _ in Int.random(in: Int.min...Int.max, using: &random) >> Int.random(in: 0...63, using: &random) }) {
            var bytes: [UInt8] = []
            bytes.appendDecimal(number)
            #expect(String(decoding: bytes, as: UTF8.self) == String(number))
        }
    }
}
