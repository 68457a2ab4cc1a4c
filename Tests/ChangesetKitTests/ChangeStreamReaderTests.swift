import Foundation
import Testing
@testable import ChangesetKit

/// `ChangeStreamReader`: every change line a stream holds reads back into
/// the `Change` it was written from, values exact (number spellings, keyed
/// moves with what changed inside them, `--show` values, sections); and the
/// digest leaves positions out and nothing else.
@Suite struct ChangeStreamReaderTests {
    /// The golden files' comparisons (FormatTests), and a few more shapes.
    static let comparisons: [(old: String, new: String, id: [String], configure: @Sendable (inout ComparisonOptions) -> Void)] = [
        ("catalog/old.json", "catalog/new.json", ["id"], { _ in }),
        ("catalog/old.json", "catalog/new.json", ["id"], { $0.records.section = FieldPath(["category"]) }),
        ("catalog/old.json", "catalog/new.json", [], { _ in }),
        ("catalog/old.csv", "catalog/new.csv", ["id"], { _ in }),
        ("catalog/old.json", "catalog/new.csv", ["id"], { _ in }),
        ("nested/old.json", "nested/new.json", ["sku"], { $0.records.recordsAt = FieldPath(["data", "items"]) }),
        ("arrays/old.json", "arrays/new.json", ["code"], { _ in }),
        ("arrays/old.json", "arrays/new.json", ["code"], { $0.arrays = .whole }),
        ("array-keys/old.json", "array-keys/new.json", ["iso3"], { _ in }),
        ("states/old.csv", "states/new.csv", ["id"], { _ in }),
        ("countries/old.csv", "countries/new.csv", ["cca3"], { $0.records.renames = [Rename(old: FieldPath(["cca3"]), new: FieldPath(["ISO3166-1-Alpha-3"]))] }),
    ]

    @Test func everyWrittenChangeReadsBackEqual() throws {
        for (old, new, id, configure) in Self.comparisons {
            var options = ComparisonOptions()
            options.records.id = id.map { FieldPath([$0]) }
            configure(&options)
            let comparison = try Comparison.run(oldPath: fixturesURL.appendingPathComponent(old).path, newPath: fixturesURL.appendingPathComponent(new).path,
                                                options: options)
            let shown = id.isEmpty ? [] : [FieldPath([id[0]])]
            for context in [[], shown] {
                let report = try comparison.report(context: context)
                let changes = try report.changes.collect()
                #expect(!changes.isEmpty, "\(old) \(new)")
                for change in changes {
                    let line = Array(ChangeJSON.object(change, sectioned: report.sectioned, inside: true).utf8)
                    let value = try JSONValueReader.read(text: line.span)
                    let read = try ChangeStreamReader.change(value, line: line, sectioned: report.sectioned) {
                        InputError(source: "stream", location: nil, message: $0)
                    }
                    #expect(read == change, "\(old) \(new): \(String(decoding: line, as: UTF8.self))")
                    #expect(read.fields.map(\.inside) == change.fields.map(\.inside), "\(String(decoding: line, as: UTF8.self))")
                }
            }
        }
    }

    @Test func aPointerThroughNestedArraysReadsBackItsPositions() throws {
        let path = FieldPath(["states", "cities", "name"])
        let elements = try ChangeStreamReader.elementIndices("/states/3/cities/0/name", path: path) { InputError(source: "s", location: nil, message: $0) }
        #expect(elements == [FieldChange.ElementIndex(depth: 1, index: 3), FieldChange.ElementIndex(depth: 2, index: 0)])
    }

    @Test func theDigestLeavesPositionsOutAndNothingElse() {
        func digest(_ line: String) -> String {
            var digest = ChangeStreamDigest()
            digest.add(line: Array(line.utf8), isChange: true)
            return digest.hex
        }
        let line = #"{"kind":"updated","id":"2","old":{"index":1,"line":3},"new":{"index":2,"line":4},"fields":[{"path":"p","old":1,"new":2}]}"#
        #expect(digest(line) == digest(line.replacingOccurrences(of: #""old":{"index":1,"line":3}"#, with: #""old":{"index":100,"line":102}"#)))
        #expect(digest(line) != digest(line.replacingOccurrences(of: #""new":2}"#, with: #""new":3}"#)))
        #expect(digest(line) != digest(line.replacingOccurrences(of: #""id":"2""#, with: #""id":"3""#)))
        // An id that holds the text of a position is no position.
        let tricky = #"{"kind":"deleted","id":"\"old\":{\"index\":1}","old":{"index":1,"line":3},"record":{"new":{"a":1}}}"#
        #expect(digest(tricky) != digest(tricky.replacingOccurrences(of: #""new":{"a":1}"#, with: #""new":{"a":2}"#)))
        #expect(ChangeStreamDigest.positionContents(in: Array(tricky.utf8))?.count == 1)
        // A position's section is digested: only its numbers are left out.
        let sectioned = #"{"kind":"deleted","id":"5","old":{"section":"veg","index":2,"line":4}}"#
        #expect(digest(sectioned) != digest(sectioned.replacingOccurrences(of: "veg", with: "meat")))
        #expect(digest(sectioned) == digest(sectioned.replacingOccurrences(of: #""index":2,"line":4"#, with: #""index":20,"line":40"#)))
        #expect(digest(sectioned) == digest(sectioned.replacingOccurrences(of: #""index":2,"line":4"#, with: #""index":20"#)))
    }
}
