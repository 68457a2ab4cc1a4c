/// A light lexer that follows yajl through the same bytes, a little behind it.
///
/// yajl reports only byte offsets, and its own UTF-8 check lets overlong
/// forms, encoded surrogates and code points past U+10FFFF through, and turns
/// an escaped lone surrogate (`\uD800`) into `?`. This scanner does what yajl
/// does not: it validates UTF-8 strictly, checks that `\u` surrogate escapes
/// pair up, rejects raw control characters in strings, counts lines, and
/// remembers where the latest token began, so errors and records can be placed
/// exactly. It never runs ahead of yajl into bytes yajl has not seen, so it
/// works the same for any chunking of the input.
///
/// Speed matters (it sees every byte): a record yajl has read that holds no
/// escape, no byte past ASCII and no form feed is crossed eight bytes at a
/// time, counting line breaks only (`skipAccepted`); elsewhere runs of plain
/// string bytes and of spaces are skipped in tight loops, and columns are counted only when a
/// place is asked for. A place is a `Mark` (offset, line, line start); its
/// column is counted from the line start when it is needed, and marks that
/// could outlive their chunk are resolved when the chunk ends.
struct JSONTextScanner {
    struct Failure: Error {
        var offset: Int
        var location: InputLocation
        var message: String
    }

    /// A place in the input; `column` is filled in once counted.
    struct Mark {
        var offset = 0
        var line = 1
        var lineStart = 0
        var column: Int? = 1
        var firstByte: UInt8 = 0
    }

    /// Offset (in the whole input) of the next byte to scan.
    private(set) var offset: Int
    private(set) var failure: Failure?
    private(set) var lastToken = Mark()
    /// Whether any token (anything but whitespace) has been seen.
    private(set) var sawToken = false
    /// The current word began with `0` and a digit followed: a number with a leading zero.
    private(set) var wordHasLeadingZero = false

    /// The line of the next byte to scan.
    private(set) var line = 1
    private var lineStart: Int
    private var afterCR = false
    /// Characters on the current line before the current chunk (when the line began in an earlier chunk).
    private var carriedColumns = 0
    private var carriedLineStart = -1

    private var utf8 = UTF8Validator()
    private var utf8SequenceStart = Mark()
    private var state = State.outside
    private var inWord = false
    /// The current word is a `0` and nothing more so far.
    private var zeroStart = false
    /// The `\` of the escape being read, and of a high surrogate awaiting its low half.
    private var escapeStart = Mark()
    private var highSurrogateStart: Mark?
    private var hexDigits = 0
    private var hexValue: UInt32 = 0

    private enum State {
        case outside, inString, afterBackslash, inHex
    }

    init(startOffset: Int) {
        offset = startOffset
        lineStart = startOffset
        lastToken.lineStart = startOffset
        lastToken.offset = startOffset
    }

    /// True while inside a string or a bare word (number, literal, garbage).
    var isInsideToken: Bool { state != .outside || inWord }

    /// True while inside a token that began before `chunkBase`: a token
    /// longer than the chunk that starts there.
    func isInsideToken(begunBefore chunkBase: Int) -> Bool { isInsideToken && lastToken.offset < chunkBase }

    // MARK: Places

    /// The mark of the next byte to scan.
    private var here: Mark { Mark(offset: offset, line: line, lineStart: lineStart, column: nil) }

    /// `mark` with its column counted, while its chunk is at hand.
    func resolved(_ mark: Mark, _ chunk: Span<UInt8>, _ chunkBase: Int) -> Mark {
        mark.offset >= chunkBase && mark.offset <= chunkBase + chunk.count ? resolve(mark, chunk, chunkBase) : mark
    }

    /// Counts the column of `mark` from bytes of `chunk` (which starts at `chunkBase`).
    private func resolve(_ mark: Mark, _ chunk: Span<UInt8>, _ chunkBase: Int) -> Mark {
        guard mark.column == nil else { return mark }
        var resolved = mark
        var count = 0
        let from: Int
        if mark.lineStart >= chunkBase {
            from = mark.lineStart
        } else {
            from = chunkBase
            count = carriedLineStart == mark.lineStart ? carriedColumns : 0
        }
        if mark.offset > from {
            for index in (from - chunkBase)..<(mark.offset - chunkBase) where !UTF8Validator.isContinuation(chunk[index]) {
                count += 1
            }
        }
        resolved.column = count + 1
        return resolved
    }

    /// The place of a mark, counted now if it has not been.
    func location(of mark: Mark, _ chunk: Span<UInt8>, _ chunkBase: Int) -> InputLocation {
        let resolved = resolve(mark, chunk, chunkBase)
        return InputLocation(line: resolved.line, column: resolved.column ?? 1)
    }

    /// The place of the next byte to scan.
    func location(_ chunk: Span<UInt8>, _ chunkBase: Int) -> InputLocation {
        location(of: here, chunk, chunkBase)
    }

    /// Call once every byte of a chunk has been scanned, before the chunk goes away:
    /// counts the columns that later errors may need.
    mutating func endChunk(_ chunk: Span<UInt8>, chunkBase: Int) {
        lastToken = resolve(lastToken, chunk, chunkBase)
        escapeStart = resolve(escapeStart, chunk, chunkBase)
        utf8SequenceStart = resolve(utf8SequenceStart, chunk, chunkBase)
        if let high = highSurrogateStart { highSurrogateStart = resolve(high, chunk, chunkBase) }
        let end = resolve(here, chunk, chunkBase)
        carriedColumns = (end.column ?? 1) - 1
        carriedLineStart = lineStart
    }

    private mutating func fail(at mark: Mark, _ message: String, _ chunk: Span<UInt8>, _ chunkBase: Int) {
        failure = Failure(offset: mark.offset, location: location(of: mark, chunk, chunkBase), message: message)
    }

    // MARK: Scanning

    /// Byte classes for the tight loops (see `scan`).
    private static let outsideClass: [UInt8] = (0...255).map { byte -> UInt8 in
        switch byte {
        case 0x20, 0x09: return ByteClass.space
        case 0x0A: return ByteClass.lineFeed
        case 0x0D: return ByteClass.carriageReturn
        case 0x22: return ByteClass.quote
        case 0x7B, 0x7D, 0x5B, 0x5D, 0x2C, 0x3A: return ByteClass.structural
        // yajl takes form feed and vertical tab for white space; RFC 8259 does not.
        case 0x0B, 0x0C: return ByteClass.high
        case 0x80...: return ByteClass.high
        default: return ByteClass.word
        }
    }

    private enum ByteClass {
        static let word: UInt8 = 0, space: UInt8 = 1, lineFeed: UInt8 = 2, carriageReturn: UInt8 = 3
        static let quote: UInt8 = 4, structural: UInt8 = 5, high: UInt8 = 6
    }

    /// Scans the bytes from `offset` up to (not including) `end`; they must lie
    /// in `chunk`, which starts at `chunkBase`. Stops at the first problem.
    mutating func scan(_ chunk: Span<UInt8>, chunkBase: Int, upTo end: Int) {
        guard failure == nil, end > offset else { return }
        precondition(offset >= chunkBase && end <= chunkBase + chunk.count, "scanner fell behind its chunk")
        while offset < end && failure == nil {
            if utf8.pending > 0 {
                continueSequence(chunk[offset - chunkBase], chunk, chunkBase)
                continue
            }
            switch state {
            case .inString:
                // The common case: plain string bytes.
                let index = chunk.jsonStringStop(from: offset - chunkBase, upTo: end - chunkBase) + chunkBase
                if let high = highSurrogateStart, index > offset {
                    // A plain character after a high surrogate escape: it has no low half (found by the diff-apply fuzz target).
                    offset = index
                    unpairedSurrogate(at: high, chunk, chunkBase)
                    return
                }
                offset = index
                guard index < end else { return }
                let byte = chunk[index - chunkBase]
                if let high = highSurrogateStart, byte != 0x5C {
                    unpairedSurrogate(at: high, chunk, chunkBase)
                    return
                }
                switch byte {
                case 0x22:
                    state = .outside
                    offset += 1
                case 0x5C:
                    escapeStart = here
                    state = .afterBackslash
                    offset += 1
                case 0x80...:
                    startSequence(byte, chunk, chunkBase)
                default:
                    fail(at: here, String(format: "control character U+%04X must be escaped in a string", byte), chunk, chunkBase)
                }
            case .outside:
                scanOutside(chunk, chunkBase, upTo: end)
                guard offset < end, state == .outside else { continue }
                let byte = chunk[offset - chunkBase]
                if byte == 0x0B || byte == 0x0C {
                    let name = byte == 0x0C ? "form feed" : "vertical tab"
                    fail(at: here, String(format: "a %@ (U+%04X) between tokens; JSON white space is only space, tab, line feed and carriage return", name, byte), chunk, chunkBase)
                    return
                }
                // Stopped at a byte past ASCII: a token of its own (yajl rejects it), to validate.
                inWord = true
                zeroStart = false
                token(byte)
                startSequence(byte, chunk, chunkBase)
            case .afterBackslash:
                let byte = chunk[offset - chunkBase]
                if let high = highSurrogateStart, byte != UInt8(ascii: "u") {
                    unpairedSurrogate(at: high, chunk, chunkBase)
                    return
                }
                // Any escape but \u is yajl's to accept or reject.
                state = byte == UInt8(ascii: "u") ? .inHex : .inString
                hexDigits = 0
                hexValue = 0
                if byte >= 0x80 { startSequence(byte, chunk, chunkBase) } else { offset += 1 }
            case .inHex:
                let byte = chunk[offset - chunkBase]
                if byte >= 0x80 {
                    state = .inString
                    highSurrogateStart = nil
                    startSequence(byte, chunk, chunkBase)
                } else {
                    scanHexDigit(byte, chunk, chunkBase)
                    offset += 1
                }
            }
        }
    }

    /// Moves over bytes yajl has already read without complaint, up to `end`,
    /// just after a one-byte token yajl has read (`{`, `}`, `[` or `]`; a
    /// reader callback's place), when those bytes hold nothing for this
    /// scanner to check. Returns false, having moved nowhere, when they might:
    /// then `scan` reads them.
    ///
    /// Why that is safe: yajl accepted these bytes, so a raw control character
    /// inside a string would already have stopped it; strings, once no `\` can
    /// open an escape, hold no surrogate escapes to pair; with no byte past
    /// ASCII there is no UTF-8 to validate; and with no form feed or vertical
    /// tab there is no white space yajl allows and JSON does not. Nothing is
    /// left to check, and the state after them is known: outside any string,
    /// between tokens, the last token the one-byte one ending at `end`. Only
    /// line breaks need counting, which takes eight bytes at a time (SWAR).
    /// Records without escapes or non-ASCII text, the usual ones, are
    /// crossed this way instead of token by token; any other bytes go to
    /// `scan` as before, so places and messages are the same either way.
    mutating func skipAccepted(_ chunk: Span<UInt8>, chunkBase: Int, upTo end: Int) -> Bool {
        guard failure == nil, end > offset, state == .outside, !inWord, utf8.pending == 0, highSurrogateStart == nil,
            offset >= chunkBase, end <= chunkBase + chunk.count else { return false }
        let last = chunk[end - 1 - chunkBase]
        guard last == 0x7B || last == 0x7D || last == 0x5B || last == 0x5D else { return false }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        /// The high bit of each byte of `word` that equals the byte in `pattern`, exactly.
        @inline(__always) func equal(_ word: UInt64, _ pattern: UInt64) -> UInt64 {
            let difference = word ^ pattern
            return ~(((difference & lows) &+ lows) | difference) & highs
        }
        var breaks = 0
        var lastBreak = -1
        // The byte before the current one was a CR (a CR LF is one line break).
        var previousCR = afterCR
        // Offsets in `chunk` from here to the end of the loop.
        let chunkEnd = end - chunkBase
        var refused = false
        var index = chunk.forEachWord(from: offset - chunkBase, upTo: chunkEnd) { word, index in
            // The same borrow test as `Span.jsonStringStop`: exact for "is any byte flagged".
            let backslash = word ^ (ones &* 0x5C)
            let backslashOrHigh = (((backslash &- ones) & ~backslash) | word) & highs
            let upToCR = (word &- ones &* 0x0E) & ~word & highs
            if backslashOrHigh | upToCR != 0 {
                // A byte past ASCII or a backslash, or some byte up to 0x0D (CR):
                // tab, line breaks, form feed and vertical tab among them. Look closer.
                if backslashOrHigh != 0 || (equal(word, ones &* 0x0B) | equal(word, ones &* 0x0C)) != 0 {
                    refused = true
                    return false
                }
                let lineFeeds = equal(word, ones &* 0x0A)
                let returns = equal(word, ones &* 0x0D)
                if lineFeeds | returns != 0 {
                    // A LF right after a CR ends no second line: the CR flags moved up one byte.
                    let crThenLF = lineFeeds & (returns << 8 | (previousCR ? 0x80 : 0))
                    breaks += (lineFeeds | returns).nonzeroBitCount - crThenLF.nonzeroBitCount
                    lastBreak = index + (63 - (lineFeeds | returns).leadingZeroBitCount) / 8
                }
                previousCR = returns >> 56 != 0
            } else {
                previousCR = false
            }
            return true
        }
        if refused { return false }
        while index < chunkEnd {
            let byte = chunk[index]
            if byte >= 0x80 || byte == 0x5C || byte == 0x0B || byte == 0x0C { return false }
            if byte == 0x0A || byte == 0x0D {
                if !(byte == 0x0A && previousCR) { breaks += 1 }
                lastBreak = index
            }
            previousCR = byte == 0x0D
            index += 1
        }
        line += breaks
        if lastBreak >= 0 { lineStart = chunkBase + lastBreak + 1 }
        afterCR = false
        offset = end - 1
        token(last)
        offset = end
        return true
    }

    /// Between strings: whitespace, line breaks, punctuation and bare words
    /// (numbers, literals), and plain strings whole. Stops at the end, inside
    /// a string at the first byte that needs `scan` (an escape, a control
    /// character, a byte past ASCII), or before a byte past ASCII, a form
    /// feed or a vertical tab outside strings.
    @inline(__always)
    private mutating func scanOutside(_ bytes: Span<UInt8>, _ chunkBase: Int, upTo end: Int) {
        // Offsets in `bytes` inside the loop, in the input outside it.
        var index = offset - chunkBase
        let chunkEnd = end - chunkBase
        var inWord = self.inWord
        let classes = Self.outsideClass.span
        loop: while index < chunkEnd {
            let byte = bytes[index]
            switch classes[Int(byte)] {
            case ByteClass.word:
                if inWord {
                    if zeroStart && byte >= 0x30 && byte <= 0x39 { wordHasLeadingZero = true }
                    zeroStart = false
                } else {
                    inWord = true
                    zeroStart = byte == 0x30
                    wordHasLeadingZero = false
                    offset = chunkBase + index
                    token(byte)
                }
                afterCR = false
            case ByteClass.space:
                inWord = false
                afterCR = false
            case ByteClass.lineFeed:
                inWord = false
                if afterCR { afterCR = false } else { line += 1 }
                lineStart = chunkBase + index + 1
            case ByteClass.carriageReturn:
                inWord = false
                line += 1
                lineStart = chunkBase + index + 1
                afterCR = true
            case ByteClass.quote:
                inWord = false
                afterCR = false
                offset = chunkBase + index
                token(byte)
                // Most strings are plain and short: read to the closing
                // quote here, without a trip through `scan`'s states.
                let close = bytes.jsonStringStop(from: index + 1, upTo: chunkEnd)
                if close < chunkEnd && bytes[close] == 0x22 {
                    index = close + 1
                    continue loop
                }
                // An escape, a control character, a byte past ASCII, or the
                // end of what yajl has read: `scan` goes on from there.
                state = .inString
                index = close
                break loop
            case ByteClass.structural:
                inWord = false
                afterCR = false
                offset = chunkBase + index
                token(byte)
            default:
                break loop
            }
            index += 1
        }
        offset = chunkBase + index
        self.inWord = inWord
    }

    /// End of input: a UTF-8 sequence cut short is an error. (An unclosed
    /// string or array is yajl's to report.)
    mutating func finish(_ chunk: Span<UInt8>, chunkBase: Int) {
        guard failure == nil, !utf8.isComplete else { return }
        fail(at: utf8SequenceStart, invalidUTF8Message, chunk, chunkBase)
    }

    private var invalidUTF8Message: String {
        UTF8Validator.invalidSequenceMessage(firstByte: utf8SequenceStart.firstByte)
    }

    @inline(__always)
    private mutating func startSequence(_ byte: UInt8, _ chunk: Span<UInt8>, _ chunkBase: Int) {
        utf8SequenceStart = here
        utf8SequenceStart.firstByte = byte
        if !utf8.accept(byte) {
            fail(at: utf8SequenceStart, invalidUTF8Message, chunk, chunkBase)
            return
        }
        offset += 1
    }

    @inline(__always)
    private mutating func continueSequence(_ byte: UInt8, _ chunk: Span<UInt8>, _ chunkBase: Int) {
        if !utf8.accept(byte) {
            fail(at: utf8SequenceStart, invalidUTF8Message, chunk, chunkBase)
            return
        }
        offset += 1
    }

    @inline(__always)
    private mutating func token(_ byte: UInt8) {
        lastToken = Mark(offset: offset, line: line, lineStart: lineStart, column: nil, firstByte: byte)
        sawToken = true
    }

    @inline(__always)
    private mutating func scanHexDigit(_ byte: UInt8, _ chunk: Span<UInt8>, _ chunkBase: Int) {
        guard let digit = Self.hexDigit(byte) else {
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
                unpairedSurrogate(at: high, chunk, chunkBase)
            } else {
                highSurrogateStart = escapeStart
            }
        case 0xDC00...0xDFFF:
            if highSurrogateStart == nil {
                fail(at: escapeStart, String(format: "unpaired surrogate \\u%04X in string (a low surrogate needs a high one before it)", hexValue), chunk, chunkBase)
            }
            highSurrogateStart = nil
        default:
            if let high = highSurrogateStart { unpairedSurrogate(at: high, chunk, chunkBase) }
        }
    }

    /// The value of a `\u` escape's hex digit, if `byte` is one.
    static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private mutating func unpairedSurrogate(at high: Mark, _ chunk: Span<UInt8>, _ chunkBase: Int) {
        fail(at: high, "unpaired surrogate escape in string (a high surrogate \\uD800-\\uDBFF must be followed by a low one \\uDC00-\\uDFFF)", chunk, chunkBase)
    }

    /// Would `byte`, scanned next, still belong to the current token? (A
    /// string runs to its closing quote; a bare word only over ASCII word bytes.)
    private func continuesToken(_ byte: UInt8) -> Bool {
        switch state {
        case .outside: inWord && Self.outsideClass[Int(byte)] == ByteClass.word
        default: true
        }
    }

    /// Scans on to the first token that starts at or after `start`, and through
    /// to its end (within the chunk): for errors where yajl's own offset does
    /// not say which token is at fault.
    /// Returns that token's mark.
    mutating func scanThroughToken(after start: Int, _ chunk: Span<UInt8>, chunkBase: Int) -> Mark {
        let end = chunkBase + chunk.count
        if offset < start { scan(chunk, chunkBase: chunkBase, upTo: min(start, end)) }
        // A bare word that runs on past `start` is one yajl cut in two (`012`
        // read as 0 and 12): the whole word is at fault.
        let wordRunsOn = inWord && offset >= start && lastToken.offset < start
        while !wordRunsOn && failure == nil && offset < end && !(sawToken && lastToken.offset >= start) {
            scan(chunk, chunkBase: chunkBase, upTo: offset + 1)
        }
        let found = lastToken
        // Through the token (a bad byte inside it comes first), and no further:
        // the byte that ends it may begin the next token, which is not at fault.
        while failure == nil && offset < end && isInsideToken && continuesToken(chunk[offset - chunkBase]) {
            scan(chunk, chunkBase: chunkBase, upTo: offset + 1)
        }
        return found
    }
}
