/// Drops a UTF-8 byte order mark at the very start of an input, however the
/// input is cut into chunks, and passes every other byte on with its offset
/// in the file (so byte ranges still address the file itself).
struct ByteOrderMarkFilter {
    private var prefix: [UInt8] = []
    private var decided = false
    /// File offset of the next byte handed to `process`.
    private(set) var fileOffset = 0
    /// Where the content starts: 3 after a byte order mark, else 0.
    private(set) var contentStart = 0

    init() {}

    /// A filter for a part of a file that starts at `offset` (see
    /// `InputFile.readRecordsInParts`): a byte order mark stands
    /// only at a file's start, so every byte is content.
    init(partStartingAt offset: Int) {
        decided = true
        fileOffset = offset
    }

    /// Calls `emit(bytes, fileOffsetOfFirstByte)` for the content in `chunk`.
    mutating func process(
        _ chunk: Span<UInt8>, emit: (Span<UInt8>, Int) throws -> Void
    ) throws {
        defer { fileOffset += chunk.count }
        if decided {
            try emit(chunk, fileOffset)
            return
        }
        var used = 0
        while prefix.count < 3 && used < chunk.count && chunk[used] == byteOrderMark[prefix.count] {
            prefix.append(chunk[used])
            used += 1
        }
        if prefix.count == 3 {
            decided = true
            contentStart = 3
            try emit(chunk.extracting(used..<chunk.count), fileOffset + used)
        } else if used < chunk.count {
            // Not a byte order mark after all: hand the held bytes on first.
            decided = true
            let held = prefix
            try emit(held.span, 0)
            try emit(chunk.extracting(used..<chunk.count), fileOffset + used)
        }
    }

    /// End of input: bytes held while deciding are content after all.
    mutating func finish(emit: (Span<UInt8>, Int) throws -> Void) throws {
        guard !decided else { return }
        decided = true
        let held = prefix
        if !held.isEmpty { try emit(held.span, 0) }
    }
}
