/// A `.gitattributes` file as bytes, edited line by line: only the lines
/// changeset's attributes are on are touched, and on those only changeset's
/// attributes (`diff=changeset`, `merge=changeset`, `changeset-id=...`); every
/// other line, the user's own attributes, the line ends (LF or CRLF) and any
/// bytes that are not UTF-8 stay as they were.
struct GitAttributesFile {
    /// One line: its text without the line end, and the end it had (LF, CRLF,
    /// or none for a last line without one).
    struct Line {
        var text: [UInt8]
        var end: [UInt8]

        /// The pattern and the attributes, split at spaces and tabs (gitattributes' own rule).
        var fields: [[UInt8]] {
            text.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 }).map(Array.init)
        }
    }

    private(set) var lines: [Line]

    init(_ bytes: [UInt8]) {
        lines = []
        var start = 0
        while start < bytes.count {
            guard let newline = bytes[start...].firstIndex(of: 0x0A) else {
                lines.append(Line(text: Array(bytes[start...]), end: []))
                break
            }
            let crlf = newline > start && bytes[newline - 1] == 0x0D
            lines.append(Line(text: Array(bytes[start..<(crlf ? newline - 1 : newline)]), end: crlf ? [0x0D, 0x0A] : [0x0A]))
            start = newline + 1
        }
    }

    var bytes: [UInt8] { lines.flatMap { $0.text + $0.end } }

    /// The line end new lines get: the file's own (its first line's), else LF.
    private var lineEnd: [UInt8] { lines.first { !$0.end.isEmpty }?.end ?? [0x0A] }

    static func isOurs(_ attribute: [UInt8]) -> Bool {
        let text = String(decoding: attribute, as: UTF8.self)
        return text == "diff=\(GitAttributes.driver)" || text == "merge=\(GitAttributes.driver)"
            || text.hasPrefix("\(GitAttributes.id)=")
    }

    /// Whether `line` sets changeset as a driver.
    static func setsDriver(_ line: Line) -> Bool {
        let fields = line.fields
        return fields.count > 1 && fields.dropFirst().contains {
            let attribute = String(decoding: $0, as: UTF8.self)
            return attribute == "diff=\(GitAttributes.driver)" || attribute == "merge=\(GitAttributes.driver)"
        }
    }

    /// The pattern of `line`, if it is an attribute line (not blank, not a comment).
    static func pattern(_ line: Line) -> String? {
        guard let first = line.fields.first, first.first != UInt8(ascii: "#") else { return nil }
        return String(decoding: first, as: UTF8.self)
    }

    /// The lines that set changeset as a driver.
    var driverLines: [String] {
        lines.filter(Self.setsDriver).map { String(decoding: $0.text, as: UTF8.self) }
    }

    /// Takes changeset's attributes off the lines of `patterns` (of every
    /// line when nil); a line left with only its pattern goes. Returns how
    /// many lines were changed or removed.
    @discardableResult
    mutating func remove(patterns: Set<String>?) -> Int {
        var changed = 0
        var kept: [Line] = []
        for line in lines {
            guard Self.setsDriver(line), let pattern = Self.pattern(line), patterns?.contains(pattern) ?? true else {
                kept.append(line)
                continue
            }
            changed += 1
            let fields = line.fields
            let others = fields.dropFirst().filter { !Self.isOurs($0) }
            if others.isEmpty { continue }
            kept.append(Line(text: Array(([fields[0]] + others).joined(separator: [0x20])), end: line.end))
        }
        lines = kept
        return changed
    }

    /// Gives each of `patterns` changeset's `attributes` (replacing any it
    /// had): on the first line of that pattern that already sets changeset,
    /// keeping that line's other attributes, else on a new line at the end.
    mutating func set(_ attributes: [String], for patterns: [String]) {
        let ours = attributes.map { Array($0.utf8) }
        for pattern in patterns {
            let existing = lines.firstIndex { Self.setsDriver($0) && Self.pattern($0) == pattern }
            if let existing {
                let line = lines[existing]
                let fields = line.fields
                let others = fields.dropFirst().filter { !Self.isOurs($0) }
                lines[existing].text = Array(([fields[0]] + others + ours).joined(separator: [0x20]))
                // Other lines for the same pattern lose changeset's attributes, so one line says what holds.
                let rest = Array(lines[(existing + 1)...])
                var tail = GitAttributesFile([])
                tail.lines = rest
                tail.remove(patterns: [pattern])
                lines = Array(lines[...existing]) + tail.lines
            } else {
                if let last = lines.indices.last, lines[last].end.isEmpty { lines[last].end = lineEnd }
                lines.append(Line(text: Array(([Array(pattern.utf8)] + ours).joined(separator: [0x20])), end: lineEnd))
            }
        }
    }
}
