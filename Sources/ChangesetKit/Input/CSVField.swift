/// Writing CSV fields (RFC 4180).
enum CSVField {
    /// The text a CSV cell holds for a value (`Value.cellText`), empty for a missing field.
    static func cell(_ value: Value?) -> String {
        value?.cellText ?? ""
    }

    /// One row and its line break. A row of one empty field is written `""`:
    /// an empty line would be read as a blank line and skipped.
    /// `quotingEvery`: every field in quotes, as some files write them.
    static func row(_ fields: [String], delimiter: UInt8, quotingEvery: Bool = false) -> String {
        if fields.count == 1 && fields[0].isEmpty { return "\"\"\n" }
        return fields.map { quotingEvery ? inQuotes($0) : quoted($0, delimiter: delimiter) }
            .joined(separator: String(UnicodeScalar(delimiter))) + "\n"
    }

    /// The field quoted when it holds the delimiter, a quote or a line break,
    /// or starts with U+FEFF (at the start of a file a reader would take it
    /// for a byte order mark). Bytes, not Characters: a quote or comma
    /// followed by a combining mark is one Character, but still a quote or
    /// comma to a CSV reader.
    static func quoted(_ text: String, delimiter: UInt8) -> String {
        guard text.utf8.contains(where: { $0 == delimiter || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D })
            || text.utf8.starts(with: byteOrderMark)
        else { return text }
        return inQuotes(text)
    }

    /// The field between quotes, its quotes doubled.
    static func inQuotes(_ text: String) -> String {
        var bytes: [UInt8] = [0x22]
        for byte in text.utf8 {
            bytes.append(byte)
            if byte == 0x22 { bytes.append(0x22) }
        }
        bytes.append(0x22)
        return String(decoding: bytes, as: UTF8.self)
    }
}
