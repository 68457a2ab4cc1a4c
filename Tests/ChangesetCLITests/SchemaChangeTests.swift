import Foundation
import Testing

/// Schema changes: fields one side has and the other has not, reported once
/// (never per record), in every format, and no record updated by them alone.
@Suite struct SchemaChangeTests {
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
        // The schema line comes right after the stream's header.
        #expect(ndjson.stdout.split(separator: "\n").dropFirst().first?.hasPrefix(#"{"kind":"schema","#) == true, "\(ndjson)")
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
        #expect(statJSON.stdout == #"{"inserted":1,"deleted":1,"updated":5,"moved":0,"changed":7,"unchanged":4,"schema":2,"fields":{"area":3,"capital":2,"name":1},"respelledNumbers":1,"transitions":[{"path":"area","top":[],"exact":true,"numbers":{"records":2,"largest":200000,"mean":100000}}]}"# + "\n")
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

    @Test func jsonAgainstCSVNestedFieldsAreNotSchemaChanges() throws {
        let directory = try scratchDirectory(holding: [
            "n.json": #"[{"id":1,"meta":{"key":"a","n":1}},{"id":2,"meta":{"key":"b","n":2}}]"#,
            "n.csv": "id,meta.key,meta.n\n1,a,1\n2,c,2\n",
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        // meta and meta.key are one field seen two ways: no schema change, and only the b -> c change.
        let result = try changeset(["n.json", "n.csv", "--id", "id"], in: directory)
        #expect(result.status == 1 && result.stderr.isEmpty, "\(result)")
        #expect(result.stdout == """
            0 inserted, 0 deleted, 1 updated, 0 moved, 1 unchanged
            fields: meta.key 1
            updated  id 2  at 1, lines 1 -> 3
              meta.key: "b" -> "c"

            """, "\(result)")
        let same = try changeset(["n.json", "n.csv", "--id", "id", "--ignore", "meta.key", "-q"], in: directory)
        #expect(same.status == 0, "\(same)")
    }
}
