/// What a reader needs, beside what it counts already, to tell its input's
/// `FileLayout`, taken from the chunks it is fed (no second pass over the
/// file): the carriage returns (found with `memchr`, so a file without any
/// costs next to nothing) and which of them a line feed follows, and the
/// last byte. The line feeds are the reader's own line count less the
/// carriage returns: every line break is an LF, a CRLF or a CR alone, and
/// the readers count each as one.
struct FileLayoutScanner {
    private var carriageReturns = 0
    private var carriageReturnLineFeeds = 0
    /// The last chunk ended with a CR: the next chunk's first byte says whether it was a CRLF.
    private var endsAfterCarriageReturn = false
    private var lastByte: UInt8?

    init() {}

    mutating func observe(_ chunk: Span<UInt8>) {
        guard !chunk.isEmpty else { return }
        if endsAfterCarriageReturn && chunk[0] == 0x0A { carriageReturnLineFeeds += 1 }
        endsAfterCarriageReturn = false
        var from = 0
        while let found = chunk.firstIndex(of: 0x0D, from: from) {
            carriageReturns += 1
            if found + 1 == chunk.count {
                endsAfterCarriageReturn = true
            } else if chunk[found + 1] == 0x0A {
                carriageReturnLineFeeds += 1
            }
            from = found + 1
        }
        lastByte = chunk[chunk.count - 1]
    }

    /// The layout, given the reader's count of line breaks (a CRLF is one),
    /// whether a byte order mark came first, and a CSV header's names.
    func layout(lineBreaks: Int, byteOrderMark: Bool, columns: [String]?) -> FileLayout {
        let lineEndings = LineEndings(lf: max(0, lineBreaks - carriageReturns), crlf: carriageReturnLineFeeds,
                                      cr: carriageReturns - carriageReturnLineFeeds)
        return FileLayout(lineEndings: lineEndings, byteOrderMark: byteOrderMark,
                          finalNewline: lastByte == 0x0A || lastByte == 0x0D, columns: columns)
    }
}
