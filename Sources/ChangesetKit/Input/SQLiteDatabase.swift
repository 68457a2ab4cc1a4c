import Foundation

/// An SQLite database file opened for reading (see ``SQLiteTable`` for what
/// its rows become), inside one read transaction: the list of tables and
/// every table read from it see one state of the file, whatever a writer
/// commits meanwhile. Errors name the input `inputName` and the table.
package final class SQLiteDatabase {
    /// The name errors and reports give the database.
    package let inputName: String
    /// Its tables (SQLite's own `sqlite_` tables left out), in name order.
    package private(set) var tableNames: [String] = []
    private let connection: SQLiteConnection

    /// Opens the database at `path` read-only and lists its tables; the
    /// list is the transaction's first read, which takes SQLite's shared lock.
    package init(path: String, inputName: String) throws {
        self.inputName = inputName
        guard FileManager.default.fileExists(atPath: path) else {
            throw InputError(source: inputName, location: nil, message: "cannot open: \(String(cString: strerror(ENOENT)))")
        }
        do {
            connection = try SQLiteConnection(readingOnly: path)
        } catch {
            throw Self.inputError(error, inputName: inputName, table: nil)
        }
        var names: [String] = []
        try run(table: nil) {
            try connection.query("BEGIN") { _ in }
            try connection.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name") { row in
                if case .text(let name) = row[0] { names.append(name) }
            }
        }
        tableNames = names
    }

    /// Reads the table `name`. With a `tableMember`, each record starts with
    /// a member of that name holding the table's name (the section of a
    /// comparison of several tables).
    package func read(_ name: String, tableMember: String? = nil) throws -> SQLiteTable {
        guard tableNames.contains(name) else {
            throw InputError(source: inputName, location: nil, message: "has no table \"\(name)\" "
                + (tableNames.isEmpty ? "(it has no tables)" : "(its tables: \(tableNames.joined(separator: ", ")))"))
        }
        var key: [(position: Int64, column: String)] = []
        try run(table: name) {
            try connection.query("PRAGMA table_info(\(SQLiteTable.quoted(name)))") { row in
                if case .text(let column) = row[1], case .integer(let position) = row[5], position > 0 { key.append((position, column)) }
            }
        }
        let primaryKey = key.sorted { $0.position < $1.position }.map(\.column)
        // A table WITHOUT ROWID always has a primary key; any other table has a rowid.
        let order = primaryKey.isEmpty ? "rowid" : primaryKey.map(SQLiteTable.quoted).joined(separator: ", ")
        var text: [UInt8] = []
        var columns: [String] = []
        try run(table: name) {
            try connection.query("SELECT * FROM \(SQLiteTable.quoted(name)) ORDER BY \(order)", columns: { columns = $0 }) { row in
                let members = zip(columns, row).map { Value.Member(name: $0, value: SQLiteTable.value(of: $1)) }
                let section = tableMember.map { [Value.Member(name: $0, value: .string(name))] } ?? []
                Value.object(section + members).writeJSON(into: &text)
                text.append(0x0A)
            }
        }
        return SQLiteTable(name: name, columns: columns, primaryKey: primaryKey, rows: text)
    }

    /// Runs `body`, turning libsqlite3's failures into errors that name the input and the table.
    private func run(table: String?, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let failure as SQLiteFailure {
            throw Self.inputError(failure, inputName: inputName, table: table)
        }
    }

    private static func inputError(_ failure: SQLiteFailure, inputName: String, table: String?) -> InputError {
        let what = table.map { "table \"\($0)\": " } ?? ""
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
