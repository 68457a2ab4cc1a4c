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
        var input = InputFile(name: inputName, bytes: InputBytes(copying: tables.flatMap(\.rows)), format: .ndjson)
        input.holdsDatabaseRows = true
        return input
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
}
