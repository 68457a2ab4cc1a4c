import Foundation
import Testing

/// `.gz` and `.zst` inputs, through the command: the same result as the
/// uncompressed files, from a file or standard input, and bad data refused.
@Suite struct CompressedInputTests {
    func contents(_ path: String) throws -> Data { try Data(contentsOf: fixtures.appendingPathComponent(path)) }

    /// Both runs must agree on status and output; standard error must be empty.
    func expectSameResult(_ compressed: CommandResult, _ plain: CommandResult, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(plain.status == 1 && !plain.stdout.isEmpty, "\(plain)", sourceLocation: sourceLocation)
        #expect(compressed.status == plain.status && compressed.stdout == plain.stdout && compressed.stderr.isEmpty,
                "\(compressed)\nexpected:\n\(plain)", sourceLocation: sourceLocation)
    }

    @Test func aGzipFileGivesTheSameOutputAsTheFileItHolds() throws {
        expectSameResult(try changeset(["compressed/old.json.gz", "catalog/new.json", "--id", "id"]),
                         try changeset(["catalog/old.json", "catalog/new.json", "--id", "id"]))
        // The JSON output names the file as given and its format as the content's.
        let json = try changeset(["compressed/old.json.gz", "catalog/new.json", "--id", "id", "--format", "json"])
        let plain = try changeset(["catalog/old.json", "catalog/new.json", "--id", "id", "--format", "json"])
        #expect(json.stdout.contains(#""old": {"file":"compressed/old.json.gz","format":"json","records":7}"#), "\(json)")
        #expect(json.stdout.replacingOccurrences(of: "compressed/old.json.gz", with: "catalog/old.json") == plain.stdout, "\(json)")
    }

    @Test func zstdAndSeveralMembersOrFramesGiveTheSameOutput() throws {
        expectSameResult(try changeset(["catalog/old.csv", "compressed/new.csv.zst", "--id", "id", "--section", "category"]),
                         try changeset(["catalog/old.csv", "catalog/new.csv", "--id", "id", "--section", "category"]))
        // Two gzip members against two zstd frames, each cut inside a record.
        expectSameResult(try changeset(["compressed/old.ndjson.gz", "compressed/new.ndjson.zst", "--id", "id", "--format", "json"]),
                         try changeset(["catalog/old.ndjson", "catalog/new.ndjson", "--id", "id", "--format", "json"])
                            .replacing("catalog/old.ndjson", with: "compressed/old.ndjson.gz")
                            .replacing("catalog/new.ndjson", with: "compressed/new.ndjson.zst"))
    }

    @Test func aNameWithoutExtensionIsDetectedBySignature() throws {
        // new-snapshot is zstd holding catalog/new.json: the signature says zstd, then the content says JSON.
        expectSameResult(try changeset(["catalog/old.json", "compressed/new-snapshot", "--id", "id"]),
                         try changeset(["catalog/old.json", "catalog/new.json", "--id", "id"]))
    }

    @Test func standardInputIsDetectedBySignature() throws {
        expectSameResult(try changeset(["-", "catalog/new.json", "--id", "id"], input: contents("compressed/old.json.gz")),
                         try changeset(["catalog/old.json", "catalog/new.json", "--id", "id"]))
        expectSameResult(try changeset(["catalog/old.csv", "-", "--id", "id"], input: contents("compressed/new.csv.zst")),
                         try changeset(["catalog/old.csv", "catalog/new.csv", "--id", "id"]))
    }

    @Test func aCorruptFileIsTroubleThatNamesIt() throws {
        let result = try changeset(["compressed/corrupt.json.gz", "catalog/new.json", "--id", "id"])
        #expect(result.status == 2 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr == "changeset: compressed/corrupt.json.gz: invalid gzip data (incorrect data check, after 412 compressed bytes)\n")
    }

    @Test func aTruncatedInputIsTroubleThatSaysSo() throws {
        let file = try changeset(["catalog/old.csv", "compressed/truncated.csv.zst", "--id", "id"])
        #expect(file.status == 2 && file.stdout.isEmpty, "\(file)")
        #expect(file.stderr == "changeset: compressed/truncated.csv.zst: truncated zstd data (it ends inside a frame, after 200 compressed bytes)\n")
        let stdin = try changeset(["-", "catalog/new.json", "--id", "id"], input: contents("compressed/truncated.json.gz"))
        #expect(stdin.status == 2 && stdin.stdout.isEmpty, "\(stdin)")
        #expect(stdin.stderr == "changeset: <stdin>: truncated gzip data (it ends inside a member, after 200 compressed bytes)\n")
    }

    @Test func errorsInTheContentArePlacesInTheDecompressedText() throws {
        let result = try changeset(["-", "catalog/new.json", "--id", "id"], input: contents("compressed/trailing-comma.json.gz"))
        #expect(result.status == 2 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr == "changeset: <stdin>:3:12: unexpected '}' (a trailing comma is not allowed)\n")
    }

    @Test func theTemporaryFileIsGoneAndItsDirectoryIsTMPDIR() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try changeset(["compressed/old.json.gz", "compressed/new.csv.zst", "--id", "id", "--stat"],
                                   environment: ["TMPDIR": scratch.path])
        #expect(result.status == 1 && result.stderr.isEmpty, "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == [])
        let missing = scratch.appendingPathComponent("missing").path
        let refused = try changeset(["compressed/old.json.gz", "catalog/new.json", "--id", "id"], environment: ["TMPDIR": missing])
        #expect(refused.status == 2 && refused.stdout.isEmpty, "\(refused)")
        #expect(refused.stderr == "changeset: compressed/old.json.gz: cannot write a temporary copy of this input (read once, as it arrives) in "
            + "\(missing): No such file or directory (TMPDIR names another directory)\n")
    }

    @Test func applyTakesACompressedBaseAndPatch() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let patch = scratch.appendingPathComponent("p.patch").path
        let made = try changeset(["catalog/old.json", "catalog/new.json", "--id", "id", "--format", "patch", "-o", patch])
        #expect(made.status == 1, "\(made)")
        let fromCompressed = try changeset(["apply", "compressed/old.json.gz", patch])
        let fromPlain = try changeset(["apply", "catalog/old.json", patch])
        #expect(fromPlain.status == 0 && !fromPlain.stdout.isEmpty, "\(fromPlain)")
        #expect(fromCompressed.status == 0 && fromCompressed.stdout == fromPlain.stdout, "\(fromCompressed)")
        // gzip is in every Debian system (Essential: yes).
        let zipped = try runProcess(URL(fileURLWithPath: "/bin/gzip"), ["-k", patch])
        #expect(zipped.status == 0, "\(zipped)")
        let compressedPatch = try changeset(["apply", "compressed/old.json.gz", patch + ".gz"])
        #expect(compressedPatch.status == 0 && compressedPatch.stdout == fromPlain.stdout, "\(compressedPatch)")
    }
}

extension CommandResult {
    /// The same result with `old` written as `new` in standard output.
    func replacing(_ old: String, with new: String) -> CommandResult {
        var result = self
        result.stdout = stdout.replacingOccurrences(of: old, with: new)
        return result
    }
}

extension CompressedInputTests {
    @Test func aZstdInputMayStartWithASkippableFrame() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let frame = try Data(contentsOf: fixtures.appendingPathComponent("compressed/new.csv.zst"))
        let skippable = Data([0x50, 0x2A, 0x4D, 0x18, 4, 0, 0, 0, 0x61, 0x62, 0x63, 0x64])
        try (skippable + frame).write(to: scratch.appendingPathComponent("new.csv.zst"))
        try (skippable + frame).write(to: scratch.appendingPathComponent("unnamed"))
        let plain = try changeset(["catalog/old.csv", "catalog/new.csv", "--id", "id"])
        for name in ["new.csv.zst", "unnamed"] {
            let result = try changeset([fixtures.appendingPathComponent("catalog/old.csv").path, name, "--id", "id", "--input-format", "csv"], in: scratch)
            #expect(result.status == plain.status && result.stdout == plain.stdout, "\(name): \(result)")
        }
    }
}
