import Foundation

// A process's exchanges with its files and descriptors: results written
// whole or not at all, temporary files removed by a signal handler, the
// raw command line.
// Unsafe code here: the system calls take and give C memory (argv, write(2)'s
// buffer, realpath's result, mkstemp's template), and the signal handler may
// only walk fixed C strings, not Swift values.

/// Where a result is written: standard output or error, or a file that
/// appears whole or not at all (a temporary file beside it, given the name
/// once everything is written, synced first).
public final class OutputSink: TextOutputStream {
    /// Why writing stopped.
    public enum Trouble: Error, CustomStringConvertible {
        /// The reader went away (`changeset ... | head`): not an error worth a message.
        case brokenPipe
        /// A write, the sync or the rename failed; the message names the file and the reason.
        case writeFailed(String)

        /// What went wrong, naming the file.
        public var description: String {
            switch self {
            case .brokenPipe: "the reader of standard output went away"
            case .writeFailed(let message): message
            }
        }
    }

    /// The file being written before it takes the destination's name.
    private enum Pending {
        /// None: standard output, or a descriptor written in place.
        case none
        /// `.NAME.changeset-XXXXXX` beside the destination, renamed over it.
        case named(String)
        /// A file with no name (Linux's O_TMPFILE) in the destination's
        /// directory, linked in at the end: no exit leaves it behind, a
        /// SIGKILL included.
        case unnamed
    }

    private let descriptor: Int32
    private let destination: String
    private let pending: Pending
    private var buffer: [UInt8] = []
    /// The first failure, after which nothing more is written.
    package private(set) var trouble: Trouble?

    private let closesDescriptor: Bool

    private init(descriptor: Int32, destination: String, pending: Pending, closesDescriptor: Bool = false) {
        self.descriptor = descriptor
        self.destination = destination
        self.pending = pending
        self.closesDescriptor = closesDescriptor
        buffer.reserveCapacity(1 << 16)
    }

    /// Runs `body` with a sink for `path` (standard output when nil) and
    /// finishes the output. A reader that went away (`| head`) ends the run
    /// quietly; on any other error the partial output is discarded (a file
    /// keeps its old content, or is not made) and the error is rethrown.
    package static func deliver(to path: String?, _ body: (OutputSink) throws -> Void) throws {
        let sink = try path.map(OutputSink.file) ?? OutputSink.standardOutput()
        do {
            try body(sink)
            try sink.commit()
        } catch OutputSink.Trouble.brokenPipe {
            // The reader stopped reading: nothing more to say.
        } catch {
            sink.discard()
            throw error
        }
    }

    /// A sink for standard output, written in place.
    package static func standardOutput() -> OutputSink {
        OutputSink(descriptor: STDOUT_FILENO, destination: "standard output", pending: .none)
    }

    /// A sink for standard error, written in place with write(2): a standard
    /// error that cannot be written (closed, a full disk, a reader gone) sets
    /// `trouble` and loses the text, where `FileHandle` would trap.
    package static func standardError() -> OutputSink {
        OutputSink(descriptor: STDERR_FILENO, destination: "standard error", pending: .none)
    }

    /// Removes the temporary files of results being written when SIGINT,
    /// SIGTERM or SIGHUP ends the process, which the signal then ends as it
    /// would have. Call once, at the start of a process that writes files.
    package static func removeTemporaryFilesOnSignals() {
        TemporaryFiles.removeOnSignals()
    }

    /// A sink for `path`: writes go to a new temporary file in the same
    /// directory (so the final link or rename stays on one file system),
    /// unnamed where the system allows (`unnamedFile`). A symbolic
    /// link is followed, so the rename replaces the file it names, not the
    /// link; a path that is not a regular file (`/dev/stdout`, a pipe, a
    /// device) is written directly, since renaming over it would replace it.
    package static func file(_ path: String) throws -> OutputSink {
        // One of our own open descriptors: write where it already points
        // (opening it again would start over at offset 0 of a redirected file).
        if let inherited = inheritedDescriptor(path) {
            let descriptor = dup(inherited)
            guard descriptor >= 0 else {
                throw Trouble.writeFailed("cannot write \(path): \(String(cString: strerror(errno)))")
            }
            return OutputSink(descriptor: descriptor, destination: path, pending: .none, closesDescriptor: true)
        }
        var target = path
        if let resolved = FileSystemPath.realPath(path) {
            target = resolved
            var status = stat()
            if stat(FileSystemPath.bytes(target), &status) == 0 && (status.st_mode & S_IFMT) != S_IFREG {
                let descriptor = open(FileSystemPath.bytes(target), O_WRONLY | O_TRUNC | O_CLOEXEC)
                guard descriptor >= 0 else {
                    throw Trouble.writeFailed("cannot write \(path): \(String(cString: strerror(errno)))")
                }
                return OutputSink(descriptor: descriptor, destination: path, pending: .none, closesDescriptor: true)
            }
        }
        // By name, not through URL, which would not keep a name that is not UTF-8.
        let slash = target.lastIndex(of: "/")
        let directory = slash.map { String(target[...$0]) } ?? ""
        if let descriptor = unnamedFile(in: directory) {
            return OutputSink(descriptor: descriptor, destination: target, pending: .unnamed)
        }
        let (descriptor, temporary) = try namedTemporaryFile(beside: target, for: path)
        return OutputSink(descriptor: descriptor, destination: target, pending: .named(temporary))
    }

    /// A new file with no name in `directory` (`""`: the current one), to be
    /// linked in by `commit`; nil where the system cannot (not Linux, a file
    /// system without O_TMPFILE, no /proc to link it through), and the
    /// caller makes a named one.
    private static func unnamedFile(in directory: String) -> Int32? {
        #if os(Linux)
        guard access("/proc/self/fd", X_OK) == 0 else { return nil }
        let descriptor = open(FileSystemPath.bytes(directory.isEmpty ? "." : directory), __O_TMPFILE | O_WRONLY | O_CLOEXEC, 0o600)
        return descriptor >= 0 ? descriptor : nil
        #else
        return nil
        #endif
    }

    /// `.NAME.changeset-XXXXXX` beside `target`, registered for removal by a
    /// signal (`path`: the name the user gave, for the error).
    private static func namedTemporaryFile(beside target: String, for path: String) throws -> (Int32, String) {
        var template = FileSystemPath.bytes(temporaryName(beside: target) + "XXXXXX")
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw Trouble.writeFailed("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        let temporary = FileSystemPath.string(template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
        TemporaryFiles.register(temporary)
        return (descriptor, temporary)
    }

    /// `.NAME.changeset-` beside `target`, for a suffix to follow.
    private static func temporaryName(beside target: String) -> String {
        let slash = target.lastIndex(of: "/")
        let directory = slash.map { String(target[...$0]) } ?? ""
        let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
        return directory + "." + name + ".changeset-"
    }

    /// The descriptor `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` or `/proc/self/fd/N` names.
    private static func inheritedDescriptor(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdout": return STDOUT_FILENO
        case "/dev/stderr": return STDERR_FILENO
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                return Int32(path.dropFirst(prefix.count))
            }
            return nil
        }
    }

    /// Appends `string`, buffered; nothing once `trouble` is set.
    public func write(_ string: String) {
        guard trouble == nil else { return }
        if string.utf8.count >= 1 << 16 {
            // A long text (a huge value) goes out from its own bytes, not copied into the buffer first.
            flush()
            var string = string
            string.withUTF8 { writeAll(UnsafeRawBufferPointer($0)) }
            return
        }
        buffer.append(contentsOf: string.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Appends `bytes`, buffered; nothing once `trouble` is set.
    public func write(bytes: some Collection<UInt8>) {
        guard trouble == nil else { return }
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes out what is buffered.
    package func flush() {
        guard trouble == nil else { return }
        buffer.withUnsafeBytes { writeAll($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count && trouble == nil {
            let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                trouble = errno == EPIPE ? .brokenPipe : .writeFailed("cannot write \(destination): \(String(cString: strerror(errno)))")
                break
            }
            offset += written
        }
    }

    /// Finishes the output: flushes, and for a file, syncs it and gives it the destination's name.
    package func commit() throws {
        flush()
        if let trouble {
            discard()
            throw trouble
        }
        if case .none = pending {
            if closesDescriptor { close(descriptor) }
            return
        }
        // A file replaced keeps its permissions; a new one gets the usual
        // ones (the temporary file is made private).
        var existing = stat()
        let replacing = stat(FileSystemPath.bytes(destination), &existing) == 0
        if replacing {
            fchmod(descriptor, existing.st_mode & 0o7777)
        } else {
            let mask = umask(0)
            umask(mask)
            fchmod(descriptor, 0o666 & ~mask)
        }
        guard fsync(descriptor) == 0 else { try fail(errno) }
        switch pending {
        case .none:
            break
        case .named(let temporary):
            defer { TemporaryFiles.unregister(temporary) }
            if close(descriptor) != 0 || rename(FileSystemPath.bytes(temporary), FileSystemPath.bytes(destination)) != 0 {
                let code = errno
                unlink(FileSystemPath.bytes(temporary))
                throw Trouble.writeFailed("cannot write \(destination): \(String(cString: strerror(code)))")
            }
        case .unnamed:
            // The file gets a name through /proc (linkat with AT_EMPTY_PATH
            // would need CAP_DAC_READ_SEARCH). A link never replaces a file:
            // an existing destination is replaced by a rename from a name
            // beside it, which exists only between the two calls.
            let source = FileSystemPath.bytes("/proc/self/fd/\(descriptor)")
            if !replacing && linkat(AT_FDCWD, source, AT_FDCWD, FileSystemPath.bytes(destination), AT_SYMLINK_FOLLOW) == 0 {
                close(descriptor)
                return
            }
            if !replacing && errno != EEXIST { try fail(errno) }
            var linked: String?
            for _ in 0..<16 where linked == nil {
                let candidate = Self.temporaryName(beside: destination) + String(UInt64.random(in: 0...UInt64.max), radix: 36)
                TemporaryFiles.register(candidate)
                if linkat(AT_FDCWD, source, AT_FDCWD, FileSystemPath.bytes(candidate), AT_SYMLINK_FOLLOW) == 0 {
                    linked = candidate
                } else {
                    let code = errno
                    TemporaryFiles.unregister(candidate)
                    if code != EEXIST { try fail(code) }
                }
            }
            guard let linked else { try fail(EEXIST) }
            defer { TemporaryFiles.unregister(linked) }
            if rename(FileSystemPath.bytes(linked), FileSystemPath.bytes(destination)) != 0 {
                let code = errno
                unlink(FileSystemPath.bytes(linked))
                try fail(code)
            }
            close(descriptor)
        }
    }

    /// Abandons a file being written after a failure with `code`, and says so.
    private func fail(_ code: Int32) throws -> Never {
        discard()
        throw Trouble.writeFailed("cannot write \(destination): \(String(cString: strerror(code)))")
    }

    /// Abandons the output: a file being written is removed, the old one stays.
    package func discard() {
        switch pending {
        case .none:
            if closesDescriptor { close(descriptor) }
        case .named(let temporary):
            close(descriptor)
            unlink(FileSystemPath.bytes(temporary))
            TemporaryFiles.unregister(temporary)
        case .unnamed:
            // Nameless, it goes with its descriptor.
            close(descriptor)
        }
    }
}

/// The temporary files being written (`-o`'s, before their rename), removed
/// when SIGINT, SIGTERM or SIGHUP ends the run; the signal then ends the
/// process as it would have (its status says which signal). The handler may
/// only make async-signal-safe calls, so the paths are kept as C strings in
/// fixed slots it can walk without allocating or locking.
private enum TemporaryFiles {
    private static let slotCount = 8
    // Written by the main thread only, read by the signal handler.
    nonisolated(unsafe) private static var slots = [UnsafeMutablePointer<CChar>?](repeating: nil, count: slotCount)
        .withUnsafeBufferPointer { buffer -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> in
            let pointer = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: slotCount)
            pointer.initialize(from: buffer.baseAddress!, count: slotCount)
            return pointer
        }

    /// Installs the handlers (once, at start), except for a signal the
    /// parent set to be ignored (`nohup`, a background job's SIGINT): that
    /// one stays ignored, as it would be without changeset's own handling.
    static func removeOnSignals() {
        // The slots exist before any handler can run (their first use allocates).
        _ = slots
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            var current = sigaction()
            sigaction(signal, nil, &current)
            // SIG_IGN is the handler 1.
            if unsafeBitCast(current.__sigaction_handler, to: Int.self) == 1 { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { received in
                for index in 0..<TemporaryFiles.slotCount {
                    if let path = TemporaryFiles.slots[index] { unlink(path) }
                }
                Foundation.signal(received, SIG_DFL)
                raise(received)
            }
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
        }
    }

    static func register(_ path: String) {
        guard let index = (0..<slotCount).first(where: { slots[$0] == nil }) else { return }
        slots[index] = strdup(FileSystemPath.bytes(path))
    }

    /// Takes `path` out of the slots. Its copy is not freed: a handler on
    /// another thread may be reading it, and a run registers a few at most.
    static func unregister(_ path: String) {
        for index in 0..<slotCount {
            if let held = slots[index], pathString(cString: held) == path {
                slots[index] = nil
            }
        }
    }
}

extension FileSystemPath {
    /// The command line as the process got it (without the program's name),
    /// from its raw bytes, so a file name that is not UTF-8 can still be
    /// opened. `CommandLine.arguments` would repair such a name into one
    /// that names no file.
    package static func commandLineArguments() -> [String] {
        (1..<Int(CommandLine.argc)).compactMap { index in CommandLine.unsafeArgv[index].map { pathString(cString: $0) } }
    }

    /// `path` with links and `.`/`..` resolved (realpath(3)), or nil when it names nothing.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(FileSystemPath.bytes(path), nil) else { return nil }
        defer { free(resolved) }
        return pathString(cString: resolved)
    }
}

/// A C string the system gave, as a name (see FileSystemPath).
private func pathString(cString: UnsafePointer<CChar>) -> String {
    FileSystemPath.string(UnsafeBufferPointer(start: cString, count: strlen(cString)).map { UInt8(bitPattern: $0) })
}
