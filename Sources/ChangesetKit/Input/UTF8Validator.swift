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

/// Counts lines and columns as bytes go by, in the units `SourceLocation` states.
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

    var location: SourceLocation { SourceLocation(line: line, column: column) }
}

/// The UTF-8 byte order mark; readers skip it at the start of a file.
let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
