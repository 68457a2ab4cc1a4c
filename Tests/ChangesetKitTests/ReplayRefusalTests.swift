import Foundation
import Testing
@testable import ChangesetKit

/// The rule that a replay carries what the counts count lives in the
/// library: a program that writes a patch through `Comparison.write` meets it
/// as the command does.
@Suite struct ReplayRefusalTests {
    static func comparison(_ old: String, _ new: String, _ options: ComparisonOptions) throws -> Comparison {
        try Comparison.run(InputFile(name: "old", bytes: InputBytes(copying: Array(old.utf8)), format: .json),
                           InputFile(name: "new", bytes: InputBytes(copying: Array(new.utf8)), format: .json), options: options)
    }

    @Test func aToleranceIsRefusedForEveryReplayFormatAndHonouredByTheReports() throws {
        var options = ComparisonOptions()
        options.records.id = [FieldPath(["id"])]
        options.tolerance = ValueTolerance(all: .init(absolute: Decimal(string: "0.01")))
        let comparison = try Self.comparison(#"[{"id":1,"p":1.000}]"#, #"[{"id":1,"p":1.001}]"#, options)
        for format in [OutputFormat.patch, .jsonpatch, .batch] {
            var output = ""
            #expect(throws: OptionError.self, "\(format)") { try comparison.write(OutputSettings(format: format), to: &output) }
            #expect(output.isEmpty, "\(format): \(output)")
            #expect(throws: OptionError.self, "\(format) quiet") { try comparison.write(OutputSettings(format: format), to: &output, showingNothing: true) }
        }
        var report = ""
        let summary = try comparison.write(OutputSettings(format: .json), to: &report)
        #expect(summary.updated == 0 && summary.changed == 0, "\(summary)")
    }

    @Test func exactOptionsMakeAReplayThatCountsWhatItCarries() throws {
        var options = ComparisonOptions()
        options.records.id = [FieldPath(["id"])]
        let comparison = try Self.comparison(#"[{"id":1,"p":1.000}]"#, #"[{"id":1,"p":1.001}]"#, options)
        #expect(comparison.settingsCountingChangesAsNone.isEmpty)
        var output = ""
        let summary = try comparison.write(OutputSettings(format: .jsonpatch), to: &output)
        #expect(summary.updated == 1 && output.contains(#"{"op":"replace","path":"/0/p","value":1.001}"#), "\(summary) \(output)")
    }
}
