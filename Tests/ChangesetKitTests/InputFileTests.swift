import Foundation
import Testing
@testable import ChangesetKit

@Suite struct InputFileTests {
    func temporaryFile(_ text: String, name: String = "input.json") throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("changeset-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: false, encoding: .utf8)
        return url
    }

    @Test func aFileThatChangesWhileReadGivesAClearError() throws {
        let url = try temporaryFile(#"[{"id": 1}, {"id": 2}]"#)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let input = try InputFile.open(url.path)
        // Another process rewrites the file after it was opened.
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\n".utf8))
        try handle.close()
        #expect(throws: InputError(source: url.path, location: nil,
                                   message: "the file changed while changeset was reading it; nothing was compared")) {
            _ = try input.readRecords(RecordOptions(id: [FieldPath(["id"])]))
        }
    }

    /// A file that stands for another (git's temporary copies) is named as
    /// the caller says in every error: on opening, in a record, and when it
    /// changes while read; its own path still settles the format.
    @Test func aDisplayNameNamesTheInputInItsErrorsInsteadOfItsPath() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("changeset-missing-\(UUID().uuidString)").path
        #expect(throws: InputError(source: "data.csv (BASE)", location: nil, message: "cannot open: No such file or directory")) {
            _ = try InputFile.open(missing, displayName: "data.csv (BASE)")
        }

        let invalid = try temporaryFile("sku,name\nA1,\"open\n", name: "input.csv")
        defer { try? FileManager.default.removeItem(at: invalid.deletingLastPathComponent()) }
        let named = try InputFile.open(invalid.path, displayName: "data.csv (THEIRS)")
        #expect(named.name == "data.csv (THEIRS)" && named.format == .csv)
        do {
            _ = try named.readRecords(RecordOptions(id: [FieldPath(["sku"])]))
            Issue.record("an unclosed quote was read")
        } catch let error as InputError {
            #expect(error.source == "data.csv (THEIRS)" && error.location?.line == 2, "\(error)")
        }

        let changing = try temporaryFile(#"[{"id": 1}, {"id": 2}]"#)
        defer { try? FileManager.default.removeItem(at: changing.deletingLastPathComponent()) }
        let input = try InputFile.open(changing.path, displayName: "a/data.json")
        let handle = try FileHandle(forWritingTo: changing)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\n".utf8))
        try handle.close()
        #expect(throws: InputError(source: "a/data.json", location: nil,
                                   message: "the file changed while changeset was reading it; nothing was compared")) {
            _ = try input.readRecords(RecordOptions(id: [FieldPath(["id"])]))
        }
    }

    @Test func aFileThatShrinksWhileReadGivesAClearError() throws {
        let url = try temporaryFile(#"[{"id": 1}, {"id": 2}]"#)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let input = try InputFile.open(url.path)
        truncate(url.path, 5)
        #expect(throws: InputError.self) { _ = try input.readRecords(RecordOptions(id: [FieldPath(["id"])])) }
    }

    /// Reads a JSON array file as `readRecords` does, in chunks of `standardSize`,
    /// and gives the size of every chunk fed to the reader.
    func chunkSizes(reading url: URL, standardSize: Int) throws -> (sizes: [Int], table: RecordTable) {
        let input = try InputFile.open(url.path)
        let reader = JSONRecordReader(source: input.name, layout: .array, options: RecordOptions(id: [FieldPath(["id"])]))
        var sizes: [Int] = []
        try input.bytes.forEachChunk({ sizes.append($0.count); try reader.feed($0) },
                                     standardSize: standardSize, wantsMore: { reader.endsInsideLongToken })
        return (sizes, try reader.finish())
    }

    /// Regression: a chunk that merely ended inside a token (most do: most of
    /// a JSON file is strings and numbers) doubled the next chunk, so a 174 MB
    /// file was read into a 64 MiB buffer a side and the peak memory of a 1M
    /// diff was 110 MB higher than it needed to be.
    @Test func chunksStayTheStandardSizeWhenTokensAreShort() throws {
        let records = (0..<3000).map { #"{"id": \#($0), "title": "Title number \#($0) of many", "price": \#($0).25}"# }
        let url = try temporaryFile("[" + records.joined(separator: ",\n") + "]")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let (sizes, table) = try chunkSizes(reading: url, standardSize: 4096)
        #expect(table.count == 3000)
        #expect(sizes.count > 40)
        #expect(sizes.allSatisfy { $0 <= 4096 }, "chunk sizes: \(Set(sizes).sorted())")
    }

    /// A token longer than a chunk makes the chunks double while it runs on
    /// (yajl lexes a cut token again from its start), then they shrink back.
    @Test func aTokenLongerThanAChunkGrowsTheChunksUntilItEnds() throws {
        let long = String(repeating: "abcdefghij", count: 20_000)  // 200,000 bytes
        let after = (2...8000).map { #"{"id": \#($0), "note": "short"}"# }
        let text = #"[{"id": 1, "note": ""# + long + #""},"# + after.joined(separator: ",") + "]"
        let url = try temporaryFile(text)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let (sizes, table) = try chunkSizes(reading: url, standardSize: 4096)
        #expect(table.count == 8000)
        let whole = try InputFile(name: "whole", bytes: InputBytes(copying: Array(text.utf8)), format: .json)
            .readRecords(RecordOptions(id: [FieldPath(["id"])]))
        #expect(table.fingerprints == whole.fingerprints)
        // The first chunk ends inside a string it began; the second inside one
        // begun before it: from there the chunks double until the string ends
        // (7 chunks for it, not 49), then go back to the standard size.
        #expect(Array(sizes.prefix(7)) == [4096, 4096, 8192, 16384, 32768, 65536, 131072], "chunk sizes: \(sizes)")
        #expect(sizes.count > 20 && sizes.dropFirst(7).allSatisfy { $0 <= 4096 }, "chunk sizes: \(sizes)")
    }

    @Test func missingFilesAndDirectoriesAreErrors() throws {
        #expect(throws: InputError(source: "/nonexistent/x.json", location: nil, message: "cannot open: No such file or directory")) {
            _ = try InputFile.open("/nonexistent/x.json")
        }
        #expect(throws: InputError(source: "/tmp", location: nil, message: "is a directory, not a file")) {
            _ = try InputFile.open("/tmp")
        }
    }

    @Test func formatComesFromTheExtensionThenTheContent() throws {
        let cases: [(String, String, InputFormat)] = [
            ("a.json", "x", .json), ("a.jsonl", "x", .ndjson), ("a.tab", "x", .tsv),
            ("a.txt", "  [", .json), ("a.txt", "{\"id\":1}", .ndjson), ("a.txt", "id,name\n", .csv),
            ("a.txt", "id\tname\n", .tsv), ("a", "\u{FEFF}[]", .json),
        ]
        for (name, text, expected) in cases {
            let url = try temporaryFile(text, name: name)
            defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
            #expect(try InputFile.open(url.path).format == expected, "\(name): \(text)")
        }
    }
}
