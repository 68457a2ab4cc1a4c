import Foundation
import Testing

/// The exit status follows the user's rules: a column `--ignore` or
/// `--only` leaves out is no difference when it is added or removed (it is
/// listed as ignored), in the report, `-q`, `--stat` and `--assert` alike;
/// an empty column name is shown as `""` and can be named; composite id
/// parts are trimmed.
@Suite struct UserRulesTests {
    /// A pandas-style file: its first header cell is empty (the index
    /// column), and NEW drops the `digit` column and adds `iso2`.
    static func files() throws -> URL {
        let scratch = try scratchDirectory()
        try Data(",id,name,digit\n0,1,Oslo,7\n1,2,Bergen,8\n".utf8).write(to: scratch.appendingPathComponent("old.csv"))
        try Data(",id,name,iso2\n0,1,Oslo,NO\n1,2,Bergen,NO\n".utf8).write(to: scratch.appendingPathComponent("new.csv"))
        return scratch
    }

    @Test func schemaChangesOfFieldsTheUserLeftOutAreListedNotCounted() throws {
        let scratch = try Self.files()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let both = ["old.csv", "new.csv", "--id", "id"]
        // Without rules: two schema changes, exit 1.
        let plain = try changeset(both + ["--stat"], in: scratch)
        #expect(plain.status == 1 && plain.stdout.contains("schema: added iso2 (2 records); removed digit (2 records)"), "\(plain)")
        for rules in [["--ignore", "digit", "--ignore", "iso2"], ["--only", "name"]] {
            let stat = try changeset(both + rules + ["--stat"], in: scratch)
            #expect(stat.status == 0, "\(rules): \(stat)")
            #expect(stat.stdout == """
                0 inserted, 0 deleted, 0 updated, 0 moved, 2 unchanged
                schema, ignored: added iso2 (2 records); removed digit (2 records)

                """, "\(rules): \(stat)")
            #expect(try changeset(both + rules + ["-q"], in: scratch).status == 0, "\(rules)")
            let assertion = try changeset(both + rules + ["--assert", "schema == 0", "-q"], in: scratch)
            #expect(assertion.status == 0, "\(rules): \(assertion)")
            let json = try changeset(both + rules + ["--format", "json"], in: scratch)
            #expect(json.status == 0, "\(json)")
            let schema = try run("jq", ["-c", ".schema, .summary.schema"], input: json.stdout)
            #expect(schema == #"{"added":[],"removed":[],"renamed":[],"ignored":{"added":[{"path":"iso2","records":2}],"removed":[{"path":"digit","records":2}]}}"# + "\n0\n", "\(rules)")
            for format in ["markdown", "html", "ndjson"] {
                let shown = try changeset(both + rules + ["--format", format], in: scratch)
                #expect(shown.status == 0 && shown.stdout.contains("iso2") && shown.stdout.contains("ignored"), "\(format): \(shown)")
            }
        }
        // Leaving out one of the two: the other still counts.
        let one = try changeset(both + ["--ignore", "digit", "--stat"], in: scratch)
        #expect(one.status == 1 && one.stdout.contains("schema: added iso2 (2 records)\nschema, ignored: removed digit (2 records)"), "\(one)")
    }

    @Test func anEmptyColumnNameIsShownAsTwoQuotesAndCanBeNamed() throws {
        let scratch = try Self.files()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data(",id,name\n5,1,Oslo\n6,2,Bergen\n".utf8).write(to: scratch.appendingPathComponent("shifted.csv"))
        try Data(",id,name\n0,1,Oslo\n1,2,Bergen\n".utf8).write(to: scratch.appendingPathComponent("base.csv"))
        let shown = try changeset(["base.csv", "shifted.csv", "--id", "id"], in: scratch)
        #expect(shown.status == 1 && shown.stdout.contains(#"  "": 0 -> 5"#), "\(shown)")
        let ignored = try changeset(["base.csv", "shifted.csv", "--id", "id", "--ignore", #""""#, "-q"], in: scratch)
        #expect(ignored.status == 0, "\(ignored)")
        let removed = try changeset(["old.csv", "new.csv", "--id", "id", "--ignore", "digit", "--ignore", "iso2", "--format", "json"], in: scratch)
        #expect(removed.status == 0, "\(removed)")
        // The empty-named column is compared (it did not change) and named `""` in a field list.
        let only = try changeset(["base.csv", "shifted.csv", "--id", "id", "--only", #""""#, "--stat"], in: scratch)
        #expect(only.status == 1 && only.stdout.contains(#"fields: "" 2"#), "\(only)")
    }

    @Test func compositeIdPartsAreTrimmed() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data("Country Code,Year,value\nNO,2020,1\nNO,2021,2\n".utf8).write(to: scratch.appendingPathComponent("a.csv"))
        try Data("Country Code,Year,value\nNO,2020,1\nNO,2021,3\n".utf8).write(to: scratch.appendingPathComponent("b.csv"))
        let result = try changeset(["a.csv", "b.csv", "--id", "Country Code, Year", "--stat"], in: scratch)
        #expect(result.status == 1 && result.stdout.hasPrefix("0 inserted, 0 deleted, 1 updated"), "\(result)")
    }
}

/// After `--rename OLD=NEW`, a record of the new file shown whole (an
/// insertion) carries NEW's names, the names that file has: it was read
/// under OLD's names only to be compared.
@Suite struct RenamedRecordsTests {
    @Test func anInsertedRecordIsShownUnderTheNewNames() throws {
        let text = try changeset(SchemaChangeTests.countries)
        #expect(text.stdout.contains("inserted id AUT  at 9, line 11\n  {\"ISO3166-1-Alpha-3\":\"AUT\",\"name\":\"Austria\""), "\(text)")
        #expect(text.stdout.contains("deleted  id ARG  at 6, line 8\n  {\"cca3\":\"ARG\""), "\(text)")
        let json = try changeset(SchemaChangeTests.countries + ["--format", "json"])
        let keys = try run("jq", ["-c", #".changes[] | select(.kind == "inserted") | .record | keys_unsorted[0]"#], input: json.stdout)
        #expect(keys == "\"ISO3166-1-Alpha-3\"\n", "\(keys)")
    }
}

/// Loose types: a countries file whose region ids became numbers (`"3"` ->
/// `3`) is 250 updates of which 248 are type-only; the report says so once,
/// and `--loose-types` compares by text, leaving the two real changes.
@Suite struct LooseTypesTests {
    static let regions = ["regions/old.json", "regions/new.json", "--id", "id"]

    @Test func aReportOfTypeOnlyUpdatesSaysSoAndLooseTypesLeavesTheRealChanges() throws {
        let stat = try changeset(Self.regions + ["--stat"])
        #expect(stat.stdout.hasPrefix("0 inserted, 0 deleted, 250 updated"), "\(stat)")
        #expect(stat.stdout.contains("\n248 of the 250 updates change only a value's type (\"1\" -> 1); --loose-types compares by text and leaves them unchanged\n"), "\(stat)")
        let json = try changeset(Self.regions + ["--stat", "--format", "json"])
        #expect(try run("jq", [".typeOnly"], input: json.stdout) == "248\n")
        let loose = try changeset(Self.regions + ["--loose-types"])
        #expect(loose.status == 1 && loose.stdout.hasPrefix("0 inserted, 0 deleted, 2 updated, 0 moved, 248 unchanged\n"), "\(loose)")
        #expect(loose.stdout.contains("  name: \"Country 7\" -> \"Country Seven\"") && loose.stdout.contains("  population: \"9000\" -> \"9001\""), "\(loose)")
        #expect(!loose.stdout.contains("only a value's type"), "\(loose)")
        // Tolerances reach numbers held in strings.
        let tolerant = try changeset(Self.regions + ["--loose-types", "--tolerance", "population=1", "--stat"])
        #expect(tolerant.stdout.hasPrefix("0 inserted, 0 deleted, 1 updated"), "\(tolerant)")
    }

    /// Found on real data: 248 changes of `region_id` from `"3"` to `3`,
    /// every one type-only, went without the note because each of those
    /// records changed its population too (no whole update was type-only).
    /// The note now names a field most of whose changes are type-only.
    @Test func aFieldWhoseChangesAreTypeOnlyIsNamedThoughItsRecordsChangedOtherFields() throws {
        var old: [String] = [], new: [String] = []
        for id in 1...248 {
            old.append(#"{"id":\#(id),"region_id":"\#(id % 5)","population":\#(id * 100),"code":"c"}"#)
            new.append(#"{"id":\#(id),"region_id":\#(id % 5),"population":\#(id * 100 + 1),"code":"c"}"#)
        }
        // `code`: one type-only change of six, not most: not named.
        for id in 249...254 {
            old.append(#"{"id":\#(id),"region_id":"1","population":5,"code":\#(id == 249 ? #""7""# : "\"x\(id)\"")}"#)
            new.append(#"{"id":\#(id),"region_id":"1","population":5,"code":\#(id == 249 ? "7" : "\"y\(id)\"")}"#)
        }
        let paths = try scratchFiles([("old.json", "[" + old.joined(separator: ",\n") + "]"), ("new.json", "[" + new.joined(separator: ",\n") + "]")])
            + ["--id", "id"]
        let note = #"region_id changes only a value's type in 248 of its 248 updated records ("1" -> 1); --loose-types compares by text and counts these changes as none"#
        let stat = try changeset(paths + ["--stat"])
        #expect(stat.status == 1 && stat.stdout.hasPrefix("""
            0 inserted, 0 deleted, 254 updated, 0 moved, 0 unchanged
            fields: population 248, region_id 248, code 6
            \(note)
              population:
            """), "\(stat)")
        #expect(!stat.stdout.contains("updates change only") && !stat.stdout.contains("code changes only"), "\(stat)")
        let markdown = try changeset(paths + ["--format", "markdown"])
        #expect(markdown.stdout.contains(#"_`region_id` changes only a value's type in 248 of its 248 updated records (`"1" -> 1`); `--loose-types` compares by text and counts these changes as none._"# + "\n"), "\(markdown.stdout.prefix(1500))")
        let html = try changeset(paths + ["--format", "html"])
        #expect(html.stdout.contains("<p class=\"cut type-only-field\">region_id changes only a value&#39;s type in 248 of its 248"), "\(html.stdout.prefix(3000))")
        // json: the whole-update count as before, and per field what a script needs beside `fields`.
        let json = try changeset(paths + ["--stat", "--format", "json"])
        #expect(try run("jq", ["-c", "[.typeOnly, .typeOnlyFields, .fields]"], input: json.stdout)
            == #"[1,{"region_id":248,"code":1},{"population":248,"region_id":248,"code":6}]"# + "\n", "\(json)")
        let report = try changeset(paths + ["--format", "json"])
        for (document, schema) in [(json.stdout, "stat.schema.json"), (report.stdout, "report.schema.json")] {
            let valid = try JSONSchemaTests.validate([document], against: schema)
            #expect(valid.status == 0, "\(schema): \(valid)")
        }
        // Taking the advice: region_id compares equal, the population changes stay.
        let loose = try changeset(paths + ["--loose-types", "--stat"])
        #expect(loose.stdout.hasPrefix("0 inserted, 0 deleted, 253 updated, 0 moved, 1 unchanged\nfields: population 248, code 5\n")
                && !loose.stdout.contains("only a value's type"), "\(loose)")
        // Where the updates too are mostly type-only, both notes: the records', then the field's.
        let regions = try changeset(Self.regions + ["--stat"])
        #expect(regions.stdout.contains("""
            248 of the 250 updates change only a value's type ("1" -> 1); --loose-types compares by text and leaves them unchanged
            region_id changes only a value's type in 250 of its 250 updated records ("1" -> 1); --loose-types compares by text and counts these changes as none

            """), "\(regions)")
    }

    @Test func looseTypesEquatesWhatACSVCellCannotTellApart() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        // Record 2 has `n` on both sides, so no field is added or removed: only values differ.
        try Data(#"[{"id":1,"b":"true","n":null,"e":"","p":"4.50"},{"id":2,"n":1}]"#.utf8).write(to: scratch.appendingPathComponent("a.json"))
        try Data(#"[{"id":1,"b":true,"e":null,"p":4.5},{"id":2,"n":"1"}]"#.utf8).write(to: scratch.appendingPathComponent("b.json"))
        #expect(try changeset(["a.json", "b.json", "--id", "id", "-q"], in: scratch).status == 1)
        #expect(try changeset(["a.json", "b.json", "--id", "id", "-q", "--loose-types"], in: scratch).status == 0)
    }
}
