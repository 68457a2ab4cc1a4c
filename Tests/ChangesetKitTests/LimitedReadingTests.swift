import Foundation
import Testing
@testable import ChangesetKit

/// A report that shows a few changes of each kind (`--limit`, markdown's and
/// html's defaults) reads again only those records: the changes past the
/// limit are counted, not read.
@Suite struct LimitedReadingTests {
    @Test func changesPastTheLimitAreNotReadAgain() throws {
        let old = (0..<30).map { #"{"id":\#($0),"v":"old \#($0)"}"# }.joined(separator: "\n")
        let new = (10..<40).map { #"{"id":\#($0),"v":"\#($0 < 20 ? "new" : "old") \#($0)"}"# }.joined(separator: "\n")
        let comparison = try Comparison.run(
            InputFile(name: "old", bytes: InputBytes(copying: Array(old.utf8)), format: .ndjson),
            InputFile(name: "new", bytes: InputBytes(copying: Array(new.utf8)), format: .ndjson),
            options: { var options = ComparisonOptions(); options.records.id = [FieldPath(["id"])]; return options }())
        let path = FieldPath(["v"])
        let limited = try comparison.report(context: [path], recordsPerKind: 3).changes.collect()
        let whole = try comparison.report(context: [path]).changes.collect()
        #expect(limited.count == whole.count && whole.count == 30)
        for kind in [Change.Kind.deleted, .inserted, .updated] {
            let ofKind = limited.filter { $0.kind == kind }
            let wholeOfKind = whole.filter { $0.kind == kind }
            #expect(ofKind.count == 10 && wholeOfKind.count == 10)
            // The first three are as a full report has them; the rest carry ids and places only.
            #expect(Array(ofKind.prefix(3)) == Array(wholeOfKind.prefix(3)))
            for (cut, full) in zip(ofKind.dropFirst(3), wholeOfKind.dropFirst(3)) {
                #expect(cut.id == full.id && cut.old == full.old && cut.new == full.new && cut.fields == full.fields)
                #expect(cut.record == nil && cut.context.allSatisfy { $0.value == nil })
            }
            #expect(wholeOfKind.allSatisfy { $0.context.first?.value != nil })
        }
    }
}
