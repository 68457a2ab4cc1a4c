import Foundation
internal import CSQLite

// Unsafe code here: a file is read with the system's calls (pread) into
// memory allocated here, and the readers borrow it chunk by chunk as spans;
// a stream is copied to a temporary file as it passes; `InputBytes` is
// shared by threads that only read it (`@unchecked Sendable`). The stream
// and its temporary copy are nested here, inside the one file that may hold
// raw buffers, as private parts of `InputBytes`. An SQLite table is read
// into such a buffer too (`SQLiteConnection`, at the end): libsqlite3 hands
// its rows over through a handle and C pointers, each cell copied into a
// Swift value before the next step of the statement frees it.

/// An input's bytes, for the whole run, so changed records can be read again
/// by byte range: a regular file, read in chunks and again with `pread`
/// (never mapped: a file truncated under a mapping would crash the process),
/// or bytes held in memory (tests, and callers that have them already).
/// Standard input, a pipe, a device and a gzip or zstd input are a stream:
/// read once, as the reader asks for them, so invalid bytes stop the run as
/// soon as they arrive (`/dev/zero` fails at its first byte, a gzip bomb at
/// its first megabyte), and copied as they go by into an unlinked temporary
/// file, which is then read again like any file. Memory stays a chunk,
/// whatever the stream's length.
package final class InputBytes: @unchecked Sendable {
    private enum Storage {
        case memory(UnsafeMutableRawBufferPointer, count: Int)
        case file(descriptor: Int32, path: String, size: Int, modified: timespec)
        case stream(DescriptorStream)
    }

    // Changes once, from `.stream` to `.file`, when the one pass over a
    // stream ends; that pass comes before any read by range (the readers
    // read an input whole before anything reads it again), on one thread.
    private var storage: Storage

    private init(_ storage: Storage) {
        self.storage = storage
    }

    deinit {
        switch storage {
        case .memory(let buffer, _): buffer.deallocate()
        case .file(let descriptor, _, _, _): close(descriptor)
        case .stream: break
        }
    }

    package convenience init(copying bytes: [UInt8]) {
        self.init(copying: bytes.span)
    }

    /// A copy of `bytes`, held in memory this object owns and frees.
    package convenience init(copying bytes: Span<UInt8>) {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
        bytes.withUnsafeBytes { storage.copyMemory(from: $0) }
        self.init(.memory(storage, count: bytes.count))
    }

    /// Bytes a caller holds (`Data` from a network reply, a database, a
    /// test), for the readers to borrow as they borrow a file's chunks:
    /// copied once into memory this object owns, or, when gzip or zstd
    /// (`compression`, else what the first bytes announce), decoded into it
    /// (whole: the caller holds the compressed bytes already). A decoding
    /// error is an `InputError` naming the data `name`, as for a file.
    package static func holding(_ data: Data, compression given: InputCompression?, name: String) throws -> InputBytes {
        guard let compression = given ?? InputCompression(signature: data.prefix(InputCompression.longestSignature)) else {
            return data.withUnsafeBytes { raw in
                let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(raw.count, 1), alignment: 8)
                storage.copyMemory(from: raw)
                return InputBytes(.memory(storage, count: raw.count))
            }
        }
        let decoder = try compression.decoder(source: name)
        var storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1 << 16, data.count * 4), alignment: 8)
        var count = 0
        do {
            func append(_ piece: UnsafeRawBufferPointer) {
                if count + piece.count > storage.count {
                    let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: max(storage.count * 2, count + piece.count), alignment: 8)
                    grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: storage[0..<count]))
                    storage.deallocate()
                    storage = grown
                }
                UnsafeMutableRawBufferPointer(rebasing: storage[count..<(count + piece.count)]).copyMemory(from: piece)
                count += piece.count
            }
            try data.withUnsafeBytes { raw in
                // In slices, as a file's compressed bytes arrive: a decoder takes 32-bit counts.
                var start = 0
                while start < raw.count {
                    let end = min(raw.count, start + (1 << 20))
                    try decoder.decode(UnsafeRawBufferPointer(rebasing: raw[start..<end]), output: append)
                    start = end
                }
            }
            try decoder.finish()
        } catch {
            storage.deallocate()
            throw error
        }
        return InputBytes(.memory(storage, count: count))
    }

    /// The number of bytes. A stream not yet read is read to its end first
    /// (into its temporary file; nothing checks it on the way); if that
    /// fails, 0, and every later read throws the failure.
    package var count: Int {
        switch storage {
        case .memory(_, let count): return count
        case .file(_, _, let size, _): return size
        case .stream:
            if (try? drain()) == nil { return 0 }
            return self.count
        }
    }

    /// The size when it is known without reading: nil for a stream not read yet.
    var knownCount: Int? {
        if case .stream = storage { return nil }
        return count
    }

    /// Whether there are no bytes at all (a stream's first bytes tell, without reading it whole).
    package var isEmpty: Bool {
        if case .stream(let stream) = storage { return stream.head.isEmpty && stream.ended }
        return count == 0
    }

    /// Up to `length` bytes from the start, without reading a stream past its first chunk.
    func leading(_ length: Int) throws -> [UInt8] {
        if case .stream(let stream) = storage { return Array(stream.head.prefix(length)) }
        return try copy(0..<min(count, length))
    }

    /// A copy of the bytes in `range`. Throws when a file no longer has them.
    package func copy(_ range: Range<Int>) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: range.count)
        try bytes.withUnsafeMutableBytes { try read(range.lowerBound, into: $0) }
        return bytes
    }

    /// Runs `body` on the bytes in `range`: where they lie for bytes in
    /// memory, else read into temporary space (the report reads every changed
    /// record again, and an Array for each, zeroed before it is filled, cost
    /// more than the read; `withUnsafeTemporaryAllocation` asks, each time,
    /// whether the stack has room for a size known only at run time, which
    /// cost more still). One `pread` a record: reading a file's records
    /// through per-thread windows of 16-256 KB made 13 times fewer system
    /// calls and no difference to the time (docs/performance.md).
    /// Throws when a file no longer has them.
    package func withBytes<Result>(in range: Range<Int>, _ body: (Span<UInt8>) throws -> Result) throws -> Result {
        if case .memory(let memory, let count) = storage {
            precondition(range.lowerBound >= 0 && range.upperBound <= count, "a range past the end of the input")
            return try UnsafeRawBufferPointer(rebasing: memory[range]).withSpan(body)
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: range.count, alignment: 8)
        defer { buffer.deallocate() }
        try read(range.lowerBound, into: buffer)
        return try UnsafeRawBufferPointer(buffer).withSpan(body)
    }

    /// Whether `other` holds these bytes exactly, read a megabyte at a time.
    package func sameBytes(as other: InputBytes) throws -> Bool {
        guard count == other.count else { return false }
        var start = 0
        while start < count {
            let range = start..<min(count, start + (1 << 20))
            guard try copy(range) == other.copy(range) else { return false }
            start = range.upperBound
        }
        return true
    }

    /// The text of the bytes in `range`, handed to `body` in pieces of at
    /// most about `pieceSize` bytes, each cut where a UTF-8 sequence starts:
    /// a record of any size is copied through a piece's worth of memory.
    package func forEachPiece(in range: Range<Int>, pieceSize: Int = 1 << 20, _ body: (String) throws -> Void) throws {
        var start = range.lowerBound
        while start < range.upperBound {
            let length = min(pieceSize + 4, range.upperBound - start)
            let text: (String, Int) = try withBytes(in: start..<(start + length)) { bytes in
                var end = bytes.count
                if start + end < range.upperBound {
                    end = min(end, pieceSize)
                    while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
                    if end == 0 { end = min(bytes.count, pieceSize) }
                }
                return (bytes.extracting(0..<end).decoded, end)
            }
            try body(text.0)
            start += text.1
        }
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
        case .stream:
            try drain()
            try read(offset, into: buffer)
        }
    }

    /// Throws when the file is no longer as it was read (its size or its
    /// modification time changed): records read again since may not be the
    /// ones compared. Called once everything has been read again, since one
    /// check per record would double the system calls of reading records again.
    package func checkUnchanged() throws {
        guard case .file(let descriptor, let path, let size, let modified) = storage else { return }
        if !InputBytes.isUnchanged(descriptor, size: size, modified: modified) {
            throw InputError(source: path, location: nil, message: "the file changed while it was being compared; "
                + "the result is void (standard output may hold part of it; -o FILE writes all or nothing)")
        }
    }

    /// Whether the file open as `descriptor` still has the size and modification time it had.
    static func isUnchanged(_ descriptor: Int32, size: Int, modified: timespec) -> Bool {
        var status = stat()
        return fstat(descriptor, &status) == 0 && Int(status.st_size) == size
            && status.st_mtim.tv_sec == modified.tv_sec && status.st_mtim.tv_nsec == modified.tv_nsec
    }

    /// Reads a stream to its end, into its temporary file, without a reader.
    private func drain() throws {
        try forEachChunk { _ in }
    }

    /// Hands the bytes to `feed` in order, in chunks of `standardSize` (8 MiB);
    /// `wantsMore` asks for a bigger next chunk (doubling) while a token longer
    /// than a chunk runs on, so a huge token is never re-read more than a few
    /// times. The buffer is one chunk: memory stays flat however big the file.
    /// A stream is read here, once; afterwards it is its temporary file.
    func forEachChunk(
        in range: Range<Int>? = nil,
        _ feed: (Span<UInt8>) throws -> Void, standardSize: Int = 8 << 20, wantsMore: () -> Bool = { false }
    ) throws {
        switch storage {
        case .memory(let memory, let count):
            try UnsafeRawBufferPointer(rebasing: memory[range ?? 0..<count]).withSpan(feed)
        case .stream(let stream):
            precondition(range == nil, "a stream is read whole, once")
            let (copy, stopped) = try stream.pass({ try $0.withSpan(feed) }, standardSize: standardSize, wantsMore: wantsMore)
            storage = .file(descriptor: copy.descriptor, path: copy.path, size: copy.size, modified: copy.modified)
            if let stopped { throw stopped }
        case .file(let descriptor, let path, let size, let modified):
            let standard = standardSize
            let end = range?.upperBound ?? size
            var offset = range?.lowerBound ?? 0
            var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, min(end - offset, standard)), alignment: 8)
            defer { buffer.deallocate() }
            var chunk = standard
            while offset < end {
                let length = min(chunk, end - offset)
                // Bigger for a long token; back to one standard chunk after it.
                if length > buffer.count || (buffer.count > standard && length <= standard) {
                    buffer.deallocate()
                    buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: length, alignment: 8)
                }
                let piece = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<length])
                try read(offset, into: piece)
                try UnsafeRawBufferPointer(piece).withSpan(feed)
                offset += length
                chunk = wantsMore() ? chunk * 2 : standard
            }
            // A file that grew, shrank or was rewritten while it was read gives no trustworthy result.
            if !InputBytes.isUnchanged(descriptor, size: size, modified: modified) { throw InputFile.changed(path) }
        }
    }

    /// The bytes of `path`, `-` being standard input: what `open` gives, for
    /// any file; decompressed when `.gz`/`.zst` or the first bytes say so.
    /// Errors name the file `name` (by default the path, or `<stdin>`).
    package static func contents(of path: String, name: String? = nil) throws -> InputBytes {
        path == "-"
            ? try stream(STDIN_FILENO, closing: false, name: name ?? InputFile.standardInputName, compression: nil, status: nil)
            : try open(path, name: name)
    }

    /// Opens a file for reading in chunks; a pipe, a device or a compressed
    /// file is a stream (see the type). A compressed file's extension
    /// (`.gz`, `.zst`) decides, else its first bytes. Errors, now and while
    /// it is read, name it `name` (by default its path).
    static func open(_ path: String, name: String? = nil) throws -> InputBytes {
        let name = name ?? path
        let descriptor = Foundation.open(FileSystemPath.bytes(path), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw InputFile.systemError(name, "cannot open") }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            close(descriptor)
            throw InputFile.systemError(name, "cannot read")
        }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw InputError(source: name, location: nil, message: "is a directory, not a file")
        }
        let named = InputCompression(pathExtension: (path as NSString).pathExtension)
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            return try stream(descriptor, closing: true, name: name, compression: named, status: nil)
        }
        var compression = named
        if compression == nil {
            var start = [UInt8](repeating: 0, count: InputCompression.longestSignature)
            let got = start.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, $0.count, 0) }
            if got < 0 {
                close(descriptor)
                throw InputFile.systemError(name, "cannot read")
            }
            compression = InputCompression(signature: start.prefix(got))
        }
        guard compression != nil else {
            // The descriptor is read from here on; the path is kept only to name the file in errors.
            return InputBytes(.file(descriptor: descriptor, path: name, size: Int(status.st_size), modified: status.st_mtim))
        }
        return try stream(descriptor, closing: true, name: name, compression: compression, status: status)
    }

    /// A stream over `descriptor`, its first chunk read already (for a look
    /// at the format); decompressed when `compression` (from the name) or its
    /// first bytes say so. `status`: a regular file's, checked again at the end.
    private static func stream(
        _ descriptor: Int32, closing: Bool, name: String, compression named: InputCompression?, status: stat?
    ) throws -> InputBytes {
        let source = try DescriptorStream(descriptor: descriptor, closing: closing, name: name, compression: named, status: status)
        try source.readHead()
        return InputBytes(.stream(source))
    }
}

extension InputBytes {
    /// A stream's one pass: raw bytes from a descriptor, through a decoder when
    /// compressed, to the reader in chunks and to an unlinked temporary file
    /// (removed with its descriptor, even on a crash) for reading again.
    fileprivate final class DescriptorStream {
        let descriptor: Int32
        let closing: Bool
        let name: String
        /// nil until the first bytes are seen, when the name does not say.
        var decoder: (any StreamDecoder)?
        var decided: Bool
        let status: stat?
        /// The (decoded) bytes read before the pass: its first chunk.
        private(set) var head: [UInt8] = []
        private(set) var ended = false
        private var raw = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 8)

        static let headSize = 1 << 16

        init(descriptor: Int32, closing: Bool, name: String, compression: InputCompression?, status: stat?) throws {
            self.descriptor = descriptor
            self.closing = closing
            self.name = name
            self.status = status
            decoder = try compression?.decoder(source: name)
            decided = compression != nil
        }

        deinit {
            raw.deallocate()
            if closing { close(descriptor) }
        }

        /// Settles the compression (from the first bytes, when the name did not)
        /// and reads (and decodes) until `head` holds a chunk or the stream ends.
        func readHead() throws {
            if !decided {
                // A pipe may deliver a signature a byte at a time: read until it is whole or cannot be one.
                var start: [UInt8] = []
                while start.count < InputCompression.longestSignature, InputCompression.couldStart(start) {
                    let got = try readRaw()
                    if got == 0 { break }
                    start += UnsafeRawBufferPointer(rebasing: raw[0..<got])
                }
                decided = true
                if let compression = InputCompression(signature: start) { decoder = try compression.decoder(source: name) }
                try start.withUnsafeBytes { try absorbIntoHead($0) }
            }
            while head.count < Self.headSize && !ended {
                let got = try readRaw()
                if got == 0 {
                    try readMore(0, emit: { _ in })
                    break
                }
                try absorbIntoHead(UnsafeRawBufferPointer(rebasing: raw[0..<got]))
            }
        }

        /// Decodes `bytes` into `head` until it holds a chunk; the rest waits in
        /// `leftover`. Compressed bytes go a slice at a time, so a bomb's first
        /// megabyte (gigabytes decoded) stops at the head.
        private func absorbIntoHead(_ bytes: UnsafeRawBufferPointer) throws {
            var start = 0
            while start < bytes.count && head.count < Self.headSize {
                let end = decoder == nil ? bytes.count : min(bytes.count, start + 512)
                try decode(UnsafeRawBufferPointer(rebasing: bytes[start..<end])) { head.append(contentsOf: $0) }
                start = end
            }
            leftover += UnsafeRawBufferPointer(rebasing: bytes[start...])
        }

        /// Raw bytes read but not decoded yet (see `readHead`).
        private var leftover: [UInt8] = []

        /// Whether read(2) said the end (a terminal would wait again if asked twice).
        private var sawEnd = false

        /// One read(2) into `raw`; the count, 0 at the end.
        private func readRaw() throws -> Int {
            if sawEnd { return 0 }
            var got: Int
            repeat {
                got = Foundation.read(descriptor, raw.baseAddress!, raw.count)
            } while got < 0 && errno == EINTR
            if got < 0 { throw InputFile.systemError(name, "cannot read") }
            sawEnd = got == 0
            return got
        }

        /// Reads once (unless `got` says what was read) and hands on what that
        /// decodes to; sets `ended` at the end.
        private func readMore(_ got: Int? = nil, emit: (UnsafeRawBufferPointer) throws -> Void) throws {
            let got = try got ?? readRaw()
            if got == 0 {
                ended = true
                try decoder?.finish()
                return
            }
            try decode(UnsafeRawBufferPointer(rebasing: raw[0..<got]), emit)
        }

        private func decode(_ bytes: UnsafeRawBufferPointer, _ emit: (UnsafeRawBufferPointer) throws -> Void) throws {
            if let decoder { try decoder.decode(bytes, output: emit) } else { try emit(bytes) }
        }

        /// The pass: every byte to `feed` (in chunks of `standardSize`, bigger
        /// while `wantsMore`) and to the temporary file, which it returns. A
        /// reader that stops for its `RecordBudget` is fed no more, but the
        /// stream is still copied to its end (to be read again in partitions),
        /// and that stop is returned beside the file.
        func pass(
            _ feed: (UnsafeRawBufferPointer) throws -> Void, standardSize: Int, wantsMore: () -> Bool
        ) throws -> (copy: (descriptor: Int32, path: String, size: Int, modified: timespec), stopped: RecordBudget.Exceeded?) {
            // One pass only: after a failure part of the stream is gone.
            if let failure { throw failure }
            do {
                return try passOnce(feed, standardSize: standardSize, wantsMore: wantsMore)
            } catch {
                failure = error
                throw error
            }
        }

        private var failure: (any Error)?

        private func passOnce(
            _ feed: (UnsafeRawBufferPointer) throws -> Void, standardSize: Int, wantsMore: () -> Bool
        ) throws -> (copy: (descriptor: Int32, path: String, size: Int, modified: timespec), stopped: RecordBudget.Exceeded?) {
            let spill = try TemporaryCopy(source: name)
            var pending = head
            head = []
            var target = standardSize
            var stopped: RecordBudget.Exceeded?
            func flush() throws {
                try pending.withUnsafeBytes { bytes in
                    try spill.append(bytes)
                    guard stopped == nil else { return }
                    do {
                        try feed(bytes)
                    } catch let budget as RecordBudget.Exceeded {
                        stopped = budget
                    }
                }
                pending.removeAll(keepingCapacity: target <= standardSize)
                target = wantsMore() ? target * 2 : standardSize
                // Room for the next chunk at once: grown by doubling, the chunk
                // of a long token was copied as it grew and held twice at the end.
                pending.reserveCapacity(target)
            }
            // Flushed as pieces arrive (a decoder may make gigabytes of one read),
            // before a piece would take a chunk past its size.
            func take(_ piece: UnsafeRawBufferPointer) throws {
                if !pending.isEmpty && pending.count + piece.count > target { try flush() }
                pending.append(contentsOf: piece)
                if pending.count >= target { try flush() }
            }
            if pending.count >= target { try flush() }
            if !leftover.isEmpty {
                let held = leftover
                leftover = []
                try held.withUnsafeBytes { try decode($0, take) }
            }
            while !ended {
                try readMore(emit: take)
            }
            if !pending.isEmpty { try flush() }
            // As for a plain file: data rewritten while it was read gives no trustworthy result.
            if let status, !InputBytes.isUnchanged(descriptor, size: Int(status.st_size), modified: status.st_mtim) {
                throw InputFile.changed(name)
            }
            return (try spill.finish(), stopped)
        }
    }

    /// The unlinked temporary file a stream is copied into as it is read.
    fileprivate final class TemporaryCopy {
        private var descriptor: Int32
        private let source: String
        private let directory: String
        private var size = 0

        init(source: String) throws {
            self.source = source
            directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
            var template = Array("\(directory)/changeset-XXXXXX".utf8CString)
            descriptor = mkstemp(&template)
            guard descriptor >= 0 else { throw Self.failure(source, directory) }
            unlink(template)
        }

        deinit {
            if descriptor >= 0 { close(descriptor) }
        }

        func append(_ bytes: UnsafeRawBufferPointer) throws {
            var done = 0
            while done < bytes.count {
                let wrote = Foundation.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
                if wrote < 0 && errno == EINTR { continue }
                if wrote < 0 { throw Self.failure(source, directory) }
                done += wrote
            }
            size += bytes.count
        }

        /// The file, handed over (its descriptor is the caller's to close).
        func finish() throws -> (descriptor: Int32, path: String, size: Int, modified: timespec) {
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { throw InputFile.systemError(source, "cannot read the temporary copy") }
            defer { descriptor = -1 }
            return (descriptor, source, size, status.st_mtim)
        }

        private static func failure(_ source: String, _ directory: String) -> InputError {
            InputError(source: source, location: nil, message: "cannot write a temporary copy of this input (read once, "
                + "as it arrives) in \(directory): \(String(cString: strerror(errno))) (TMPDIR names another directory)")
        }
    }
}

/// A cell of an SQLite row, copied out of the statement that read it
/// (each of SQLite's five storage classes).
package enum SQLiteCell: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// A failure libsqlite3 reported: its result code and its message.
package struct SQLiteFailure: Error, Sendable {
    /// The primary result code (`SQLITE_BUSY`, `SQLITE_NOTADB`, ...).
    package var code: Int32
    package var message: String

    /// Another connection holds a lock that keeps this one from reading.
    package var isLocked: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
    /// The file is not an SQLite database (or is encrypted, or damaged at its header).
    package var isNotDatabase: Bool { code == SQLITE_NOTADB }
}

/// One read-only connection to an SQLite database file (`SQLITE_OPEN_READONLY`,
/// never `immutable`, so SQLite still takes its shared lock and a writer's lock
/// is seen, not read through). Owns the handle and closes it in `deinit`.
package final class SQLiteConnection {
    private let handle: OpaquePointer

    /// How long a read waits for another connection's write lock before
    /// it gives up with `SQLITE_BUSY`.
    package static let busyTimeoutMilliseconds: Int32 = 1000

    /// Opens `path` for reading; the file must exist (nothing is created).
    package init(readingOnly path: String) throws(SQLiteFailure) {
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(opened)
            throw SQLiteFailure(code: code & 0xFF, message: message)
        }
        handle = opened
        sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs `sql` (one statement, no parameters): `columns` is given the
    /// result's column names once, then `row` each row's cells in order.
    package func query(_ sql: String, columns: ([String]) throws -> Void = { _ in }, row: ([SQLiteCell]) throws -> Void) throws {
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &prepared, nil)
        guard code == SQLITE_OK, let statement = prepared else { throw failure(code) }
        defer { sqlite3_finalize(statement) }
        let count = sqlite3_column_count(statement)
        try columns((0..<count).map { String(cString: sqlite3_column_name(statement, $0)) })
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { return }
            guard step == SQLITE_ROW else { throw failure(step) }
            try row((0..<count).map { cell(statement, $0) })
        }
    }

    private func cell(_ statement: OpaquePointer, _ column: Int32) -> SQLiteCell {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            // Text first, then its length: the order SQLite documents for a pointer that stays valid.
            let text = sqlite3_column_text(statement, column)
            let count = Int(sqlite3_column_bytes(statement, column))
            guard let text else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let bytes = sqlite3_column_blob(statement, column)
            let count = Int(sqlite3_column_bytes(statement, column))
            guard let bytes, count > 0 else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }

    private func failure(_ code: Int32) -> SQLiteFailure {
        SQLiteFailure(code: code & 0xFF, message: String(cString: sqlite3_errmsg(handle)))
    }
}
