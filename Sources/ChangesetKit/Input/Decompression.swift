// Compressed inputs and outputs: gzip through zlib, zstd through libzstd. The
// only file that imports either library; everything else sees plain bytes.
// Unsafe code here: both libraries' streams take and fill C buffers by address.
// Each stream is owned by one object that frees it in deinit; every buffer
// handed to a library lives for the call and its length is the count passed,
// in pieces of at most `pieceSize`, within the libraries' 32-bit counts.
internal import CZlib
internal import CZstd
import Foundation

/// A compression an input may be in (a file, or `Data` given to
/// ``DatasetSource/data(_:format:compression:name:)``), or a result written
/// in: gzip (RFC 1952, members one after another) or zstd (frames, skippable
/// ones too). Inputs are decompressed as they are read.
public enum InputCompression: String, Sendable, CaseIterable {
    /// gzip: `.gz`; its bytes start 1f 8b.
    case gzip
    /// Zstandard: `.zst`; its bytes start 28 b5 2f fd (or a skippable frame).
    case zstd

    /// The compression of the file at `path` by the rule inputs are read by:
    /// its name's (`.gz`, `.zst`), else, for a regular file, the one its first
    /// bytes announce. A file changeset writes takes the same rule, so that it
    /// reads back as it was meant: a result named `.gz` is gzip, and one that
    /// replaces a file (git's merge driver writes over OURS, a temporary file
    /// whose name says nothing) keeps that file's compression.
    package static func of(file path: String) -> InputCompression? {
        if let named = InputCompression(pathExtension: (path as NSString).pathExtension) { return named }
        // Non-blocking, so a FIFO's open does not wait for a writer; it is then no regular file.
        let descriptor = open(FileSystemPath.bytes(path), O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        var start = [UInt8](repeating: 0, count: longestSignature)
        let got = start.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, $0.count, 0) }
        return got > 0 ? InputCompression(signature: start.prefix(got)) : nil
    }

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
    /// character, and a zstd skippable frame's 0x2A follows 0x5_ only in
    /// text that starts with a letter P to _ and a star, then 0x4D 0x18, a
    /// control character), so a text input is never taken for a compressed one.
    init?(signature bytes: some Collection<UInt8>) {
        if let compression = Self.allCases.first(where: { bytes.starts(with: $0.signature) }) {
            self = compression
        } else if Self.isZstdSkippableFrame(Array(bytes.prefix(4))) {
            self = .zstd
        } else {
            return nil
        }
    }

    /// A zstd skippable frame's magic number, 0x184D2A50 to 0x184D2A5F (little
    /// endian), which `pzstd` and others put before the first frame.
    static func isZstdSkippableFrame(_ start: [UInt8]) -> Bool {
        start.count >= 4 && start[0] & 0xF0 == 0x50 && start[1] == 0x2A && start[2] == 0x4D && start[3] == 0x18
    }

    /// Whether `start` (a file's first bytes) is a gzip or zstd input: such a
    /// file is a dataset to read, however binary its bytes look.
    package static func isCompressed(_ start: [UInt8]) -> Bool {
        InputCompression(signature: start) != nil
    }

    /// Whether `start` could be the beginning of a signature (more bytes would tell).
    static func couldStart(_ start: [UInt8]) -> Bool {
        allCases.contains { $0.signature.starts(with: start) }
            || [0x50, 0x2A, 0x4D, 0x18].starts(with: start.enumerated().map { $0.offset == 0 ? $0.element & 0xF0 : $0.element })
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
    private var startSeen: [UInt8] = []
    private var startChecked = false

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
        // (A skippable frame may come first; libzstd reads and skips it.)
        let signature = InputCompression.zstd.signature
        while signatureSeen < signature.count, signatureSeen - consumed < input.count {
            startSeen.append(input[signatureSeen - consumed])
            signatureSeen += 1
        }
        if !startChecked && startSeen.count == signature.count {
            startChecked = true
            if startSeen != signature && !InputCompression.isZstdSkippableFrame(startSeen) {
                throw invalid("it does not start with the zstd signature 28 b5 2f fd, nor with a skippable frame")
            }
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

// MARK: - Compressed outputs

/// A result that could not be compressed: prints as `FILE: cannot write it
/// gzip-compressed: reason`.
package struct CompressionFailure: Error, CustomStringConvertible {
    package var destination: String
    package var compression: InputCompression
    package var reason: String

    package var description: String { "\(destination): cannot write it \(compression.rawValue)-compressed: \(reason)" }
}

/// The compressing counterpart of the decoders: text or bytes go in, in
/// pieces of any size, and the compressed bytes come out to `emit` as they
/// are made, so neither side is ever held whole. `finish()` ends the gzip
/// member or zstd frame; until then the output is not a whole file.
/// The same input always gives the same bytes (no time or name in a gzip
/// header; zstd with its frame checksum, as the `zstd` command writes).
package final class CompressingWriter: TextOutputStream {
    package let compression: InputCompression
    private let destination: String
    private let emit: (ArraySlice<UInt8>) -> Void
    private let encoder: any StreamEncoder
    /// Plain bytes gathered before one call into the library.
    private var pending: [UInt8] = []
    private let compressed = UnsafeMutableRawBufferPointer.allocate(byteCount: pieceSize, alignment: 8)
    private var failure: CompressionFailure?
    private var finished = false

    /// A writer of `compression` for the file `destination` (for messages).
    package init(_ compression: InputCompression, destination: String, emit: @escaping (ArraySlice<UInt8>) -> Void) throws {
        self.compression = compression
        self.destination = destination
        self.emit = emit
        let failure = { (reason: String) in CompressionFailure(destination: destination, compression: compression, reason: reason) }
        do {
            switch compression {
            case .gzip: encoder = try GzipEncoder(failure: failure)
            case .zstd: encoder = try ZstdEncoder(failure: failure)
            }
        } catch {
            compressed.deallocate()
            throw error
        }
        pending.reserveCapacity(pieceSize)
    }

    deinit {
        compressed.deallocate()
    }

    package func write(_ string: String) {
        write(bytes: string.utf8)
    }

    package func write(bytes: some Collection<UInt8>) {
        precondition(!finished, "written after finish()")
        guard failure == nil else { return }
        pending.append(contentsOf: bytes)
        if pending.count >= pieceSize { encodePending(ending: false) }
    }

    /// Compresses what is left and ends the stream; throws the first failure.
    package func finish() throws {
        if !finished && failure == nil { encodePending(ending: true) }
        finished = true
        if let failure { throw failure }
    }

    private func encodePending(ending: Bool) {
        do {
            try pending.withUnsafeBytes { input in
                var offset = 0
                repeat {
                    let end = min(input.count, offset + pieceSize)
                    let last = ending && end == input.count
                    try encoder.encode(UnsafeRawBufferPointer(rebasing: input[offset..<end]), ending: last, into: compressed) { produced in
                        emit(ArraySlice(UnsafeRawBufferPointer(rebasing: compressed[0..<produced])))
                    }
                    offset = end
                } while offset < input.count
            }
        } catch let error as CompressionFailure {
            failure = error
        } catch {
            failure = CompressionFailure(destination: destination, compression: compression, reason: "\(error)")
        }
        pending.removeAll(keepingCapacity: true)
    }
}

/// One library's compressing stream: `input` is consumed whole; the output
/// goes through `output`, reported by the count it holds each time it is
/// full (and at the end), before it is filled again.
private protocol StreamEncoder: AnyObject {
    func encode(_ input: UnsafeRawBufferPointer, ending: Bool, into output: UnsafeMutableRawBufferPointer, produced: (Int) -> Void) throws
}

/// gzip (RFC 1952): one member, through zlib's deflate.
private final class GzipEncoder: StreamEncoder {
    /// zlib keeps a pointer back to the stream and checks it on every call, so it must not move.
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private let failure: (String) -> CompressionFailure

    init(failure: @escaping (String) -> CompressionFailure) throws {
        self.failure = failure
        stream.initialize(to: z_stream())
        guard changeset_deflate_init_gzip(stream) == Z_OK else {
            stream.deallocate()
            throw failure("out of memory")
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
    }

    func encode(_ input: UnsafeRawBufferPointer, ending: Bool, into output: UnsafeMutableRawBufferPointer, produced: (Int) -> Void) throws {
        // deflate only reads from next_in; zlib's type says mutable for old compilers' sake.
        stream.pointee.next_in = input.isEmpty ? nil : UnsafeMutablePointer(mutating: input.baseAddress!.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        while true {
            stream.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = uInt(output.count)
            let status = deflate(stream, ending ? Z_FINISH : Z_NO_FLUSH)
            let count = output.count - Int(stream.pointee.avail_out)
            if count > 0 { produced(count) }
            switch status {
            case Z_STREAM_END:
                return
            case Z_OK, Z_BUF_ERROR:
                // Done with this input once it is all taken and the output had room to spare.
                if !ending && stream.pointee.avail_in == 0 && stream.pointee.avail_out != 0 { return }
                if status == Z_BUF_ERROR && count == 0 { throw failure("zlib made no progress") }
            case Z_MEM_ERROR:
                throw failure("out of memory")
            default:
                throw failure(stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(status)")
            }
        }
    }
}

/// zstd (RFC 8878): one frame, through libzstd's streaming compressor.
private final class ZstdEncoder: StreamEncoder {
    private let context: OpaquePointer
    private let failure: (String) -> CompressionFailure

    init(failure: @escaping (String) -> CompressionFailure) throws {
        self.failure = failure
        guard let context = ZSTD_createCCtx() else { throw failure("out of memory") }
        self.context = context
        // libzstd's default level (3), and the checksum that `zstd` writes, so a damaged file is found.
        let checksum = ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1)
        if ZSTD_isError(checksum) != 0 {
            ZSTD_freeCCtx(context)
            throw failure(String(cString: ZSTD_getErrorName(checksum)))
        }
    }

    deinit {
        ZSTD_freeCCtx(context)
    }

    func encode(_ input: UnsafeRawBufferPointer, ending: Bool, into output: UnsafeMutableRawBufferPointer, produced: (Int) -> Void) throws {
        var inBuffer = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
        while true {
            var outBuffer = ZSTD_outBuffer(dst: output.baseAddress, size: output.count, pos: 0)
            let remaining = ZSTD_compressStream2(context, &outBuffer, &inBuffer, ending ? ZSTD_e_end : ZSTD_e_continue)
            if ZSTD_isError(remaining) != 0 { throw failure(String(cString: ZSTD_getErrorName(remaining))) }
            if outBuffer.pos > 0 { produced(outBuffer.pos) }
            // Ending: 0 once the frame is flushed whole. Continuing: done once the input is taken.
            if ending ? remaining == 0 : inBuffer.pos == inBuffer.size && outBuffer.pos < outBuffer.size { return }
        }
    }
}
