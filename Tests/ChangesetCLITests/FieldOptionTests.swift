import Foundation
import Testing

/// The options that name fields (`--only`, `--ignore`, `--rename`, `--tolerance`): names
/// checked against the records with suggestions, patterns, and renames that
/// the other options follow.
@Suite struct FieldOptionTests {
    static let countries = SchemaChangeTests.countries

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

    @Test func rulesNamingTheNewNameOfARenameApply() throws {
        let directory = try scratchDirectory(holding: ["l1.csv": "id,name,n\n1,x,1\n2,y,1\n", "l2.csv": "id,label,n\n1,x,2\n2,z,1\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let only = try changeset(["l1.csv", "l2.csv", "--id", "id", "--rename", "name=label", "--only", "label", "--stat"], in: directory)
        #expect(only.stdout.hasPrefix("0 inserted, 0 deleted, 1 updated") && only.stdout.contains("fields: name 1\n"), "\(only)")
        let ignore = try changeset(["l1.csv", "l2.csv", "--id", "id", "--rename", "name=label", "--ignore", "label", "--stat"], in: directory)
        #expect(ignore.stdout.contains("fields: n 1\n"), "\(ignore)")
        let byNewID = try changeset(["l1.csv", "l2.csv", "--id", "label", "--rename", "name=label", "--stat"], in: directory)
        #expect(byNewID.stdout.hasPrefix("1 inserted, 1 deleted, 1 updated"), "\(byNewID)")
    }

    @Test func aPatternAndAnExactNameOnOneFieldBothApply() throws {
        let directory = try scratchDirectory(holding: [
            "g1.json": #"[{"id":1,"price":1.0,"name":"a"}]"#, "g2.json": #"[{"id":1,"price":1.5,"name":"b"}]"#,
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let only = try changeset(["g1.json", "g2.json", "--id", "id", "--only", "pri*", "--tolerance", "price=0.01", "--stat"], in: directory)
        #expect(only.stdout.contains("fields: price 1\n"), "\(only)")
        let ignore = try changeset(["g1.json", "g2.json", "--id", "id", "--ignore", "pri*", "--tolerance", "price=0.01", "--stat"], in: directory)
        #expect(ignore.stdout.contains("fields: name 1\n"), "\(ignore)")
        let both = try changeset(["g1.json", "g2.json", "--id", "id", "--only", "name", "--ignore", "n*"], in: directory)
        #expect(both.status == 0, "\(both)")
    }

    @Test func aRenameThatCollidesSaysSo() throws {
        let directory = try scratchDirectory(holding: ["a.csv": "id,code\n1,x\n", "b.csv": "id,code,iso\n1,x,y\n", "a.json": #"[{"id":1,"code":"x"}]"#, "b.json": #"[{"id":1,"code":"x","iso":"y"}]"#])
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = try changeset(["a.csv", "b.csv", "--id", "id", "--rename", "code=iso"], in: directory)
        #expect(csv.status == 2 && csv.stderr == "changeset: b.csv:1:9: duplicate column name \"code\" in the header (also column 2), "
            + "after --rename read one column as the other\n", "\(csv)")
        let json = try changeset(["a.json", "b.json", "--id", "id", "--rename", "code=iso"], in: directory)
        #expect(json.status == 2 && json.stderr == "changeset: b.json:1:21: duplicate member name \"code\" in an object, "
            + "after --rename read one member as the other\n", "\(json)")
    }
}
