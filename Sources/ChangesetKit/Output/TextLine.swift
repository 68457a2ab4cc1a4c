/// One change's text for the `text` format, built as UTF-8 bytes and made a
/// String once.
///
/// Values are written as JSON straight into the line and shown by
/// `ReportValueText`'s rules (invisible characters escaped, long values cut)
/// checked on those bytes: when a value is printable ASCII (the usual case)
/// each byte is one character that needs no escape, so the rules come down
/// to its length, and the value never becomes a String. Anything else (a
/// control character, DEL, any non-ASCII byte) goes through `ReportValueText`
/// itself, so the two ways always agree. A value is never turned into a
/// String to be checked and back into bytes to be written (see "Why the code
/// is as it is" in docs/performance.md).
struct TextLine {
    let color: Bool
    private(set) var bytes: [UInt8] = []

    init(color: Bool) {
        self.color = color
        bytes.reserveCapacity(256)
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func add(_ literal: StaticString) {
        String.withBytes(of: literal) { bytes.append($0) }
    }

    mutating func add(_ text: String) {
        text.withBytes { bytes.append($0) }
    }

    /// A label, coloured when colour is on.
    mutating func add(_ label: StaticString, _ paint: TextFormatter.Paint) {
        if color { add(paint.code) }
        add(label)
        if color { add("\u{1B}[0m") }
    }

    /// A number in decimal.
    mutating func add(_ number: Int) { bytes.appendDecimal(number) }

    /// `text` as `ReportValueText.visible` shows it.
    mutating func addVisible(_ text: String) {
        let plain = text.withBytes { utf8 in
            guard TextLine.isPrintableASCII(utf8) else { return false }
            bytes.append(utf8)
            return true
        }
        if !plain { add(ReportValueText.visible(text)) }
    }

    /// A whole value (a deleted or inserted record), as
    /// `ReportValueText.cut(ReportValueText.value(value), width:)` shows it.
    mutating func addValue(_ value: Value, width: Int) {
        let start = bytes.count
        value.writeJSON(into: &bytes)
        cutValue(from: start, width: width)
    }

    /// A change's whole record, as `addValue` shows it, from the record's
    /// JSON text (`Change.recordJSON`) where the change holds that.
    mutating func addRecord(of change: Change, width: Int) {
        let start = bytes.count
        change.appendRecordJSON(to: &bytes)
        cutValue(from: start, width: width)
    }

    /// The JSON text from `start` to the end, shown by `ReportValueText`'s
    /// rules for a whole value: escaped where it is not printable ASCII, cut
    /// to `width`.
    private mutating func cutValue(from start: Int, width: Int) {
        let shown = bytes.count - start
        let limit = width > 0 ? max(width, ReportValueText.minimumWidth) : 0
        if isPrintableASCII(from: start, count: shown) {
            guard limit > 0, shown > limit else { return }
            bytes.removeLast(shown - (limit - 1))
            add("…")
        } else {
            let text = ReportValueText.shownText(bytes.span.extracting(start..<bytes.count), width: width)
            bytes.removeLast(shown)
            add(text)
        }
    }

    /// A field's two versions, `old -> new`, as
    /// `ReportValueText.cutAround(ReportValueText.value(old), ReportValueText.value(new), width:)` shows them.
    mutating func addValues(_ old: Value?, _ new: Value?, width: Int) {
        let start = bytes.count
        addJSON(old)
        let oldEnd = bytes.count
        add(" -> ")
        let newStart = bytes.count
        addJSON(new)
        let limit = width > 0 ? max(width, ReportValueText.minimumWidth) : Int.max
        // Printable ASCII no longer than the width: shown as written.
        if oldEnd - start <= limit, bytes.count - newStart <= limit,
           isPrintableASCII(from: start, count: oldEnd - start), isPrintableASCII(from: newStart, count: bytes.count - newStart) {
            return
        }
        let (shownOld, shownNew) = ReportValueText.shownPair(
            bytes.span.extracting(start..<oldEnd), bytes.span.extracting(newStart..<bytes.count), width: width)
        bytes.removeLast(bytes.count - start)
        add(shownOld)
        add(" -> ")
        add(shownNew)
    }

    /// A value's JSON text, or `(absent)` (as `ReportValueText.value` has it).
    private mutating func addJSON(_ value: Value?) {
        guard let value else { return add("(absent)") }
        value.writeJSON(into: &bytes)
    }

    private func isPrintableASCII(from start: Int, count: Int) -> Bool {
        TextLine.isPrintableASCII(bytes.span.extracting(start..<(start + count)))
    }

    /// Every byte a character a reader sees as it is: space to `~`.
    static func isPrintableASCII(_ bytes: Span<UInt8>) -> Bool {
        // Eight bytes at a time: a byte is outside 0x20...0x7E when adding
        // 0x01 sets its high bit (0x7F and up) or it is below 0x20.
        let count = bytes.count
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var printable = true
        var index = bytes.forEachWord(from: 0, upTo: count) { word, _ in
            // High bit set in the input, or (word + 0x01) sets it (0x7F), or (word - 0x20) borrows (below 0x20).
            printable = (word | (word &+ ones) | (word &- ones &* 0x20)) & highs == 0
            return printable
        }
        guard printable else { return false }
        while index < count {
            let byte = bytes[index]
            if byte < 0x20 || byte > 0x7E { return false }
            index += 1
        }
        return true
    }
}

extension [UInt8] {
    /// `number` in decimal, as `String(number)` writes it, without the String.
    mutating func appendDecimal(_ number: Int) {
        if number < 0 { append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        var digits = InlineArray<20, UInt8>(repeating: 0)  // filled from the end
        var count = 0
        repeat {
            count += 1
            digits[20 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        for index in (20 - count)..<20 { append(digits[index]) }
    }
}
