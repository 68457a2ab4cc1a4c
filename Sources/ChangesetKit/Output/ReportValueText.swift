/// How values are shown to a person (text, markdown and html): invisible
/// characters made visible, long values cut around the part that changed.
package enum ReportValueText {
    /// `text` with every character a reader cannot see written as an escape
    /// (`\u200F`, `\U000F0000`); the rule is `TerminalText.escaped`, shared
    /// with error messages.
    package static func visible(_ text: String) -> String {
        TerminalText.escaped(text)
    }

    /// A value as a person reads it: JSON text (numbers as written in the
    /// input, strings quoted), `(absent)` for a missing field, invisible
    /// characters escaped.
    package static func value(_ value: Value?) -> String {
        guard let value else { return "(absent)" }
        return visible(value.jsonText)
    }

    /// The narrowest cut: room for two `…` and a few characters between them.
    package static let minimumWidth = 8

    /// The widest: longer than any text, so a wider width changes nothing,
    /// and small enough that the arithmetic on widths cannot overflow.
    package static let maximumWidth = 1 << 40

    /// `width` as the formatters hold it: at most `maximumWidth`.
    package static func bounded(_ width: Int) -> Int { min(width, maximumWidth) }

    /// `text` cut to at most `width` characters (at least `minimumWidth`),
    /// ending in `…` when cut. A width of 0 means no limit.
    package static func cut(_ text: String, width: Int) -> String {
        let width = width > 0 ? max(width, minimumWidth) : 0
        // No more bytes than the width: no more characters either (and no need to count them).
        guard width > 0, text.utf8.count > width else { return text }
        // Printable ASCII up to the cut: bytes are characters (CR LF would be one).
        if let cut = text.withBytes({ bytes -> String? in
            guard !bytes.extracting(0..<min(bytes.count, width + 1)).containsByte(where: { $0 >= 0x80 || $0 < 0x20 }) else { return nil }
            return bytes.extracting(0..<(width - 1)).decoded + "…"
        }) {
            return cut
        }
        guard
            let end = text.index(text.startIndex, offsetBy: width - 1, limitedBy: text.endIndex), end < text.endIndex,
            text.index(after: end) < text.endIndex
        else { return text }
        return String(text[..<end]) + "…"
    }

    /// Two versions of a value, each cut to at most `width` characters so
    /// that the part where they differ stays in view: a window starting a
    /// little before the first differing character, `…` marking what was left
    /// out on either side. A width of 0 means no limit; below `minimumWidth`
    /// it is `minimumWidth`.
    package static func cutAround(_ old: String, _ new: String, width: Int) -> (String, String) {
        let width = width > 0 ? max(width, minimumWidth) : 0
        guard width > 0, old.utf8.count > width || new.utf8.count > width, old.count > width || new.count > width else { return (old, new) }
        let oldCharacters = Array(old)
        let newCharacters = Array(new)
        var common = 0
        while common < oldCharacters.count, common < newCharacters.count, sameCharacter(oldCharacters[common], newCharacters[common]) {
            common += 1
        }
        // Keep a quarter of the width as context before the change.
        let start = max(0, common - max(1, width / 4))
        func window(_ characters: [Character]) -> String {
            guard characters.count > width else { return String(characters) }
            let lead = start > 0 ? "…" : ""
            let from = min(start, max(0, characters.count - width + lead.count))
            let room = width - lead.count
            let end = min(characters.count, from + room)
            if end == characters.count { return lead + String(characters[from..<end]) }
            return lead + String(characters[from..<(end - 1)]) + "…"
        }
        return (window(oldCharacters), window(newCharacters))
    }

    /// A section's name as a person reads it.
    package static func section(_ name: String?) -> String {
        name.map(visible) ?? "(none)"
    }

    /// An id as a person reads it: the parts joined by commas.
    package static func id(_ parts: [String]) -> String {
        visible(parts.joined(separator: ","))
    }

    /// A place: `index` or `section/index`.
    package static func place(_ place: RecordPlace, sectioned: Bool) -> String {
        sectioned ? "\(section(place.section))/\(place.index)" : "\(place.index)"
    }
}

extension ReportValueText {
    /// Array elements inserted or deleted (one, or a run from
    /// `FieldChange.runs`) as the tables show them: where and what
    /// (`tags[2…64] inserted`), and the values (`"200"`; for a run, `63
    /// elements: "200", "201", "202", …, "262"`), each cut to `width`.
    static func elementRun(_ run: ArraySlice<FieldChange>, width: Int) -> (label: String, values: String) {
        let first = run.first!
        let verb = first.new == nil ? "deleted" : "inserted"
        guard run.count > 1 else { return ("\(visible(first.location)) \(verb)", shownValue(first.new ?? first.old, width: width)) }
        return ("\(visible(first.location(throughCount: run.count))) \(verb)", "\(run.count) elements: \(runValues(run, width: width))")
    }

    /// A run's first three values and its last, each cut to `width`: `"200", "201", "202", …, "262"`.
    static func runValues(_ run: ArraySlice<FieldChange>, width: Int) -> String {
        let shown = run.enumerated().filter { $0.offset < 3 || $0.offset == run.count - 1 }
            .map { shownValue($0.element.new ?? $0.element.old, width: width) }
        return run.count > 4 ? shown.dropLast().joined(separator: ", ") + ", …, " + shown.last! : shown.joined(separator: ", ")
    }
}
