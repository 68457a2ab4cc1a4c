import Foundation

/// A temporary file that a comparison larger than memory writes once and
/// reads back (`Comparison+Partitioned.swift`). It is unlinked the moment it
/// is made, so whatever ends the run (an error, a signal, a kill) leaves
/// nothing behind: the kernel frees it with the last descriptor. Writes go
/// through a buffer of `bufferSize`; a write that fails (a full disk) is an
/// `InputError` naming the directory.
package struct SpillFile: Sendable {
    private let handle: FileHandle
    private let directory: String
    private var buffer: [UInt8] = []
    /// Bytes of `buffer` written and not flushed yet.
    private var used = 0
    /// Bytes written, buffered ones included.
    package private(set) var size = 0

    /// The directory temporary files go in: `TMPDIR`, or /tmp.
    package static var directory: String {
        ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    package init(in directory: String = SpillFile.directory, bufferSize: Int = 1 << 18) throws {
        self.directory = directory
        var descriptor: Int32 = -1
        // O_EXCL on a fresh random name: never a file someone else made (mkstemp's guarantee).
        for _ in 0..<16 where descriptor < 0 {
            let path = "\(directory)/changeset-spill-\(UInt64.random(in: 0...UInt64.max))"
            descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if descriptor >= 0 && unlink(path) != 0 {
                // A file that cannot leave the directory now would outlive a killed run.
                let code = errno
                close(descriptor)
                throw SpillFile.failure(directory, "cannot remove a temporary file from its directory", code)
            }
            if descriptor < 0 && errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw SpillFile.failure(directory, "cannot make a temporary file", errno) }
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        buffer = [UInt8](repeating: 0, count: bufferSize)
    }

    /// Where `count` more bytes go in the buffer (flushed first if they do not fit).
    @inline(__always)
    private mutating func room(_ count: Int) throws -> Int {
        if used + count > buffer.count {
            try flush()
            if count > buffer.count { buffer = [UInt8](repeating: 0, count: count) }
        }
        size += count
        return used
    }

    // Little-endian integers stored through a span's bytes (bounds checked,
    // no pointer): a byte at a time through `Array.append` took a fifth of
    // the time a comparison past memory spends reading.

    @inline(__always)
    package mutating func append(_ value: UInt32) throws {
        let at = try room(4)
        var span = buffer.mutableSpan
        var bytes = span.mutableBytes
        bytes.storeBytes(of: value.littleEndian, toByteOffset: at, as: UInt32.self)
        used = at + 4
    }

    /// `key`'s bytes into the buffer at `at` (room made for them).
    @inline(__always)
    private mutating func store(_ key: Span<UInt8>, at: Int) {
        var span = buffer.mutableSpan
        for index in key.indices { span[at + index] = key[index] }
    }

    /// A partition entry: row (32 bits), fingerprint (64), the key's length (32), the key.
    @inline(__always)
    package mutating func appendEntry(row: UInt32, fingerprint: UInt64, key: Span<UInt8>) throws {
        let at = try room(16 + key.count)
        var span = buffer.mutableSpan
        var bytes = span.mutableBytes
        bytes.storeBytes(of: row.littleEndian, toByteOffset: at, as: UInt32.self)
        bytes.storeBytes(of: fingerprint.littleEndian, toByteOffset: at + 4, as: UInt64.self)
        bytes.storeBytes(of: UInt32(key.count).littleEndian, toByteOffset: at + 12, as: UInt32.self)
        _ = consume bytes
        store(key, at: at + 16)
        used = at + 16 + key.count
    }

    /// A row entry of 16 bytes: start (64 bits), length (32), line (32).
    @inline(__always)
    package mutating func appendRow(start: UInt64, length: UInt32, line: UInt32) throws {
        let at = try room(16)
        var span = buffer.mutableSpan
        var bytes = span.mutableBytes
        bytes.storeBytes(of: start.littleEndian, toByteOffset: at, as: UInt64.self)
        bytes.storeBytes(of: length.littleEndian, toByteOffset: at + 8, as: UInt32.self)
        bytes.storeBytes(of: line.littleEndian, toByteOffset: at + 12, as: UInt32.self)
        used = at + 16
    }

    /// Writes what the buffer holds.
    package mutating func flush() throws {
        guard used > 0 else { return }
        do {
            try handle.seekToEnd()
            try handle.write(contentsOf: buffer[0..<used])
        } catch {
            throw SpillFile.failure(directory, "cannot write a temporary file", SpillFile.code(of: error))
        }
        used = 0
    }

    /// `count` bytes from `offset` (fewer at the end of the file), once
    /// everything before them was written and flushed.
    package func read(at offset: Int, count: Int) throws -> [UInt8] {
        do {
            try handle.seek(toOffset: UInt64(offset))
            var bytes: [UInt8] = []
            bytes.reserveCapacity(count)
            while bytes.count < count {
                guard let data = try handle.read(upToCount: count - bytes.count), !data.isEmpty else { break }
                bytes.append(contentsOf: data)
            }
            return bytes
        } catch {
            throw SpillFile.failure(directory, "cannot read a temporary file back", SpillFile.code(of: error))
        }
    }

    /// How many files a run may hold open beside what it has, with the
    /// soft limit on open files raised towards the hard one if `wanted` need
    /// it (the default soft limit is 1024 on Linux, 256 on macOS).
    package static func roomForOpenFiles(_ wanted: Int) -> Int {
        guard var limit = OpenFileLimit.current() else { return wanted }
        let spare: rlim_t = 64  // for the inputs, the output and what else is open
        if limit.rlim_cur < rlim_t(wanted) + spare { limit = OpenFileLimit.raise(to: rlim_t(wanted) + spare) ?? limit }
        return limit.rlim_cur > spare ? min(wanted, Int(limit.rlim_cur - spare)) : 1
    }

    /// A temporary file read back shorter than it was written.
    package static var endedEarly: InputError {
        InputError(source: directory, location: nil, message: "a temporary file ended early")
    }

    /// Frees the buffer once the file is written (it is read by `read`).
    package mutating func finishWriting() throws {
        try flush()
        buffer = []
    }

    private static func code(of error: Error) -> Int32 {
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain { return Int32(error.code) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return Int32(underlying.code)
        }
        if error.domain == NSCocoaErrorDomain && error.code == CocoaError.fileWriteOutOfSpace.rawValue { return ENOSPC }
        return EIO
    }

    private static func failure(_ directory: String, _ what: String, _ code: Int32) -> InputError {
        InputError(source: directory, location: nil,
                   parts: [.text("\(what) for a comparison larger than memory: \(String(cString: strerror(code)))")]
                       + (code == ENOSPC ? [.text(" (TMPDIR names another directory; "), .setting(.memoryLimit), .text(" sets when files are used)")] : []))
    }
}

extension Array where Element == UInt8 {
    /// The little-endian integer at `offset` (as `SpillFile.append` writes it).
    @inline(__always)
    package func uint32(at offset: Int) -> UInt32 {
        var value: UInt32 = 0
        for byte in 0..<4 { value |= UInt32(self[offset + byte]) << UInt32(8 * byte) }
        return value
    }

    @inline(__always)
    package func uint64(at offset: Int) -> UInt64 {
        var value: UInt64 = 0
        for byte in 0..<8 { value |= UInt64(self[offset + byte]) << UInt64(8 * byte) }
        return value
    }
}

/// The process's limit on open files (RLIMIT_NOFILE), read and raised in
/// one place for the partition files and the command's start-up check.
package enum OpenFileLimit {
    #if os(Linux)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif

    /// The soft and hard limits; nil when the system does not say.
    package static func current() -> rlimit? {
        var limit = rlimit()
        return getrlimit(resource, &limit) == 0 ? limit : nil
    }

    /// Raises the soft limit towards `wanted`, never past the hard one; the
    /// limits as they stand afterwards (unchanged when raising fails or
    /// there is no room), nil when the system does not say.
    package static func raise(to wanted: rlim_t) -> rlimit? {
        guard var limit = current() else { return nil }
        guard limit.rlim_cur < wanted, limit.rlim_cur < limit.rlim_max else { return limit }
        var raised = limit
        raised.rlim_cur = min(limit.rlim_max, wanted)
        if setrlimit(resource, &raised) == 0 { limit = raised }
        return limit
    }
}
