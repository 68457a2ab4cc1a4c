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

    @Test func aFileThatShrinksWhileReadGivesAClearError() throws {
        let url = try temporaryFile(#"[{"id": 1}, {"id": 2}]"#)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let input = try InputFile.open(url.path)
        truncate(url.path, 5)
        #expect(throws: InputError.self) { _ = try input.readRecords(RecordOptions(id: [FieldPath(["id"])])) }
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
