import Foundation
import Testing

/// `changeset OLD.db NEW.db --table T`: SQLite tables as snapshots, end to
/// end on databases the tests make with the `sqlite3` command
/// (scripts/install-deps installs it).
@Suite struct SQLiteTableCLITests {
    /// A scratch folder holding `old.db` and `new.db`, made from the SQL given.
    static func databases(old: String, new: String) throws -> URL {
        let directory = try scratchDirectory()
        for (name, sql) in [("old.db", old), ("new.db", new)] {
            let made = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["sqlite3", name, sql], in: directory)
            #expect(made.status == 0, "\(made)")
        }
        return directory
    }

    static let oldProducts = """
        CREATE TABLE products(sku TEXT PRIMARY KEY, name TEXT, price REAL, qty INTEGER);
        INSERT INTO products VALUES ('b', 'Bolt', 0.5, 10), ('a', 'Anvil', 99.99, 1), ('c', 'Cog', 2.0, 5);
        CREATE TABLE parts(sku TEXT PRIMARY KEY, part TEXT);
        INSERT INTO parts VALUES ('g', 'gear');
        CREATE TABLE log(line TEXT);
        INSERT INTO log VALUES ('start');
        """
    static let newProducts = """
        CREATE TABLE products(sku TEXT PRIMARY KEY, name TEXT, price REAL, qty INTEGER, color TEXT);
        INSERT INTO products VALUES ('b', 'Bolt', 0.55, 10, 'grey'), ('a', 'Anvil', 99.99, 1, NULL), ('d', 'Drill', 45, 3, 'red');
        CREATE TABLE pricing(sku TEXT PRIMARY KEY, price REAL);
        INSERT INTO pricing VALUES ('g', 9.5);
        CREATE TABLE log(line TEXT);
        INSERT INTO log VALUES ('start'), ('stop');
        """

    /// SQLite allows *, ? and [ in a table's name: a table so named is that
    /// table, not a glob that would also take `a1`.
    @Test func aTableNamedLikeAGlobIsItself() throws {
        let sql = #"CREATE TABLE "a[1]"(k INTEGER PRIMARY KEY, v TEXT); CREATE TABLE a1(k INTEGER PRIMARY KEY, v TEXT); INSERT INTO a1 VALUES (1, 'x');"#
        let directory = try Self.databases(old: sql, new: sql + #" INSERT INTO "a[1]" VALUES (1, 'y');"#)
        defer { try? FileManager.default.removeItem(at: directory) }
        let named = try changeset(["old.db", "new.db", "--table", "a[1]", "--format", "json"], in: directory)
        #expect(named.status == 1 && named.stdout.contains(#"{"kind":"inserted","id":"1""#) && !named.stdout.contains("\"table\""), "\(named)")
        let glob = try changeset(["old.db", "new.db", "--table", "a?", "--stat"], in: directory)
        #expect(glob.status == 0 && glob.stdout.hasPrefix("0 inserted, 0 deleted"), "\(glob)")
    }

    /// A table found in NEW only is all inserted; its rows, not a file,
    /// so no layout line ("final newline: added") comes with them.
    @Test func aTableInOneDatabaseOnlyHasNoFileLayout() throws {
        let directory = try Self.databases(old: Self.oldProducts, new: Self.newProducts)
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = try changeset(["old.db", "new.db", "--table", "pri*"], in: directory)
        #expect(text.status == 1 && text.stdout.hasPrefix("1 inserted, 0 deleted"), "\(text)")
        #expect(!text.stdout.contains("final newline") && !text.stdout.contains("file:"), "\(text)")
    }

    @Test func aTableIsComparedByItsPrimaryKeyWithSchemaChanges() throws {
        let directory = try Self.databases(old: Self.oldProducts, new: Self.newProducts)
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = try changeset(["old.db", "new.db", "--table", "products"], in: directory)
        #expect(text.status == 1 && text.stderr.isEmpty, "\(text)")
        #expect(text.stdout == """
            1 inserted, 1 deleted, 1 updated, 0 moved, 1 unchanged
            schema: added color (2 records)
            fields: price 1
              price: numbers changed by 0.05 at most, 0.05 on average (1 record)
            deleted  id c  at 2, line 3
              {"sku":"c","name":"Cog","price":2.0,"qty":5}
            inserted id d  at 2, line 3
              {"sku":"d","name":"Drill","price":45.0,"qty":3,"color":"red"}
            updated  id b  at 1, line 2
              price: 0.5 -> 0.55

            """, "\(text)")
        let json = try changeset(["old.db", "new.db", "--table", "products", "--format", "json"], in: directory)
        #expect(json.status == 1, "\(json)")
        #expect(try run("jq", ["-c", "[.id, .summary.updated, .schema.added[0].path, [.changes[] | [.kind, .id]]]"], input: json.stdout)
            == #"[["sku"],1,"color",[["deleted","c"],["inserted","d"],["updated","b"]]]"# + "\n")
        let same = try changeset(["old.db", "old.db", "--table", "products"], in: directory)
        #expect(same.status == 0, "\(same)")
    }

    /// A table's rows are NDJSON records to every formatter; jsonpatch, which patches a JSON document, refuses them as it refuses NDJSON.
    @Test func everyOutputFormatButJSONPatchTakesATable() throws {
        let directory = try Self.databases(old: Self.oldProducts, new: Self.newProducts)
        defer { try? FileManager.default.removeItem(at: directory) }
        for format in ["text", "json", "ndjson", "markdown", "html", "patch", "batch"] {
            let result = try changeset(["old.db", "new.db", "--table", "products", "--format", format], in: directory)
            #expect(result.status == 1 && result.stderr.isEmpty && result.stdout.contains("Drill") == (format != "batch"), "\(result)")
        }
        let jsonPatch = try changeset(["old.db", "new.db", "--table", "products", "--format", "jsonpatch"], in: directory)
        #expect(jsonPatch.status == 2 && jsonPatch.stdout.isEmpty, "\(jsonPatch)")
        #expect(jsonPatch.stderr == "changeset: --format jsonpatch needs two JSON documents, but old.db is ndjson\n", "\(jsonPatch)")
    }

    @Test func idNamesAnotherKeyAndATableWithoutOneIsMatchedByContent() throws {
        let directory = try Self.databases(old: Self.oldProducts, new: Self.newProducts)
        defer { try? FileManager.default.removeItem(at: directory) }
        let byName = try changeset(["old.db", "new.db", "--table", "products", "--id", "name", "--format", "json"], in: directory)
        #expect(try run("jq", ["-c", "[.id, [.changes[] | .id]]"], input: byName.stdout) == #"[["name"],["Cog","Drill","Bolt"]]"# + "\n", "\(byName)")
        let log = try changeset(["old.db", "new.db", "--table", "log"], in: directory)
        #expect(log.status == 1, "\(log)")
        #expect(log.stdout.hasPrefix("1 inserted, 0 deleted, 0 updated, 0 moved, 1 unchanged\n"), "\(log)")
    }

    @Test func globsAndRepeatedTablesAreASectionEach() throws {
        let directory = try Self.databases(old: Self.oldProducts, new: Self.newProducts)
        defer { try? FileManager.default.removeItem(at: directory) }
        let globbed = try changeset(["old.db", "new.db", "--table", "p*", "--format", "json"], in: directory)
        #expect(globbed.status == 1, "\(globbed)")
        // parts is in OLD only, pricing in NEW only: all deleted, all inserted.
        #expect(try run("jq", ["-c", "[.id, .section, [.changes[] | [.kind, .id, .section // .record.table // .fields[0].path]]]"], input: globbed.stdout)
            == #"[["table","sku"],"table",[["section-deleted",null,"parts"],["section-inserted",null,"pricing"],["deleted",["parts","g"],"parts"],["deleted",["products","c"],"products"],["inserted",["pricing","g"],"pricing"],["inserted",["products","d"],"products"],["updated",["products","b"],"price"]]]"# + "\n",
            "\(globbed)")
        let repeated = try changeset(["old.db", "new.db", "--table", "log", "--table", "products", "--id", "line"], in: directory)
        #expect(repeated.status == 2 && repeated.stdout.isEmpty, "\(repeated)")
        // products has no column line: --id names a field every table's records hold.
        #expect(repeated.stderr == "changeset: old.db:2:1: the record has no \"line\" field (the --id)\n", "\(repeated)")
        let keys = try changeset(["old.db", "new.db", "--table", "log", "--table", "products"], in: directory)
        #expect(keys.status == 2 && keys.stdout.isEmpty, "\(keys)")
        #expect(keys.stderr == "changeset: old.db: the tables' primary keys differ (log: none; products: sku): name a key they all have with --id, or compare them one at a time\n", "\(keys)")
    }

    @Test func badInputsExitTwoNamingFileAndTableAndWriteNothing() throws {
        let directory = try Self.databases(old: Self.oldProducts, new: Self.newProducts)
        defer { try? FileManager.default.removeItem(at: directory) }
        try writeFile(String(repeating: "not a database\n", count: 100), "notes.db", in: directory)
        try writeFile(#"[{"sku":"a"}]"#, "new.json", in: directory)
        let cases: [([String], String)] = [
            (["notes.db", "new.db", "--table", "products"], "changeset: notes.db: is not an SQLite database (file is not a database)\n"),
            (["old.db", "new.db", "--table", "prices"], "changeset: old.db: has no table \"prices\" (its tables: log, parts, products)\n"),
            (["old.db", "new.db", "--table", "parts"], "changeset: new.db: has no table \"parts\" (its tables: log, pricing, products)\n"),
            (["old.db", "new.db", "--table", "x*"], "changeset: old.db: neither database has a table matching \"x*\" (tables: log, parts, pricing, products)\n"),
            (["old.db", "new.db"], "changeset: old.db: is an SQLite database: name the table to compare with --table (tables: log, parts, pricing, products)\n"),
            (["old.db", "new.json", "--table", "products"], "changeset: new.json: is not an SQLite database, and the other input is one: a table is compared with a table\n"),
        ]
        for (arguments, message) in cases {
            let result = try changeset(arguments + ["-o", "out.txt"], in: directory)
            #expect(result.status == 2 && result.stderr == message, "\(result)")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.txt").path), "\(result)")
        }
    }

    @Test func aLockedDatabaseExitsTwoAndWritesNothing() throws {
        let directory = try Self.databases(old: Self.oldProducts, new: Self.newProducts)
        defer { try? FileManager.default.removeItem(at: directory) }
        // A writer in another process holds the database's exclusive lock until its input closes.
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        writer.arguments = ["sqlite3", "new.db"]
        writer.currentDirectoryURL = directory
        let input = Pipe(), output = Pipe()
        writer.standardInput = input
        writer.standardOutput = output
        try writer.run()
        input.fileHandleForWriting.write(Data("BEGIN EXCLUSIVE;\nUPDATE products SET qty = qty + 1;\n.print locked\n".utf8))
        var said = Data()
        while !String(decoding: said, as: UTF8.self).contains("locked") {
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { break }
            said.append(more)
        }
        let result = try changeset(["old.db", "new.db", "--table", "products", "-o", "out.txt"], in: directory)
        try input.fileHandleForWriting.close()
        writer.waitUntilExit()
        #expect(result.status == 2 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr == "changeset: new.db: the database is locked by another connection (database is locked); try again once its write is done\n",
                "\(result)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.txt").path))
        // The writer rolled back when its input closed: nothing of it was read, nothing changed.
        let after = try changeset(["new.db", "new.db", "--table", "products"], in: directory)
        #expect(after.status == 0, "\(after)")
    }

    @Test func mergeAndApplyRefuseADatabaseAndWriteNothing() throws {
        let directory = try Self.databases(old: Self.oldProducts, new: Self.newProducts)
        defer { try? FileManager.default.removeItem(at: directory) }
        let refusal = "changeset: old.db: changeset cannot write SQLite yet: merge and apply refuse a database; compare its tables with `changeset OLD.db NEW.db --table TABLE`\n"
        let oldBytes = try Data(contentsOf: directory.appendingPathComponent("old.db"))
        let merge = try changeset(["merge", "old.db", "old.db", "new.db", "--id", "sku", "-o", "merged.db"], in: directory)
        #expect(merge.status == 2 && merge.stderr == refusal && merge.stdout.isEmpty, "\(merge)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("merged.db").path))
        let patch = try changeset(["old.db", "new.db", "--table", "products", "--format", "patch", "-o", "p.patch"], in: directory)
        #expect(patch.status == 1, "\(patch)")
        let apply = try changeset(["apply", "old.db", "p.patch", "-o", "rebuilt.db"], in: directory)
        #expect(apply.status == 2 && apply.stderr == refusal, "\(apply)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("rebuilt.db").path))
        #expect(try Data(contentsOf: directory.appendingPathComponent("old.db")) == oldBytes)
    }
}
