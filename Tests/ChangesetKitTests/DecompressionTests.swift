import Foundation
import Testing
@testable import ChangesetKit

/// gzip and zstd inputs: decoding in any chunking, every kind of bad data
/// with its exact message, and detection by name and by signature.
@Suite struct DecompressionTests {
    static let compressed = fixturesURL.appendingPathComponent("compressed")
    static let catalog = fixturesURL.appendingPathComponent("catalog")

    static func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }
    static func compressed(_ name: String) throws -> [UInt8] { try bytes(compressed.appendingPathComponent(name)) }
    static func catalog(_ name: String) throws -> [UInt8] { try bytes(catalog.appendingPathComponent(name)) }

    /// What `gzip -n < /dev/null` and `zstd < /dev/null` write: one member or frame holding nothing.
    static let emptyGzip: [UInt8] = [0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0x03, 0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    static let emptyZstd: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0x24, 0x00, 0x01, 0x00, 0x00, 0x99, 0xE9, 0xD8, 0x51]

    /// Decodes `bytes` fed in chunks of `chunkSize`, as a file's chunks would be.
    func decode(_ bytes: [UInt8], _ compression: InputCompression, chunkSize: Int = 1 << 20, source: String = "test") throws -> [UInt8] {
        let decoder = try compression.decoder(source: source)
        var result: [UInt8] = []
        var start = 0
        try bytes.withUnsafeBytes { all in
            while start < all.count {
                let end = min(start + chunkSize, all.count)
                try decoder.decode(UnsafeRawBufferPointer(rebasing: all[start..<end])) { result.append(contentsOf: $0) }
                start = end
            }
        }
        try decoder.finish()
        return result
    }

    /// The message `decode` fails with, or nil when it does not fail.
    func failure(_ bytes: [UInt8], _ compression: InputCompression, chunkSize: Int = 1 << 20) -> String? {
        do {
            _ = try decode(bytes, compression, chunkSize: chunkSize)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Writes `bytes` as `name` in a new scratch directory.
    func scratchFile(_ bytes: [UInt8], name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("changeset-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    @Test(arguments: chunkSizes)
    func gzipDecodesInAnyChunks(chunkSize: Int) throws {
        #expect(try decode(Self.compressed("old.json.gz"), .gzip, chunkSize: chunkSize) == Self.catalog("old.json"))
    }

    @Test(arguments: chunkSizes)
    func zstdDecodesInAnyChunks(chunkSize: Int) throws {
        #expect(try decode(Self.compressed("new.csv.zst"), .zstd, chunkSize: chunkSize) == Self.catalog("new.csv"))
    }

    @Test(arguments: chunkSizes)
    func gzipMembersFollowOneAnother(chunkSize: Int) throws {
        // old.ndjson.gz is two members, cut inside a record.
        #expect(try decode(Self.compressed("old.ndjson.gz"), .gzip, chunkSize: chunkSize) == Self.catalog("old.ndjson"))
        let concatenated = try Self.compressed("old.json.gz") + Self.emptyGzip + Self.compressed("old.ndjson.gz")
        #expect(try decode(concatenated, .gzip, chunkSize: chunkSize) == Self.catalog("old.json") + Self.catalog("old.ndjson"))
    }

    @Test(arguments: chunkSizes)
    func zstdFramesFollowOneAnother(chunkSize: Int) throws {
        // new.ndjson.zst is two frames, cut inside a record.
        #expect(try decode(Self.compressed("new.ndjson.zst"), .zstd, chunkSize: chunkSize) == Self.catalog("new.ndjson"))
        let concatenated = try Self.compressed("new.csv.zst") + Self.emptyZstd + Self.compressed("new.ndjson.zst")
        #expect(try decode(concatenated, .zstd, chunkSize: chunkSize) == Self.catalog("new.csv") + Self.catalog("new.ndjson"))
    }

    @Test func zeroPaddingAfterAGzipMemberIsSkipped() throws {
        let padded = try Self.compressed("old.json.gz") + [UInt8](repeating: 0, count: 512)
        #expect(try decode(padded, .gzip, chunkSize: 7) == Self.catalog("old.json"))
    }

    @Test func emptyContentIsNoBytes() throws {
        #expect(try decode(Self.emptyGzip, .gzip) == [])
        #expect(try decode(Self.emptyZstd, .zstd) == [])
    }

    @Test func anEmptyCompressedFileIsTruncated() {
        #expect(failure([], .gzip) == "test: truncated gzip data (the input is empty)")
        #expect(failure([], .zstd) == "test: truncated zstd data (the input is empty)")
    }

    @Test func everyCutOfAGzipFileIsTruncated() throws {
        let whole = try Self.compressed("old.json.gz")
        for length in 1..<whole.count {
            #expect(failure(Array(whole[0..<length]), .gzip, chunkSize: 64)
                == "test: truncated gzip data (it ends inside a member, after \(length) compressed bytes)")
        }
    }

    @Test func everyCutOfAZstdFileIsTruncated() throws {
        let whole = try Self.compressed("new.ndjson.zst")
        // A cut exactly between the two frames leaves a whole frame: that is a valid, shorter file.
        var valid: [Int] = []
        for length in 1..<whole.count {
            let message = failure(Array(whole[0..<length]), .zstd, chunkSize: 64)
            if message == nil {
                valid.append(length)
            } else {
                #expect(message == "test: truncated zstd data (it ends inside a frame, after \(length) compressed bytes)")
            }
        }
        #expect(valid.count == 1, "only the cut between the frames decodes: \(valid)")
    }

    @Test func corruptDataNamesTheInput() throws {
        #expect(failure(try Self.compressed("corrupt.json.gz"), .gzip)
            == "test: invalid gzip data (incorrect data check, after 412 compressed bytes)")
        var zstd = try Self.compressed("new.csv.zst")
        zstd[40] ^= 0xFF
        #expect(failure(zstd, .zstd) == "test: invalid zstd data (Data corruption detected, within the first 335 compressed bytes)")
    }

    @Test(arguments: [("old.json.gz", InputCompression.gzip, "old.json"), ("new.csv.zst", .zstd, "new.csv")])
    func everyDamagedByteIsHarmlessOrAnError(file: String, compression: InputCompression, source: String) throws {
        // gzip's CRC-32 and the zstd frame checksum see every changed byte of the
        // content; only header fields they do not cover (gzip's time stamp) may change freely.
        let whole = try Self.compressed(file)
        let original = try Self.catalog(source)
        for index in whole.indices {
            for flip: UInt8 in [0x01, 0xFF] {
                var damaged = whole
                damaged[index] ^= flip
                do {
                    #expect(try decode(damaged, compression) == original, "byte \(index) ^ \(flip) gave other content")
                } catch let error as InputError {
                    let name = compression.rawValue
                    #expect(error.message.hasPrefix("invalid \(name) data (") || error.message.hasPrefix("truncated \(name) data ("),
                            "byte \(index) ^ \(flip): \(error)")
                }
            }
        }
    }

    @Test func dataThatIsNotWhatTheNameSaysIsRefused() throws {
        let json = try Self.catalog("old.json")
        #expect(failure(json, .gzip) == "test: invalid gzip data (it does not start with the gzip signature 1f 8b)")
        #expect(failure(json, .zstd) == "test: invalid zstd data (it does not start with the zstd signature 28 b5 2f fd, nor with a skippable frame)")
        // A signature cut between chunks is checked all the same.
        #expect(failure([0x1F, 0x00], .gzip, chunkSize: 1) == "test: invalid gzip data (it does not start with the gzip signature 1f 8b)")
        #expect(failure([0x28, 0xB5, 0x2F, 0x00], .zstd, chunkSize: 1)
            == "test: invalid zstd data (it does not start with the zstd signature 28 b5 2f fd, nor with a skippable frame)")
    }

    @Test func bytesAfterTheLastMemberOrFrameAreRefused() throws {
        let gzip = try Self.compressed("old.json.gz")
        #expect(failure(gzip + Array("junk".utf8), .gzip, chunkSize: 7)
            == "test: invalid gzip data (after \(gzip.count) compressed bytes: neither another gzip member (1f 8b) nor zero padding)")
        let zstd = try Self.compressed("new.csv.zst")
        #expect(failure(zstd + Array("junk".utf8), .zstd)
            == "test: invalid zstd data (after a complete frame, bytes that do not start another zstd frame, within the first \(zstd.count + 4) compressed bytes)")
    }

    @Test func aZstdWindowOver128MiBIsRefusedWithAWayOut() {
        // A frame header asking for a 2 GiB window (window descriptor 0xA8: 2^31), as zstd --long=31 writes.
        let frame: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0x00, 0xA8, 0x01, 0x00, 0x00]
        #expect(failure(frame, .zstd) == "test: invalid zstd data (a frame needs a window larger than the 128 MiB changeset "
            + "allows, as zstd --long makes; decompress it with zstd -d --long=31 first; within the first 9 compressed bytes)")
    }

    @Test func compressionComesFromTheNameThenTheSignature() {
        #expect(InputCompression(pathExtension: "gz") == .gzip)
        #expect(InputCompression(pathExtension: "ZST") == .zstd)
        #expect(InputCompression(pathExtension: "json") == nil)
        #expect(InputCompression(signature: [0x1F, 0x8B, 0x08]) == .gzip)
        #expect(InputCompression(signature: [0x28, 0xB5, 0x2F, 0xFD]) == .zstd)
        #expect(InputCompression(signature: [0x28, 0xB5, 0x2F]) == nil)
        #expect(InputCompression(signature: Array("[{".utf8)) == nil)
        #expect(InputCompression(signature: []) == nil)
    }

    @Test func theFormatIsTheExtensionUnderTheCompressionOne() {
        #expect(InputFile.formatOfName("x.csv.gz") == .csv)
        #expect(InputFile.formatOfName("dir.v2/old.JSON.ZST") == .json)
        #expect(InputFile.formatOfName("a.ndjson.zst") == .ndjson)
        #expect(InputFile.formatOfName("a.tsv") == .tsv)
        #expect(InputFile.formatOfName("a.gz") == nil)
        #expect(InputFile.formatOfName("dir.csv/a.gz") == nil)
        #expect(InputFile.formatOfName("a.csv.gz.gz") == nil)
    }

    @Test func filesAreDecompressedAndTheirFormatSettled() throws {
        let cases: [(name: String, format: InputFormat, source: String)] = [
            ("old.json.gz", .json, "old.json"), ("new.csv.zst", .csv, "new.csv"),
            ("old.ndjson.gz", .ndjson, "old.ndjson"), ("new.ndjson.zst", .ndjson, "new.ndjson"),
            // No extension: the signature says zstd, the content says JSON.
            ("new-snapshot", .json, "new.json"),
        ]
        for (name, format, source) in cases {
            let input = try InputFile.open(Self.compressed.appendingPathComponent(name).path)
            #expect(input.format == format, "\(name)")
            #expect(try input.bytes.copy(0..<input.bytes.count) == Self.catalog(source), "\(name)")
        }
    }

    @Test func aSignatureBeatsATextExtension() throws {
        // The report this feature began with: a gzip file named .json read as text gave "invalid UTF-8 (byte 0x8B)".
        let url = try scratchFile(Self.compressed("old.json.gz"), name: "old.json")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let input = try InputFile.open(url.path)
        #expect(input.format == .json)
        #expect(try input.bytes.copy(0..<input.bytes.count) == Self.catalog("old.json"))
    }

    @Test func textThatMerelyStartsLikeASignatureIsText() throws {
        let url = try scratchFile(Array("(x,y\n1,2\n".utf8), name: "data")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let input = try InputFile.open(url.path)
        #expect(input.format == .csv)
        #expect(input.bytes.count == 9)
    }

    @Test func messagesNameTheFileAsGiven() throws {
        let path = Self.compressed.appendingPathComponent("truncated.csv.zst").path
        #expect(throws: InputError(source: path, location: nil,
                                   message: "truncated zstd data (it ends inside a frame, after 200 compressed bytes)")) {
            _ = try InputFile.open(path)
        }
        let empty = try scratchFile([], name: "empty.json.gz")
        defer { try? FileManager.default.removeItem(at: empty.deletingLastPathComponent()) }
        #expect(throws: InputError(source: empty.path, location: nil, message: "truncated gzip data (the input is empty)")) {
            _ = try InputFile.open(empty.path)
        }
    }

    @Test func errorsInTheContentArePlacesInTheDecompressedText() throws {
        let path = Self.compressed.appendingPathComponent("trailing-comma.json.gz").path
        let input = try InputFile.open(path)
        #expect(throws: InputError(source: path, location: InputLocation(line: 3, column: 12),
                                   message: "unexpected '}' (a trailing comma is not allowed)")) {
            _ = try input.readRecords(RecordOptions(id: [FieldPath(["id"])]))
        }
    }

    @Test func recordsAreReadAgainByTheirDecompressedByteRange() throws {
        let input = try InputFile.open(Self.compressed.appendingPathComponent("new.csv.zst").path)
        let table = try input.readRecords(RecordOptions(id: [FieldPath(["id"])]))
        let text = try Self.catalog("new.csv")
        #expect(table.count == 7)
        for index in 0..<table.count {
            let range = table.byteRange(index)
            #expect(try input.bytes.copy(range) == Array(text[range]))
        }
    }
}
