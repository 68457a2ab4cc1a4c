import Foundation
import Testing

/// `--assert`: every assertion that fails is named, with the count it saw, in
/// the exit status, on standard error and in the markdown report.
@Suite struct AssertionTests {
    static let countries = SchemaChangeTests.countries

    @Test func everyFailedAssertionIsNamed() throws {
        let result = try changeset(Self.countries + ["-q", "--assert", "schema == 0", "--assert", "unchanged >= 4", "--assert", "deleted == 0", "--assert", "updated < 10"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr == """
            changeset: assertion failed: schema == 0 (schema is 2)
            changeset: assertion failed: deleted == 0 (deleted is 1)

            """, "\(result)")
        let holds = try changeset(Self.countries + ["-q", "--assert", "schema <= 2", "--assert", "unchanged == 40%"])
        #expect(holds.status == 0 && holds.stderr.isEmpty, "\(holds)")
        let percent = try changeset(Self.countries + ["--assert", "schema < 5%"])
        #expect(percent.status == 2 && percent.stderr.contains("schema counts fields, not records"), "\(percent)")
    }

    /// The assertions' list fits in the page's 65,536 characters, before the note that rows were cut.
    @Test func theAssertionListStaysWithinTheMarkdownBudget() throws {
        let count = 3000
        let old = (0..<count).map { #"{"id":\#($0),"v":"\#(String(repeating: "a", count: 60))\#($0)"}"# }
        let new = (0..<count).map { #"{"id":\#($0),"v":"\#(String(repeating: "b", count: 60))\#($0)"}"# }
        let directory = try scratchDirectory(holding: ["old.json": "[" + old.joined(separator: ",\n") + "]", "new.json": "[" + new.joined(separator: ",\n") + "]"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let asserts = (0..<10).flatMap { ["--assert", "updated <= \($0)"] }
        let page = try changeset(["old.json", "new.json", "--id", "id", "--format", "markdown", "--limit", "0"] + asserts, in: directory)
        #expect(page.status == 1 && page.stdout.utf8.count <= 65_536, "\(page.stdout.utf8.count)")
        let list = try #require(page.stdout.range(of: "**Assertions**"))
        let note = try #require(page.stdout.range(of: "> The report was cut"))
        #expect(list.lowerBound < note.lowerBound)
        #expect(page.stdout.components(separatedBy: "- ❌ failed:").count - 1 == 10)
    }
}
