import ChangesetKit
import Foundation
import Testing

/// `--format patch`, then `changeset apply`: what a patch can carry, and files
/// the rebuilt snapshot must match. Each case was found by a fuzz target and
/// is named by the bug it pins.
@Suite struct PatchReplayTests {
    /// Found by the patch-parser fuzz target: a records-at path whose name
    /// ended in CRs lost one on the way through a patch (the last CR and the
    /// line feed read as one line end), so its text parsed to another script.
    /// A patch cannot carry such a name: the parser and `--format patch` refuse it.
    @Test func aRecordsAtPathWithAControlCharacterIsRefusedByPatches() throws {
        let patch = "changeset-patch 2\nbase json 4 f4b0bcf463e099e2\nrecords-at d.tms\r\r\r\nresult 4 a5da8b5146023152\ndelete 1\nend\n"
        #expect(throws: InputError.self) { try PatchScript.parse(Array(patch.utf8), source: "p.patch") }
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data(#"{"d":{"a\rb":[{"id":1}]}}"#.utf8).write(to: scratch.appendingPathComponent("old.json"))
        try Data(#"{"d":{"a\rb":[{"id":2}]}}"#.utf8).write(to: scratch.appendingPathComponent("new.json"))
        let path = "d.a\rb"
        let text = try changeset(["old.json", "new.json", "--id", "id", "--records-at", path], in: scratch)
        #expect(text.status == 1, "\(text)")
        for format in ["patch", "jsonpatch"] {
            let result = try changeset(["old.json", "new.json", "--id", "id", "--records-at", path, "--format", format], in: scratch)
            #expect(format == "patch" ? result.status == 2 && result.stdout.isEmpty && result.stderr.contains("control character")
                                      : result.status == 1, "\(result)")
        }
    }

    /// diff, patch, apply and compare: the rebuilt file has no differences from NEW.
    func roundTrip(old: [UInt8], new: [UInt8], ext: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data(old).write(to: scratch.appendingPathComponent("old.\(ext)"))
        try Data(new).write(to: scratch.appendingPathComponent("new.\(ext)"))
        let patch = try changeset(["old.\(ext)", "new.\(ext)", "--format", "patch", "-o", "p.patch"], in: scratch)
        #expect(patch.status == 1, "\(patch)", sourceLocation: sourceLocation)
        let apply = try changeset(["apply", "old.\(ext)", "p.patch", "-o", "rebuilt.\(ext)"], in: scratch)
        #expect(apply.status == 0, "\(apply)", sourceLocation: sourceLocation)
        let again = try changeset(["rebuilt.\(ext)", "new.\(ext)"], in: scratch)
        #expect(again.status == 0, "\(again)", sourceLocation: sourceLocation)
    }

    /// A header cell in quotes that holds a line break: the writer's look at
    /// the header (does the file quote every field?) split it at that line
    /// break and stopped apply with "a row could not be read again".
    @Test func aQuotedLineBreakInTheHeaderDoesNotStopApply() throws {
        try roundTrip(old: Array("\"\n*\r*\"".utf8), new: Array("\r\nc\"\r: ".utf8), ext: "csv")
        try roundTrip(old: Array("\"a\nb\",c\n1,2\n".utf8), new: Array("\"a\nb\",c\n1,3\n".utf8), ext: "csv")
    }

    /// A CSV row that starts with spaces: they are its first cell's, not an
    /// indentation, and a row written anew must not be given them (the
    /// writer took them for the file's record depth).
    @Test func aCSVRowsLeadingSpacesAreNotCopiedToNewRows() throws {
        try roundTrip(old: Array(" ]\"\r".utf8) + Array(repeating: UInt8(ascii: "a"), count: 30),
                      new: Array("aaaaaaaaaaaaaaaaaaaaaa\"bb\n*\"\n0\"rd+s\": ".utf8), ext: "csv")
        try roundTrip(old: Array("v\n  indented\n".utf8), new: Array("v\n  indented\nplain\nnext\n".utf8), ext: "csv")
    }

    @Test func anEmptyCellInAOneColumnCSVIsNotABlankLine() throws {
        try roundTrip(old: Array("a\n".utf8), new: Array("a\n\"\"\n".utf8), ext: "csv")
    }

    @Test func aByteOrderMarkInsideACellIsKept() throws {
        try roundTrip(old: Array("a\n".utf8), new: Array("a\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("x\n".utf8), ext: "csv")
    }

    @Test func patchesWithCRLFLineEndsApply() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let patch = try changeset(FormatTests.catalog + ["--format", "patch"])
        try patch.stdout.replacingOccurrences(of: "\n", with: "\r\n").write(to: scratch.appendingPathComponent("crlf.patch"), atomically: true, encoding: .utf8)
        let apply = try changeset(["apply", fixtures.appendingPathComponent("catalog/old.json").path, "crlf.patch", "-o", "out.json"], in: scratch)
        #expect(apply.status == 0, "\(apply)")
        let again = try changeset(["out.json", fixtures.appendingPathComponent("catalog/new.json").path, "--id", "id"], in: scratch)
        #expect(again.status == 0, "\(again)")
    }

    @Test func aPatchForACSVSnapshotCannotAddColumns() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try #"[{"id": 1, "title": "x", "extra": true}]"#.write(to: scratch.appendingPathComponent("new.json"), atomically: true, encoding: .utf8)
        let result = try changeset([fixtures.appendingPathComponent("catalog/old.csv").path, "new.json", "--id", "id", "--format", "patch"], in: scratch)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.hasSuffix("has a field \"extra\" that \(fixtures.appendingPathComponent("catalog/old.csv").path) has no column for; a patch for a CSV snapshot can only fill its columns\n"), "\(result)")
    }

    /// Found by the diff-apply fuzzer: a quote (or comma) followed by a
    /// combining mark is one Character in Swift but a quote to CSV.
    @Test func quotesBeforeCombiningMarksAreQuotedInCSVOutput() throws {
        let old = Array("id,name\n1,a\n".utf8)
        let new = Array("id,name\n1,a\n2,\"x\"\"\u{5A7}y\"\n3,\"p,\u{301}q\"\n4,\"\"\"\u{5A7}z\"\n".utf8)
        try roundTrip(old: old, new: new, ext: "csv")
    }

    /// Found by the diff-apply fuzzer: a first column named U+FEFF, written
    /// at the start of the rebuilt file, must not turn into a byte order mark.
    @Test func aColumnNamedLikeAByteOrderMarkSurvivesApply() throws {
        let old = Array("\r\r\u{FEFF}\r".utf8) + Array("a\r".utf8)
        let new = Array("\r\r\u{FEFF}\rx\ry\r".utf8)
        try roundTrip(old: old, new: new, ext: "csv")
    }
}
