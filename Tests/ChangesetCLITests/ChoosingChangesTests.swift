import Foundation
import Testing

/// Choosing what to see: `--kinds` filters the changes every report format
/// shows while the counts, the exit status and `--assert` take every change;
/// `--limit` caps text as it caps markdown and html, saying how many more.
@Suite struct ChoosingChangesTests {
    static let catalog = FormatTests.catalog

    @Test func kindsFilterEveryReportFormatButNotTheCounts() throws {
        let all = try changeset(Self.catalog + ["--format", "json"])
        let chosen = try changeset(Self.catalog + ["--kinds", "deleted,updated", "--format", "json"])
        #expect(chosen.status == all.status && chosen.status == 1, "\(chosen)")
        #expect(try run("jq", ["-c", ".summary"], input: chosen.stdout) == run("jq", ["-c", ".summary"], input: all.stdout))
        #expect(try run("jq", ["-c", ".kinds, ([.changes[].kind] | unique)"], input: chosen.stdout) == "[\"deleted\",\"updated\"]\n[\"deleted\",\"updated\"]\n")
        let everyDeletedOrUpdated = try run("jq", ["-c", "[.changes[] | select(.kind == \"deleted\" or .kind == \"updated\")]"], input: all.stdout)
        #expect(try run("jq", ["-c", ".changes"], input: chosen.stdout) == everyDeletedOrUpdated)

        let text = try changeset(Self.catalog + ["--kinds", "inserted"])
        #expect(text.status == 1, "\(text)")
        #expect(text.stdout.hasPrefix("1 inserted, 1 deleted, 3 updated, 1 moved, 3 unchanged\n"), "\(text)")
        #expect(text.stdout.contains("showing inserted changes only (--kinds): the counts are of every change\ninserted id 8"), "\(text)")
        #expect(!text.stdout.contains("\ndeleted ") && !text.stdout.contains("\nupdated "), "\(text)")

        let ndjson = try changeset(Self.catalog + ["--kinds", "moved", "--format", "ndjson"])
        #expect(try run("jq", ["-c", ".kind"], input: ndjson.stdout) == "\"moved\"\n", "\(ndjson)")
        let markdown = try changeset(Self.catalog + ["--kinds", "moved", "--format", "markdown"])
        #expect(markdown.stdout.contains("_Showing moved changes only (--kinds): the counts are of every change._"), "\(markdown)")
        #expect(!markdown.stdout.contains("Updated"), "\(markdown)")
        let html = try changeset(Self.catalog + ["--kinds", "moved", "--format", "html"])
        #expect(html.stdout.contains("<p id=\"total\" class=\"cut\">1 of 6 changes are on this page: showing moved changes only (--kinds): the counts are of every change.</p>"), "\(html.stdout.prefix(4000))")
        #expect(html.stdout.components(separatedBy: "<tr class=\"change ").count - 1 == 1)

        // The exit status and --assert still see every change.
        let quiet = try changeset(Self.catalog + ["--kinds", "moved", "-q", "--assert", "updated == 3"])
        #expect(quiet.status == 0, "\(quiet)")
        let stat = try changeset(Self.catalog + ["--kinds", "moved", "--stat"])
        #expect(stat.stdout.hasPrefix("1 inserted, 1 deleted, 3 updated, 1 moved"), "\(stat)")
    }

    @Test func kindsAreCheckedAndReplaysRefuseThem() throws {
        let bogus = try changeset(Self.catalog + ["--kinds", "deleted,changed"])
        #expect(bogus.status == 2 && bogus.stderr.contains("--kinds: \"changed\" is not a kind of change"), "\(bogus)")
        for format in ["patch", "jsonpatch", "batch"] {
            let refused = try changeset(Self.catalog + ["--kinds", "moved", "--format", format])
            #expect(refused.status == 2 && refused.stderr.contains("rebuilds NEW from every change") && refused.stdout.isEmpty, "\(format): \(refused)")
        }
    }

    @Test func limitCapsTextPerKindAndSaysHowManyMore() throws {
        let capped = try changeset(Self.catalog + ["--limit", "1"])
        #expect(capped.status == 1, "\(capped)")
        #expect(capped.stdout.components(separatedBy: "\nupdated ").count - 1 == 1, "\(capped)")
        #expect(capped.stdout.hasSuffix("… and 2 more updated (--limit)\n"), "\(capped)")
        let whole = try changeset(Self.catalog + ["--limit", "0"])
        #expect(whole.stdout == (try changeset(Self.catalog)).stdout)
        let json = try changeset(Self.catalog + ["--limit", "1", "--format", "json"])
        #expect(json.status == 2 && json.stderr.contains("--limit caps the text, markdown and html reports"), "\(json)")
    }
}
