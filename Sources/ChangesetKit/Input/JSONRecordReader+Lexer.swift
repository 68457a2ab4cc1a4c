// The JSON reader's own lexer: one pass over the text that does, for a valid
// input, what yajl and `JSONTextScanner` do together (checks the grammar,
// strict UTF-8, escapes and their surrogate pairs, counts lines), and calls
// the same handlers yajl's callbacks do. yajl re-enters the reader through a
// C callback for every token and the scanner reads every byte again behind
// it; together they were more than half of reading a JSON file
// (docs/performance.md).
//
// It places no error. At anything it does not take exactly as the yajl path
// does (an error of any kind, white space JSON does not allow, `\u0000`,
// a byte past ASCII outside a string), it gives up, and the input is read
// again from its start with yajl (`InputFile`), which finds and places the
// error. So every message, and every input the yajl path refuses, stays as
// it was; the reader tests hold the two lexers to the same tables.
extension JSONRecordReader {
    /// What lexes the JSON text and calls the reader's handlers.
    package enum Lexer: Sendable {
        /// libyajl, with `JSONTextScanner` checking what yajl does not: any
        /// input, any chunking, every error placed.
        case yajl
        /// The reader's own lexer: the same records from a valid input, in
        /// about half the instructions. On anything else `feed` or `finish`
        /// throws `GaveUp` (reading stops there), and the input is to be read
        /// again with `.yajl`: so only for an input that can be read again.
        case own

        /// The own lexer met something it leaves to yajl.
        package struct GaveUp: Error {}
    }

    /// What the own lexer takes next.
    enum Expected {
        /// A value at the top: the document, or (NDJSON) the next record or the end.
        case topValue
        /// The document's value is read: white space, then the end.
        case end
        case value, valueOrClose, name, nameOrClose, colon, commaOrClose
    }

    /// `tokenEnd`'s answers that are not an offset.
    private static let needsMore = -1, refused = -2

    /// The longest token cut by a chunk's end the lexer carries on to the
    /// next chunk; a longer one is yajl's. yajl holds such a token whole once
    /// (the reader's chunk grows to take it, `endsInsideLongToken`), where
    /// the carried copy would be a second one, grown by doubling: a 64 MB
    /// string took more than twice its size.
    static let longestCarriedToken = 1 << 20

    // MARK: Chunks

    /// Lexes a chunk (at `base` in the input), calling the handlers, and
    /// keeps a token the chunk's end cuts for the next chunk.
    func tokenize(_ bytes: Span<UInt8>, base: Int) {
        guard !gaveUp else { return }
        var index = 0
        if !carried.isEmpty {
            guard let resumed = finishCarriedToken(bytes) else { return }
            index = resumed
        }
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte <= 0x20 {
                switch byte {
                case 0x20, 0x09:
                    ownAfterCR = false
                case 0x0A:
                    if ownAfterCR { ownAfterCR = false } else { ownLine += 1 }
                case 0x0D:
                    ownLine += 1
                    ownAfterCR = true
                default:
                    return giveUp()  // a control byte, or white space yajl allows and JSON does not
                }
                index += 1
                continue
            }
            ownAfterCR = false
            // One-byte tokens here; the others lexed first, then taken (or carried to the next chunk).
            var taken = false
            var end = index + 1
            switch byte {
            case UInt8(ascii: "\""):
                end = stringEnd(bytes, from: index, atEnd: false)
                if end < 0 { break }
                ownTokenEnd = base + end
                taken = takeString(bytes.extracting(index + 1..<end - 1))
            case UInt8(ascii: ":"), UInt8(ascii: ","):
                end = separatorEnd(bytes, from: index)
                taken = end > index
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                ownTokenStart = base + index
                ownTokenEnd = base + end
                taken = takeOpening(isObject: byte == UInt8(ascii: "{"))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                ownTokenEnd = base + end
                taken = takeClosing(isObject: byte == UInt8(ascii: "}"))
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let number = numberEnd(bytes, from: index, atEnd: false)
                end = number.end
                if end < 0 { break }
                ownTokenEnd = base + end
                taken = takeNumber(bytes.extracting(index..<end), canonicalInteger: number.canonicalInteger)
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                end = literalEnd(bytes, from: index, atEnd: false)
                if end < 0 { break }
                ownTokenEnd = base + end
                taken = takeLiteral(byte)
            default:
                return giveUp()  // a byte no token starts with
            }
            if end == Self.needsMore {
                guard count - index <= Self.longestCarriedToken else { return giveUp() }
                carried.removeAll()
                carried.append(bytes.extracting(index..<count))
                carriedStart = base + index
                return
            }
            guard end > index, taken else { return giveUp() }
            index = separatorEnd(bytes, from: end)
        }
    }

    /// Past the `:` or `,` the grammar expects at `start`, and one space
    /// after it; else `start`. The loop takes a separator here, whether it
    /// comes right after a token (taken in that token's step: a member is
    /// mostly a name, its colon, its value and a comma, so this halves the
    /// loop's turns through a record) or after white space.
    @inline(__always)
    private func separatorEnd(_ bytes: Span<UInt8>, from start: Int) -> Int {
        guard start < bytes.count else { return start }
        switch bytes[start] {
        case UInt8(ascii: ":"):
            guard expected == .colon else { return start }
            expected = .value
        case UInt8(ascii: ","):
            // Expected only inside a container: `frames` is not empty.
            guard expected == .commaOrClose else { return start }
            expected = frames[frames.count - 1].isObject ? .name : .value
        default:
            return start
        }
        let end = start + 1
        return end < bytes.count && bytes[end] == 0x20 ? end + 1 : end
    }

    /// Completes the token the previous chunk's end cut, from the start of
    /// `bytes`, and takes it. Returns where the chunk goes on after it; nil
    /// when the token runs on past this chunk too, or the lexer gave up.
    /// The token is lexed again from its first byte with a few more bytes
    /// each time (doubling), so a long one costs a few passes, not one a chunk.
    private func finishCarriedToken(_ bytes: Span<UInt8>) -> Int? {
        let carriedBefore = carried.count
        var taken = 0
        var piece = 64
        while true {
            let more = min(piece, bytes.count - taken)
            carried.append(bytes.extracting(taken..<taken + more))
            taken += more
            let end = carried.withBytes { tokenEnd($0, from: 0, atEnd: false) }
            if end == Self.needsMore {
                guard carried.count <= Self.longestCarriedToken else {
                    giveUp()
                    return nil
                }
                if taken == bytes.count { return nil }
                piece *= 2
                continue
            }
            guard end > 0, takeCarried(to: end) else {
                giveUp()
                return nil
            }
            carried.removeAll()
            return end - carriedBefore
        }
    }

    /// Takes the carried token, which ends at `end` in `carried`.
    private func takeCarried(to end: Int) -> Bool {
        ownTokenEnd = carriedStart + end
        return carried.withBytes { take($0, from: 0, to: end) }
    }

    /// After the last chunk: the token it cut ends with the input (a number)
    /// or was never finished.
    private func finishLastToken() {
        guard !gaveUp, !carried.isEmpty else { return }
        let end = carried.withBytes { tokenEnd($0, from: 0, atEnd: true) }
        if end != carried.count || !takeCarried(to: end) { giveUp() }
        carried.removeAll()
    }

    /// The own lexer's `finish`: the records, or `Lexer.GaveUp` for any
    /// input it did not take whole (an error it would have had to place among them).
    func finishOwn() throws -> RecordTable {
        if gaveUp { throw gaveUpError() }
        do {
            try byteOrderMark.finish { content, base in try parse(content, base: base) }
            fileLength = byteOrderMark.fileOffset
            finishLastToken()
            // A document's value was read (a value at the top other than
            // an array or object is one the lexer gave up on); NDJSON may hold none.
            guard !gaveUp, frames.isEmpty, expected == (layout == .lines ? .topValue : .end) else { try giveUpNow() }
            if case .nested = layout, !sawRecordsArray { try giveUpNow() }
            let fields = schema.finish()
            builder.setSchema(fields.names, valueCounts: fields.valueCounts)
            builder.setFieldsFound(fieldsFound)
            return try finishedTable()
        } catch is InputError {
            // A repeated id, say: yajl's reading says it, placed.
            try giveUpNow()
        }
    }

    private func giveUpNow() throws -> Never {
        giveUp()
        throw gaveUpError()
    }

    /// What reading throws once the lexer stopped: the budget's stop, if
    /// that was the cause, else `GaveUp`.
    func gaveUpError() -> any Error {
        budgetSpent ?? Lexer.GaveUp()
    }

    /// Stops the lexer for good. Unless the budget stopped it, yajl reads
    /// the input again and charges its records itself: this reading's
    /// charges are taken back.
    private func giveUp() {
        gaveUp = true
        failure = nil
        if budgetSpent == nil { builder.refundBudget() }
    }

    // MARK: Tokens

    /// Just past the token that starts at `start`; `needsMore` when `bytes`
    /// end inside it (unless `atEnd`, the input's end, where that refuses
    /// it); `refused` for anything the lexer leaves to yajl.
    private func tokenEnd(_ bytes: Span<UInt8>, from start: Int, atEnd: Bool) -> Int {
        switch bytes[start] {
        case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ","), UInt8(ascii: ":"):
            return start + 1
        case UInt8(ascii: "\""):
            return stringEnd(bytes, from: start, atEnd: atEnd)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return numberEnd(bytes, from: start, atEnd: atEnd).end
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            return literalEnd(bytes, from: start, atEnd: atEnd)
        default:
            return Self.refused
        }
    }

    /// Past `true`, `false` or `null`, whose first letter is at `start`.
    @inline(__always)
    private func literalEnd(_ bytes: Span<UInt8>, from start: Int, atEnd: Bool) -> Int {
        switch bytes[start] {
        case UInt8(ascii: "t"): wordEnd(bytes, from: start, atEnd: atEnd, rest: (0x65_75_72, 3))  // "rue", first letter lowest
        case UInt8(ascii: "f"): wordEnd(bytes, from: start, atEnd: atEnd, rest: (0x65_73_6C_61, 4))  // "alse"
        default: wordEnd(bytes, from: start, atEnd: atEnd, rest: (0x6C_6C_75, 3))  // "ull"
        }
    }

    /// Past the closing quote of the string that opens at `start`. Sets
    /// `stringHasEscape`. Refuses a control character, invalid UTF-8, an
    /// escape JSON does not have, an unpaired surrogate and `\u0000` (yajl
    /// writes that one its own way).
    @inline(__always)
    private func stringEnd(_ bytes: Span<UInt8>, from start: Int, atEnd: Bool) -> Int {
        let count = bytes.count
        var index = bytes.jsonStringStop(from: start + 1, upTo: count)
        stringHasEscape = false
        // The usual string: plain bytes up to its closing quote.
        if index < count && bytes[index] == 0x22 { return index + 1 }
        while true {
            guard index < count else { return atEnd ? Self.refused : Self.needsMore }
            let byte = bytes[index]
            let length: Int
            if byte == 0x22 {
                return index + 1
            } else if byte == 0x5C {
                stringHasEscape = true
                length = Self.escapeLength(bytes, at: index)
            } else if byte < 0x20 {
                return Self.refused
            } else {
                length = Self.utf8SequenceLength(bytes, at: index)
            }
            if length == Self.needsMore { return atEnd ? Self.refused : Self.needsMore }
            if length == Self.refused { return Self.refused }
            index = bytes.jsonStringStop(from: index + length, upTo: count)
        }
    }

    /// The length of the escape at `start` (its `\`): 2, 6, or 12 for a surrogate pair.
    private static func escapeLength(_ bytes: Span<UInt8>, at start: Int) -> Int {
        guard start + 1 < bytes.count else { return needsMore }
        switch bytes[start + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return 2
        case UInt8(ascii: "u"):
            guard start + 6 <= bytes.count else { return needsMore }
            guard let unit = hexUnit(bytes, at: start + 2), unit != 0, !(0xDC00...0xDFFF).contains(unit) else { return refused }
            guard (0xD800...0xDBFF).contains(unit) else { return 6 }
            guard start + 12 <= bytes.count else { return needsMore }
            guard bytes[start + 6] == UInt8(ascii: "\\"), bytes[start + 7] == UInt8(ascii: "u"),
                  let low = hexUnit(bytes, at: start + 8), (0xDC00...0xDFFF).contains(low) else { return refused }
            return 12
        default:
            return refused
        }
    }

    /// The four hex digits at `start` as a number.
    private static func hexUnit(_ bytes: Span<UInt8>, at start: Int) -> UInt32? {
        var unit: UInt32 = 0
        for index in start..<start + 4 {
            guard let digit = JSONTextScanner.hexDigit(bytes[index]) else { return nil }
            unit = unit << 4 | digit
        }
        return unit
    }

    /// The length of the well-formed UTF-8 sequence at `start` (as strict as `JSONTextScanner`).
    private static func utf8SequenceLength(_ bytes: Span<UInt8>, at start: Int) -> Int {
        var validator = UTF8Validator()
        var index = start
        repeat {
            guard index < bytes.count else { return needsMore }
            guard validator.accept(bytes[index]) else { return refused }
            index += 1
        } while !validator.isComplete
        return index - start
    }

    /// Past the number at `start`, as yajl's lexer reads one: `-`, then `0`
    /// or digits not starting with 0, then a fraction, then an exponent. A
    /// number ends at the first byte that cannot go on, so one the bytes end
    /// in needs more unless the input ends there.
    ///
    /// `canonicalInteger`: the number is an integer `CanonicalNumber.literalForm`
    /// calls canonical (not `-0`; 20 digits or fewer, or not ending in 0),
    /// so its hash and an id's text need no second look at its digits.
    private func numberEnd(_ bytes: Span<UInt8>, from start: Int, atEnd: Bool) -> (end: Int, canonicalInteger: Bool) {
        let count = bytes.count
        let short = (end: atEnd ? Self.refused : Self.needsMore, canonicalInteger: false)
        let refused = (end: Self.refused, canonicalInteger: false)
        var index = start
        @inline(__always) func isDigit(_ index: Int) -> Bool { bytes[index] &- UInt8(ascii: "0") < 10 }
        /// Reads one or more digits; false when there is none.
        @inline(__always) func digits() -> Bool {
            guard isDigit(index) else { return false }
            index += 1
            while index < count && isDigit(index) { index += 1 }
            return true
        }
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative {
            index += 1
            guard index < count else { return short }
        }
        let integerStart = index
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if !digits() {
            return refused
        }
        /// Where the number ends after its integer part, and whether it is canonical.
        @inline(__always) func integer() -> (end: Int, canonicalInteger: Bool) {
            let length = index - integerStart
            let canonical = length == 1 && bytes[integerStart] == UInt8(ascii: "0")
                ? !negative : length <= 20 || bytes[index - 1] != UInt8(ascii: "0")
            return (index, canonical)
        }
        guard index < count else { return atEnd ? integer() : short }
        let isFraction = bytes[index] == UInt8(ascii: ".")
        guard isFraction || bytes[index] | 0x20 == UInt8(ascii: "e") else { return integer() }
        if isFraction {
            index += 1
            guard index < count else { return short }
            guard digits() else { return refused }
            guard index < count else { return atEnd ? (index, false) : short }
        }
        if bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            guard index < count else { return short }
            if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
                guard index < count else { return short }
            }
            guard digits() else { return refused }
            guard index < count else { return atEnd ? (index, false) : short }
        }
        return (index, false)
    }

    /// Past `true`, `null` or `false`, whose first letter is at `start` and
    /// the others `rest`, packed in a number (no array to allocate a literal).
    private func wordEnd(_ bytes: Span<UInt8>, from start: Int, atEnd: Bool, rest: (packed: UInt32, count: Int)) -> Int {
        for offset in 0..<rest.count {
            let index = start + 1 + offset
            guard index < bytes.count else { return atEnd ? Self.refused : Self.needsMore }
            guard bytes[index] == UInt8(truncatingIfNeeded: rest.packed >> (8 * offset)) else { return Self.refused }
        }
        return start + 1 + rest.count
    }

    // MARK: Grammar and handlers

    private var takesValue: Bool { expected == .value || expected == .valueOrClose || expected == .topValue }

    /// A value ended: what may follow it.
    @inline(__always)
    private func valueEnded() {
        expected = frames.isEmpty ? (layout == .lines ? .topValue : .end) : .commaOrClose
    }

    /// Checks that the token `bytes[start..<end]` may stand where it is and
    /// calls its handler, as yajl would. False to give up. (`ownTokenEnd`
    /// says where the token ends in the input.)
    private func take(_ bytes: Span<UInt8>, from start: Int, to end: Int) -> Bool {
        let first = bytes[start]
        switch first {
        case UInt8(ascii: "\""): return takeString(bytes.extracting(start + 1..<end - 1))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return takeNumber(bytes.extracting(start..<end), canonicalInteger: false)
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): return takeLiteral(first)
        default: return false  // one-byte tokens are never carried
        }
    }

    /// Takes `true`, `false` or `null`, named by its first letter.
    private func takeLiteral(_ first: UInt8) -> Bool {
        guard takesValue else { return false }
        let handled = switch first {
        case UInt8(ascii: "t"): scalar(.trueValue, hasher.boolean(true), literal: Span())
        case UInt8(ascii: "f"): scalar(.falseValue, hasher.boolean(false), literal: Span())
        default: scalar(.null, hasher.null(), literal: Span())
        }
        guard handled != 0 else { return false }
        valueEnded()
        return true
    }

    /// A string, as a member name or a value.
    @inline(__always)
    private func takeString(_ content: Span<UInt8>) -> Bool {
        let handled: Int32
        if expected == .name || expected == .nameOrClose {
            if stringHasEscape {
                decodeEscapes(content)
                handled = decoded.withBytes { memberName($0) }
            } else {
                handled = memberName(content)
            }
            expected = .colon
        } else {
            guard takesValue else { return false }
            if stringHasEscape {
                decodeEscapes(content)
                handled = decoded.withBytes { scalar(.string, hasher.string($0), literal: $0) }
            } else {
                handled = scalar(.string, hasher.string(content), literal: content)
            }
            valueEnded()
        }
        return handled != 0
    }

    @inline(__always)
    private func takeNumber(_ literal: Span<UInt8>, canonicalInteger: Bool) -> Bool {
        guard takesValue,
              scalar(.number, hasher.number(literal, isCanonical: canonicalInteger), literal: literal, isCanonical: canonicalInteger) != 0
        else { return false }
        valueEnded()
        return true
    }

    private func takeOpening(isObject: Bool) -> Bool {
        guard takesValue, openContainer(isObject: isObject) != 0 else { return false }
        expected = isObject ? .nameOrClose : .valueOrClose
        return true
    }

    private func takeClosing(isObject: Bool) -> Bool {
        guard !frames.isEmpty, frames[frames.count - 1].isObject == isObject,
              expected == .commaOrClose || expected == (isObject ? .nameOrClose : .valueOrClose),
              closeContainer() != 0 else { return false }
        valueEnded()
        return true
    }

    /// A string's text with its escapes decoded as yajl decodes them, in
    /// `decoded` (`stringEnd` checked the escapes, the digits and the pairing).
    private func decodeEscapes(_ content: Span<UInt8>) {
        decoded.removeAll()
        var index = 0
        while index < content.count {
            let byte = content[index]
            guard byte == UInt8(ascii: "\\") else {
                decoded.append(byte)
                index += 1
                continue
            }
            switch content[index + 1] {
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "u"):
                let unit = Self.hexUnit(content, at: index + 2)!
                if (0xD800...0xDBFF).contains(unit) {
                    let low = Self.hexUnit(content, at: index + 8)!
                    appendUTF8(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                    index += 12
                } else {
                    appendUTF8(unit)
                    index += 6
                }
                continue
            default: decoded.append(content[index + 1])  // `"`, `\`, `/`
            }
            index += 2
        }
    }

    /// Appends a code point (not a surrogate, at most U+10FFFF) as UTF-8.
    private func appendUTF8(_ scalar: UInt32) {
        for unit in Unicode.Scalar(scalar)!.utf8 { decoded.append(unit) }
    }
}
