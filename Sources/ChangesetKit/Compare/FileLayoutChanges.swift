/// What changed in the files themselves, not in their records: line breaks,
/// the byte order mark, the final newline and (both sides CSV or TSV) the
/// order of the columns both have. A report shows these apart from the
/// records; they are never counted as changes, so the exit status stays
/// about records (a commit that only turns CRLF into LF exits 0, and says so).
/// Each member is nil when both sides are alike in it.
public struct FileLayoutChanges: Equatable, Sendable {
    /// OLD's layout as its reader saw it (nil: not known, as for a report built by hand).
    public var old: FileLayout?
    /// NEW's layout, likewise.
    public var new: FileLayout?
    /// The line break style, when it differs and both files have line
    /// breaks (a one-line file's lack of one is the final newline's business).
    public var lineEndings: LayoutChange<LineEndings>?
    /// A UTF-8 byte order mark added or removed.
    public var byteOrderMark: LayoutChange<Bool>?
    /// A line break at the end of the file added or removed.
    public var finalNewline: LayoutChange<Bool>?
    /// The columns both files have, when their order differs.
    public var columnOrder: ColumnOrderChange?

    /// The differences between two layouts (none when either is unknown).
    public init(old: FileLayout? = nil, new: FileLayout? = nil) {
        self.old = old
        self.new = new
        guard let old, let new else { return }
        let styles = (old.lineEndings.style, new.lineEndings.style)
        if styles.0 != styles.1 && styles.0 != .none && styles.1 != .none {
            lineEndings = LayoutChange(old: old.lineEndings, new: new.lineEndings)
        }
        if old.byteOrderMark != new.byteOrderMark { byteOrderMark = LayoutChange(old: old.byteOrderMark, new: new.byteOrderMark) }
        if old.finalNewline != new.finalNewline { finalNewline = LayoutChange(old: old.finalNewline, new: new.finalNewline) }
        if let oldColumns = old.columns, let newColumns = new.columns {
            columnOrder = ColumnOrderChange(old: oldColumns, new: newColumns)
        }
    }

    /// Whether the files are alike in every way this type tells.
    public var isEmpty: Bool { lineEndings == nil && byteOrderMark == nil && finalNewline == nil && columnOrder == nil }

    /// `line endings CRLF -> LF`, `byte-order mark removed`, `final newline
    /// added`, `column order changed (2 of 11 columns moved)`: one piece a
    /// change, for a line that says them all (`--stat`).
    package var pieces: [String] {
        var pieces: [String] = []
        if let lineEndings { pieces.append("line endings \(lineEndings.old.description) -> \(lineEndings.new.description)") }
        if let byteOrderMark { pieces.append("byte-order mark \(byteOrderMark.new ? "added" : "removed")") }
        if let finalNewline { pieces.append("final newline \(finalNewline.new ? "added" : "removed")") }
        if let columnOrder { pieces.append("column order changed (\(columnOrder.movedText))") }
        return pieces
    }
}

/// One side's value of a file-level property, then the other's.
public struct LayoutChange<Value: Equatable & Sendable>: Equatable, Sendable {
    /// OLD's value.
    public var old: Value
    /// NEW's value.
    public var new: Value

    /// The two values as given.
    public init(old: Value, new: Value) {
        self.old = old
        self.new = new
    }
}

/// The columns two CSV (or TSV) files both have, in each file's order, when
/// the orders differ. Columns only one file has are the schema's changes,
/// not an order's. Names match by their bytes, as the schema's do.
public struct ColumnOrderChange: Equatable, Sendable {
    /// The shared columns in OLD's order.
    public var old: [String]
    /// The shared columns in NEW's order.
    public var new: [String]
    /// The fewest columns that, taken out and put back elsewhere, turn the
    /// old order into the new one (the others keep their relative order).
    public var moved: Int

    /// The change between two headers' orders; nil when the columns both
    /// have stand in the same relative order.
    public init?(old oldHeader: [String], new newHeader: [String]) {
        let oldNames = Set(oldHeader.map(ExactTextKey.init))
        let newNames = Set(newHeader.map(ExactTextKey.init))
        let old = oldHeader.filter { newNames.contains(ExactTextKey($0)) }
        let new = newHeader.filter { oldNames.contains(ExactTextKey($0)) }
        guard old.map(ExactTextKey.init) != new.map(ExactTextKey.init) else { return nil }
        self.old = old
        self.new = new
        // The columns that stay put: the longest run of old columns whose new positions grow.
        var newPosition: [ExactTextKey: Int] = [:]
        for (position, name) in new.enumerated() { newPosition[ExactTextKey(name)] = position }
        moved = old.count - ColumnOrderChange.longestIncreasingRun(old.compactMap { newPosition[ExactTextKey($0)] })
    }

    /// `1 of 3 columns moved`.
    package var movedText: String {
        "\(moved) of \(old.count) \(old.count == 1 ? "column" : "columns") moved"
    }

    /// The length of the longest increasing subsequence (patience sorting).
    private static func longestIncreasingRun(_ values: [Int]) -> Int {
        var tails: [Int] = []
        for value in values {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if tails[middle] < value { low = middle + 1 } else { high = middle }
            }
            if low == tails.count { tails.append(value) } else { tails[low] = value }
        }
        return tails.count
    }
}

extension Comparison {
    /// What changed in the files apart from their records (see
    /// `FileLayoutChanges`). Inputs of two formats (JSON against CSV, CSV
    /// against TSV) differ in layout by nature, so only their layouts are
    /// given, no differences: a file converted is a new file, not one edited.
    /// SQLite tables have none.
    public var fileLayout: FileLayoutChanges {
        // A database's table has no file layout: only the rows are compared.
        if old.input.holdsDatabaseRows || new.input.holdsDatabaseRows { return FileLayoutChanges() }
        guard old.input.format == new.input.format else {
            var sides = FileLayoutChanges()
            sides.old = old.records.layout
            sides.new = new.records.layout
            return sides
        }
        return FileLayoutChanges(old: old.records.layout, new: new.records.layout)
    }
}
