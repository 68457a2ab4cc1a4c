@testable import ChangesetKit
import Testing

/// The rules output settings keep, checked once in the library and thrown
/// as a typed error a caller can switch over.
@Suite struct OutputSettingsCheckTests {
    static func settings(_ format: OutputFormat, _ change: (inout OutputSettings) -> Void) -> OutputSettings {
        var settings = OutputSettings(format: format)
        change(&settings)
        return settings
    }

    static let refused: [(OutputSettings, OutputSettingsError)] = [
        (settings(.markdown) { $0.countsOnly = true }, .countsNotCarried(.markdown)),
        (settings(.patch) { $0.kinds = [.deleted] }, .kindsInReplay(.patch)),
        (settings(.batch) { $0.show = [FieldPath(["name"])] }, .showInReplay(.batch)),
        (settings(.json) { $0.testOperations = true }, .testOperationsOutsideJSONPatch(.json)),
        (settings(.text) { $0.width = 3 }, .widthTooSmall(3, minimumWidth: 8)),
        (settings(.text) { $0.limit = -1 }, .negativeLimit(-1)),
        (settings(.json) { $0.limit = 5 }, .limitNotCarried(.json)),
        (settings(.html) { $0.group = true }, .groupNotCarried(.html)),
    ]

    @Test func eachRuleIsRefusedWithItsCase() {
        for (settings, expected) in Self.refused {
            #expect(throws: expected) { try settings.check() }
            // The library's words name no command-line option.
            #expect(!expected.description.contains("--"), "\(expected)")
        }
    }

    @Test func settingsWithinTheRulesPass() throws {
        try Self.settings(.text) { $0.countsOnly = true; $0.width = 0; $0.limit = 0; $0.group = true; $0.kinds = [.updated] }.check()
        try Self.settings(.jsonpatch) { $0.testOperations = true }.check()
        try Self.settings(.markdown) { $0.limit = 10; $0.show = [FieldPath(["name"])] }.check()
    }

    @Test func aComparisonRefusesTheSameSettingsBeforeWritingAnything() throws {
        let comparison = try Comparison.run(
            InputFile(name: "old", bytes: InputBytes(copying: Array("[{\"id\": 1}]".utf8)), format: .json),
            InputFile(name: "new", bytes: InputBytes(copying: Array("[{\"id\": 2}]".utf8)), format: .json), options: ComparisonOptions())
        for (settings, expected) in Self.refused {
            var output = ""
            #expect(throws: expected) { try comparison.write(settings, to: &output) }
            #expect(output.isEmpty)
        }
    }
}
