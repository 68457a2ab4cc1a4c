import Foundation
import Testing

/// Real data review: columns that change between versions, renamed keys,
/// typos in field names, patterns, and CI assertions about all of it.
@Suite struct ReviewTests {
    static let countries = ["countries/old.csv", "countries/new.csv", "--id", "cca3", "--rename", "cca3=ISO3166-1-Alpha-3"]

    @Test func schemaChangesAreReportedOnceAndRenamesMatchKeys() throws {
        let result = try changeset(Self.countries)
        #expect(result.status == 1 && result.stderr.isEmpty, "\(result)")
        try expectGolden(result.stdout, "countries.txt")
        // The added and removed columns are never repeated per record.
        #expect(!result.stdout.contains("Continent:") && !result.stdout.contains("fax_prefix:"), "\(result)")
        #expect(!result.stdout.contains("(absent)"), "\(result)")
    }

    @Test func schemaInEveryFormat() throws {
        let json = try changeset(Self.countries + ["--format", "json"])
        try expectGolden(json.stdout, "countries.json")
        let schema = try run("jq", ["-c", ".schema"], input: json.stdout)
        #expect(schema == #"{"added":[{"path":"Continent","records":10}],"removed":[{"path":"fax_prefix","records":10}],"renamed":[{"old":"cca3","new":"ISO3166-1-Alpha-3"}]}"# + "\n")
        let ndjson = try changeset(Self.countries + ["--format", "ndjson"])
        let first = try run("jq", ["-c", "select(.kind == \"schema\") | [.added[].path, .removed[].path]"], input: ndjson.stdout)
        #expect(first == #"["Continent","fax_prefix"]"# + "\n")
        #expect(ndjson.stdout.hasPrefix(#"{"kind":"schema","#))
        let stat = try changeset(Self.countries + ["--stat"])
        // `180` -> `180.0` is a change between two CSV files: a cell's text is its value.
        #expect(stat.stdout == """
            1 inserted, 1 deleted, 5 updated, 0 moved, 4 unchanged
            schema: added Continent (10 records); removed fax_prefix (10 records)
            renamed: cca3 -> ISO3166-1-Alpha-3
            fields: area 3, capital 2, name 1
              area: numbers changed by 200000 at most, 100000 on average (2 records)

            """, "\(stat)")
        let statJSON = try changeset(Self.countries + ["--stat", "--format", "json"])
        #expect(statJSON.stdout == #"{"inserted":1,"deleted":1,"updated":5,"moved":0,"unchanged":4,"schema":2,"fields":{"area":3,"capital":2,"name":1},"respelledNumbers":1,"transitions":[{"path":"area","top":[],"exact":true,"numbers":{"records":2,"largest":200000,"mean":100000}}]}"# + "\n")
    }

    /// A field only one side has makes no record updated on its own, but the
    /// replay formats still rebuild NEW exactly.
    @Test func aNewFieldAloneUpdatesNothingYetPatchesRebuildNew() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try #"[{"id":1,"a":"x"},{"id":2,"a":"y"}]"#.write(to: scratch.appendingPathComponent("old.json"), atomically: true, encoding: .utf8)
        try #"[{"id":1,"a":"x","b":true},{"id":2,"a":"z","b":null}]"#.write(to: scratch.appendingPathComponent("new.json"), atomically: true, encoding: .utf8)
        let text = try changeset(["old.json", "new.json", "--id", "id"], in: scratch)
        #expect(text.stdout == """
            0 inserted, 0 deleted, 1 updated, 0 moved, 1 unchanged
            schema: added b (1 record)
            fields: a 1
            updated  id 2  at 1, line 1
              a: "y" -> "z"

            """, "\(text)")
        #expect(text.status == 1)
        let patch = try changeset(["old.json", "new.json", "--id", "id", "--format", "patch", "-o", "p.patch"], in: scratch)
        #expect(patch.status == 1, "\(patch)")
        let applied = try changeset(["apply", "old.json", "p.patch", "-o", "rebuilt.json"], in: scratch)
        #expect(applied.status == 0, "\(applied)")
        let again = try changeset(["rebuilt.json", "new.json", "--id", "id"], in: scratch)
        #expect(again.status == 0 && again.stdout.hasPrefix("0 inserted, 0 deleted, 0 updated"), "\(again)")
        let jsonPatch = try changeset(["old.json", "new.json", "--id", "id", "--format", "jsonpatch"], in: scratch)
        try expectJSONPatch(jsonPatch.stdout, turns: scratch.appendingPathComponent("old.json"), into: scratch.appendingPathComponent("new.json"), recordsAt: [])
        // Only a schema change: exit 1 still (the files differ), 0 updated.
        try #"[{"id":1,"a":"x","b":1},{"id":2,"a":"y","b":2}]"#.write(to: scratch.appendingPathComponent("wider.json"), atomically: true, encoding: .utf8)
        let wider = try changeset(["old.json", "wider.json", "--id", "id", "--assert", "updated == 0", "--assert", "schema == 1"], in: scratch)
        #expect(wider.status == 0, "\(wider)")
    }

    @Test func aFieldNoRecordHasIsAnErrorWithSuggestions() throws {
        for (arguments, message) in [
            (["--only", "Captial"], #"--only "Captial": no record of countries/old.csv or countries/new.csv has this field; did you mean "capital"?"#),
            (["--ignore", "nmae"], #"--ignore "nmae": no record of countries/old.csv or countries/new.csv has this field; did you mean "name"?"#),
            (["--ignore", "UNTRM*"], #"--ignore "UNTRM*": no record of countries/old.csv or countries/new.csv has this field; the top-level fields are: Continent, Dial, ISO3166-1-Alpha-2, UNTERM English Short, UNTERM French Short, area, capital, cca3, fax_prefix, name"#),
        ] {
            let result = try changeset(Self.countries + arguments)
            #expect(result.status == 2 && result.stdout.isEmpty, "\(result)")
            #expect(result.stderr == "changeset: \(message)\n", "\(result)")
        }
        let badRename = try changeset(["countries/old.csv", "countries/new.csv", "--id", "name", "--rename", "cca=ISO3166-1-Alpha-3"])
        #expect(badRename.status == 2, "\(badRename)")
        #expect(badRename.stderr == "changeset: --rename cca=ISO3166-1-Alpha-3: no record of countries/old.csv has the field \"cca\"; did you mean \"cca3\"?\n", "\(badRename)")
        let nested = try changeset(["nested/old.json", "nested/new.json", "--id", "sku", "--records-at", "data.items", "--ignore", "stock.cuont"])
        #expect(nested.status == 2 && nested.stderr.contains(#"--ignore "stock.cuont": no record of"#), "\(nested)")
    }

    @Test func globsPickFields() throws {
        // UNTERM* matches both UNTERM columns; with --only nothing else counts.
        let only = try changeset(Self.countries + ["--only", "UNTERM*", "--stat"])
        #expect(only.stdout.hasPrefix("1 inserted, 1 deleted, 0 updated, 0 moved, 9 unchanged\n"), "\(only)")
        let ignore = try changeset(Self.countries + ["--ignore", "[ac]*", "--stat"])
        #expect(ignore.stdout.contains("fields: name 1\n"), "\(ignore)")
        let nested = try changeset(["nested/old.json", "nested/new.json", "--id", "sku", "--records-at", "data.items", "--ignore", "stock.*", "--stat"])
        #expect(nested.stdout.contains("fields: price 1, size~cm/h 1, tags 1\n"), "\(nested)")
    }

    @Test func renameWorksInJSONAndNested() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let original = try String(contentsOf: fixtures.appendingPathComponent("nested/new.json"), encoding: .utf8)
        try original.replacingOccurrences(of: "\"count\"", with: "\"qty\"").write(to: scratch.appendingPathComponent("new.json"), atomically: true, encoding: .utf8)
        let old = fixtures.appendingPathComponent("nested/old.json").path
        let renamed = try changeset([old, "new.json", "--id", "sku", "--records-at", "data.items", "--rename", "stock.count=stock.qty"], in: scratch)
        let plain = try changeset(["nested/old.json", "nested/new.json", "--id", "sku", "--records-at", "data.items"])
        let lines = renamed.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[2] == "renamed: stock.count -> stock.qty", "\(renamed)")
        // The same report, but for the inserted record, shown under NEW's name for the field.
        #expect(renamed.stdout.contains(#""stock":{"qty":"#), "\(renamed)")
        #expect(lines.filter { !$0.hasPrefix("renamed:") }.joined(separator: "\n").replacingOccurrences(of: #""qty""#, with: #""count""#) == plain.stdout, "\(renamed)")
        let patch = try changeset([old, "new.json", "--id", "sku", "--records-at", "data.items", "--rename", "stock.count=stock.qty", "--format", "patch"], in: scratch)
        #expect(patch.status == 2 && patch.stderr.hasPrefix("changeset: --format patch replays NEW's content and cannot carry a --rename"), "\(patch)")
        let across = try changeset([old, "new.json", "--id", "sku", "--rename", "stock.count=qty"], in: scratch)
        #expect(across.status == 2 && across.stderr.contains("a renamed field stays in the same object"), "\(across)")
    }

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
}

extension ReviewTests {
    /// Found on real data: a snapshot that gained 43 columns printed them on
    /// one `schema:` line some 1,300 characters wide. The text report wraps
    /// it at its width (`--width`, 120 by default) between fields, under the
    /// first field; markdown lists each field on a line of its own.
    @Test func aSchemaLineOfManyFieldsIsWrappedWithAHangingIndent() throws {
        let names = (0..<43).map { "indicator_\($0 < 10 ? "0" : "")\($0)_value" }
        let paths = try scratchFiles([
            ("old.csv", "id,name,fax\n1,a,5\n2,b,6\n"),
            ("new.csv", "id,name," + names.joined(separator: ",") + "\n1,a," + names.map { _ in "x" }.joined(separator: ",")
                + "\n2,c," + names.map { _ in "" }.joined(separator: ",") + "\n"),
        ]) + ["--id", "id"]
        let oneLine = "schema: added " + names.map { "\($0) (1 record)" }.joined(separator: ", ") + "; removed fax (2 records)"
        let whole = try changeset(paths + ["--stat", "--width", "0"])
        #expect(whole.stdout.contains("\n" + oneLine + "\nfields: name 1\n"), "\(whole)")
        for (arguments, width) in [([String](), 120), (["--stat"], 120), (["--stat", "--width", "60"], 60)] {
            let result = try changeset(paths + arguments)
            #expect(result.status == 1, "\(result)")
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let first = try #require(lines.firstIndex { $0.hasPrefix("schema: ") }, "\(result)")
            let end = try #require(lines.firstIndex { $0.hasPrefix("fields: ") }, "\(result)")
            let schema = Array(lines[first..<end])
            #expect(schema.count > 1 && schema.allSatisfy { $0.count <= width }, "\(width): \(schema)")
            // Broken after a separator, the rest under the first field: joined back, the one line.
            #expect(schema.dropFirst().allSatisfy { $0.hasPrefix("        ") && $0.dropFirst(8).first != " " }, "\(schema)")
            #expect(schema.dropLast().allSatisfy { $0.hasSuffix(",") || $0.hasSuffix(";") }, "\(schema)")
            #expect(schema.enumerated().map { $0.offset == 0 ? $0.element : " " + $0.element.dropFirst(8) }.joined() == oneLine, "\(schema)")
        }
        let text = try changeset(paths)
        #expect(text.stdout.contains("""
            schema: added indicator_00_value (1 record), indicator_01_value (1 record), indicator_02_value (1 record),
                    indicator_03_value (1 record), indicator_04_value (1 record), indicator_05_value (1 record),
            """), "\(text)")
        #expect(text.stdout.contains("""
                    indicator_42_value (1 record); removed fax (2 records)
            fields: name 1
            """), "\(text)")
        let markdown = try changeset(paths + ["--format", "markdown"])
        let listed = markdown.stdout.split(separator: "\n").filter { $0.hasPrefix("- added `indicator_") && $0.hasSuffix("` (1 record with a value)") }
        #expect(listed.count == 43, "\(markdown.stdout.prefix(3000))")
    }
}

/// `--tolerance`, `--relative-tolerance`, `--ignore-case`, `--ignore-whitespace`.
@Suite struct ToleranceTests {
    static let countries = ReviewTests.countries + ["--stat"]

    @Test func valuesEqualUnderTheRulesAreUnchangedEverywhere() throws {
        let exact = try changeset(Self.countries)
        // `180` -> `180.0` too: between two CSV files a cell's text is its value.
        #expect(exact.stdout.hasPrefix("1 inserted, 1 deleted, 5 updated, 0 moved, 4 unchanged\n"), "\(exact)")
        let byValue = try changeset(Self.countries + ["--numbers-by-value"])
        #expect(byValue.stdout.hasPrefix("1 inserted, 1 deleted, 4 updated, 0 moved, 5 unchanged\n"), "\(byValue)")
        // 652230 -> 652230.0000001 is float noise; 14000000 -> 14200000 is not.
        let absolute = try changeset(Self.countries + ["--tolerance", "0.001"])
        #expect(absolute.stdout.contains("fields: capital 2, area 1, name 1\n"), "\(absolute)")
        let perField = try changeset(Self.countries + ["--tolerance", "area=0.001", "--ignore-case", "--ignore-whitespace"])
        #expect(perField.stdout.hasPrefix("1 inserted, 1 deleted, 2 updated, 0 moved, 7 unchanged\n"), "\(perField)")
        #expect(perField.stdout.contains("fields: area 1, name 1\n"), "\(perField)")
        // 2% of 14200000 covers the change of 200000.
        let relative = try changeset(Self.countries + ["--relative-tolerance", "0.02"])
        #expect(relative.stdout.contains("fields: capital 2, name 1\n"), "\(relative)")
        // The invisible U+200F is a real change: no rule hides it.
        let all = try changeset(ReviewTests.countries + ["--relative-tolerance", "0.02", "--ignore-case", "--ignore-whitespace"])
        #expect(all.stdout.contains(#"name: "Albania" -> "Albania\u200F""#), "\(all)")
        let gate = try changeset(ReviewTests.countries + ["-q", "--tolerance", "area=0.001", "--ignore-case", "--ignore-whitespace", "--assert", "updated <= 2"])
        #expect(gate.status == 0, "\(gate)")
    }

    @Test func exactDecimalsAtTheBoundaryAndHugeNumbers() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try #"[{"id":1,"p":1.000,"q":1e400,"r":[1.0,"A "]}]"#.write(to: scratch.appendingPathComponent("old.json"), atomically: true, encoding: .utf8)
        try #"[{"id":1,"p":1.005,"q":1e401,"r":[1.004,"a"]}]"#.write(to: scratch.appendingPathComponent("new.json"), atomically: true, encoding: .utf8)
        let result = try changeset(["old.json", "new.json", "--id", "id", "--tolerance", "0.005", "--ignore-case", "--ignore-whitespace"], in: scratch)
        // |1.005 - 1.000| is exactly 0.005 (no binary rounding); 1e400 and 1e401 stay different.
        #expect(result.stdout == "0 inserted, 0 deleted, 1 updated, 0 moved, 0 unchanged\nfields: q 1\nupdated  id 1  at 0, line 1\n  q: 1e400 -> 1e401\n", "\(result)")
        let tight = try changeset(["old.json", "new.json", "--id", "id", "--tolerance", "p=0.004", "--stat"], in: scratch)
        #expect(tight.stdout.contains("fields: p 1, q 1, r 1\n"), "\(tight)")
        // A patch carries every difference, so it is made without the tolerance (ReplayRefusesHiddenChangesTests).
        _ = try changeset(["old.json", "new.json", "--id", "id", "--format", "patch", "-o", "p.patch"], in: scratch)
        let applied = try changeset(["apply", "old.json", "p.patch", "-o", "rebuilt.json"], in: scratch)
        #expect(applied.status == 0, "\(applied)")
        let same = try changeset(["rebuilt.json", "new.json", "--id", "id", "-q"], in: scratch)
        #expect(same.status == 0, "\(same)")
    }

    @Test func badTolerancesAreUsageErrors() throws {
        for (arguments, message) in [
            (["--tolerance=-1"], #"invalid --tolerance "-1": write a number of 0 or more, or FIELD=NUMBER"#),
            (["--relative-tolerance", "x"], #"invalid --relative-tolerance "x": write a number of 0 or more, or FIELD=NUMBER"#),
            (["--tolerance", "aera=1"], #"--tolerance "aera": no record of countries/old.csv or countries/new.csv has this field; did you mean "area"?"#),
        ] {
            let result = try changeset(ReviewTests.countries + arguments)
            #expect(result.status == 2 && result.stdout.isEmpty, "\(result)")
            #expect(result.stderr.hasPrefix("changeset: \(message)\n"), "\(result)")
        }
    }
}

/// Text for people: long values cut around the change, records matched by
/// content shown by their content.
@Suite struct TextForPeopleTests {
    @Test func aHugeValueIsCutAroundTheChangeAndWidthZeroShowsItWhole() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let head = String(repeating: "a", count: 1 << 20)
        let tail = String(repeating: "b", count: 1 << 20)
        try #"[{"id":1,"blob":"\#(head)X\#(tail)"}]"#.write(to: scratch.appendingPathComponent("old.json"), atomically: true, encoding: .utf8)
        try #"[{"id":1,"blob":"\#(head)Y\#(tail)"}]"#.write(to: scratch.appendingPathComponent("new.json"), atomically: true, encoding: .utf8)
        let cut = try changeset(["old.json", "new.json", "--id", "id"], in: scratch)
        let field = cut.stdout.split(separator: "\n")[3]
        #expect(field.count < 300, "\(field.prefix(400))")
        #expect(field.hasPrefix("  blob: …") && field.contains("aX") && field.contains("aY") && field.hasSuffix("…"), "\(field)")
        let narrow = try changeset(["old.json", "new.json", "--id", "id", "--width", "20"], in: scratch)
        #expect(narrow.stdout.split(separator: "\n")[3] == "  blob: …aaaaaXbbbbbbbbbbbb… -> …aaaaaYbbbbbbbbbbbb…", "\(narrow.stdout.suffix(200))")
        let whole = try changeset(["old.json", "new.json", "--id", "id", "--width", "0"], in: scratch)
        #expect(whole.stdout.split(separator: "\n")[3].count > 4 << 20)
    }

    @Test func withoutAnIDARecordIsShownByItsContent() throws {
        let result = try changeset(["catalog/old.json", "catalog/new.json", "--width", "60"])
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.contains("deleted  at 1, line 3"), "\(result)")
        #expect(lines.contains(#"  {"id":2,"title":"Cosmos","author":"Carl Sagan","category":"…"#), "\(result)")
        #expect(lines.contains("moved    4 -> 0, lines 6 -> 2"), "\(result)")
        #expect(lines.contains(#"  {"id":5,"title":"Foundation","author":"Isaac Asimov","categ…"#), "\(result)")
        // Never a 16-digit hash where an id would be.
        #expect(result.stdout.range(of: "[0-9a-f]{16}", options: .regularExpression) == nil, "\(result)")
    }
}
