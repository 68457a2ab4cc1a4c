import Foundation
import Testing
@testable import ChangesetKit

/// The library's messages name its settings, not the command's flags: a
/// library caller reads `RecordOptions.id ["a", "b"]`, and the same
/// message worded for the command (`asArguments`, its flags) reads
/// `--id a,b`.
@Suite struct LibraryWordingTests {
    static func csv(_ text: String, _ name: String) -> DatasetSource {
        .data(Data(text.utf8), format: .csv, name: name)
    }

    /// The flag each setting names in these tests, as the command's table does.
    static func flag(_ setting: LibrarySetting) -> String {
        switch setting {
        case .id: "--id"
        case .duplicates: "--duplicates"
        case .csvRows: "--csv-rows"
        case .absoluteTolerances: "--tolerance"
        case .rename: "--rename"
        case .arrayKey: "--array-key"
        case .assertion: "--assert"
        default: "--?"
        }
    }

    /// A repeated id: the advice names the id setting with the composite key found, in either wording.
    @Test func aRepeatedIDsAdviceNamesTheIDSettingWithItsValue() throws {
        var options = ComparisonOptions()
        options.records.id = [FieldPath(["id"])]
        let rows = "id,x\n1,a\n1,b\n"
        let error = try #require(throws: InputError.self) {
            _ = try Comparison.run(old: Self.csv(rows, "old.csv"), new: Self.csv(rows, "new.csv"), options: options)
        }
        #expect(error.message.contains(#"An RecordOptions.id that is unique (several fields: RecordOptions.id ["a", "b"]) or RecordOptions.duplicates .occurrence"#),
                "\(error)")
        #expect(error.message.hasSuffix(#"; RecordOptions.id ["id", "x"] is unique in both files"#), "\(error)")
        #expect(!error.description.contains("--"), "\(error)")
        let command = error.description(naming: Self.flag, asArguments: true)
        #expect(command.contains("An --id that is unique (several fields: --id a,b) or --duplicates occurrence"), "\(command)")
        #expect(command.hasSuffix("; --id id,x is unique in both files"), "\(command)")
    }

    /// A CSV row of the wrong length names the csv-rows setting and its lenient value.
    @Test func aShortRowNamesTheCSVRowsSetting() throws {
        let error = try #require(throws: InputError.self) {
            _ = try Comparison.run(old: Self.csv("id,x\n1\n", "old.csv"), new: Self.csv("id,x\n1,a\n", "new.csv"), options: ComparisonOptions())
        }
        #expect(error.message.contains("(RecordOptions.csvRows .lenient reads such rows"), "\(error)")
        #expect(error.description(naming: Self.flag, asArguments: true).contains("(--csv-rows lenient reads such rows"), "\(error)")
    }

    /// Options the library parses from text throw errors in its words.
    @Test func parsedSettingsNameThemselvesInTheLibrarysWords() throws {
        let tolerance = try #require(throws: OptionError.self) { _ = try ValueTolerance(absolute: ["-1"], relative: []) }
        #expect(tolerance.description == #"invalid absolute tolerance "-1": write a number of 0 or more, or FIELD=NUMBER"#)
        #expect(tolerance.description(naming: Self.flag, asArguments: true) == #"invalid --tolerance "-1": write a number of 0 or more, or FIELD=NUMBER"#)
        let rename = try #require(throws: OptionError.self) { _ = try Rename(parsing: "name") }
        #expect(rename.description.hasPrefix(#"invalid RecordOptions.renames "name": write OLD=NEW"#), "\(rename)")
        #expect(rename.description(naming: Self.flag, asArguments: true).hasPrefix(#"invalid --rename "name": write OLD=NEW"#))
        let arrayKey = try #require(throws: OptionError.self) { _ = try ArrayKeyRule(parsing: "states") }
        #expect(arrayKey.description.hasPrefix(#"invalid RecordOptions.arrayKeys "states": write PATH=FIELD"#), "\(arrayKey)")
        let assertion = try #require(throws: Assertion.ParseError.self) { _ = try Assertion(parsing: "deleted") }
        #expect(assertion.text == "deleted")
        #expect(assertion.description.hasPrefix(#"invalid assertion "deleted": no comparison; write KIND OP NUMBER"#), "\(assertion)")
        #expect(assertion.description(naming: Self.flag, asArguments: true).hasPrefix(#"invalid --assert "deleted": no comparison"#))
    }

    /// A jsonpatch of a CSV side is an `OutputSettingsError` a caller catches by type.
    @Test func aJSONPatchOfACSVSideIsATypedOutputSettingsError() throws {
        var options = ComparisonOptions()
        options.records.id = [FieldPath(["id"])]
        let comparison = try Comparison.run(old: Self.csv("id,x\n1,a\n", "old.csv"), new: Self.csv("id,x\n1,b\n", "new.csv"), options: options)
        var output = ""
        #expect(throws: OutputSettingsError.jsonPatchOfNonJSON(snapshot: "old.csv", format: "csv")) {
            try comparison.write(OutputSettings(format: .jsonpatch), to: &output)
        }
    }
}
