import Foundation
import Testing

/// A patch ends with an `end` line and states its result's fingerprint, so
/// `changeset apply` refuses one that was cut short or edited: exit status 2,
/// a message naming the patch, nothing on standard output and no `-o` file.
/// An untouched patch still rebuilds NEW.
@Suite struct PatchIntegrityTests {
    static let formats = ["json", "ndjson", "csv"]

    /// A scratch folder holding old.FORMAT and new.FORMAT (the catalog
    /// fixtures) and their patch; returns the folder and the patch's lines.
    func scratchWithPatch(_ format: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> (URL, [String]) {
        let scratch = try scratchDirectory()
        for side in ["old", "new"] {
            try FileManager.default.copyItem(
                at: fixtures.appendingPathComponent("catalog/\(side).\(format)"), to: scratch.appendingPathComponent("\(side).\(format)"))
        }
        let patch = try changeset(["old.\(format)", "new.\(format)", "--id", "id", "--format", "patch"], in: scratch)
        #expect(patch.status == 1 && patch.stderr.isEmpty, "\(patch)", sourceLocation: sourceLocation)
        #expect(patch.stdout.hasSuffix("\nend\n"), "\(patch)", sourceLocation: sourceLocation)
        return (scratch, patch.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init))
    }

    /// `lines` as a patch file's text.
    func text(_ lines: some Sequence<String>) -> String {
        lines.map { $0 + "\n" }.joined()
    }

    /// The patch `text`, applied to old.FORMAT to standard output and with
    /// `-o`: refused both ways, with nothing written. Returns the message.
    @discardableResult
    func expectRefused(
        _ text: String, format: String, in scratch: URL, _ what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> String {
        try text.write(to: scratch.appendingPathComponent("bad.patch"), atomically: true, encoding: .utf8)
        let before = try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted()
        let toStandardOutput = try changeset(["apply", "old.\(format)", "bad.patch"], in: scratch)
        #expect(toStandardOutput.status == 2, "\(what): \(toStandardOutput)", sourceLocation: sourceLocation)
        #expect(toStandardOutput.stdout.isEmpty, "\(what): \(toStandardOutput)", sourceLocation: sourceLocation)
        #expect(toStandardOutput.stderr.hasPrefix("changeset: bad.patch:"), "\(what): \(toStandardOutput)", sourceLocation: sourceLocation)
        let toFile = try changeset(["apply", "old.\(format)", "bad.patch", "-o", "out.\(format)"], in: scratch)
        #expect(toFile.status == 2 && toFile.stdout.isEmpty, "\(what): \(toFile)", sourceLocation: sourceLocation)
        #expect(toFile.stderr == toStandardOutput.stderr, "\(what): \(toFile)", sourceLocation: sourceLocation)
        // No out.FORMAT, and no temporary file left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == before, "\(what)", sourceLocation: sourceLocation)
        return toStandardOutput.stderr
    }

    /// The patch with the line at `index` replaced by what `edit` makes of it.
    func editing(_ lines: [String], at index: Int, _ edit: (String) -> String) -> [String] {
        var lines = lines
        lines[index] = edit(lines[index])
        return lines
    }

    /// What a refusal for a result that differs from the stated one says, for a patch whose `result` line is `line`.
    func resultMismatch(line: Int) -> String {
        "changeset: bad.patch:\(line):1: the patch does not build the snapshot this line states"
    }

    @Test(arguments: formats)
    func theUntouchedPatchAppliesAndRebuildsNew(format: String) throws {
        let (scratch, lines) = try scratchWithPatch(format)
        defer { try? FileManager.default.removeItem(at: scratch) }
        try text(lines).write(to: scratch.appendingPathComponent("p.patch"), atomically: true, encoding: .utf8)
        let toStandardOutput = try changeset(["apply", "old.\(format)", "p.patch"], in: scratch)
        #expect(toStandardOutput.status == 0 && toStandardOutput.stderr.isEmpty, "\(toStandardOutput)")
        let toFile = try changeset(["apply", "old.\(format)", "p.patch", "-o", "rebuilt.\(format)"], in: scratch)
        #expect(toFile.status == 0 && toFile.stdout.isEmpty && toFile.stderr.isEmpty, "\(toFile)")
        let rebuilt = try String(contentsOf: scratch.appendingPathComponent("rebuilt.\(format)"), encoding: .utf8)
        #expect(rebuilt == toStandardOutput.stdout)
        let again = try changeset(["rebuilt.\(format)", "new.\(format)", "--id", "id"], in: scratch)
        #expect(again.status == 0, "apply(old, diff(old, new)) differs from new: \(again)")
        if format != "json" {
            // NDJSON and CSV come back byte for byte.
            #expect(rebuilt == (try String(contentsOf: scratch.appendingPathComponent("new.\(format)"), encoding: .utf8)))
        }
    }

    /// `head -n K` of the patch, for every K short of the whole.
    @Test(arguments: formats)
    func aPatchCutAtAnyLineIsRefusedAndWritesNothing(format: String) throws {
        let (scratch, lines) = try scratchWithPatch(format)
        defer { try? FileManager.default.removeItem(at: scratch) }
        for count in 0..<lines.count {
            let message = try expectRefused(text(lines.prefix(count)), format: format, in: scratch, "head -n \(count)")
            if count > 0 {
                #expect(message == "changeset: bad.patch:\(count):1: the patch ends here without its \"end\" line: "
                    + "it was cut short, and the rest of the change is missing\n", "head -n \(count)")
            }
        }
    }

    @Test(arguments: formats)
    func anEditedUpdateRecordIsRefused(format: String) throws {
        let (scratch, lines) = try scratchWithPatch(format)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let update = try #require(lines.firstIndex { $0.hasPrefix("update ") && $0.contains("\"Cosmos\"") })
        let resultLine = try #require(lines.firstIndex { $0.hasPrefix("result ") }) + 1
        let message = try expectRefused(
            text(editing(lines, at: update) { $0.replacingOccurrences(of: "\"Cosmos\"", with: "\"Kosmos\"") }),
            format: format, in: scratch, "an edited update record")
        #expect(message.hasPrefix(resultMismatch(line: resultLine)) && message.hasSuffix("nothing was written\n"), "\(message)")
    }

    @Test(arguments: formats)
    func anEditedInsertRecordIsRefused(format: String) throws {
        let (scratch, lines) = try scratchWithPatch(format)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let insert = try #require(lines.firstIndex { $0.hasPrefix("insert ") && $0.contains("\"Snow Crash\"") })
        let message = try expectRefused(
            text(editing(lines, at: insert) { $0.replacingOccurrences(of: "\"Snow Crash\"", with: "\"Snow Crush\"") }),
            format: format, in: scratch, "an edited insert record")
        #expect(message.contains("the patch does not build the snapshot this line states"), "\(message)")
    }

    @Test(arguments: formats)
    func anIdChangedInsideARecordIsRefused(format: String) throws {
        let (scratch, lines) = try scratchWithPatch(format)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let update = try #require(lines.firstIndex { $0.hasPrefix("update ") && $0.contains("{\"id\":2,") })
        let message = try expectRefused(
            text(editing(lines, at: update) { $0.replacingOccurrences(of: "{\"id\":2,", with: "{\"id\":9,") }),
            format: format, in: scratch, "an id changed inside a record")
        #expect(message.contains("the patch does not build the snapshot this line states"), "\(message)")
    }

    @Test(arguments: formats)
    func aDroppedUpdateLineIsRefused(format: String) throws {
        let (scratch, lines) = try scratchWithPatch(format)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let resultLine = try #require(lines.firstIndex { $0.hasPrefix("result ") }) + 1
        for update in lines.indices where lines[update].hasPrefix("update ") {
            var dropped = lines
            dropped.remove(at: update)
            let message = try expectRefused(text(dropped), format: format, in: scratch, "without line \(update + 1)")
            #expect(message.hasPrefix(resultMismatch(line: resultLine)), "\(message)")
        }
    }

    @Test(arguments: formats)
    func aDuplicatedUpdateLineIsRefused(format: String) throws {
        let (scratch, lines) = try scratchWithPatch(format)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let update = try #require(lines.firstIndex { $0.hasPrefix("update ") })
        var duplicated = lines
        duplicated.insert(lines[update], at: update + 1)
        let message = try expectRefused(text(duplicated), format: format, in: scratch, "a duplicated update line")
        #expect(message.contains("bad.patch:\(update + 2):1: record ") && message.contains("is already used by line \(update + 1)"), "\(message)")
    }

    /// An update for a record the patch otherwise leaves alone: the counts
    /// still add up, only the result's fingerprint tells.
    @Test(arguments: formats)
    func anAddedUpdateLineIsRefused(format: String) throws {
        let (scratch, lines) = try scratchWithPatch(format)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let used = Set(lines.compactMap { line -> Int? in
            let words = line.split(separator: " ")
            return ["delete", "move", "update"].contains(words.first ?? "") ? Int(words[1]) : nil
        })
        let untouched = try #require((0..<7).first { !used.contains($0) })
        let update = try #require(lines.firstIndex { $0.hasPrefix("update ") })
        let record = lines[update].split(separator: " ", maxSplits: 2)[2]
        var added = lines
        added.insert("update \(untouched) \(record)", at: update)
        let message = try expectRefused(text(added), format: format, in: scratch, "an added update line")
        #expect(message.contains("the patch does not build the snapshot this line states"), "\(message)")
    }

    @Test(arguments: formats)
    func anEditedResultFingerprintIsRefused(format: String) throws {
        let (scratch, lines) = try scratchWithPatch(format)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try #require(lines.firstIndex { $0.hasPrefix("result ") })
        let edited = editing(lines, at: result) { line in
            let last = line.last!
            return String(line.dropLast()) + (last == "0" ? "1" : "0")
        }
        let message = try expectRefused(text(edited), format: format, in: scratch, "an edited result line")
        #expect(message.hasPrefix(resultMismatch(line: result + 1)), "\(message)")
    }

    /// The check comes before the first byte goes out, even when the result
    /// is far larger than the output buffer and the damage is at the end.
    @Test func aRefusedPatchWritesNothingEvenWhenItsResultIsLarge() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        func records(_ last: String) -> String {
            "[\n" + (0..<3000).map { #"{"id":\#($0),"text":"\#(String(repeating: "x", count: 100))","n":\#($0 == 2999 ? last : "1")}"# }
                .joined(separator: ",\n") + "\n]\n"
        }
        try records("1").write(to: scratch.appendingPathComponent("old.json"), atomically: true, encoding: .utf8)
        try records("2").write(to: scratch.appendingPathComponent("new.json"), atomically: true, encoding: .utf8)
        let patch = try changeset(["old.json", "new.json", "--id", "id", "--format", "patch"], in: scratch)
        #expect(patch.status == 1, "\(patch)")
        let lines = patch.stdout.split(separator: "\n").map(String.init)
        // The header, the style line, the result line, the update and the end.
        #expect(lines.count == 6 && lines[2].hasPrefix("style ") && lines[4].hasPrefix("update 2999 "), "\(patch)")
        try expectRefused(text(editing(lines, at: 4) { $0.replacingOccurrences(of: #""n":2"#, with: #""n":3"#) }),
                          format: "json", in: scratch, "an edited last record")
        try expectRefused(text(lines.dropLast()), format: "json", in: scratch, "without its end line")
        try text(lines).write(to: scratch.appendingPathComponent("p.patch"), atomically: true, encoding: .utf8)
        let applied = try changeset(["apply", "old.json", "p.patch"], in: scratch)
        #expect(applied.status == 0 && applied.stdout.utf8.count > 300_000, "\(applied.status) \(applied.stderr)")
    }
}
