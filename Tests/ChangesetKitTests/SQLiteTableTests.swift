import Foundation
import Testing
@testable import ChangesetKit

/// `Input/SQLiteTable.swift` and `SQLiteDatabase.swift`: a table of an SQLite database read as records
/// (types, primary key, order), and what is taken for a database.
@Suite struct SQLiteTableTests {
    /// A database in a scratch folder, made by the `sqlite3` command (scripts/install-deps installs it).
    static func database(_ sql: String, name: String = "data.db") throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("changeset-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", url.path, sql]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "sqlite3 failed on: \(sql)")
        return url
    }

    static func lines(_ table: SQLiteTable) -> [String] {
        String(decoding: table.rows, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func eachStorageClassBecomesItsJSONValue() throws {
        let url = try Self.database("""
            CREATE TABLE t(id INTEGER PRIMARY KEY, i, r, s, n, b);
            INSERT INTO t VALUES (1, -9007199254740993, 2.5, 'caf\u{e9} "q"', NULL, x'00ff10');
            INSERT INTO t VALUES (2, 0, 1e20, '', NULL, x'');
            INSERT INTO t VALUES (3, 7, 9e999, 'x', NULL, NULL);
            """)
        let table = try SQLiteDatabase(path: url.path, inputName: "data.db").read("t")
        #expect(Self.lines(table) == [
            #"{"id":1,"i":-9007199254740993,"r":2.5,"s":"café \"q\"","n":null,"b":"AP8Q"}"#,
            #"{"id":2,"i":0,"r":1e+20,"s":"","n":null,"b":""}"#,
            #"{"id":3,"i":7,"r":"Infinity","s":"x","n":null,"b":null}"#,
        ])
        #expect(table.columns == ["id", "i", "r", "s", "n", "b"])
    }

    @Test func primaryKeyColumnsComeInTheKeysOrderAndRowsInKeyOrder() throws {
        let url = try Self.database("""
            CREATE TABLE stock(note TEXT, shelf TEXT, bin INTEGER, PRIMARY KEY (bin, shelf)) WITHOUT ROWID;
            INSERT INTO stock VALUES ('c', 'b', 2), ('a', 'z', 1), ('b', 'a', 2);
            """)
        let table = try SQLiteDatabase(path: url.path, inputName: "data.db").read("stock")
        #expect(table.primaryKey == ["bin", "shelf"])
        #expect(Self.lines(table) == [
            #"{"note":"a","shelf":"z","bin":1}"#,
            #"{"note":"b","shelf":"a","bin":2}"#,
            #"{"note":"c","shelf":"b","bin":2}"#,
        ])
    }

    @Test func aTableWithoutAKeyIsReadInRowidOrder() throws {
        let url = try Self.database("""
            CREATE TABLE log(line TEXT);
            INSERT INTO log VALUES ('z'), ('a'), ('m');
            DELETE FROM log WHERE line = 'a';
            INSERT INTO log VALUES ('b');
            """)
        let table = try SQLiteDatabase(path: url.path, inputName: "data.db").read("log")
        #expect(table.primaryKey.isEmpty)
        #expect(Self.lines(table) == [#"{"line":"z"}"#, #"{"line":"m"}"#, #"{"line":"b"}"#])
    }

    @Test func aTableMemberLeadsEachRecordWhenAsked() throws {
        let url = try Self.database("CREATE TABLE \"odd \"\"name\"(k PRIMARY KEY); INSERT INTO \"odd \"\"name\" VALUES (1);")
        let table = try SQLiteDatabase(path: url.path, inputName: "data.db").read(#"odd "name"#, tableMember: "table")
        #expect(Self.lines(table) == [#"{"table":"odd \"name","k":1}"#])
        #expect(try SQLiteDatabase(path: url.path, inputName: "data.db").tableNames == [#"odd "name"#])
    }

    /// Every table is read in the read transaction the database was opened
    /// in: a write committed meanwhile (WAL mode lets a writer commit beside a reader) is not seen.
    @Test func tablesAreReadAsTheDatabaseWasWhenOpened() throws {
        let url = try Self.database("PRAGMA journal_mode = WAL; CREATE TABLE t(k PRIMARY KEY); INSERT INTO t VALUES (1);")
        let database = try SQLiteDatabase(path: url.path, inputName: "data.db")
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        writer.arguments = ["sqlite3", url.path, "INSERT INTO t VALUES (2); CREATE TABLE u(x);"]
        try writer.run()
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        #expect(Self.lines(try database.read("t")) == [#"{"k":1}"#])
        #expect(database.tableNames == ["t"])
        #expect(Self.lines(try SQLiteDatabase(path: url.path, inputName: "data.db").read("t")) == [#"{"k":1}"#, #"{"k":2}"#])
    }

    @Test func aDatabaseIsKnownByItsExtensionOrItsHeader() throws {
        let url = try Self.database("CREATE TABLE t(a);", name: "plain")
        #expect(SQLiteTable.isDatabase(url.path))
        let json = url.deletingLastPathComponent().appendingPathComponent("data.json")
        try Data("[]".utf8).write(to: json)
        #expect(!SQLiteTable.isDatabase(json.path))
        #expect(SQLiteTable.isDatabase("missing.sqlite3"))
        #expect(!SQLiteTable.isDatabase("-"))
    }

    @Test func aMissingTableIsAnErrorNamingTheFileAndItsTables() throws {
        let url = try Self.database("CREATE TABLE b(x); CREATE TABLE a(y);")
        #expect(throws: InputError(source: "data.db", location: nil, message: #"has no table "c" (its tables: a, b)"#)) {
            try SQLiteDatabase(path: url.path, inputName: "data.db").read("c")
        }
    }

    @Test func aFileThatIsNoDatabaseIsAnError() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("changeset-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("notes.db")
        try Data(String(repeating: "not a database\n", count: 100).utf8).write(to: url)
        #expect(throws: InputError(source: "notes.db", location: nil, message: "is not an SQLite database (file is not a database)")) {
            try SQLiteDatabase(path: url.path, inputName: "notes.db")
        }
    }
}
