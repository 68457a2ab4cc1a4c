import Foundation

/// A table of an SQLite database file, read as a snapshot: its rows in
/// primary-key order (rowid order for a table without one), each a record
/// that maps a column name to its value. INTEGER cells are integer numbers,
/// REAL ones numbers (an infinity, which JSON cannot hold, the string
/// `"Infinity"` or `"-Infinity"`), TEXT strings (bytes that are not UTF-8
/// read as U+FFFD), NULL null and BLOB the base64 text of its bytes.
///
/// The records are held as NDJSON text, one row a line, so every reader,
/// rule and format after this one treats them as it treats any NDJSON input:
/// a record's line is its row's place in that order, from 1 (counted over
/// the tables in the order given, when several are read as one input).
package struct SQLiteTable: Sendable {
    /// The table's name, as the database spells it.
    package let name: String
    /// The columns, in the table's order.
    package let columns: [String]
    /// The primary key's columns, in the key's order (empty: the table has none).
    package let primaryKey: [String]
    /// The rows, as NDJSON text: one record a line.
    package let rows: [UInt8]

    /// A table in one database only, read as the other database's side: no rows.
    package static func absent(_ name: String) -> SQLiteTable {
        SQLiteTable(name: name, columns: [], primaryKey: [], rows: [])
    }

    /// `tables` as one NDJSON input named `inputName`, their rows in the order given.
    package static func input(_ tables: [SQLiteTable], name inputName: String) -> InputFile {
        InputFile(name: inputName, bytes: InputBytes(copying: tables.flatMap(\.rows)), format: .ndjson)
    }

    /// The first 16 bytes of every SQLite 3 database file.
    package static let header: [UInt8] = Array("SQLite format 3".utf8) + [0]
    /// The extensions that name a database file, whatever it holds.
    package static let pathExtensions: Set<String> = ["db", "sqlite", "sqlite3"]

    /// Whether `path` names an SQLite database: by its extension, else by
    /// the header bytes of a regular file (a pipe is never read here, so
    /// none of its bytes are taken from the reader that follows).
    package static func isDatabase(_ path: String) -> Bool {
        guard path != "-" else { return false }
        if pathExtensions.contains((path as NSString).pathExtension.lowercased()) { return true }
        var status = stat()
        guard stat(FileSystemPath.bytes(path), &status) == 0, status.st_mode & S_IFMT == S_IFREG,
              let file = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? file.close() }
        return (try? file.read(upToCount: header.count)).map(Array.init) == header
    }

    /// The names of the tables of the database at `path` (its own
    /// `sqlite_` tables left out), in name order.
    package static func tableNames(in path: String, inputName: String) throws -> [String] {
        let connection = try open(path, inputName: inputName)
        var names: [String] = []
        try run(inputName, table: nil) {
            try connection.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name") { row in
                if case .text(let name) = row[0] { names.append(name) }
            }
        }
        return names
    }

    /// Reads the table `name` of the database at `path`; errors name the
    /// input `inputName` and the table. With a `tableMember`, each record
    /// starts with a member of that name holding the table's name (the
    /// section of a comparison of several tables).
    package static func read(_ name: String, in path: String, inputName: String, tableMember: String? = nil) throws -> SQLiteTable {
        let tables = try tableNames(in: path, inputName: inputName)
        guard tables.contains(name) else {
            throw InputError(source: inputName, location: nil, message: "has no table \(quotedForMessage(name)) "
                + (tables.isEmpty ? "(it has no tables)" : "(its tables: \(tables.joined(separator: ", ")))"))
        }
        let connection = try open(path, inputName: inputName)
        var key: [(position: Int64, column: String)] = []
        try run(inputName, table: name) {
            try connection.query("PRAGMA table_info(\(quoted(name)))") { row in
                if case .text(let column) = row[1], case .integer(let position) = row[5], position > 0 { key.append((position, column)) }
            }
        }
        let primaryKey = key.sorted { $0.position < $1.position }.map(\.column)
        // A table WITHOUT ROWID always has a primary key; any other table has a rowid.
        let order = primaryKey.isEmpty ? "rowid" : primaryKey.map(quoted).joined(separator: ", ")
        var text: [UInt8] = []
        var columns: [String] = []
        try run(inputName, table: name) {
            try connection.query("SELECT * FROM \(quoted(name)) ORDER BY \(order)", columns: { columns = $0 }) { row in
                let members = zip(columns, row).map { Value.Member(name: $0, value: value(of: $1)) }
                let section = tableMember.map { [Value.Member(name: $0, value: .string(name))] } ?? []
                Value.object(section + members).writeJSON(into: &text)
                text.append(0x0A)
            }
        }
        return SQLiteTable(name: name, columns: columns, primaryKey: primaryKey, rows: text)
    }

    /// A cell as a record's value (see the type's documentation).
    package static func value(of cell: SQLiteCell) -> Value {
        switch cell {
        case .null: .null
        case .integer(let number): .number(String(number))
        case .real(let number) where number.isInfinite: .string(number < 0 ? "-Infinity" : "Infinity")
        case .real(let number): .number(number.description)
        case .text(let text): .string(text)
        case .blob(let bytes): .string(Data(bytes).base64EncodedString())
        }
    }

    /// An SQL identifier: in double quotes, each double quote doubled.
    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private static func quotedForMessage(_ name: String) -> String { "\"\(name)\"" }

    private static func open(_ path: String, inputName: String) throws -> SQLiteConnection {
        guard FileManager.default.fileExists(atPath: path) else {
            throw InputError(source: inputName, location: nil, message: "cannot open: \(String(cString: strerror(ENOENT)))")
        }
        do {
            return try SQLiteConnection(readingOnly: path)
        } catch {
            throw inputError(error, inputName: inputName, table: nil)
        }
    }

    /// Runs `body`, turning libsqlite3's failures into errors that name the input and the table.
    private static func run(_ inputName: String, table: String?, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let failure as SQLiteFailure {
            throw inputError(failure, inputName: inputName, table: table)
        }
    }

    private static func inputError(_ failure: SQLiteFailure, inputName: String, table: String?) -> InputError {
        let what = table.map { "table \(quotedForMessage($0)): " } ?? ""
        let message = if failure.isNotDatabase {
            "is not an SQLite database (\(failure.message))"
        } else if failure.isLocked {
            "\(what)the database is locked by another connection (\(failure.message)); try again once its write is done"
        } else {
            "\(what)cannot read the database: \(failure.message)"
        }
        return InputError(source: inputName, location: nil, message: message)
    }
}
