/// SQLite tables as snapshots: which tables two databases compare, and the
/// key and sections they are compared by.
extension Comparison {
    /// The member that names a record's table when several tables are
    /// compared: the records' section, and the first field of their key.
    package static let tableMember = "table"

    /// OLD and NEW as the tables of two SQLite databases that
    /// `options.tables` names, or nil when neither source is a database and
    /// no table is named.
    ///
    /// A name must be a table of both databases; a glob matches the tables
    /// of either, and a table it finds in one database only is read as
    /// empty in the other (all inserted, or all deleted). Without an `id`,
    /// `options` takes the tables' primary key (OLD's, else NEW's), which
    /// several tables must share. Several tables are one input a side, each
    /// record starting with a `table` member holding its table's name: that
    /// member is the section, and the first field of the key.
    static func tableInputs(_ old: DatasetSource, _ new: DatasetSource, options: inout ComparisonOptions) throws -> (InputFile, InputFile)? {
        let oldIsDatabase = old.path.map(SQLiteTable.isDatabase) ?? false
        let newIsDatabase = new.path.map(SQLiteTable.isDatabase) ?? false
        guard oldIsDatabase || newIsDatabase || !options.tables.isEmpty else { return nil }
        let oldName = options.oldName ?? old.name, newName = options.newName ?? new.name
        guard oldIsDatabase, let oldPath = old.path else { throw notDatabase(oldName, other: newIsDatabase) }
        guard newIsDatabase, let newPath = new.path else { throw notDatabase(newName, other: oldIsDatabase) }
        let oldDatabase = try SQLiteDatabase(path: oldPath, inputName: oldName)
        let newDatabase = try SQLiteDatabase(path: newPath, inputName: newName)
        let oldNames = oldDatabase.tableNames, newNames = newDatabase.tableNames
        guard !options.tables.isEmpty else {
            let tables = Array(Set(oldNames).union(newNames)).sorted()
            throw InputError(source: oldName, location: nil, parts: [
                .text("is an SQLite database: name the table to compare with "), .setting(.tables),
                .text(tables.isEmpty ? " (neither database has a table)" : " (tables: \(tables.joined(separator: ", ")))"),
            ])
        }
        let chosen = try chosenTables(options.tables, oldNames: oldNames, newNames: newNames, oldName: oldName, newName: newName)
        let several = chosen.count > 1
        if several, options.records.section != nil {
            throw InputError(source: oldName, location: nil, parts: [
                .setting(.section), .text(" cannot group the records of several tables: each table is a section of its own"),
            ])
        }
        let member = several ? tableMember : nil
        let oldTables = try chosen.map { name in
            oldNames.contains(name) ? try oldDatabase.read(name, tableMember: member) : .absent(name)
        }
        let newTables = try chosen.map { name in
            newNames.contains(name) ? try newDatabase.read(name, tableMember: member) : .absent(name)
        }
        if several {
            for (tables, inputName) in [(oldTables, oldName), (newTables, newName)] {
                if let table = tables.first(where: { $0.columns.contains(tableMember) }) {
                    throw InputError(source: inputName, location: nil, message: "table \"\(table.name)\" has a column named \"\(tableMember)\", "
                        + "the member that names each record's table when several tables are compared; compare it on its own")
                }
            }
        }
        if options.records.id.isEmpty {
            options.records.id = try sharedPrimaryKey(chosen, oldTables, newTables, inputName: oldName).map { FieldPath([$0]) }
        }
        if several {
            if !options.records.id.isEmpty { options.records.id.insert(FieldPath([tableMember]), at: 0) }
            options.records.section = FieldPath([tableMember])
        }
        return (SQLiteTable.input(oldTables, name: oldName), SQLiteTable.input(newTables, name: newName))
    }

    /// The tables the patterns name, in the order named (a glob's matches
    /// in name order), each once.
    private static func chosenTables(_ patterns: [String], oldNames: [String], newNames: [String], oldName: String, newName: String) throws -> [String] {
        var chosen: [String] = []
        let allNames = Array(Set(oldNames).union(newNames)).sorted()
        for pattern in patterns {
            // A table's own name is itself, though it holds *, ? or [ (SQLite allows them).
            guard GlobPattern.isPattern(pattern), !allNames.contains(pattern) else {
                if !oldNames.contains(pattern) { throw missingTable(pattern, in: oldName, tables: oldNames) }
                if !newNames.contains(pattern) { throw missingTable(pattern, in: newName, tables: newNames) }
                if !chosen.contains(pattern) { chosen.append(pattern) }
                continue
            }
            let glob = GlobPattern(pattern)
            let matched = allNames.filter { glob.matches($0) }
            guard !matched.isEmpty else {
                throw InputError(source: oldName, location: nil, message: "neither database has a table matching \"\(pattern)\" "
                    + "(tables: \(allNames.joined(separator: ", ")))")
            }
            for table in matched where !chosen.contains(table) { chosen.append(table) }
        }
        return chosen
    }

    /// The primary key the tables share (each table's OLD key, else its
    /// NEW one); empty when none has one.
    private static func sharedPrimaryKey(_ names: [String], _ oldTables: [SQLiteTable], _ newTables: [SQLiteTable], inputName: String) throws -> [String] {
        let keys = zip(oldTables, newTables).map { $0.primaryKey.isEmpty ? $1.primaryKey : $0.primaryKey }
        guard Set(keys).count > 1 else { return keys.first ?? [] }
        let listed = zip(names, keys).map { "\($0): \($1.isEmpty ? "none" : $1.joined(separator: ","))" }
        throw InputError(source: inputName, location: nil, parts: [
            .text("the tables' primary keys differ (\(listed.joined(separator: "; "))): name a key they all have with "),
            .setting(.id), .text(", or compare them one at a time"),
        ])
    }

    private static func missingTable(_ name: String, in inputName: String, tables: [String]) -> InputError {
        InputError(source: inputName, location: nil, message: "has no table \"\(name)\" "
            + (tables.isEmpty ? "(it has no tables)" : "(its tables: \(tables.joined(separator: ", ")))"))
    }

    private static func notDatabase(_ inputName: String, other otherIsDatabase: Bool) -> InputError {
        InputError(source: inputName, location: nil, parts: otherIsDatabase
            ? [.text("is not an SQLite database, and the other input is one: a table is compared with a table")]
            : [.text("is not an SQLite database, and "), .setting(.tables), .text(" compares the tables of two databases")])
    }
}
