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

/// An input's bytes, held for the whole run so changed records can be read
/// again by byte range: a read-only mapping of a regular file, or the bytes
/// of standard input (which cannot be read twice).
public final class InputBytes: @unchecked Sendable {
    public let buffer: UnsafeRawBufferPointer
    private let release: () -> Void

    /// A mapped file's pages can be dropped once read, and records read again
    /// come through `pread`, not the mapping: memory then grows with the
    /// number of records, not the size of the file.
    let isMapped: Bool
    /// The mapped file, open for `pread`; -1 for bytes held in memory.
    private let descriptor: Int32

    init(buffer: UnsafeRawBufferPointer, isMapped: Bool = false, descriptor: Int32 = -1, release: @escaping () -> Void) {
        self.buffer = buffer
        self.isMapped = isMapped
        self.descriptor = descriptor
        self.release = release
    }

    /// A copy of the bytes in `range`, read without touching the mapping.
    public func copy(_ range: Range<Int>) -> [UInt8] {
        guard descriptor >= 0 else { return Array(slice(range)) }
        var bytes = [UInt8](repeating: 0, count: range.count)
        var done = 0
        while done < range.count {
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, range.count - done, off_t(range.lowerBound + done)) }
            if got < 0 && errno == EINTR { continue }
            // A file that shrank since it was read: keep what the mapping had (see below).
            guard got > 0 else { return Array(slice(range)) }
            done += got
        }
        return bytes
    }

    /// For a reader's `consumed`: drops the pages before an offset, 16 MiB at a time.
    func releaser() -> ((Int) -> Void)? {
        guard isMapped, let base = buffer.baseAddress else { return nil }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        var released = 0
        return { offset in
            let end = offset / page * page
            guard end - released >= 16 << 20 else { return }
            _ = madvise(UnsafeMutableRawPointer(mutating: base + released), end - released, MADV_DONTNEED)
            released = end
        }
    }

    deinit { release() }

    public convenience init(copying bytes: [UInt8]) {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
        bytes.withUnsafeBytes { storage.copyMemory(from: $0) }
        self.init(buffer: UnsafeRawBufferPointer(rebasing: storage[0..<bytes.count])) { storage.deallocate() }
    }

    public func slice(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: buffer[range])
    }
}

/// One side of the comparison: a named input, its bytes and its format.
public struct InputFile: Sendable {
    /// The name as the user gave it; `<stdin>` for `-`.
    public let name: String
    public let bytes: InputBytes
    public let format: InputFormat

    public static let standardInputName = "<stdin>"

    /// Opens `path` (`-` for standard input) and settles its format: the one
    /// given, else the extension's, else a look at the content.
    public static func open(_ path: String, format: InputFormat? = nil, recordsAt: FieldPath? = nil) throws -> InputFile {
        let name = path == "-" ? standardInputName : path
        let bytes = try path == "-" ? readAll(FileHandle.standardInput.fileDescriptor, name: name) : load(path)
        let fileFormat = format
            ?? (path == "-" ? nil : InputFormat(pathExtension: (path as NSString).pathExtension))
            ?? sniff(bytes.buffer, recordsAt: recordsAt)
        return InputFile(name: name, bytes: bytes, format: fileFormat)
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
            reader.consumed = bytes.releaser()
            reader.expectedInputSize = bytes.buffer.count
            try reader.feed(bytes.buffer)
            return try reader.finish()
        case .csv, .tsv:
            let reader = CSVRecordReader(
                source: name, delimiter: delimiter ?? (format == .tsv ? 0x09 : UInt8(ascii: ",")), options: options)
            reader.consumed = bytes.releaser()
            reader.expectedInputSize = bytes.buffer.count
            try reader.feed(bytes.buffer)
            return try reader.finish()
        }
    }

    // MARK: Reading files

    private static func systemError(_ name: String, _ what: String) -> InputError {
        InputError(source: name, location: nil, message: "\(what): \(String(cString: strerror(errno)))")
    }

    private static func load(_ path: String) throws -> InputBytes {
        let descriptor = Foundation.open(path, O_RDONLY)
        guard descriptor >= 0 else { throw systemError(path, "cannot open") }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            close(descriptor)
            throw systemError(path, "cannot read")
        }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw InputError(source: path, location: nil, message: "is a directory, not a file")
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            // A pipe or device: read it through.
            defer { close(descriptor) }
            return try readAll(descriptor, name: path)
        }
        let size = Int(status.st_size)
        guard size > 0 else {
            close(descriptor)
            return InputBytes(copying: [])
        }
        // A mapping, not a copy: pages are read on demand and can be dropped again.
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), base != MAP_FAILED else {
            close(descriptor)
            throw systemError(path, "cannot map")
        }
        _ = madvise(base, size, MADV_SEQUENTIAL)
        return InputBytes(buffer: UnsafeRawBufferPointer(start: base, count: size), isMapped: true, descriptor: descriptor) {
            _ = munmap(base, size)
            close(descriptor)
        }
    }

    private static func readAll(_ descriptor: Int32, name: String) throws -> InputBytes {
        var storage = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 8)
        var count = 0
        while true {
            if count == storage.count {
                let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: storage.count * 2, alignment: 8)
                larger.copyMemory(from: UnsafeRawBufferPointer(storage))
                storage.deallocate()
                storage = larger
            }
            let got = read(descriptor, storage.baseAddress! + count, storage.count - count)
            if got < 0 {
                if errno == EINTR { continue }
                storage.deallocate()
                throw systemError(name, "cannot read")
            }
            if got == 0 { break }
            count += got
        }
        let kept = storage
        return InputBytes(buffer: UnsafeRawBufferPointer(rebasing: kept[0..<count])) { kept.deallocate() }
    }
}
