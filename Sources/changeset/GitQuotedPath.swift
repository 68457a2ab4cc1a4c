import ChangesetKit

/// A repository path as git writes it in a diff's header lines (`diff --git`,
/// `---`, `+++`, `Binary files`), by git's quote_c_style: as it is, unless it
/// holds a control character, DEL, `"` or `\`, or, while core.quotePath is
/// true (git's default), a byte of 0x80 or more. Such a path is written in
/// double quotes, with `\a \b \t \n \v \f \r \" \\` and every other such byte
/// as a backslash and three octal digits, so a name cannot drive the
/// terminal or pass for another line of the diff.
enum GitQuotedPath {
    /// `prefix` and `path` (`a/` and the path), quoted as one when either needs it.
    static func bytes(_ prefix: String, _ path: String, quotePath: Bool) -> [UInt8] {
        let raw = Array(prefix.utf8) + FileSystemPath.bytes(path).dropLast().map { UInt8(bitPattern: $0) }
        guard raw.contains(where: { needsQuoting($0, quotePath: quotePath) }) else { return raw }
        var quoted: [UInt8] = [0x22]
        for byte in raw {
            guard needsQuoting(byte, quotePath: quotePath) else {
                quoted.append(byte)
                continue
            }
            quoted.append(0x5C)
            if let letter = escapeLetter(byte) {
                quoted.append(letter)
            } else {
                quoted += [byte >> 6, (byte >> 3) & 7, byte & 7].map { UInt8(ascii: "0") + $0 }
            }
        }
        quoted.append(0x22)
        return quoted
    }

    /// Whether any byte of `path` is one that core.quotePath decides on.
    static func hasHighBytes(_ path: String) -> Bool {
        FileSystemPath.bytes(path).contains { UInt8(bitPattern: $0) >= 0x80 }
    }

    private static func needsQuoting(_ byte: UInt8, quotePath: Bool) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == 0x22 || byte == 0x5C || (byte >= 0x80 && quotePath)
    }

    /// The letter after the backslash, for the bytes C gives one (`"` and `\` stand for themselves).
    private static func escapeLetter(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x07: UInt8(ascii: "a")
        case 0x08: UInt8(ascii: "b")
        case 0x09: UInt8(ascii: "t")
        case 0x0A: UInt8(ascii: "n")
        case 0x0B: UInt8(ascii: "v")
        case 0x0C: UInt8(ascii: "f")
        case 0x0D: UInt8(ascii: "r")
        case 0x22, 0x5C: byte
        default: nil
        }
    }
}
