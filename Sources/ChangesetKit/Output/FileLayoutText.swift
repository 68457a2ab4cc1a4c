/// How the report formats word a change of the files' layout (see
/// `FileLayoutChanges`): one sentence a change, the same in every format.
extension FileLayoutChanges {
    /// `("line endings", "CRLF -> LF")`, `("byte-order mark", "removed")`,
    /// `("final newline", "added")`: the changes but the column order's,
    /// whose names each format writes its own way. `arrow` stands between
    /// the old and the new (`->`, or `→` in Markdown and HTML).
    package func plainEntries(arrow: String = "->") -> [(label: String, text: String)] {
        var entries: [(label: String, text: String)] = []
        if let lineEndings { entries.append(("line endings", "\(lineEndings.old.description) \(arrow) \(lineEndings.new.description)")) }
        if let byteOrderMark { entries.append(("byte-order mark", byteOrderMark.new ? "added" : "removed")) }
        if let finalNewline { entries.append(("final newline", finalNewline.new ? "added" : "removed")) }
        return entries
    }

    /// The text format's lines: `line endings: CRLF -> LF` and the like, and
    /// `column order: a, b, c -> c, a, b (1 of 3 columns moved)` wrapped
    /// between names at `width` (0: no limit), as the schema line is.
    /// `oneLine` (`--stat`): `file: ` and every change on one line, the
    /// column order by how many columns moved.
    package func textLines(width: Int, oneLine: Bool) -> [String] {
        guard !isEmpty else { return [] }
        if oneLine { return ["file: " + pieces.joined(separator: "; ")] }
        var lines = plainEntries().map { "\($0.label): \($0.text)" }
        if let columnOrder {
            var pieces: [(separator: String, text: String)] = []
            for (index, name) in columnOrder.old.enumerated() {
                pieces.append((index == 0 ? "" : ", ", ReportValueText.visible(name)))
            }
            for (index, name) in columnOrder.new.enumerated() {
                pieces.append((index == 0 ? " " : ", ", (index == 0 ? "-> " : "") + ReportValueText.visible(name)))
            }
            pieces.append((" ", "(\(columnOrder.movedText))"))
            lines += TextFormatter.wrapped("column order: ", pieces, width: width)
        }
        return lines
    }
}

extension JSONFormatter {
    /// The `layout` member of `json` (and the `ndjson` line of kind
    /// `layout`), with a member per change, only those there are:
    /// `{"lineEndings": {"old": "crlf", "new": "lf", "oldCounts": {"lf": 0,
    /// "crlf": 3, "cr": 0}, "newCounts": {...}}, "byteOrderMark": {"old":
    /// true, "new": false}, "finalNewline": {...}, "columnOrder": {"old":
    /// ["name", "iso2"], "new": ["iso2", "name"], "moved": 1}}`.
    package static func layoutJSON(_ file: FileLayoutChanges) -> String {
        var object = JSONObjectWriter()
        if let lineEndings = file.lineEndings {
            object.add("lineEndings") { entry in
                entry.add("old", string: lineEndings.old.style.rawValue)
                entry.add("new", string: lineEndings.new.style.rawValue)
                for (name, counts) in [("oldCounts", lineEndings.old), ("newCounts", lineEndings.new)] {
                    entry.add(name) { count in
                        count.add("lf", int: counts.lf)
                        count.add("crlf", int: counts.crlf)
                        count.add("cr", int: counts.cr)
                    }
                }
            }
        }
        for (name, change) in [("byteOrderMark", file.byteOrderMark), ("finalNewline", file.finalNewline)] {
            guard let change else { continue }
            object.add(name) { entry in
                entry.add("old", raw: change.old ? "true" : "false")
                entry.add("new", raw: change.new ? "true" : "false")
            }
        }
        if let columnOrder = file.columnOrder {
            object.add("columnOrder") { entry in
                entry.add("old", value: .array(columnOrder.old.map { .string($0) }))
                entry.add("new", value: .array(columnOrder.new.map { .string($0) }))
                entry.add("moved", int: columnOrder.moved)
            }
        }
        return object.text
    }
}
