import ArgumentParser
import Foundation

/// Where the command writes its result: standard output, or a file that
/// appears whole or not at all (a temporary file beside it, renamed over it
/// once everything is written).
final class OutputSink: TextOutputStream {
    enum Trouble: Error, CustomStringConvertible {
        /// The reader went away (`changeset ... | head`): not an error worth a message.
        case brokenPipe
        case writeFailed(String)

        var description: String {
            switch self {
            case .brokenPipe: "the reader of standard output went away"
            case .writeFailed(let message): message
            }
        }
    }

    private let descriptor: Int32
    private let destination: String
    private let temporaryPath: String?
    private var buffer: [UInt8] = []
    private(set) var trouble: Trouble?

    private init(descriptor: Int32, destination: String, temporaryPath: String?) {
        self.descriptor = descriptor
        self.destination = destination
        self.temporaryPath = temporaryPath
        buffer.reserveCapacity(1 << 16)
    }

    /// Runs `body` with a sink for `path` (standard output when nil) and
    /// finishes the output. A reader that went away ends the run quietly; any
    /// other error is reported, the partial output discarded, and the run
    /// exits with status 2.
    static func deliver(to path: String?, _ body: (OutputSink) throws -> Void) throws {
        let sink: OutputSink
        do {
            sink = try path.map(OutputSink.file) ?? OutputSink.standardOutput()
        } catch {
            Diagnostics.report("\(error)")
            throw ExitCode(ExitStatus.trouble)
        }
        do {
            try body(sink)
            try sink.commit()
        } catch OutputSink.Trouble.brokenPipe {
            // The reader stopped reading (`| head`): nothing more to say.
        } catch {
            sink.discard()
            Diagnostics.report("\(error)")
            throw ExitCode(ExitStatus.trouble)
        }
    }

    static func standardOutput() -> OutputSink {
        OutputSink(descriptor: STDOUT_FILENO, destination: "standard output", temporaryPath: nil)
    }

    /// A sink for `path`: writes go to a new temporary file in the same
    /// directory (so the final rename stays on one file system).
    static func file(_ path: String) throws -> OutputSink {
        let url = URL(fileURLWithPath: path)
        var template = Array(url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).changeset-XXXXXX").path.utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw Trouble.writeFailed("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return OutputSink(descriptor: descriptor, destination: path, temporaryPath: temporary)
    }

    func write(_ string: String) {
        guard trouble == nil else { return }
        buffer.append(contentsOf: string.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        guard trouble == nil else { return }
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                trouble = errno == EPIPE ? .brokenPipe : .writeFailed("cannot write \(destination): \(String(cString: strerror(errno)))")
                break
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Finishes the output: flushes, and for a file, syncs it and renames it into place.
    func commit() throws {
        flush()
        if let trouble {
            discard()
            throw trouble
        }
        guard let temporaryPath else { return }
        // A new file gets the usual permissions (mkstemp makes it private).
        let mask = umask(0)
        umask(mask)
        fchmod(descriptor, 0o666 & ~mask)
        if fsync(descriptor) != 0 || close(descriptor) != 0 || rename(temporaryPath, destination) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw Trouble.writeFailed("cannot write \(destination): \(reason)")
        }
    }

    /// Abandons the output: a file being written is removed, the old one stays.
    func discard() {
        guard let temporaryPath else { return }
        close(descriptor)
        unlink(temporaryPath)
    }
}
