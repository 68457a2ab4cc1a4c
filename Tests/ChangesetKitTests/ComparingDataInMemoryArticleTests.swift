import Foundation
import Testing
import ChangesetKit

/// The examples of the article "Comparing data in memory and applying
/// patches" (ChangesetKit.docc/ComparingDataInMemory.md), run as written
/// through the public API only, with what their comments say checked.
@Suite struct ComparingDataInMemoryArticleTests {
    @Test func theArticlesExamplesDoWhatTheySay() throws {
        let old = Data(#"[{"id":1,"price":10},{"id":2,"price":5}]"#.utf8)
        let new = Data("id,price\n1,12\n3,7\n".utf8)

        var options = ComparisonOptions()
        options.records.id = [FieldPath(["id"])]
        let comparison = try Comparison.run(
            old: .data(old, format: .json, name: "yesterday"),
            new: .data(new, format: .csv, name: "today"),
            options: options)
        let summary = try comparison.counts()
        #expect((summary.inserted, summary.deleted, summary.updated) == (1, 1, 1))

        let cached: [Value] = [.object([.init(name: "id", value: .number("1")), .init(name: "price", value: .number("10"))])]
        let fresh: [Value] = [.object([.init(name: "id", value: .number("1")), .init(name: "price", value: .number("11"))])]
        let update = try Comparison.run(old: .records(cached, name: "cache"), new: .records(fresh, name: "fresh"), options: options)
        #expect(try update.counts().updated == 1)

        let base = Data(#"[{"id":1,"price":10},{"id":2,"price":5}]"#.utf8)
        let target = Data(#"[{"id":1,"price":12},{"id":3,"price":7}]"#.utf8)
        let change = try Comparison.run(old: .data(base, format: .json, name: "base.json"),
                                        new: .data(target, format: .json, name: "target.json"), options: options)
        var text = ""
        _ = try change.write(OutputSettings(format: .patch), to: &text)

        let patch = try DatasetPatch(Data(text.utf8), name: "change.patch")
        let rebuilt = try patch.apply(to: .data(base, format: .json, name: "base.json"))
        #expect(String(decoding: rebuilt, as: UTF8.self) == #"[{"id":1,"price":12},{"id":3,"price":7}]"#)

        options.records.ignore = [FieldPath(["pricee"])]
        let error = try #require(throws: FieldCheckError.self) {
            _ = try Comparison.run(old: .data(old, format: .json, name: "yesterday"),
                                   new: .data(new, format: .csv, name: "today"), options: options)
        }
        #expect(error.setting == .ignore && error.field == "\"pricee\"")
        #expect(error.description == #"RecordOptions.ignore "pricee": no record of yesterday or today has this field; did you mean "price"?"#)
    }
}
