import Foundation

/// A light lexer that follows yajl through the same bytes, a little behind it.
///
/// yajl reports only byte offsets, and its own UTF-8 check lets overlong
/// forms, encoded surrogates and code points past U+10FFFF through, and turns
/// an escaped lone surrogate (`\uD800`) into `?`. This scanner does what yajl
/// does not: it validates UTF-8 strictly, checks that `\u` surrogate escapes
/// pair up, rejects raw control characters in strings, counts lines and
/// columns, and remembers where the latest token began, so errors and records
/// can be placed exactly. It never runs ahead of yajl into bytes yajl has not
/// seen, so it works the same for any chunking of the input.
struct JSONTextScanner {
    struct Failure: Error {
        var offset: Int
        var location: SourceLocation
        var message: String
    }

    struct TokenStart {
        var offset = 0
        var location = SourceLocation(line: 1, column: 1)
        var firstByte: UInt8 = 0
    }

    /// Offset (in the whole input) of the next byte to scan.
    private(set) var offset: Int
    private(set) var position = LinePosition()
    private(set) var lastToken = TokenStart() {
        didSet { sawToken = true }
    }
    private(set) var failure: Failure?
    /// Whether any token (anything but whitespace) has been seen.
    private(set) var sawToken = false

    private var utf8 = UTF8Validator()
    private var utf8SequenceStart = TokenStart()
    private var state = State.outside
    private var inWord = false
    /// Position of the `\` of the escape being read, and of a high surrogate awaiting its low half.
    private var escapeStart = TokenStart()
    private var highSurrogateStart: TokenStart?
    private var hexDigits = 0
    private var hexValue: UInt32 = 0

    private enum State {
        case outside, inString, afterBackslash, inHex
    }

    init(startOffset: Int) {
        offset = startOffset
    }

    var location: SourceLocation { position.location }

    /// True while inside a string or a bare word (number, literal, garbage).
    var isInsideToken: Bool { state != .outside || inWord }

    /// The current word began with `0` and a digit followed: a number with a leading zero.
    private(set) var wordHasLeadingZero = false
    private var wordLength = 0

    /// Scans on from `offset` until the next token starts (or the chunk ends),
    /// for errors that yajl places just before the offending token.
    mutating func scanToNextToken(_ chunk: UnsafeRawBufferPointer, chunkBase: Int) {
        let end = chunkBase + chunk.count
        let before = lastToken.offset
        while failure == nil && offset < end && (lastToken.offset == before || !sawToken) {
            scan(chunk, chunkBase: chunkBase, upTo: offset + 1)
        }
    }

    /// Scans the bytes from `offset` up to (not including) `end`; they must lie
    /// in `chunk`, which starts at `chunkBase`. Stops at the first problem.
    mutating func scan(_ chunk: UnsafeRawBufferPointer, chunkBase: Int, upTo end: Int) {
        guard failure == nil, end > offset else { return }
        precondition(offset >= chunkBase && end <= chunkBase + chunk.count, "scanner fell behind its chunk")
        var index = offset - chunkBase
        let stop = end - chunkBase
        while index < stop {
            let byte = chunk[index]
            if byte >= 0x80 || utf8.pending > 0 {
                if utf8.pending == 0 {
                    utf8SequenceStart = here(byte)
                    if let high = highSurrogateStart, state != .inHex {
                        unpairedSurrogate(at: high)
                        return
                    }
                }
                if !utf8.accept(byte) {
                    fail(at: utf8SequenceStart, String(format: "invalid UTF-8 (a bad byte sequence starting with byte 0x%02X)", utf8SequenceStart.firstByte))
                    return
                }
                if state == .outside && !inWord {
                    inWord = true
                    lastToken = utf8SequenceStart
                }
            } else {
                switch state {
                case .outside: scanOutside(byte)
                case .inString: scanInString(byte)
                case .afterBackslash: scanAfterBackslash(byte)
                case .inHex: scanHexDigit(byte)
                }
                if failure != nil { return }
            }
            position.advance(over: byte)
            offset += 1
            index += 1
        }
    }

    /// End of input: a UTF-8 sequence cut short is an error. (An unclosed
    /// string or array is yajl's to report.)
    mutating func finish() {
        guard failure == nil else { return }
        if !utf8.isComplete {
            fail(at: utf8SequenceStart, String(format: "invalid UTF-8 (a bad byte sequence starting with byte 0x%02X)", utf8SequenceStart.firstByte))
        }
    }

    private func here(_ byte: UInt8) -> TokenStart {
        TokenStart(offset: offset, location: position.location, firstByte: byte)
    }

    private mutating func fail(at start: TokenStart, _ message: String) {
        failure = Failure(offset: start.offset, location: start.location, message: message)
    }

    @inline(__always)
    private mutating func scanOutside(_ byte: UInt8) {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D:
            inWord = false
        case UInt8(ascii: "\""):
            inWord = false
            lastToken = here(byte)
            state = .inString
        case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"),
            UInt8(ascii: ","), UInt8(ascii: ":"):
            inWord = false
            lastToken = here(byte)
        default:
            if !inWord {
                inWord = true
                wordLength = 0
                wordHasLeadingZero = false
                lastToken = here(byte)
            }
            wordLength += 1
            if wordLength == 2 && lastToken.firstByte == UInt8(ascii: "0") && byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                wordHasLeadingZero = true
            }
        }
    }

    @inline(__always)
    private mutating func scanInString(_ byte: UInt8) {
        if let high = highSurrogateStart, byte != UInt8(ascii: "\\") {
            unpairedSurrogate(at: high)
            return
        }
        switch byte {
        case UInt8(ascii: "\""):
            state = .outside
        case UInt8(ascii: "\\"):
            escapeStart = here(byte)
            state = .afterBackslash
        case 0x00..<0x20:
            fail(at: here(byte), String(format: "control character U+%04X must be escaped in a string", byte))
        default:
            break
        }
    }

    @inline(__always)
    private mutating func scanAfterBackslash(_ byte: UInt8) {
        if let high = highSurrogateStart, byte != UInt8(ascii: "u") {
            unpairedSurrogate(at: high)
            return
        }
        if byte == UInt8(ascii: "u") {
            state = .inHex
            hexDigits = 0
            hexValue = 0
        } else {
            // Any other escape is yajl's to accept or reject.
            state = .inString
        }
    }

    @inline(__always)
    private mutating func scanHexDigit(_ byte: UInt8) {
        let digit: UInt32
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
        default:
            // Not a hex digit: yajl reports the bad escape.
            state = .inString
            highSurrogateStart = nil
            return
        }
        hexValue = hexValue << 4 | digit
        hexDigits += 1
        guard hexDigits == 4 else { return }
        state = .inString
        switch hexValue {
        case 0xD800...0xDBFF:
            if let high = highSurrogateStart {
                unpairedSurrogate(at: high)
            } else {
                highSurrogateStart = escapeStart
            }
        case 0xDC00...0xDFFF:
            if highSurrogateStart == nil {
                fail(at: escapeStart, String(format: "unpaired surrogate \\u%04X in string (a low surrogate needs a high one before it)", hexValue))
            }
            highSurrogateStart = nil
        default:
            if let high = highSurrogateStart { unpairedSurrogate(at: high) }
        }
    }

    private mutating func unpairedSurrogate(at high: TokenStart) {
        fail(at: high, "unpaired surrogate escape in string (a high surrogate \\uD800-\\uDBFF must be followed by a low one \\uDC00-\\uDFFF)")
    }
}
