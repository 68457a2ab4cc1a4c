import Foundation

/// The input formats, named as `--format`-like words in messages and docs.
public enum InputFormat: String, Sendable, CaseIterable {
    case json, ndjson, csv, tsv

    /// The format an extension names, if any.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "json": self = .json
        case "ndjson", "jsonl": self = .ndjson
        case "csv": self = .csv
        case "tsv", "tab": self = .tsv
        default: return nil
        }
    }

    public var isJSON: Bool { self == .json || self == .ndjson }
}

/// An input's bytes, for the whole run, so changed records can be read again
/// by byte range: a regular file, read in chunks and again with `pread`
/// (never mapped: a file truncated under a mapping would crash the process),
/// or bytes held in memory (standard input, which cannot be read twice).
/// A gzip or zstd input is decompressed, as a stream, into an unlinked
/// temporary file, which is then read like any file (see `Decompression`).
public final class InputBytes: @unchecked Sendable {
    private enum Storage {
        case memory(UnsafeMutableRawBufferPointer, count: Int)
        case file(descriptor: Int32, path: String, size: Int, modified: timespec)
    }

    private let storage: Storage

    private init(_ storage: Storage) {
        self.storage = storage
    }

    deinit {
        switch storage {
        case .memory(let buffer, _): buffer.deallocate()
        case .file(let descriptor, _, _, _): close(descriptor)
        }
    }

    public convenience init(copying bytes: [UInt8]) {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
        bytes.withUnsafeBytes { storage.copyMemory(from: $0) }
        self.init(.memory(storage, count: bytes.count))
    }

    /// The number of bytes.
    public var count: Int {
        switch storage {
        case .memory(_, let count): count
        case .file(_, _, let size, _): size
        }
    }

    /// A copy of the bytes in `range`. Throws when a file no longer has them.
    public func copy(_ range: Range<Int>) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: range.count)
        try bytes.withUnsafeMutableBytes { try read(range.lowerBound, into: $0) }
        return bytes
    }

    /// Runs `body` on the bytes in `range`, read into temporary space: the
    /// report reads every changed record again, and an Array for each
    /// (zeroed before it is filled) cost more than the read. (Not
    /// `withUnsafeTemporaryAllocation`: for a size known only at run time it
    /// asks, each time, whether the stack has room, which cost more still.)
    /// Throws when a file no longer has them.
    package func withBytes<Result>(in range: Range<Int>, _ body: (UnsafeRawBufferPointer) throws -> Result) throws -> Result {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: range.count, alignment: 8)
        defer { buffer.deallocate() }
        try read(range.lowerBound, into: buffer)
        return try body(UnsafeRawBufferPointer(buffer))
    }

    /// Fills `buffer` with the bytes from `offset` on.
    private func read(_ offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws {
        switch storage {
        case .memory(let memory, _):
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: memory[offset..<(offset + buffer.count)]))
        case .file(let descriptor, let path, _, _):
            var done = 0
            while done < buffer.count {
                let got = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
                if got < 0 && errno == EINTR { continue }
                if got < 0 { throw InputFile.systemError(path, "cannot read") }
                guard got > 0 else { throw InputFile.changed(path) }
                done += got
            }
        }
    }

    /// Hands the bytes to `feed` in order, in chunks of `standardSize` (8 MiB);
    /// `wantsMore` asks for a bigger next chunk (doubling) while a token longer
    /// than a chunk runs on, so a huge token is never re-read more than a few
    /// times. The buffer is one chunk: memory stays flat however big the file.
    func forEachChunk(
        _ feed: (UnsafeRawBufferPointer) throws -> Void, standardSize: Int = 8 << 20, wantsMore: () -> Bool = { false }
    ) throws {
        switch storage {
        case .memory(let memory, let count):
            try feed(UnsafeRawBufferPointer(rebasing: memory[0..<count]))
        case .file(let descriptor, let path, let size, let modified):
            let standard = standardSize
            var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: min(size, standard), alignment: 8)
            defer { buffer.deallocate() }
            var offset = 0
            var chunk = standard
            while offset < size {
                let length = min(chunk, size - offset)
                // Bigger for a long token; back to one standard chunk after it.
                if length > buffer.count || (buffer.count > standard && length <= standard) {
                    buffer.deallocate()
                    buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: length, alignment: 8)
                }
                let piece = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<length])
                try read(offset, into: piece)
                try feed(UnsafeRawBufferPointer(piece))
                offset += length
                chunk = wantsMore() ? chunk * 2 : standard
            }
            // A file that grew, shrank or was rewritten while it was read gives no trustworthy result.
            var status = stat()
            if fstat(descriptor, &status) != 0 || Int(status.st_size) != size
                || status.st_mtim.tv_sec != modified.tv_sec || status.st_mtim.tv_nsec != modified.tv_nsec {
                throw InputFile.changed(path)
            }
        }
    }

    /// The bytes of `path`, `-` being standard input: what `open` gives, for
    /// any file; decompressed when `.gz`/`.zst` or the first bytes say so.
    public static func contents(of path: String) throws -> InputBytes {
        path == "-"
            ? try readStream(FileHandle.standardInput.fileDescriptor, name: InputFile.standardInputName, compression: nil)
            : try open(path)
    }

    /// Opens a file for reading in chunks; a pipe or device is read through
    /// into memory. A compressed file is decompressed first: its extension
    /// (`.gz`, `.zst`) decides, else its first bytes.
    static func open(_ path: String) throws -> InputBytes {
        let descriptor = Foundation.open(path, O_RDONLY)
        guard descriptor >= 0 else { throw InputFile.systemError(path, "cannot open") }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            close(descriptor)
            throw InputFile.systemError(path, "cannot read")
        }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw InputError(source: path, location: nil, message: "is a directory, not a file")
        }
        let named = InputCompression(pathExtension: (path as NSString).pathExtension)
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            defer { close(descriptor) }
            return try readStream(descriptor, name: path, compression: named)
        }
        var compression = named
        if compression == nil {
            var start = [UInt8](repeating: 0, count: InputCompression.longestSignature)
            let got = start.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, $0.count, 0) }
            if got < 0 {
                close(descriptor)
                throw InputFile.systemError(path, "cannot read")
            }
            compression = InputCompression(signature: start.prefix(got))
        }
        guard let compression else {
            return InputBytes(.file(descriptor: descriptor, path: path, size: Int(status.st_size), modified: status.st_mtim))
        }
        defer { close(descriptor) }
        let bytes = try decompressed(compression, from: descriptor, prefix: [], name: path)
        // As for a plain file: data rewritten while it was read gives no trustworthy result.
        var after = stat()
        if fstat(descriptor, &after) != 0 || after.st_size != status.st_size
            || after.st_mtim.tv_sec != status.st_mtim.tv_sec || after.st_mtim.tv_nsec != status.st_mtim.tv_nsec {
            throw InputFile.changed(path)
        }
        return bytes
    }

    /// Standard input, a pipe or a device, read once: decompressed when
    /// `compression` (from the name) or the first bytes say so, else held in memory.
    static func readStream(_ descriptor: Int32, name: String, compression named: InputCompression?) throws -> InputBytes {
        if let named { return try decompressed(named, from: descriptor, prefix: [], name: name) }
        var start: [UInt8] = []
        var byte: UInt8 = 0
        // A pipe may deliver the signature a byte at a time.
        while start.count < InputCompression.longestSignature {
            let got = Foundation.read(descriptor, &byte, 1)
            if got < 0 && errno == EINTR { continue }
            if got < 0 { throw InputFile.systemError(name, "cannot read") }
            if got == 0 { break }
            start.append(byte)
            if !InputCompression.allCases.contains(where: { $0.signature.starts(with: start) }) { break }
        }
        if let compression = InputCompression(signature: start) {
            return try decompressed(compression, from: descriptor, prefix: start, name: name)
        }
        return try readAll(descriptor, prefix: start, name: name)
    }

    /// The decompressed bytes, in an unlinked temporary file read like any file;
    /// messages name the input as the user did.
    private static func decompressed(
        _ compression: InputCompression, from descriptor: Int32, prefix: [UInt8], name: String
    ) throws -> InputBytes {
        let file = try Decompression.toTemporaryFile(compression, from: descriptor, prefix: prefix, source: name)
        var status = stat()
        guard fstat(file, &status) == 0 else {
            close(file)
            throw InputFile.systemError(name, "cannot read the decompressed data")
        }
        return InputBytes(.file(descriptor: file, path: name, size: Int(status.st_size), modified: status.st_mtim))
    }

    /// Everything `descriptor` holds after `prefix` (bytes already read from it), in memory.
    static func readAll(_ descriptor: Int32, prefix: [UInt8] = [], name: String) throws -> InputBytes {
        var storage = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 8)
        prefix.withUnsafeBytes { storage.copyMemory(from: $0) }
        var count = prefix.count
        while true {
            if count == storage.count {
                let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: storage.count * 2, alignment: 8)
                larger.copyMemory(from: UnsafeRawBufferPointer(storage))
                storage.deallocate()
                storage = larger
            }
            let got = Foundation.read(descriptor, storage.baseAddress! + count, storage.count - count)
            if got < 0 {
                if errno == EINTR { continue }
                storage.deallocate()
                throw InputFile.systemError(name, "cannot read")
            }
            if got == 0 { break }
            count += got
        }
        return InputBytes(.memory(storage, count: count))
    }
}

/// One side of the comparison: a named input, its bytes and its format.
public struct InputFile: Sendable {
    /// The name as the user gave it; `<stdin>` for `-`.
    public let name: String
    public let bytes: InputBytes
    public let format: InputFormat

    public static let standardInputName = "<stdin>"

    /// Opens `path` (`-` for standard input), decompressing a gzip or zstd
    /// input, and settles its format: the one given, else the extension's
    /// (the one under `.gz`/`.zst`: `x.csv.gz` is CSV), else a look at the
    /// (decompressed) content.
    public static func open(_ path: String, format: InputFormat? = nil, recordsAt: FieldPath? = nil) throws -> InputFile {
        let name = path == "-" ? standardInputName : path
        let bytes = try InputBytes.contents(of: path)
        var fileFormat = format ?? (path == "-" ? nil : formatOfName(path))
        if fileFormat == nil {
            let start = try bytes.copy(0..<min(bytes.count, 1 << 16))
            fileFormat = start.withUnsafeBytes { sniff($0, recordsAt: recordsAt) }
        }
        return InputFile(name: name, bytes: bytes, format: fileFormat!)
    }

    /// The format a file name gives: its extension's, or, under a compression
    /// extension, the one before it.
    static func formatOfName(_ path: String) -> InputFormat? {
        var name = (path as NSString).lastPathComponent as NSString
        if InputCompression(pathExtension: name.pathExtension) != nil { name = name.deletingPathExtension as NSString }
        return InputFormat(pathExtension: name.pathExtension)
    }

    /// An input held in memory (tests, and callers that have the bytes already).
    public init(name: String, bytes: InputBytes, format: InputFormat) {
        self.name = name
        self.bytes = bytes
        self.format = format
    }

    /// The format a look at the content suggests: `[` is a JSON array, `{` is
    /// NDJSON (or, with `--records-at`, a JSON document); anything else is
    /// CSV, or TSV when the first line has tabs and no commas.
    public static func sniff(_ bytes: UnsafeRawBufferPointer, recordsAt: FieldPath?) -> InputFormat {
        var index = bytes.starts(with: byteOrderMark) ? 3 : 0
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        guard index < bytes.count else { return .json }
        switch bytes[index] {
        case UInt8(ascii: "["): return .json
        case UInt8(ascii: "{"): return recordsAt == nil ? .ndjson : .json
        default:
            let firstLine = bytes[index...].prefix { $0 != 0x0A && $0 != 0x0D }
            let hasTab = firstLine.contains(0x09)
            let hasComma = firstLine.contains(UInt8(ascii: ","))
            return hasTab && !hasComma ? .tsv : .csv
        }
    }

    /// Reads the records, with the options given. The format decides the reader.
    public func readRecords(_ options: RecordOptions, delimiter: UInt8? = nil) throws -> RecordTable {
        switch format {
        case .json, .ndjson:
            let layout: JSONLayout
            if format == .ndjson {
                if options.recordsAt != nil {
                    throw InputError(source: name, location: nil, message: "--records-at needs a JSON document, but this input is NDJSON")
                }
                layout = .lines
            } else {
                layout = options.recordsAt.map { .nested($0) } ?? .array
            }
            let reader = JSONRecordReader(source: name, layout: layout, options: options)
            reader.expectedInputSize = bytes.count
            try bytes.forEachChunk(reader.feed, wantsMore: { reader.endsInsideLongToken })
            return try reader.finish()
        case .csv, .tsv:
            let reader = CSVRecordReader(
                source: name, delimiter: delimiter ?? (format == .tsv ? 0x09 : UInt8(ascii: ",")), options: options)
            reader.expectedInputSize = bytes.count
            try bytes.forEachChunk(reader.feed)
            return try reader.finish()
        }
    }

    // MARK: Errors

    static func systemError(_ name: String, _ what: String) -> InputError {
        InputError(source: name, location: nil, message: "\(what): \(String(cString: strerror(errno)))")
    }

    static func changed(_ name: String) -> InputError {
        InputError(source: name, location: nil, message: "the file changed while changeset was reading it; nothing was compared")
    }
}
