import Foundation
import Testing

/// docs/architecture.md's quick test command skips the suites tagged `.slow` by name, as
/// this toolchain's `swift test` selects tests by name and not by tag: its
/// `--skip` pattern must match exactly the tagged suites of both test
/// targets, so a suite tagged later is skipped too and no other is. CI
/// (`.ci/run`) skips nothing.
@Suite struct QuickTestCommandTests {
    static let repository = fixtures.deletingLastPathComponent()

    /// Every suite declared under Tests/, by target, and whether it is tagged `.slow`.
    func suites() throws -> [(target: String, name: String, slow: Bool)] {
        let tests = Self.repository.appendingPathComponent("Tests")
        let declaration = #/@Suite(\((?<traits>[^\n]*)\))?\s+(final\s+)?(struct|class|enum)\s+(?<name>\w+)/#
        var found: [(String, String, Bool)] = []
        for target in try FileManager.default.contentsOfDirectory(atPath: tests.path).sorted() {
            let folder = tests.appendingPathComponent(target)
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for match in text.matches(of: declaration) {
                    found.append((target, String(match.output.name), match.output.traits?.contains(".slow") ?? false))
                }
            }
        }
        return found
    }

    /// The pattern of docs/architecture.md's `swift test --skip '...'` line.
    func quickSkipPattern() throws -> String {
        let page = try String(contentsOf: Self.repository.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let line = try #require(page.split(separator: "\n").first { $0.hasPrefix("swift test --skip '") }, "docs/architecture.md has no quick test command")
        return String(try #require(line.split(separator: "'").dropFirst().first))
    }

    @Test func theQuickSkipPatternNamesExactlyTheSlowSuites() throws {
        let pattern = try Regex(try quickSkipPattern())
        let suites = try suites()
        #expect(suites.contains { $0.name == "InstallTests" && $0.slow } && suites.contains { $0.name == "DiffCommandTests" && !$0.slow },
                "the scan found \(suites.map(\.name))")
        for suite in suites {
            // How `swift test` names a test: target, suite, function.
            let identifier = "\(suite.target).\(suite.name)/aTest()"
            #expect(identifier.contains(pattern) == suite.slow, "\(suite.name) is \(suite.slow ? "" : "not ")tagged .slow")
        }
    }

    @Test func continuousIntegrationSkipsNothing() throws {
        let ci = try String(contentsOf: Self.repository.appendingPathComponent(".ci/run"), encoding: .utf8)
        #expect(ci.contains("swift test") && !ci.contains("--skip ") && !ci.contains("--filter"), "\(ci)")
    }
}
