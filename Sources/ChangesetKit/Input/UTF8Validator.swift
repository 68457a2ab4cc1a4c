import Foundation

/// Strict UTF-8 (RFC 3629), one byte at a time so a sequence may span chunks.
/// Rejects what lenient decoders let through: overlong forms (`C0 AF`),
/// encoded surrogates (`ED A0 80`), code points past U+10FFFF and truncated
/// sequences. No byte is ever replaced: invalid input is an error.
struct UTF8Validator {
    /// The one message both readers give for bad UTF-8, placed at the sequence's first byte.
    static func invalidSequenceMessage(firstByte: UInt8) -> String {
        String(format: "invalid UTF-8 (a bad byte sequence starting with byte 0x%02X)", firstByte)
    }

    /// Continuation bytes still expected in the current sequence.
    private(set) var pending = 0
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    /// Takes one byte; false when the current sequence is invalid.
    @inline(__always)
    mutating func accept(_ byte: UInt8) -> Bool {
        if pending == 0 {
            if byte < 0x80 { return true }
            switch byte {
            case 0xC2...0xDF: pending = 1; lower = 0x80; upper = 0xBF
            case 0xE0: pending = 2; lower = 0xA0; upper = 0xBF
            case 0xE1...0xEC, 0xEE...0xEF: pending = 2; lower = 0x80; upper = 0xBF
            case 0xED: pending = 2; lower = 0x80; upper = 0x9F
            case 0xF0: pending = 3; lower = 0x90; upper = 0xBF
            case 0xF1...0xF3: pending = 3; lower = 0x80; upper = 0xBF
            case 0xF4: pending = 3; lower = 0x80; upper = 0x8F
            default: return false
            }
            return true
        }
        guard byte >= lower && byte <= upper else { return false }
        pending -= 1
        lower = 0x80
        upper = 0xBF
        return true
    }

    /// True when the input may end here (no sequence left half done).
    var isComplete: Bool { pending == 0 }

    static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }
}

/// Counts lines and columns as bytes go by, in the units `InputLocation` states.
struct LinePosition {
    private(set) var line = 1
    private(set) var column = 1
    private var afterCR = false

    @inline(__always)
    mutating func advance(over byte: UInt8) {
        if byte == 0x0A {
            if afterCR { afterCR = false; return }  // CRLF: the CR already ended the line
            line += 1
            column = 1
        } else if byte == 0x0D {
            afterCR = true
            line += 1
            column = 1
            return
        } else if !UTF8Validator.isContinuation(byte) {
            column += 1
        }
        afterCR = false
    }

    /// `count` bytes of ASCII that are not line breaks: one column each.
    @inline(__always)
    mutating func advance(overPlainASCII count: Int) {
        column += count
        afterCR = false
    }

    var location: InputLocation { InputLocation(line: line, column: column) }
}

/// The UTF-8 byte order mark; readers skip it at the start of a file.
let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

/// Text that is not UTF-8 but UTF-16 or UTF-32, told by a byte order mark or
/// by the zero bytes of ASCII characters in the first bytes, so the error
/// says what the file is instead of pointing at a bad byte or a NUL.
struct ForeignEncoding {
    let name: String

    init?(_ start: [UInt8]) {
        let b = start + [UInt8](repeating: 0xAA, count: max(0, 4 - start.count))  // 0xAA: neither zero nor a mark
        switch (b[0], b[1], b[2], b[3]) {
        case (0xFF, 0xFE, 0, 0): name = "UTF-32LE"
        case (0, 0, 0xFE, 0xFF): name = "UTF-32BE"
        case (0xFF, 0xFE, _, _): name = "UTF-16LE"
        case (0xFE, 0xFF, _, _): name = "UTF-16BE"
        case (let c, 0, 0, 0) where c != 0 && start.count >= 4: name = "UTF-32LE"
        case (0, 0, 0, let c) where c != 0: name = "UTF-32BE"
        case (let c, 0, let d, 0) where c != 0 && d != 0: name = "UTF-16LE"
        case (0, let c, 0, let d) where c != 0 && d != 0: name = "UTF-16BE"
        default: return nil
        }
    }

    var message: String {
        "this is \(name) text (\(name.hasPrefix("UTF-16") ? "two" : "four") bytes a character), not UTF-8; "
            + "changeset reads UTF-8: convert it first, e.g. iconv -f \(name) -t UTF-8"
    }
}
