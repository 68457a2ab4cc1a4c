import Foundation
import Testing

/// Summary first, grouped: a city list where two countries were renamed
/// in a thousand rows says so in two transitions, in every format, before
/// any one change, and `--stat` says it too.
@Suite struct SummaryTransitionsTests {
    static let cities = ["cities/old.csv", "cities/new.csv", "--id", "geonameid"]

    @Test func theTextSummarySaysWhatTheChangesHaveInCommon() throws {
        let stat = try changeset(Self.cities + ["--stat"])
        #expect(stat.status == 1 && stat.stdout == """
            20 inserted, 31 deleted, 1035 updated, 0 moved, 1934 unchanged
            fields: country 993, population 59
              country: "Russia" -> "Russian Federation" (499), "Turkey" -> "Türkiye" (494)
              population: numbers changed by 1000 at most, 1000 on average (59 records)

            """, "\(stat)")
        let text = try changeset(Self.cities)
        #expect(text.stdout.hasPrefix(stat.stdout), "the report starts with what --stat says")
    }

    @Test func everyFormatCarriesTheTransitions() throws {
        let json = try changeset(Self.cities + ["--format", "json"])
        let transitions = try run("jq", ["-c", ".summary.transitions[] | [.path, .exact, (.top | map([.old, .new, .records])), .numbers]"], input: json.stdout)
        #expect(transitions == """
            ["country",true,[["Russia","Russian Federation",499],["Turkey","Türkiye",494]],null]
            ["population",true,[],{"records":59,"largest":1000,"mean":1000}]

            """, "\(transitions)")
        // The counts agree with the changes themselves.
        let russia = try run("jq", ["[.changes[] | select(.kind == \"updated\") | .fields[] | select(.path == \"country\" and .old == \"Russia\")] | length"], input: json.stdout)
        #expect(russia == "499\n")
        let markdown = try changeset(Self.cities + ["--format", "markdown"])
        #expect(markdown.stdout.contains("**Common changes**\n\n- `country`: `\"Russia\"` → `\"Russian Federation\"` (499), `\"Turkey\"` → `\"Türkiye\"` (494)\n"), "\(markdown.stdout.prefix(2000))")
        let html = try changeset(Self.cities + ["--format", "html"])
        #expect(html.stdout.contains("<li><code>country</code>: &quot;Russia&quot; -&gt; &quot;Russian Federation&quot; (499), &quot;Turkey&quot; -&gt; &quot;Türkiye&quot; (494)</li>"), "\(html.stdout.prefix(3000))")
    }
}

extension SummaryTransitionsTests {
    /// Found on real data: "at least 247" of a transition whose 247 records
    /// were all counted. Here a column with more distinct transitions than a
    /// summary tracks (100 one-off renames) keeps the exact count of the
    /// transition counted from its start (`Turkey`) and of one first seen
    /// after the one-offs (`Russia`); only `Atlantis`, seen once before the
    /// one-offs pushed it out, then ten times, is a lower bound.
    @Test func aCountSaysAtLeastOnlyWhenItIsALowerBound() throws {
        var rows: [(String, String)] = Array(repeating: ("Turkey", "Türkiye"), count: 30) + [("Atlantis", "Atlantica")]
        rows += (0..<100).map { ("c\($0)", "d\($0)") }
        rows += Array(repeating: ("Russia", "Russian Federation"), count: 247) + Array(repeating: ("Atlantis", "Atlantica"), count: 10)
        let paths = try scratchFiles([
            ("old.csv", "id,country\n" + rows.enumerated().map { "\($0.offset + 1),\($0.element.0)\n" }.joined()),
            ("new.csv", "id,country\n" + rows.enumerated().map { "\($0.offset + 1),\($0.element.1)\n" }.joined()),
        ]) + ["--id", "id"]
        let stat = try changeset(paths + ["--stat"])
        #expect(stat.status == 1 && stat.stdout == """
            0 inserted, 0 deleted, 388 updated, 0 moved, 0 unchanged
            fields: country 388
              country: "Russia" -> "Russian Federation" (247), "Turkey" -> "Türkiye" (30), "Atlantis" -> "Atlantica" (at least 10)

            """, "\(stat)")
        let markdown = try changeset(paths + ["--format", "markdown"])
        #expect(markdown.stdout.contains("`\"Russian Federation\"` (247), `\"Turkey\"` → `\"Türkiye\"` (30), `\"Atlantis\"` → `\"Atlantica\"` (at least 10)\n"), "\(markdown.stdout.prefix(1500))")
        // json: the field says some transition went untracked; the one lower bound says so itself.
        let json = try changeset(paths + ["--stat", "--format", "json"])
        let transitions = try run("jq", ["-c", ".transitions[] | [.exact, (.top | map([.old, .records, .exact]))]"], input: json.stdout)
        #expect(transitions == #"[false,[["Russia",247,null],["Turkey",30,null],["Atlantis",10,false]]]"# + "\n", "\(transitions)")
        let report = try changeset(paths + ["--format", "json"])
        for (document, schema) in [(json.stdout, "stat.schema.json"), (report.stdout, "report.schema.json")] {
            let valid = try JSONSchemaTests.validate([document], against: schema)
            #expect(valid.status == 0, "\(schema): \(valid)")
        }
    }
}

/// A column renamed between two snapshots is one removed and one added; when
/// their values agree in the records matched by id, every format says it
/// looks renamed and how to compare them as one field.
@Suite struct RenameSuggestionTests {
    static let states = ["states/old.csv", "states/new.csv", "--id", "id"]

    @Test func aRenamedColumnIsSuggestedInEveryFormat() throws {
        let stat = try changeset(Self.states + ["--stat"])
        #expect(stat.stdout.contains("""
            schema: added iso2 (20 records); removed state_code (20 records)
            looks renamed: state_code -> iso2 (20 of 20 values equal); --rename state_code=iso2 compares them as one field

            """), "\(stat)")
        let json = try changeset(Self.states + ["--format", "json"])
        #expect(try run("jq", ["-c", ".schema.suggested"], input: json.stdout) == #"[{"old":"state_code","new":"iso2","compared":20,"equal":20}]"# + "\n")
        for format in ["markdown", "html", "ndjson"] {
            let shown = try changeset(Self.states + ["--format", format])
            #expect(shown.stdout.contains("state_code") && shown.stdout.contains("iso2") && (shown.stdout.contains("looks renamed") || shown.stdout.contains("\"suggested\"")), "\(format): \(shown.stdout.prefix(1500))")
        }
        // Taking the advice: one field, compared, and no suggestion left.
        let renamed = try changeset(Self.states + ["--rename", "state_code=iso2", "--stat"])
        #expect(renamed.stdout.hasPrefix("0 inserted, 0 deleted, 5 updated") && !renamed.stdout.contains("looks renamed") && renamed.stdout.contains("renamed: state_code -> iso2"), "\(renamed)")
    }

    @Test func fieldsWhoseValuesDifferAreNotSuggested() throws {
        let countries = try changeset(SchemaChangeTests.countries + ["--stat"])
        #expect(countries.stdout.contains("schema: added Continent") && !countries.stdout.contains("looks renamed"), "\(countries)")
    }
}

/// `--group`: a thousand records that changed the same field the same way
/// are written once, with how many and their first ids.
@Suite struct GroupTests {
    static let cities = SummaryTransitionsTests.cities

    @Test func identicalUpdatesAreWrittenOnce() throws {
        let grouped = try changeset(Self.cities + ["--group", "--kinds", "updated"])
        #expect(grouped.status == 1, "\(grouped)")
        #expect(grouped.stdout.contains("""
            updated  492 records  ids 100001, 100004, 100009, 100015, 100041, … and 487 more
              country: "Russia" -> "Russian Federation"
            updated  484 records  ids 100003, 100020, 100023, 100033, 100035, … and 479 more
              country: "Turkey" -> "Türkiye"

            """), "\(grouped.stdout.prefix(1500))")
        // Records whose changes are their own are written as they are, and every update is accounted for.
        let json = try changeset(Self.cities + ["--format", "json"])
        let russia = try run("jq", [#"[.changes[] | select(.kind == "updated" and (.fields | length) == 1 and .fields[0].old == "Russia")] | length"#], input: json.stdout)
        #expect(russia == "492\n")
        let lines = grouped.stdout.split(separator: "\n")
        let singles = lines.filter { $0.hasPrefix("updated  id ") }.count
        let inGroups = lines.compactMap { line -> Int? in
            guard line.hasPrefix("updated  "), line.contains(" records  ids ") else { return nil }
            return Int(line.dropFirst("updated  ".count).prefix { $0.isNumber })
        }.reduce(0, +)
        #expect(singles + inGroups == 1035, "\(singles) + \(inGroups)")
        let capped = try changeset(Self.cities + ["--group", "--kinds", "updated", "--limit", "2"])
        #expect(capped.stdout.hasSuffix("… and 59 more groups of updated records (--limit)\n"), "\(capped.stdout.suffix(300))")
        for format in ["json", "ndjson", "html"] {
            let refused = try changeset(Self.cities + ["--group", "--format", format])
            #expect(refused.status == 2 && refused.stdout.isEmpty && refused.stderr.contains("--group groups the updates of the text and markdown reports"), "\(refused)")
        }
    }

    /// A pull request comment is where thousands of rows hurt most: markdown groups them too.
    @Test func markdownWritesAGroupAsOneRowGroup() throws {
        let grouped = try changeset(Self.cities + ["--group", "--kinds", "updated", "--format", "markdown"])
        #expect(grouped.status == 1, "\(grouped)")
        #expect(grouped.stdout.contains("**Updated** (1035, in 61 groups of the same field changes)"), "\(grouped.stdout.prefix(2000))")
        #expect(grouped.stdout.contains("""
            | **492 records**: `100001`, `100004`, `100009`, `100015`, `100041`, … and 487 more |  | `country` | `"Russia"` | `"Russian Federation"` |
            | **484 records**: `100003`, `100020`, `100023`, `100033`, `100035`, … and 479 more |  | `country` | `"Turkey"` | `"Türkiye"` |

            """), "\(grouped.stdout.prefix(2000))")
        #expect(grouped.stdout.contains("…and 11 more groups of updated records\n"), "\(grouped.stdout.suffix(500))")
        try expectGolden(try changeset(FormatTests.arrays + ["--group", "--format", "markdown"]).stdout, "arrays-group.md")
    }
}

/// `--group` on real data: the transition of a thousand records came
/// thousands of lines down, under the small groups that started earlier.
/// Here the 12 records of `Russia -> Russian Federation` start at the 7th
/// row, after a group of 2 (`Chile`), a record of its own and another group
/// of 2 (`Burma`).
extension GroupTests {
    static func lateLargestGroup() throws -> [String] {
        var rows: [(id: Int, old: String, new: String, population: Int, newPopulation: Int)] = [
            (1, "Chile", "Chili", 100, 100), (2, "Chile", "Chili", 200, 200), (3, "Peru", "Perú", 300, 300),
            (4, "Bolivia", "Bolivia", 400, 401), (5, "Burma", "Myanmar", 500, 500), (6, "Burma", "Myanmar", 600, 600),
        ]
        rows += (7...18).map { ($0, "Russia", "Russian Federation", $0 * 100, $0 * 100) }
        rows.append((19, "Norway", "Norway", 1900, 1900))
        let header = "id,country,population\n"
        return try scratchFiles([
            ("old.csv", header + rows.map { "\($0.id),\($0.old),\($0.population)\n" }.joined()),
            ("new.csv", header + rows.map { "\($0.id),\($0.new),\($0.newPopulation)\n" }.joined()),
        ]) + ["--id", "id", "--group"]
    }

    @Test func theLargestGroupComesFirstThoughItsFirstRecordComesLate() throws {
        let paths = try Self.lateLargestGroup()
        let text = try changeset(paths + ["--kinds", "updated"])
        #expect(text.status == 1, "\(text)")
        // Largest first; the two groups of 2 in the order their first record comes; records of their own last.
        #expect(text.stdout.hasSuffix("""
            updated  12 records  ids 7, 8, 9, 10, 11, … and 7 more
              country: "Russia" -> "Russian Federation"
            updated  2 records  ids 1, 2
              country: "Chile" -> "Chili"
            updated  2 records  ids 5, 6
              country: "Burma" -> "Myanmar"
            updated  id 3  at 2, line 4
              country: "Peru" -> "Perú"
            updated  id 4  at 3, line 5
              population: 400 -> 401

            """), "\(text)")
        // The limit counts groups, so the first one shown is the largest.
        let capped = try changeset(paths + ["--limit", "1"])
        #expect(capped.stdout.hasSuffix("""
            updated  12 records  ids 7, 8, 9, 10, 11, … and 7 more
              country: "Russia" -> "Russian Federation"
            … and 4 more groups of updated records (--limit)

            """), "\(capped)")
        let markdown = try changeset(paths + ["--format", "markdown"])
        #expect(markdown.stdout.hasSuffix("""
            | id | line | field | old | new |
            | --- | ---: | --- | --- | --- |
            | **12 records**: `7`, `8`, `9`, `10`, `11`, … and 7 more |  | `country` | `"Russia"` | `"Russian Federation"` |
            | **2 records**: `1`, `2` |  | `country` | `"Chile"` | `"Chili"` |
            | **2 records**: `5`, `6` |  | `country` | `"Burma"` | `"Myanmar"` |
            | `3` | 4 | `country` | `"Peru"` | `"Perú"` |
            | `4` | 5 | `population` | `400` | `401` |

            """), "\(markdown)")
        let cappedMarkdown = try changeset(paths + ["--format", "markdown", "--limit", "1"])
        #expect(cappedMarkdown.stdout.contains("| **12 records**: `7`") && !cappedMarkdown.stdout.contains("**2 records**")
                && cappedMarkdown.stdout.hasSuffix("…and 4 more groups of updated records\n"), "\(cappedMarkdown)")
    }
}

extension SummaryTransitionsTests {
    /// Distances each finite whose sum is not: the mean stays finite and the JSON valid.
    @Test func theMeanOfHugeChangesIsFinite() throws {
        let directory = try scratchDirectory(holding: ["f1.json": #"[{"id":1,"v":0},{"id":2,"v":0}]"#, "f2.json": #"[{"id":1,"v":1.5e308},{"id":2,"v":1.6e308}]"#])
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = try changeset(["f1.json", "f2.json", "--id", "id", "--format", "json"], in: directory)
        #expect(try run("jq", ["-c", ".summary.transitions[0].numbers"], input: json.stdout) == #"{"records":2,"largest":1.6e+308,"mean":1.55e+308}"# + "\n", "\(json)")
    }
}
