import Foundation
import Testing

/// `merge`, `apply` and the git merge driver write a file the way it was
/// written: the same snapshots in Python's `json.dumps(indent=4)` (non-ASCII
/// escaped, no final newline), tab-indented, CRLF, with a byte order mark
/// around a document, one record a line, NDJSON with CRLF or without a final
/// newline, CSV with CRLF and a BOM, quoted throughout, or without a final
/// newline (`Fixtures/layout/`). OURS changes one field and deletes a
/// record, THEIRS changes a nested field, grows an array and appends a
/// record: edits git's own text merge gets right, so changeset's result must
/// be git's, byte for byte.
@Suite struct FileLayoutTests {
    static let layouts = [
        "python4.json", "tabs.json", "crlf.json", "bom.json", "lines.json",
        "ndjson-crlf.ndjson", "ndjson-no-final-newline.ndjson",
        "csv-crlf-bom.csv", "csv-quoted.csv", "csv-no-final-newline.csv",
    ]

    /// The three versions of a layout's snapshot, and the options it needs.
    static func files(_ layout: String) -> (base: String, ours: String, theirs: String, options: [String]) {
        let name = (layout as NSString).deletingPathExtension, suffix = (layout as NSString).pathExtension
        let options = ["--id", "id"] + (name == "bom" ? ["--records-at", "cities"] : [])
        return ("layout/\(name)-base.\(suffix)", "layout/\(name)-ours.\(suffix)", "layout/\(name)-theirs.\(suffix)", options)
    }

    static func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: path.hasPrefix("/") ? URL(fileURLWithPath: path) : fixtures.appendingPathComponent(path))
    }

    @Test(arguments: layouts)
    func aMergeKeepsTheFilesLayoutAndIsGitsResultWhereGitMergesCleanly(layout: String) throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (base, ours, theirs, options) = Self.files(layout)
        let output = scratch.appendingPathComponent("merged").path
        let merged = try changeset(["merge", base, ours, theirs] + options + ["-o", output])
        #expect(merged.status == 0 && merged.stderr.isEmpty, "\(merged)")
        let git = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["git", "merge-file", "-p", ours, base, theirs])
        #expect(git.status == 0, "git merges these edits cleanly: \(git)")
        let result = try Self.bytes(output)
        #expect(result == Data(git.stdout.utf8), "\(layout): changeset and git differ:\n\(String(decoding: result, as: UTF8.self))")
        try expectGoldenBytes(result, "layout/merge-\(layout)")
    }

    @Test(arguments: layouts)
    func applyingADiffRebuildsTheOtherSnapshotByteForByte(layout: String) throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (base, ours, theirs, options) = Self.files(layout)
        for side in [ours, theirs] {
            let patch = scratch.appendingPathComponent("p.patch").path
            let diff = try changeset([base, side] + options + ["--format", "patch", "-o", patch])
            #expect(diff.status == 1, "\(diff)")
            let output = scratch.appendingPathComponent("applied").path
            let applied = try changeset(["apply", base, patch, "-o", output])
            #expect(applied.status == 0, "\(applied)")
            #expect(try Self.bytes(output) == Self.bytes(side), "\(side): apply did not rebuild it byte for byte")
        }
    }

    /// Both sides edited record 1, different fields (adjacent lines, which
    /// git cannot merge): the result is OURS's text of the record with
    /// THEIRS's changed member put in, in the file's own escaping.
    @Test(arguments: ["python4", "tabs"])
    func aRecordBothSidesEditedIsOursTextWithTheirsChangedMemberSpliced(layout: String) throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let output = scratch.appendingPathComponent("merged.json").path
        let merged = try changeset([
            "merge", "layout/both-\(layout)-base.json", "layout/both-\(layout)-ours.json", "layout/both-\(layout)-theirs.json",
            "--id", "id", "-o", output,
        ])
        #expect(merged.status == 0, "\(merged)")
        let result = try Self.bytes(output)
        try expectGoldenBytes(result, "layout/merge-both-\(layout).json")
        // Only record 1's name differs from the clean merge of the same edits plus OURS's population.
        let indent = layout == "tabs" ? "\t\t" : "        "
        let clean = try changeset(["merge", "layout/\(layout)-base.json", "layout/\(layout)-ours.json", "layout/\(layout)-theirs.json", "--id", "id"])
        let zurich = layout == "tabs" ? "Zürich" : "Z\\u00fcrich"
        let expected = clean.stdout
            .replacingOccurrences(of: "\(indent)\"name\": \"\(zurich)\",\n\(indent)\"population\": 1007,", with: "\(indent)\"name\": \"Zurich\",\n\(indent)\"population\": 1234,")
        #expect(expected != clean.stdout)
        #expect(String(decoding: result, as: UTF8.self) == expected)
    }

    /// Conflict markers stand at the start of their lines: around only the
    /// member in conflict when both sides have the record, around the whole
    /// record (written like the file's records) when one side deleted it;
    /// and either side's lines give valid JSON.
    @Test func conflictMarkersHoldRecordsWrittenLikeTheFile() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let base = try String(decoding: Self.bytes("layout/python4-base.json"), as: UTF8.self)
        // Record 1's population on both sides; record 8 deleted by OURS and changed by THEIRS (the last record).
        let ours = base.replacingOccurrences(of: "\"population\": 1007,", with: "\"population\": 1,")
        let theirs = base.replacingOccurrences(of: "\"population\": 1007,", with: "\"population\": 2,")
            .replacingOccurrences(of: "\"population\": 8007,", with: "\"population\": 77,")
        let lastRecord = try #require(ours.range(of: ",\n    {\n        \"id\": 8,"))
        let oursWithoutLast = String(ours[..<lastRecord.lowerBound]) + "\n]"
        try oursWithoutLast.write(to: scratch.appendingPathComponent("ours.json"), atomically: true, encoding: .utf8)
        try theirs.write(to: scratch.appendingPathComponent("theirs.json"), atomically: true, encoding: .utf8)
        try base.write(to: scratch.appendingPathComponent("base.json"), atomically: true, encoding: .utf8)
        let merged = try changeset(["merge", "base.json", "ours.json", "theirs.json", "--id", "id", "--markers", "-o", "m.json"], in: scratch)
        #expect(merged.status == 1, "\(merged)")
        let text = try String(contentsOf: scratch.appendingPathComponent("m.json"), encoding: .utf8)
        #expect(text.hasPrefix("[\n    {\n        \"id\": 1,\n        \"name\": \"Z\\u00fcrich\",\n<<<<<<< ours\n        \"population\": 1,\n"
            + "=======\n        \"population\": 2,\n>>>>>>> theirs\n        \"tags\": [\n"), "\(text)")
        // Past the last record that is not a conflict, a record carries its comma in front.
        #expect(text.hasSuffix("=======\n    ,{\n        \"id\": 8,\n        \"name\": \"\\u0141\\u00f3d\\u017a\",\n        \"population\": 77,\n"
            + "        \"tags\": [\n            \"city\",\n            \"capital\"\n        ],\n        \"location\": {\n            \"lat\": 44.0,\n"
            + "            \"lon\": 4.75\n        }\n    }\n>>>>>>> theirs\n]"), "\(text)")
        for keep in ["ours", "theirs"] {
            var lines: [Substring] = []
            var side = "both"
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("<<<<<<<") { side = "ours"; continue }
                if line.hasPrefix("=======") { side = "theirs"; continue }
                if line.hasPrefix(">>>>>>>") { side = "both"; continue }
                if side == "both" || side == keep { lines.append(line) }
            }
            let parsed = try run("jq", ["-c", "[.[] | .population]"], input: lines.joined(separator: "\n"))
            #expect(parsed == (keep == "ours" ? "[1,2007,3007,4007,5007,6007,7007]\n" : "[2,2007,3007,4007,5007,6007,7007,77]\n"), "\(keep): \(parsed)")
        }
    }
}

/// A golden file compared byte for byte (CRLF, a BOM and a missing final newline are the point).
func expectGoldenBytes(_ actual: Data, _ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
    let url = fixtures.appendingPathComponent("golden").appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["CHANGESET_RECORD_GOLDEN"] == "1" {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try actual.write(to: url)
        Issue.record("recorded \(name); run again without CHANGESET_RECORD_GOLDEN", sourceLocation: sourceLocation)
        return
    }
    #expect(actual == (try Data(contentsOf: url)), "differs from golden file \(name)", sourceLocation: sourceLocation)
}
