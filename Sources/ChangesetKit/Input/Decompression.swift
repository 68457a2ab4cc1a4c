// Compressed inputs: gzip through zlib, zstd through libzstd. The only file
// that imports either library; everything else sees decompressed bytes.
internal import CZlib
internal import CZstd
import Foundation

/// A compression an input may come in.
enum InputCompression: String, Sendable, CaseIterable {
    case gzip, zstd

    /// The compression a file name's last extension names: `.gz` or `.zst`.
    init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "gz": self = .gzip
        case "zst": self = .zstd
        default: return nil
        }
    }

    /// The compression the first bytes announce, if they start with a signature.
    /// No UTF-8 text starts with either (0x8B and 0xB5 can only continue a
    /// character), so a text input is never taken for a compressed one.
    init?(signature bytes: some Collection<UInt8>) {
        guard let compression = Self.allCases.first(where: { bytes.starts(with: $0.signature) }) else { return nil }
        self = compression
    }

    /// The bytes every member (gzip) or frame (zstd) starts with.
    var signature: [UInt8] {
        switch self {
        case .gzip: [0x1F, 0x8B]
        case .zstd: [0x28, 0xB5, 0x2F, 0xFD]
        }
    }

    static let longestSignature = 4

    /// The decoder for one input named `source` (for messages).
    func decoder(source: String) throws -> any StreamDecoder {
        switch self {
        case .gzip: try GzipDecoder(source: source)
        case .zstd: try ZstdDecoder(source: source)
        }
    }
}

/// A push-style decoder: compressed bytes go in, in chunks of any size, and
/// decompressed bytes come out to `output` as they are made, so neither side
/// is ever held whole.
protocol StreamDecoder: AnyObject {
    func decode(_ input: UnsafeRawBufferPointer, output: (UnsafeRawBufferPointer) throws -> Void) throws
    /// Throws when the compressed data ended before a member or frame did.
    func finish() throws
}

/// The size of a decoder's output pieces and of the compressed chunks read.
private let pieceSize = 1 << 20

/// gzip (RFC 1952), one member after another as `gzip -d` reads them: `cat
/// a.gz b.gz` is one valid input. Zero bytes after a member are padding (tape
/// archives write it) and are skipped; anything else must start a member.
final class GzipDecoder: StreamDecoder {
    let source: String
    /// zlib keeps a pointer back to the stream and checks it on every call, so it must not move.
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private let output = UnsafeMutableRawBufferPointer.allocate(byteCount: pieceSize, alignment: 8)
    /// Compressed bytes consumed so far, for messages.
    private var consumed = 0
    /// Where the current member started, and how much of its signature was seen.
    private var memberStart = 0
    private var signatureSeen = 0
    private var membersDone = 0
    private var betweenMembers = false

    init(source: String) throws {
        self.source = source
        stream.initialize(to: z_stream())
        guard changeset_inflate_init_gzip(stream) == Z_OK else {
            stream.deallocate()
            output.deallocate()
            throw InputError(source: source, location: nil, message: "cannot start gzip decompression: out of memory")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
        output.deallocate()
    }

    func decode(_ input: UnsafeRawBufferPointer, output emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        var rest = input[...]
        while !rest.isEmpty {
            if betweenMembers {
                let padding = rest.prefix { $0 == 0 }.count
                consumed += padding
                rest = rest.dropFirst(padding)
                if rest.isEmpty { return }
                inflateReset(stream)
                betweenMembers = false
                memberStart = consumed
                signatureSeen = 0
            }
            // Checked here rather than left to zlib ("incorrect header check")
            // to say what the bytes are not.
            let signature = InputCompression.gzip.signature
            while signatureSeen < signature.count, memberStart + signatureSeen - consumed < rest.count {
                if rest[rest.startIndex + memberStart + signatureSeen - consumed] != signature[signatureSeen] {
                    throw invalid(membersDone == 0
                        ? "it does not start with the gzip signature 1f 8b"
                        : "after \(memberStart) compressed bytes: neither another gzip member (1f 8b) nor zero padding")
                }
                signatureSeen += 1
            }
            let fed = rest.count
            let base = UnsafeRawBufferPointer(rebasing: rest).baseAddress!
            stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
            // Chunks are at most `pieceSize`, well within zlib's 32-bit counts.
            stream.pointee.avail_in = uInt(fed)
            while true {
                stream.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_out = uInt(output.count)
                let status = inflate(stream, Z_NO_FLUSH)
                let produced = output.count - Int(stream.pointee.avail_out)
                let used = fed - Int(stream.pointee.avail_in)
                if produced > 0 { try emit(UnsafeRawBufferPointer(rebasing: output[0..<produced])) }
                switch status {
                case Z_STREAM_END:
                    consumed += used
                    rest = rest.dropFirst(used)
                    membersDone += 1
                    betweenMembers = true
                case Z_OK, Z_BUF_ERROR:
                    // Z_BUF_ERROR: no progress without more input, which is not an error here.
                    if stream.pointee.avail_in == 0 && stream.pointee.avail_out != 0 {
                        consumed += used
                        rest = rest.dropFirst(used)
                    } else {
                        continue
                    }
                case Z_MEM_ERROR:
                    throw InputError(source: source, location: nil, message: "cannot decompress gzip data: out of memory")
                default:
                    let reason = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                    throw invalid("\(reason), after \(consumed + used) compressed bytes")
                }
                break
            }
        }
    }

    func finish() throws {
        if consumed == 0 && !betweenMembers {
            throw InputError(source: source, location: nil, message: "truncated gzip data (the input is empty)")
        }
        guard betweenMembers else {
            throw InputError(source: source, location: nil,
                             message: "truncated gzip data (it ends inside a member, after \(consumed) compressed bytes)")
        }
    }

    private func invalid(_ reason: String) -> InputError {
        InputError(source: source, location: nil, message: "invalid gzip data (\(reason))")
    }
}

/// zstd (RFC 8878), any number of frames (`cat a.zst b.zst`, `zstd -T0`'s
/// output), skippable frames included, as `zstd -d` reads them.
final class ZstdDecoder: StreamDecoder {
    let source: String
    private let stream: OpaquePointer
    private let output = UnsafeMutableRawBufferPointer.allocate(byteCount: pieceSize, alignment: 8)
    private var consumed = 0
    /// libzstd's last answer: 0 exactly when the last frame ended and was flushed.
    private var pending = 0
    private var signatureSeen = 0

    init(source: String) throws {
        self.source = source
        guard let stream = ZSTD_createDStream() else {
            output.deallocate()
            throw InputError(source: source, location: nil, message: "cannot start zstd decompression: out of memory")
        }
        self.stream = stream
        ZSTD_initDStream(stream)
    }

    deinit {
        ZSTD_freeDStream(stream)
        output.deallocate()
    }

    func decode(_ input: UnsafeRawBufferPointer, output emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard !input.isEmpty else { return }
        // The first frame's signature, checked here to say what a misnamed file is not;
        // libzstd checks every later frame's.
        let signature = InputCompression.zstd.signature
        while signatureSeen < signature.count, signatureSeen - consumed < input.count {
            if input[signatureSeen - consumed] != signature[signatureSeen] {
                throw invalid("it does not start with the zstd signature 28 b5 2f fd")
            }
            signatureSeen += 1
        }
        var inBuffer = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
        var outBuffer: ZSTD_outBuffer
        repeat {
            outBuffer = ZSTD_outBuffer(dst: output.baseAddress, size: output.count, pos: 0)
            let result = ZSTD_decompressStream(stream, &outBuffer, &inBuffer)
            if ZSTD_isError(result) != 0 { throw failure(result, readSoFar: consumed + input.count) }
            pending = result
            if outBuffer.pos > 0 { try emit(UnsafeRawBufferPointer(rebasing: output[0..<outBuffer.pos])) }
            // A full output buffer may leave decoded bytes inside libzstd: call again to flush them.
        } while inBuffer.pos < inBuffer.size || outBuffer.pos == outBuffer.size
        consumed += input.count
    }

    func finish() throws {
        if consumed == 0 {
            throw InputError(source: source, location: nil, message: "truncated zstd data (the input is empty)")
        }
        guard pending == 0 else {
            throw InputError(source: source, location: nil,
                             message: "truncated zstd data (it ends inside a frame, after \(consumed) compressed bytes)")
        }
    }

    /// libzstd does not say where in the input it failed: the place is given as
    /// the bytes read so far, which are at most one chunk past it.
    private func failure(_ result: Int, readSoFar: Int) -> InputError {
        let place = "within the first \(readSoFar) compressed bytes"
        switch ZSTD_getErrorCode(result) {
        case ZSTD_error_prefix_unknown:
            // The first frame's signature was checked already: this is what follows a frame.
            return invalid("after a complete frame, bytes that do not start another zstd frame, \(place)")
        case ZSTD_error_frameParameter_windowTooLarge:
            // libzstd's default limit, kept: memory stays small whatever the input says.
            return invalid("a frame needs a window larger than the 128 MiB changeset allows, as zstd --long "
                + "makes; decompress it with zstd -d --long=31 first; \(place)")
        case ZSTD_error_memory_allocation:
            return InputError(source: source, location: nil, message: "cannot decompress zstd data: out of memory")
        default:
            return invalid("\(String(cString: ZSTD_getErrorName(result))), \(place)")
        }
    }

    private func invalid(_ reason: String) -> InputError {
        InputError(source: source, location: nil, message: "invalid zstd data (\(reason))")
    }
}

enum Decompression {
    /// Decompresses `prefix` (bytes already read from `descriptor`) and then
    /// the rest of `descriptor`, a chunk at a time, into a temporary file in
    /// `$TMPDIR` (else /tmp) that is unlinked at once: it holds the decompressed
    /// bytes for the run, to be read in chunks and again by byte range like any
    /// file, and disappears with its descriptor, even on a crash. Returns that
    /// descriptor. Memory use is a few buffers, whatever the size.
    static func toTemporaryFile(
        _ compression: InputCompression, from descriptor: Int32, prefix: [UInt8], source: String
    ) throws -> Int32 {
        let decoder = try compression.decoder(source: source)
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(directory)/changeset-XXXXXX".utf8CString)
        let file = mkstemp(&template)
        guard file >= 0 else { throw temporaryFileError(source, directory) }
        unlink(template)
        var keep = false
        defer { if !keep { close(file) } }

        let write: (UnsafeRawBufferPointer) throws -> Void = { piece in
            var done = 0
            while done < piece.count {
                let wrote = Foundation.write(file, piece.baseAddress! + done, piece.count - done)
                if wrote < 0 && errno == EINTR { continue }
                if wrote < 0 { throw temporaryFileError(source, directory) }
                done += wrote
            }
        }
        try prefix.withUnsafeBytes { try decoder.decode($0, output: write) }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: pieceSize, alignment: 8)
        defer { chunk.deallocate() }
        while true {
            let got = Foundation.read(descriptor, chunk.baseAddress!, chunk.count)
            if got < 0 && errno == EINTR { continue }
            if got < 0 { throw InputFile.systemError(source, "cannot read") }
            if got == 0 { break }
            try decoder.decode(UnsafeRawBufferPointer(rebasing: chunk[0..<got]), output: write)
        }
        try decoder.finish()
        keep = true
        return file
    }

    private static func temporaryFileError(_ source: String, _ directory: String) -> InputError {
        InputError(source: source, location: nil, message: "cannot write the decompressed data to a temporary file in "
            + "\(directory): \(String(cString: strerror(errno))) (TMPDIR names another directory)")
    }
}
