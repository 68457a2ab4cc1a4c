/// Schema changes: the fields one side has and the other lacks.
extension Comparison {
    /// The fields one schema has and the other lacks. Without records a side
    /// has no JSON schema to speak of, so nothing is added or removed then.
    /// When one side is CSV and the other JSON, a CSV column `meta.key` is
    /// the JSON path `meta.key`: a column counts as present on the JSON side
    /// when its first dotted part is a JSON field, and a JSON field as
    /// present on the CSV side when a column is it or starts with it and a dot.
    static func schemaChanges(_ old: RecordTable, _ new: RecordTable) -> SchemaChanges {
        let known = (old.count > 0 || old.fieldNames != nil) && (new.count > 0 || new.fieldNames != nil)
        guard known else { return SchemaChanges() }
        let mixed = (old.fieldNames == nil) != (new.fieldNames == nil)
        // Names match by their bytes (`ExactText`), as fingerprints do.
        func names(_ table: RecordTable) -> Set<ExactTextKey> {
            var names = Set(table.schema.map(ExactTextKey.init))
            if mixed && table.fieldNames != nil {
                for name in table.schema { names.insert(ExactTextKey(String(name.prefix { $0 != "." }))) }
            }
            return names
        }
        let oldNames = names(old)
        let newNames = names(new)
        func fields(_ table: RecordTable, without others: Set<ExactTextKey>) -> [SchemaField] {
            zip(table.schema, table.schemaValueCounts).filter { name, _ in
                !others.contains(ExactTextKey(name))
                    && !(mixed && table.fieldNames != nil && others.contains(ExactTextKey(String(name.prefix { $0 != "." }))))
            }.map { SchemaField(path: FieldPath([$0.0]), records: $0.1) }
        }
        return SchemaChanges(added: fields(new, without: oldNames), removed: fields(old, without: newNames))
    }
}
