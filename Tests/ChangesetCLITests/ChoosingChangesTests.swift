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
        #expect(try run("jq", ["-c", ".kind"], input: ndjson.stdout) == "\"stream\"\n\"moved\"\n\"end\"\n", "\(ndjson)")
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

/// Context: `--show FIELD` puts a field's value beside the id of every
/// change, in every report format: the current value, a deleted record's old one.
@Suite struct ContextTests {
    static let cities = SummaryTransitionsTests.cities

    @Test func shownFieldsStandBesideTheIdInEveryFormat() throws {
        let text = try changeset(Self.cities + ["--show", "name", "--show", "c*", "--kinds", "deleted,updated", "--limit", "1"])
        #expect(text.stdout.contains("deleted  id 100007  at 6, line 8  name: \"City 7\", country: \"Russia\"\n"), "\(text)")
        // An updated record shows its value now: the renamed country.
        #expect(text.stdout.contains("updated  id 100001  at 0, line 2  name: \"City 1\", country: \"Russian Federation\"\n"), "\(text)")
        let json = try changeset(Self.cities + ["--show", "name", "--format", "json"])
        let shown = try run("jq", ["-c", #"[.changes[] | select(.id == "100007" or .id == "200001") | .show]"#], input: json.stdout)
        #expect(shown == #"[{"name":"City 7"},{"name":"New town 1"}]"# + "\n", "\(shown)")
        let everyChange = try run("jq", ["[.changes[] | select(.show.name == null)] | length"], input: json.stdout)
        #expect(everyChange == "0\n")
        let markdown = try changeset(Self.cities + ["--show", "name", "--format", "markdown", "--limit", "1"])
        #expect(markdown.stdout.contains("`100007` (`name: \"City 7\"`)"), "\(markdown.stdout.prefix(3000))")
        let html = try changeset(Self.cities + ["--show", "name", "--format", "html", "--limit", "1"])
        #expect(html.stdout.contains("<span class=\"show\">name: &quot;City 7&quot;</span>"), "\(html.stdout.prefix(3000))")
    }

    @Test func aFieldNoRecordHasIsAnErrorAndReplaysRefuseIt() throws {
        let typo = try changeset(Self.cities + ["--show", "nmae"])
        #expect(typo.status == 2 && typo.stdout.isEmpty && typo.stderr.contains(#"--show "nmae": no record of cities/old.csv or cities/new.csv has this field; did you mean "name"?"#), "\(typo)")
        let patch = try changeset(Self.cities + ["--show", "name", "--format", "patch"])
        #expect(patch.status == 2 && patch.stderr.contains("--show adds context to a report"), "\(patch)")
    }
}

extension ContextTests {
    /// `--show nme` was refused in a report but passed with `--stat` and
    /// `-q`, which show no context: a CI step with `-q` then failed only
    /// when someone ran the report. Every mode refuses it with one message.
    @Test func aShownFieldNoRecordHasIsRefusedInEveryMode() throws {
        let paths = try scratchFiles([
            ("old.csv", "id,name,population\n1,Oslo,700\n2,Bergen,290\n"),
            ("new.csv", "id,name,population\n1,Oslo,710\n2,Bergen,290\n"),
        ]) + ["--id", "id"]
        let modes: [[String]] = [[], ["--stat"], ["-q"], ["--stat", "--format", "json"], ["--stat", "--format", "ndjson"],
                                 ["-q", "--format", "json"], ["--format", "markdown"], ["--format", "html"]]
        let report = try changeset(paths + ["--show", "nme"])
        #expect(report.stderr.contains(#"--show "nme": no record of "#) && report.stderr.contains(#"has this field; did you mean "name"?"#), "\(report)")
        for mode in modes {
            let refused = try changeset(paths + ["--show", "nme"] + mode)
            #expect(refused.status == 2 && refused.stdout.isEmpty && refused.stderr == report.stderr, "\(refused)")
            // A field the records have still passes, and the exit status still tells.
            let shown = try changeset(paths + ["--show", "name"] + mode)
            #expect(shown.status == 1 && shown.stderr.isEmpty, "\(shown)")
        }
        // A pattern that matches nothing, and a nested field, the same way.
        let pattern = try changeset(paths + ["--show", "nm*", "-q"])
        #expect(pattern.status == 2 && pattern.stderr.contains(#"--show "nm*": no field of "#), "\(pattern)")
        let nested = try scratchFiles([
            ("old.json", #"[{"id":1,"addr":{"city":"Oslo"},"n":1}]"#),
            ("new.json", #"[{"id":1,"addr":{"city":"Oslo"},"n":2}]"#),
        ]) + ["--id", "id", "--show", "addr.cty"]
        for mode in [[], ["--stat"], ["-q"]] {
            let refused = try changeset(nested + mode)
            #expect(refused.status == 2 && refused.stderr.contains(#"--show "addr.cty": no record of "#), "\(refused)")
        }
    }
}

extension ContextTests {
    /// `--show` takes a renamed field by either name, in old and new records alike.
    @Test func shownFieldsFollowARename() throws {
        let directory = try scratchDirectory(holding: ["m1.csv": "id,name,v\n1,a,1\n2,b,2\n3,c,3\n", "m2.csv": "id,title,v\n1,a,1\n2,b,5\n4,d,4\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["title", "name"] {
            let result = try changeset(["m1.csv", "m2.csv", "--id", "id", "--rename", "name=title", "--show", name], in: directory)
            #expect(result.status == 1, "\(result)")
            for expected in ["deleted  id 3  at 2, line 4  \(name): \"c\"", "inserted id 4  at 2, line 4  \(name): \"d\"", "updated  id 2  at 1, line 3  \(name): \"b\""] {
                #expect(result.stdout.contains(expected), "\(name): \(result.stdout)")
            }
        }
    }

    /// A CSV column with a dot in its name, against nested JSON and on its own.
    @Test func shownFieldsFindDottedColumns() throws {
        let directory = try scratchDirectory(holding: [
            "c1.csv": "id,addr.city,v\n1,Oslo,1\n2,Bergen,2\n",
            "n2.json": #"[{"id":1,"addr":{"city":"Oslo"},"v":1},{"id":2,"addr":{"city":"Bergen"},"v":3}]"#,
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let mixed = try changeset(["c1.csv", "n2.json", "--id", "id", "--show", "addr.city"], in: directory)
        #expect(mixed.stdout.contains("addr.city: \"Bergen\"\n"), "\(mixed)")
        let csv = try changeset(["c1.csv", "c1.csv", "--id", "id", "--show", "addr.city"], in: directory)
        #expect(csv.status == 0, "\(csv)")
    }

    @Test func nestedShownFieldsAreCheckedAndPatternsStayTopLevel() throws {
        let directory = try scratchDirectory(holding: ["j1.json": #"[{"id":1,"addr":{"city":"Oslo"}}]"#, "j2.json": #"[{"id":1,"addr":{"city":"Olso"}}]"#])
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = try changeset(["j1.json", "j2.json", "--id", "id", "--show", "addr.nope"], in: directory)
        #expect(missing.status == 2 && missing.stderr.contains(#"--show "addr.nope": no record of j1.json or j2.json has this field"#), "\(missing)")
        let pattern = try changeset(["j1.json", "j2.json", "--id", "id", "--show", "addr.*"], in: directory)
        #expect(pattern.status == 2 && pattern.stderr.contains("a pattern names top-level fields only"), "\(pattern)")
        let nested = try changeset(["j1.json", "j2.json", "--id", "id", "--show", "addr.city"], in: directory)
        #expect(nested.stdout.contains("updated  id 1  at 0, line 1  addr.city: \"Olso\"\n"), "\(nested)")
    }

    /// `--show` values are cut as the format cuts values, whole with `--width 0`.
    @Test func shownValuesFollowTheWidth() throws {
        let long = String(repeating: "x", count: 300)
        let directory = try scratchDirectory(holding: ["w1.json": #"[{"id":1,"t":"\#(long)","v":1}]"#, "w2.json": #"[{"id":1,"t":"\#(long)","v":2}]"#])
        defer { try? FileManager.default.removeItem(at: directory) }
        let whole = try changeset(["w1.json", "w2.json", "--id", "id", "--show", "t", "--width", "0"], in: directory)
        #expect(whole.stdout.contains("t: \"\(long)\"\n"), "\(whole)")
        let cut = try changeset(["w1.json", "w2.json", "--id", "id", "--show", "t"], in: directory)
        #expect(!cut.stdout.contains(long), "\(cut)")
    }
}
