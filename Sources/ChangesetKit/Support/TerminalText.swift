/// Text a person reads on a terminal: in reports and in error messages alike,
/// a character that cannot be seen (or that a terminal would act on, such as
/// ESC) is written as an escape, and data quoted in a message is cut, so a
/// hostile or huge id, column name or value can neither drive the terminal
/// nor flood it. One rule for every layer, since errors are made in all of them.
package enum TerminalText {
    /// `text` with every character a reader cannot see written as an escape
    /// (`\u200F`, `\U000F0000`): control and format characters (bidi marks,
    /// zero-width space, the byte order mark; not the joiners U+200C and
    /// U+200D, which emoji and several scripts need), line and paragraph
    /// separators, spaces other than U+0020, private-use and unassigned code
    /// points.
    package static func escaped(_ text: String) -> String {
        // Printable ASCII (the usual case) is checked byte by byte, without decoding,
        // over the contiguous UTF-8 (the String's own index walk costs several times more).
        if text.withBytes({ !$0.containsByte { $0 < 0x20 || $0 >= 0x7F } }) { return text }
        guard text.unicodeScalars.contains(where: isInvisible) else { return text }
        var output = ""
        for scalar in text.unicodeScalars {
            if isInvisible(scalar) {
                output += escape(scalar)
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// `\u` and four hex digits, or `\U` and eight past U+FFFF, so an escape never runs into what follows.
    static func escape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let digits = scalar.value > 0xFFFF ? 8 : 4
        return (digits == 8 ? "\\U" : "\\u") + String(repeating: "0", count: digits - hex.count) + hex
    }

    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return scalar.value < 0x20 || scalar.value == 0x7F }
        // Zero-width joiners belong in emoji sequences and in Persian and Indic words.
        if scalar.value == 0x200C || scalar.value == 0x200D { return false }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned, .surrogate: return true
        case .spaceSeparator: return true
        default: return false
        }
    }

    /// How many characters of one datum (a name, an id, a value) a message quotes.
    package static let messageDatumLimit = 80

    /// `text` for a message: cut to `limit` characters (then `…`) before it
    /// is escaped, so a 500 MB column name costs 80 characters, not a copy.
    package static func datum(_ text: Substring, limit: Int = messageDatumLimit) -> String {
        // At most 4 bytes a character: a prefix of that many bytes holds the
        // characters kept, whatever they are, without walking the rest.
        let utf8 = text.utf8
        let head = utf8.count > limit * 4 ? Substring(utf8.prefix(limit * 4)) : text
        let cut = head.count > limit ? String(head.prefix(limit - 1)) + "…" : String(head)
        return escaped(cut)
    }

    /// `text` for a message, cut and escaped as `datum(_:limit:)` of a `Substring` does.
    package static func datum(_ text: String, limit: Int = messageDatumLimit) -> String {
        datum(Substring(text), limit: limit)
    }

    /// How many names a message lists before it says how many more there are.
    package static let messageListLimit = 12

    /// `a`, `a and b`, `a, b and c`: names in a sentence.
    package static func sentence(_ names: [String]) -> String {
        names.count <= 1 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names.last!
    }

    /// `names` for a message: each cut and escaped, at most `limit` of them,
    /// then `… and N more`.
    package static func list(_ names: some Collection<String>, limit: Int = messageListLimit, separator: String = ", ") -> String {
        let shown = names.prefix(limit).map { datum($0) }.joined(separator: separator)
        return names.count > limit ? shown + "\(separator)… and \(names.count - limit) more" : shown
    }
}
