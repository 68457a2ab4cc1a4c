extension Comparison {
    /// OLD and NEW as the table of two SQLite databases that
    /// `options.tables` names, or nil when neither source is a database
    /// and no table is named. Without an `id`, `options` takes the
    /// table's primary key (OLD's, else NEW's).
    static func tableInputs(_ old: DatasetSource, _ new: DatasetSource, options: inout ComparisonOptions) throws -> (InputFile, InputFile)? {
        let oldIsDatabase = old.path.map(SQLiteTable.isDatabase) ?? false
        let newIsDatabase = new.path.map(SQLiteTable.isDatabase) ?? false
        guard oldIsDatabase || newIsDatabase || !options.tables.isEmpty else { return nil }
        let oldName = options.oldName ?? old.name, newName = options.newName ?? new.name
        guard oldIsDatabase, let oldPath = old.path else { throw notDatabase(oldName, other: newIsDatabase) }
        guard newIsDatabase, let newPath = new.path else { throw notDatabase(newName, other: oldIsDatabase) }
        let oldTables = try SQLiteTable.tableNames(in: oldPath, inputName: oldName)
        let newTables = try SQLiteTable.tableNames(in: newPath, inputName: newName)
        guard !options.tables.isEmpty else {
            let tables = Array(Set(oldTables).union(newTables)).sorted()
            throw InputError(source: oldName, location: nil, parts: [
                .text("is an SQLite database: name the table to compare with "), .setting(.tables),
                .text(tables.isEmpty ? " (neither database has a table)" : " (tables: \(tables.joined(separator: ", ")))"),
            ])
        }
        let chosen = try chosenTable(options.tables, oldTables: oldTables, newTables: newTables, oldName: oldName, newName: newName)
        let oldTable = try SQLiteTable.read(chosen, in: oldPath, inputName: oldName)
        let newTable = try SQLiteTable.read(chosen, in: newPath, inputName: newName)
        if options.records.id.isEmpty {
            let key = oldTable.primaryKey.isEmpty ? newTable.primaryKey : oldTable.primaryKey
            options.records.id = key.map { FieldPath([$0]) }
        }
        return (oldTable.input, newTable.input)
    }

    /// The one table the patterns name: a name must be in both databases;
    /// a glob must match one table of either.
    private static func chosenTable(_ patterns: [String], oldTables: [String], newTables: [String], oldName: String, newName: String) throws -> String {
        var chosen: [String] = []
        for pattern in patterns {
            guard GlobPattern.isPattern(pattern) else {
                if !oldTables.contains(pattern) { throw missingTable(pattern, in: oldName, tables: oldTables) }
                if !newTables.contains(pattern) { throw missingTable(pattern, in: newName, tables: newTables) }
                if !chosen.contains(pattern) { chosen.append(pattern) }
                continue
            }
            let glob = GlobPattern(pattern)
            let matched = Array(Set(oldTables).union(newTables)).sorted().filter { glob.matches($0) }
            guard !matched.isEmpty else { throw missingTable(pattern, in: oldName, tables: oldTables) }
            for table in matched where !chosen.contains(table) { chosen.append(table) }
        }
        guard chosen.count == 1 else {
            throw InputError(source: oldName, location: nil, parts: [
                .setting(.tables), .text(" names \(chosen.count) tables (\(chosen.joined(separator: ", "))); compare one table at a time"),
            ])
        }
        return chosen[0]
    }

    private static func missingTable(_ pattern: String, in inputName: String, tables: [String]) -> InputError {
        InputError(source: inputName, location: nil, message: "has no table \(GlobPattern.isPattern(pattern) ? "matching " : "")\"\(pattern)\" "
            + (tables.isEmpty ? "(it has no tables)" : "(its tables: \(tables.joined(separator: ", ")))"))
    }

    private static func notDatabase(_ inputName: String, other otherIsDatabase: Bool) -> InputError {
        InputError(source: inputName, location: nil, parts: otherIsDatabase
            ? [.text("is not an SQLite database, and the other input is one: a table is compared with a table")]
            : [.text("is not an SQLite database, and "), .setting(.tables), .text(" compares the tables of two databases")])
    }
}
