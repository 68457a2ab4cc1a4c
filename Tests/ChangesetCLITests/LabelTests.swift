import Foundation
import Testing

/// `--label` (`-L`, as diff's): names for copies that stand for other files,
/// such as the Action's copy of a file at a git ref.
@Suite struct LabelTests {
    static let files = ["old.csv": "id,price\n1,10\n2,20\n", "new.csv": "id,price\n1,11\n2,20\n"]

    @Test func labelsNameOldThenNewInTheReport() throws {
        let scratch = try scratchDirectory(holding: Self.files)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let json = try changeset(["old.csv", "new.csv", "--id", "id", "-L", "main:prices.csv", "--label", "prices.csv", "--format", "json"], in: scratch)
        #expect(json.status == 1, "\(json)")
        #expect(json.stdout.contains(#""old": {"file":"main:prices.csv","format":"csv","records":2}"#), "\(json.stdout)")
        #expect(json.stdout.contains(#""new": {"file":"prices.csv","format":"csv","records":2}"#), "\(json.stdout)")
        let markdown = try changeset(["old.csv", "new.csv", "--id", "id", "-L", "main:prices.csv", "--format", "markdown"], in: scratch)
        #expect(markdown.stdout.contains("main:prices.csv") && markdown.stdout.contains("new.csv"), "\(markdown.stdout)")
        #expect(!markdown.stdout.contains("old.csv"), "\(markdown.stdout)")
    }

    /// Copies named by labels (the pre-commit hook's, the Action's) take the
    /// rules file's entry of the file they stand for.
    @Test func aLabelPicksTheRulesEntry() throws {
        var files = Self.files
        files[".changeset.json"] = #"{"files": {"data/prices.csv": {"id": "id"}}}"#
        let scratch = try scratchDirectory(holding: files)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let keyed = try changeset(["-L", "HEAD:data/prices.csv", "-L", "data/prices.csv", "--", "old.csv", "new.csv"], in: scratch)
        #expect(keyed.status == 1 && keyed.stdout.hasPrefix("0 inserted, 0 deleted, 1 updated"), "\(keyed)")
        let unlabelled = try changeset(["old.csv", "new.csv"], in: scratch)
        #expect(unlabelled.stdout.hasPrefix("1 inserted, 1 deleted, 0 updated"), "\(unlabelled)")
    }

    @Test func anErrorNamesTheLabelAndAThirdLabelIsRefused() throws {
        let scratch = try scratchDirectory(holding: ["bad.csv": "id,price\n1,\"10\n", "new.csv": Self.files["new.csv"]!])
        defer { try? FileManager.default.removeItem(at: scratch) }
        let bad = try changeset(["bad.csv", "new.csv", "--id", "id", "-L", "main:prices.csv"], in: scratch)
        #expect(bad.status == 2 && bad.stdout.isEmpty, "\(bad)")
        #expect(bad.stderr.hasPrefix("changeset: main:prices.csv:2:3: "), "\(bad.stderr)")
        let three = try changeset(["bad.csv", "new.csv", "-L", "a", "-L", "b", "-L", "c"], in: scratch)
        #expect(three.status == 2 && three.stderr.hasPrefix("changeset: --label names OLD, then NEW: give it at most twice\n"), "\(three)")
    }
}
