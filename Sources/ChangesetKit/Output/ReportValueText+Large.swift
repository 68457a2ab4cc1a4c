/// Showing values of any size in the space of `width`: a 45 MB changed
/// string is shown as 120 characters, so only bytes near what is shown may
/// become Strings and Characters (a Character array costs 16 bytes a byte of
/// ASCII text: 45 MB of value took 1.7 GB to show). The JSON text is cut as
/// bytes first, to a slice that holds more than the window needs, and the
/// exact rules (`visible`, `cut`, `cutAround`) run on that slice; a slice
/// found too short (characters made of very many code points) is doubled
/// until it is long enough or whole, so the result is always what the rules
/// give on the whole text.
extension ReportValueText {
    /// `cut(value(value), width:)`, reading only the start of a long value.
    package static func shownValue(_ value: Value?, width: Int) -> String {
        guard let value else { return "(absent)" }
        var json: [UInt8] = []
        value.writeJSON(into: &json)
        return shownText(json.span, width: width)
    }

    /// `cut(visible(text), width:)` for JSON text given as bytes.
    static func shownText(_ json: Span<UInt8>, width: Int) -> String {
        guard width > 0 else { return visible(json.decoded) }
        let width = bounded(max(width, minimumWidth))
        var length = (width + 2) * 16
        while length < json.count {
            let end = scalarStart(json, atOrBefore: length)
            let visibleStart = visible(json.extracting(0..<end).decoded)
            // One character more than shown, and one for a cluster the slice's end may have split.
            if visibleStart.count > width + 1 { return cut(visibleStart, width: width) }
            length *= 2
        }
        return cut(visible(json.decoded), width: width)
    }

    /// `cutAround(value(old), value(new), width:)`, reading only the bytes
    /// around the first difference of two long values.
    package static func shownPair(_ old: Value?, _ new: Value?, width: Int) -> (String, String) {
        var oldJSON: [UInt8] = [], newJSON: [UInt8] = []
        if let old { old.writeJSON(into: &oldJSON) } else { oldJSON = Array("(absent)".utf8) }
        if let new { new.writeJSON(into: &newJSON) } else { newJSON = Array("(absent)".utf8) }
        return shownPair(oldJSON.span, newJSON.span, width: width)
    }

    /// `cutAround(visible(old), visible(new), width:)` for JSON text given as
    /// bytes; two versions that would look the same but differ in their bytes
    /// (another Unicode normalisation) are shown with every character past
    /// ASCII escaped, so the difference can be seen.
    static func shownPair(_ old: Span<UInt8>, _ new: Span<UInt8>, width: Int) -> (String, String) {
        let shown = cutPair(old, new, width: width)
        guard shown.0 == shown.1, !ExactText.same(shown.0, shown.1) else { return shown }
        return (escapingNonASCII(shown.0), escapingNonASCII(shown.1))
    }

    /// `text` with each code point past ASCII written as `\uXXXX` (or `\UXXXXXXXX`).
    static func escapingNonASCII(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII || scalar == "…" {
                output.unicodeScalars.append(scalar)
            } else {
                output += TerminalText.escape(scalar)
            }
        }
        return output
    }

    private static func cutPair(_ old: Span<UInt8>, _ new: Span<UInt8>, width: Int) -> (String, String) {
        guard width > 0 else { return cutAround(visible(old.decoded), visible(new.decoded), width: width) }
        let width = bounded(max(width, minimumWidth))
        var common = 0
        let shorter = min(old.count, new.count)
        while common < shorter && old[common] == new[common] { common += 1 }
        var reach = (width + 2) * 16
        while reach < max(old.count, new.count) {
            // The same start in both: the bytes before the difference are equal.
            let from = common > reach ? scalarStart(old, atOrBefore: common - reach) : 0
            let oldEnd = scalarStart(old, atOrBefore: min(old.count, common + reach))
            let newEnd = scalarStart(new, atOrBefore: min(new.count, common + reach))
            let oldText = visible(old.extracting(from..<oldEnd).decoded)
            let newText = visible(new.extracting(from..<newEnd).decoded)
            if let shown = window(oldText, newText, width: width, cutBefore: from > 0,
                                  cutAfter: (oldEnd < old.count, newEnd < new.count)) {
                return shown
            }
            reach *= 2
        }
        return cutAround(visible(old.decoded), visible(new.decoded), width: width)
    }

    /// `cutAround`'s window over slices of the two texts, or nil when a slice
    /// holds too few characters before or after the difference to be sure.
    private static func window(_ old: String, _ new: String, width: Int, cutBefore: Bool, cutAfter: (Bool, Bool)) -> (String, String)? {
        let oldCharacters = Array(old), newCharacters = Array(new)
        var common = 0
        while common < oldCharacters.count, common < newCharacters.count, sameCharacter(oldCharacters[common], newCharacters[common]) {
            common += 1
        }
        let context = max(1, width / 4)
        // Room for the context before (and one character a cut may have split), and the width after.
        if cutBefore && common < context + 2 { return nil }
        let start = max(0, common - context)
        func shown(_ characters: [Character], cutAtEnd: Bool) -> String? {
            if cutAtEnd && characters.count < start + width + 2 { return nil }
            if !cutBefore && !cutAtEnd && characters.count <= width { return String(characters) }
            let lead = start > 0 || cutBefore ? "…" : ""
            let from = cutAtEnd ? start : min(start, max(0, characters.count - width + lead.count))
            if cutBefore && from == 0 { return nil }
            let room = width - lead.count
            let end = min(characters.count, from + room)
            if end == characters.count && !cutAtEnd { return lead + String(characters[from..<end]) }
            return lead + String(characters[from..<(end - 1)]) + "…"
        }
        guard let shownOld = shown(oldCharacters, cutAtEnd: cutAfter.0), let shownNew = shown(newCharacters, cutAtEnd: cutAfter.1) else {
            return nil
        }
        return (shownOld, shownNew)
    }

    /// Characters equal as `ExactText` has it: the same code points (so a
    /// change of normalisation is shown where it is).
    static func sameCharacter(_ a: Character, _ b: Character) -> Bool {
        a == b && a.unicodeScalars.elementsEqual(b.unicodeScalars)
    }

    /// The start of the UTF-8 sequence at or before `offset` (so a cut never splits one).
    private static func scalarStart(_ bytes: Span<UInt8>, atOrBefore offset: Int) -> Int {
        var index = min(offset, bytes.count)
        while index > 0 && index < bytes.count && bytes[index] & 0xC0 == 0x80 { index -= 1 }
        return index
    }
}
