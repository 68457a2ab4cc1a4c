import Foundation
import Testing

/// What the readers take and refuse, through the command: streams of bytes
/// that are not text, text in other encodings, unpaired surrogates, a string
/// of 48 MB, inputs without records, and a file that changes while it is read again.
@Suite struct InputReadingTests {
    @Test func aStreamOfInvalidBytesFailsAtItsFirstChunk() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try writeFile("[{\"id\":1}]", "n.json", in: scratch)
        // Without the streaming reader these never end (or end out of memory); the timeout makes that a failure.
        for (script, message) in [
            ("\"$CHANGESET\" /dev/zero n.json --id id", "/dev/zero:1:1: a NUL byte (0x00): CSV is text, and this looks like a binary file"),
            ("\"$CHANGESET\" /dev/zero n.json --id id --input-format json", "/dev/zero:1:1: unexpected byte 0x00; NaN, Infinity and bare words are not JSON"),
            ("head -c 200000000 /dev/zero | \"$CHANGESET\" - n.json --id id", "<stdin>:1:1: a NUL byte (0x00): CSV is text, and this looks like a binary file"),
            ("head -c 200000000 /dev/zero | gzip -1 > bomb.csv.gz && \"$CHANGESET\" bomb.csv.gz n.json --id id", "bomb.csv.gz:1:1: a NUL byte (0x00): CSV is text, and this looks like a binary file"),
            ("yes x | \"$CHANGESET\" - n.json --id id --input-format json", "<stdin>:1:1: unexpected 'x'; NaN, Infinity and bare words are not JSON"),
            ("\"$CHANGESET\" apply n.json /dev/zero", "/dev/zero: not a changeset patch: it holds a NUL byte"),
        ] {
            let result = try runShell(script, in: scratch, timeout: 30)
            // The writer of a pipe may add its own broken-pipe line (when SIGPIPE is ignored); changeset's is the one named.
            let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("changeset") }
            #expect(result.status == 2 && result.stdout.isEmpty && lines == ["changeset: \(message)"], "\(script): \(result)")
        }
    }

    @Test func textInOtherEncodingsIsNamedAsSuch() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data("id,v\n1,1\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }).write(to: scratch.appendingPathComponent("le.csv"))
        try Data([0xFE, 0xFF] + "[{\"id\":1}]".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }).write(to: scratch.appendingPathComponent("be.json"))
        let little = try changeset(["le.csv", "le.csv", "--id", "id"], in: scratch)
        #expect(little.status == 2 && little.stdout.isEmpty && little.stderr == "changeset: le.csv:1:1: this is UTF-16LE text (two bytes a character), "
            + "not UTF-8; changeset reads UTF-8: convert it first, e.g. iconv -f UTF-16LE -t UTF-8\n", "\(little)")
        let big = try changeset(["be.json", "be.json", "--id", "id"], in: scratch)
        #expect(big.status == 2 && big.stdout.isEmpty && big.stderr == "changeset: be.json:1:1: this is UTF-16BE text (two bytes a character), "
            + "not UTF-8; changeset reads UTF-8: convert it first, e.g. iconv -f UTF-16BE -t UTF-8\n", "\(big)")
    }

    @Test func aHighSurrogateEscapeFollowedByAPlainCharacterIsRefused() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try writeFile("{\"id\":1,\"s\":\"\\ud83d?\\ude00\"}\n", "b.ndjson", in: scratch)
        let result = try changeset(["b.ndjson", "b.ndjson", "--id", "id"], in: scratch)
        #expect(result.status == 2 && result.stdout.isEmpty && result.stderr == "changeset: b.ndjson:1:14: unpaired surrogate escape in string "
            + "(a high surrogate \\uD800-\\uDBFF must be followed by a low one \\uDC00-\\uDFFF)\n", "\(result)")
    }

    @Test func aHugeStringIsReadWhole() throws {
        // 48 MB in one string, cut by the 8 MB read chunks: the reader must
        // take bigger chunks while the string lasts (see InputBytes).
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let big = String(repeating: "abcdefgh", count: 6 << 20)
        try "[{\"id\": 1, \"blob\": \"\(big)\"}]".write(to: scratch.appendingPathComponent("old.json"), atomically: true, encoding: .utf8)
        try "[{\"id\": 1, \"blob\": \"\(big)x\"}]".write(to: scratch.appendingPathComponent("new.json"), atomically: true, encoding: .utf8)
        let result = try changeset(["old.json", "new.json", "--id", "id", "--stat"], in: scratch)
        #expect(result.status == 1 && result.stdout == "0 inserted, 0 deleted, 1 updated, 0 moved, 0 unchanged\nfields: blob 1\n", "\(result)")
    }

    @Test func emptyArraysAndHeaderOnlyFilesAreNoRecords() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try "[]".write(to: scratch.appendingPathComponent("empty.json"), atomically: true, encoding: .utf8)
        try "id,name\n".write(to: scratch.appendingPathComponent("header.csv"), atomically: true, encoding: .utf8)
        let same = try changeset(["empty.json", "header.csv", "--id", "id"], in: scratch)
        #expect(same.status == 0 && same.stdout == "0 inserted, 0 deleted, 0 updated, 0 moved, 0 unchanged\n", "\(same)")
        let grown = try changeset(["empty.json", fixtures.appendingPathComponent("catalog/old.csv").path, "--id", "id", "--stat"], in: scratch)
        #expect(grown.status == 1 && grown.stdout == "7 inserted, 0 deleted, 0 updated, 0 moved, 0 unchanged\n", "\(grown)")
    }

    @Test func aFileChangedWhileTheReportReadsItAgainIsTrouble() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let count = 20_000
        let old = (0..<count).map { "{\"id\":\($0),\"v\":\"aaaa\"}" }.joined(separator: "\n") + "\n"
        let new = (0..<count).map { "{\"id\":\($0),\"v\":\"bbbb\"}" }.joined(separator: "\n") + "\n"
        try writeFile(old, "old.ndjson", in: scratch)
        try writeFile(new, "new.ndjson", in: scratch)
        // The report fills the pipe and waits for it to be read; meanwhile NEW is
        // rewritten in place with other values of the same size, still valid.
        let process = Process()
        process.executableURL = changesetBinary
        process.arguments = ["old.ndjson", "new.ndjson", "--id", "id"]
        process.currentDirectoryURL = scratch
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // The first bytes of the report: both files are read, and the report
        // goes on reading NEW's records again as it writes them, a batch at a
        // time, until the pipe (far smaller than the report) is full.
        let first = output.fileHandleForReading.availableData
        #expect(!first.isEmpty, "the report wrote nothing")
        let handle = try FileHandle(forWritingTo: scratch.appendingPathComponent("new.ndjson"))
        try handle.write(contentsOf: Data(new.replacingOccurrences(of: "bbbb", with: "cccc").utf8))
        try handle.close()
        _ = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2, "\(message)")
        #expect(message == "changeset: new.ndjson: the file changed while it was being compared; the result is void "
            + "(standard output may hold part of it; -o FILE writes all or nothing)\n")
    }
}
