import Foundation
import Testing
@testable import ChangesetKit

/// Compressed results: what `CompressingWriter` makes decompresses to exactly
/// what was written (through our decoders and, for gzip, the gzip command),
/// written in any pieces, and the rule that decides a written file's compression.
@Suite struct CompressingWriterTests {
    /// Writes `pieces` through a writer of `compression`; returns the compressed bytes.
    func compress(_ pieces: [[UInt8]], _ compression: InputCompression) throws -> [UInt8] {
        var output: [UInt8] = []
        let writer = try CompressingWriter(compression, destination: "test", emit: { output += $0 })
        for piece in pieces { writer.write(bytes: piece) }
        try writer.finish()
        return output
    }

    /// Decompresses `bytes` through the decoder inputs are read with.
    func decompress(_ bytes: [UInt8], _ compression: InputCompression) throws -> [UInt8] {
        let decoder = try compression.decoder(source: "test")
        var result: [UInt8] = []
        try bytes.withUnsafeBytes { try decoder.decode($0) { result.append(contentsOf: $0) } }
        try decoder.finish()
        return result
    }

    /// Text past several of the writer's 1 MiB pieces, in uneven pieces, with some repetition and some noise.
    static let text: [[UInt8]] = {
        var generator = SystemRandomNumberGenerator()
        return (0..<40_000).map { index in
            Array("\(index),item \(index % 97),\(UInt64.random(in: 0...UInt64.max, using: &generator))\n".utf8)
        } + [[UInt8](repeating: UInt8(ascii: "x"), count: 3 << 20)]
    }()

    @Test(arguments: InputCompression.allCases)
    func whatIsWrittenDecompressesToTheSameBytes(compression: InputCompression) throws {
        let compressed = try compress(Self.text, compression)
        #expect(compressed.starts(with: compression.signature))
        #expect(compressed.count < Self.text.joined().count / 2)
        #expect(try decompress(compressed, compression) == Array(Self.text.joined()))
    }

    @Test(arguments: InputCompression.allCases)
    func anEmptyResultIsOneEmptyMemberOrFrame(compression: InputCompression) throws {
        let compressed = try compress([], compression)
        #expect(compressed.starts(with: compression.signature))
        #expect(try decompress(compressed, compression) == [])
    }

    @Test(arguments: InputCompression.allCases)
    func theSameTextGivesTheSameBytes(compression: InputCompression) throws {
        let text = Array("sku,name\nA1,apple\n".utf8)
        #expect(try compress([text], compression) == compress(text.map { [$0] }, compression))
    }

    @Test func gzipOutputIsReadByTheGzipCommand() throws {
        let text = Array(Self.text.prefix(2000).joined())
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("changeset-\(UUID().uuidString).gz")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(try compress([text], .gzip)).write(to: url)
        let process = Process()
        // gzip is in every Debian system (Essential: yes).
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc", url.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect([UInt8](output) == text)
    }

    /// The compression of a file written: its name's, else that of the file it replaces, else none.
    @Test func aWrittenFileIsCompressedAsItsNameElseTheFileItReplacesSays() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("changeset-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String, _ bytes: [UInt8]? = nil) throws -> String {
            let url = directory.appendingPathComponent(name)
            if let bytes { try Data(bytes).write(to: url) }
            return url.path
        }
        #expect(InputCompression.of(file: try path("new.csv.gz")) == .gzip)
        #expect(InputCompression.of(file: try path("new.CSV.ZST")) == .zstd)
        #expect(InputCompression.of(file: try path("new.csv")) == nil)
        // git's merge driver writes over a temporary file whose name says nothing.
        #expect(InputCompression.of(file: try path(".merge_file_a1b2c3", try compress([[1]], .zstd))) == .zstd)
        #expect(InputCompression.of(file: try path(".merge_file_d4e5f6", Array("a,b\n".utf8))) == nil)
        // The name wins over the content, as when reading.
        #expect(InputCompression.of(file: try path("old.csv.gz", try compress([[1]], .zstd))) == .gzip)
        #expect(InputCompression.of(file: "/dev/null") == nil)
    }
}
