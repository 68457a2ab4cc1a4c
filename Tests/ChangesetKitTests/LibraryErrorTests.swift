import Foundation
import Testing
@testable import ChangesetKit

/// Public calls throw public, typed errors a caller catches by type, and
/// they name the library's settings, not the command's flags (the command
/// words them as flags: `LibraryErrorWordingTests`).
@Suite struct LibraryErrorTests {
    static func json(_ text: String, _ name: String) -> DatasetSource {
        .data(Data(text.utf8), format: .json, name: name)
    }

    /// A field `ignore` names that no record has: a `FieldCheckError` with
    /// the setting, the field and the closest name, in the library's words.
    @Test func aFieldNoRecordHasIsAFieldCheckErrorNamingTheSetting() throws {
        var options = ComparisonOptions()
        options.records.id = [FieldPath(["id"])]
        options.records.ignore = [FieldPath(["pricee"])]
        let error = try #require(throws: FieldCheckError.self) {
            _ = try Comparison.run(old: Self.json(#"[{"id":1,"price":1}]"#, "old"), new: Self.json(#"[{"id":1,"price":2}]"#, "new"),
                                   options: options)
        }
        #expect(error.setting == .ignore)
        #expect(error.field == #""pricee""#)
        #expect(error.problem == #"no record of old or new has this field; did you mean "price"?"#)
        #expect(error.description == #"RecordOptions.ignore "pricee": no record of old or new has this field; did you mean "price"?"#)
        #expect(error.message(naming: { "--" + $0.rawValue }) == #"--ignore "pricee": no record of old or new has this field; did you mean "price"?"#)
    }

    /// A rename whose new name no record of NEW has, in a merge too.
    @Test func aRenameOfAFieldNoRecordHasIsAFieldCheckErrorInAMerge() throws {
        var options = MergeOptions()
        options.records.id = [FieldPath(["id"])]
        options.records.renames = [Rename(old: FieldPath(["name"]), new: FieldPath(["title"]))]
        let error = try #require(throws: FieldCheckError.self) {
            _ = try DatasetMerge.run(base: Self.json(#"[{"id":1,"name":"a"}]"#, "base"), ours: Self.json(#"[{"id":1,"name":"b"}]"#, "ours"),
                                     theirs: Self.json(#"[{"id":1,"name":"a"}]"#, "theirs"), options: options)
        }
        #expect(error.setting == .rename)
        #expect(error.field == "name=title")
        #expect(error.description.hasPrefix(#"RecordOptions.renames name=title: no record of base, ours, theirs has the field "title""#), "\(error)")
    }

    /// A report's context field no record has is the same error, for the context setting.
    @Test func aContextFieldNoRecordHasIsAFieldCheckError() throws {
        var options = ComparisonOptions()
        options.records.id = [FieldPath(["id"])]
        let comparison = try Comparison.run(old: Self.json(#"[{"id":1,"a":1}]"#, "old"), new: Self.json(#"[{"id":1,"a":2}]"#, "new"),
                                            options: options)
        let error = try #require(throws: FieldCheckError.self) { _ = try comparison.report(context: [FieldPath(["b"])]) }
        #expect(error.setting == .context)
        #expect(error.description.hasPrefix(#"the context fields "b": no record of old or new has this field"#), "\(error)")
    }

    /// `recordsAt` on NDJSON: an `InputError` that names the setting as the
    /// library spells it, and as a flag when the command asks.
    @Test func recordsAtOnNDJSONNamesTheSettingInTheLibrarysWords() throws {
        var options = ComparisonOptions()
        options.records.recordsAt = FieldPath(["data"])
        let error = try #require(throws: InputError.self) {
            _ = try Comparison.run(old: .data(Data(#"{"id":1}"#.utf8), format: .ndjson, name: "lines"),
                                   new: .records([], name: "none"), options: options)
        }
        #expect(error.description == "lines: RecordOptions.recordsAt needs a JSON document, but this input is NDJSON")
        #expect(error.description(naming: { $0 == .recordsAt ? "--records-at" : "?" })
                == "lines: --records-at needs a JSON document, but this input is NDJSON")
        // A message written over is the caller's, whoever words it.
        var edited = error
        edited.message = "replaced"
        #expect(edited.description(naming: { _ in "--flag" }) == "lines: replaced")
    }

    /// An id no record or column has: the readers name `RecordOptions.id`, the command `--id`.
    @Test func anIDTheInputLacksNamesTheSettingInTheLibrarysWords() throws {
        var options = ComparisonOptions()
        options.records.id = [FieldPath(["sku"])]
        let json = try #require(throws: InputError.self) {
            _ = try Comparison.run(old: Self.json(#"[{"id":1}]"#, "old"), new: .records([], name: "none"), options: options)
        }
        #expect(json.description == #"old:1:2: the record has no "sku" field (the RecordOptions.id); the top-level fields are: id"#)
        #expect(json.description(naming: { "--" + $0.rawValue }) == #"old:1:2: the record has no "sku" field (the --id); the top-level fields are: id"#)
        let csv = try #require(throws: InputError.self) {
            _ = try Comparison.run(old: .data(Data("id\n1\n".utf8), format: .csv, name: "rows"), new: .records([], name: "none"), options: options)
        }
        #expect(csv.description == #"rows:1:1: no "sku" column for RecordOptions.id; the columns are: id"#)
        #expect(csv.description(naming: { "--" + $0.rawValue }) == #"rows:1:1: no "sku" column for --id; the columns are: id"#)
    }

    /// A JSON document where an array was expected advises `recordsAt`, by the library's name for it.
    @Test func aDocumentInsteadOfAnArrayAdvisesRecordsAtInTheLibrarysWords() throws {
        let error = try #require(throws: InputError.self) {
            _ = try Comparison.run(old: Self.json(#"{"data":[{"id":1}]}"#, "doc"), new: .records([], name: "none"), options: ComparisonOptions())
        }
        #expect(error.message.contains("(use RecordOptions.recordsAt to name the array inside it, or .ndjson for one record per line)"), "\(error)")
        #expect(error.description(naming: { $0 == .recordsAt ? "--records-at" : "?" }).contains("(use --records-at to name the array"), "\(error)")
    }

    /// A record that cannot be read again, and a value nested too deep: a `ValueReadError`.
    @Test func aValueThatCannotBeReadIsAValueReadError() throws {
        let open = Array("1,\"open".utf8)
        let error = try #require(throws: ValueReadError.self) { _ = try CSVRecordReader.rawCells(of: open.span, delimiter: 0x2C) }
        #expect(error.description == "a row could not be read again (did the file change while changeset ran?)")
        let deep = Array((String(repeating: "[", count: 1001) + String(repeating: "]", count: 1001)).utf8)
        #expect(throws: ValueReadError.self) { _ = try JSONValueReader.read(deep.span) }
    }

    /// A patch that does not fit its base is an `InputError` naming the base.
    @Test func aPatchForAnotherBaseIsAnInputError() throws {
        var options = ComparisonOptions()
        options.records.id = [FieldPath(["id"])]
        var text = ""
        _ = try Comparison.run(old: Self.json(#"[{"id":1}]"#, "old"), new: Self.json(#"[{"id":2}]"#, "new"), options: options)
            .write(OutputSettings(format: .patch), to: &text)
        let patch = try DatasetPatch(Data(text.utf8), name: "p")
        let error = try #require(throws: InputError.self) { _ = try patch.apply(to: Self.json(#"[{"id":3}]"#, "other")) }
        #expect(error.source == "other")
    }
}
