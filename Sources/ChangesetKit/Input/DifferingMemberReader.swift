import Foundation

/// An updated record's two versions, read again with only the members whose
/// text differs: the rest cannot hold a change under any rule or tolerance
/// (the same text is the same value, and a tolerance only takes changes
/// away), so they are neither decoded nor compared. An updated record
/// usually changed one or two of its fields; reading every member of both
/// versions into a `Value` and comparing them was most of what a report
/// spent on an update.
///
/// `FieldChange.between` over the two objects this gives finds what it
/// finds over the whole records: names are unique within a record (the
/// readers refuse duplicate members and columns), the members kept stay in
/// their order, and a member only one side has is always kept.
struct DifferingMemberReader {
    let old: Snapshot
    let new: Snapshot
    /// For each old column, the new column of the same name, or -1 (CSV on both sides).
    let newColumnOfOldColumn: [Int]

    init(old: Snapshot, new: Snapshot) {
        self.old = old
        self.new = new
        if let oldNames = old.records.fieldNames, let newNames = new.records.fieldNames {
            let newColumns = Dictionary(newNames.enumerated().map { (ExactTextKey($1), $0) }, uniquingKeysWith: { first, _ in first })
            newColumnOfOldColumn = oldNames.map { newColumns[ExactTextKey($0)] ?? -1 }
        } else {
            newColumnOfOldColumn = []
        }
    }

    /// The two versions as objects of the members that differ in text, or
    /// nil where this does not apply (renamed or flattened fields, a JSON side
    /// against a CSV one): the caller then reads the records whole. A record
    /// that is not an object, or a row that does not split as it should, is
    /// read whole from the bytes already read (which says what is wrong).
    func records(oldRow: Int, newRow: Int) throws -> (old: Value, new: Value)? {
        guard old.renames.isEmpty, new.renames.isEmpty, !old.flattensObjects, !new.flattensObjects,
              old.input.format.isJSON == new.input.format.isJSON else { return nil }
        return try old.input.bytes.withBytes(in: old.records.byteRange(oldRow)) { oldText in
            try new.input.bytes.withBytes(in: new.records.byteRange(newRow)) { newText in
                let differing = old.input.format.isJSON ? try jsonMembers(oldText, newText) : try csvCells(oldText, newText)
                return try differing ?? (old.value(parsing: oldText), new.value(parsing: newText))
            }
        }
    }

    private func jsonMembers(_ oldText: Span<UInt8>, _ newText: Span<UInt8>) throws -> (old: Value, new: Value)? {
        guard let oldMembers = JSONValueReader.rawMembers(ofObject: oldText),
              let newMembers = JSONValueReader.rawMembers(ofObject: newText) else { return nil }
        var newKept = [Bool](repeating: true, count: newMembers.count)
        var oldKept: [Value.Member] = []
        for (position, oldMember) in oldMembers.enumerated() {
            // The same name at the same place first: records mostly keep their members' order.
            func named(_ index: Int) -> Bool { oldText.extracting(oldMember.name).sameBytes(as: newText.extracting(newMembers[index].name)) }
            let match = position < newMembers.count && named(position) ? position : newMembers.indices.first(where: named)
            if let match, oldText.extracting(oldMember.value).sameBytes(as: newText.extracting(newMembers[match].value)) {
                newKept[match] = false
                continue
            }
            oldKept.append(try JSONValueReader.member(oldMember, in: oldText))
        }
        let newKeptMembers = try newMembers.indices.filter { newKept[$0] }.map { try JSONValueReader.member(newMembers[$0], in: newText) }
        return (.object(oldKept), .object(newKeptMembers))
    }

    private func csvCells(_ oldText: Span<UInt8>, _ newText: Span<UInt8>) throws -> (old: Value, new: Value)? {
        let oldNames = old.records.fieldNames ?? []
        let newNames = new.records.fieldNames ?? []
        let oldCells = try CSVRecordReader.rawCells(of: oldText, delimiter: old.delimiter, expecting: oldNames.count)
        let newCells = try CSVRecordReader.rawCells(of: newText, delimiter: new.delimiter, expecting: newNames.count)
        guard oldCells.count == oldNames.count, newCells.count == newNames.count,
              newColumnOfOldColumn.count == oldNames.count else { return nil }
        var newKept = [Bool](repeating: true, count: newCells.count)
        var oldKept: [Value.Member] = []
        for (column, cell) in oldCells.enumerated() {
            let newColumn = newColumnOfOldColumn[column]
            if newColumn >= 0 && oldText.extracting(cell).sameBytes(as: newText.extracting(newCells[newColumn])) {
                newKept[newColumn] = false
                continue
            }
            oldKept.append(Value.Member(name: oldNames[column], value: Snapshot.cellValue(oldText.extracting(cell))))
        }
        let newKeptMembers = newCells.indices.filter { newKept[$0] }.map {
            Value.Member(name: newNames[$0], value: Snapshot.cellValue(newText.extracting(newCells[$0])))
        }
        return (.object(oldKept), .object(newKeptMembers))
    }
}
