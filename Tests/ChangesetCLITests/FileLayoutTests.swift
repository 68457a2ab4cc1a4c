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
            let parsed = try run("jq", ["-c", "[.[] | .population]"], input: pickingSide(keep, of: text))
            #expect(parsed == (keep == "ours" ? "[1,2007,3007,4007,5007,6007,7007]\n" : "[2,2007,3007,4007,5007,6007,7007,77]\n"), "\(keep): \(parsed)")
        }
    }
}

/// One side's lines of a text with conflict markers ("ours" or "theirs"), as
/// a person resolving every conflict that way would leave it.
func pickingSide(_ side: String, of text: String) -> String {
    var lines: [Substring] = []
    var current = "both"
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("<<<<<<<") { current = "ours"; continue }
        if line.hasPrefix("=======") { current = "theirs"; continue }
        if line.hasPrefix(">>>>>>>") { current = "both"; continue }
        if current == "both" || current == side { lines.append(line) }
    }
    return lines.joined(separator: "\n")
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

/// Layouts found by an adversarial review of the writer: each case is a
/// merge git's own line merge gets right (so changeset's result must be
/// git's, byte for byte), an apply that must rebuild NEW byte for byte, or
/// conflict markers whose either side must be valid.
@Suite struct FileLayoutEdgeTests {
    /// Writes the files, runs `changeset` with `arguments` in that folder, and returns the result and the output file's bytes.
    func inScratch(_ files: [String: String], _ arguments: [String], output: String = "out") throws -> (CommandResult, String) {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        for (name, text) in files { try Data(text.utf8).write(to: scratch.appendingPathComponent(name)) }
        let result = try changeset(arguments + ["-o", output], in: scratch)
        let url = scratch.appendingPathComponent(output)
        return (result, FileManager.default.fileExists(atPath: url.path) ? String(decoding: try Data(contentsOf: url), as: UTF8.self) : "")
    }

    /// `git merge-file -p` on the same three texts (nil when git conflicts).
    func gitMerge(base: String, ours: String, theirs: String) throws -> String? {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        for (name, text) in [("b", base), ("o", ours), ("t", theirs)] { try Data(text.utf8).write(to: scratch.appendingPathComponent(name)) }
        let git = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["git", "merge-file", "-p", "o", "b", "t"], in: scratch)
        return git.status == 0 ? git.stdout : nil
    }

    func expectMergeIsGits(_ base: String, _ ours: String, _ theirs: String, ext: String = "json", sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let git = try #require(try gitMerge(base: base, ours: ours, theirs: theirs), "git merges this cleanly", sourceLocation: sourceLocation)
        let (result, merged) = try inScratch(["b.\(ext)": base, "o.\(ext)": ours, "t.\(ext)": theirs], ["merge", "b.\(ext)", "o.\(ext)", "t.\(ext)", "--id", "id"], output: "m.\(ext)")
        #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
        #expect(merged == git, "changeset:\n\(merged)\ngit:\n\(git)", sourceLocation: sourceLocation)
    }

    func expectApplyRebuilds(_ old: String, _ new: String, ext: String = "json", sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data(old.utf8).write(to: scratch.appendingPathComponent("old.\(ext)"))
        try Data(new.utf8).write(to: scratch.appendingPathComponent("new.\(ext)"))
        let diff = try changeset(["old.\(ext)", "new.\(ext)", "--id", "id", "--format", "patch", "-o", "p.patch"], in: scratch)
        #expect(diff.status == 1, "\(diff)", sourceLocation: sourceLocation)
        let apply = try changeset(["apply", "old.\(ext)", "p.patch", "-o", "r.\(ext)"], in: scratch)
        #expect(apply.status == 0, "\(apply)", sourceLocation: sourceLocation)
        let rebuilt = String(decoding: try Data(contentsOf: scratch.appendingPathComponent("r.\(ext)")), as: UTF8.self)
        #expect(rebuilt == new, "apply gave:\n\(rebuilt)", sourceLocation: sourceLocation)
    }

    func expectMarkersPickValid(_ base: String, _ ours: String, _ theirs: String, ids: (ours: String, theirs: String), sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let (result, text) = try inScratch(["b.json": base, "o.json": ours, "t.json": theirs], ["merge", "b.json", "o.json", "t.json", "--id", "id", "--markers"], output: "m.json")
        #expect(result.status == 1, "\(result)", sourceLocation: sourceLocation)
        for line in text.split(separator: "\n") where line.contains("<<<<<<<") || line.contains("=======") || line.contains(">>>>>>>") {
            #expect(line.hasPrefix("<<<<<<<") || line.hasPrefix("=======") || line.hasPrefix(">>>>>>>"), "a marker inside a line: \(line)", sourceLocation: sourceLocation)
        }
        for (side, expected) in [("ours", ids.ours), ("theirs", ids.theirs)] {
            let values = try ChangesetCLITests.run("jq", ["-c", "[.[] | [.id, .v]]"], input: pickingSide(side, of: text))
            #expect(values == expected + "\n", "\(side):\n\(text)", sourceLocation: sourceLocation)
        }
    }

    @Test func markersStartTheirLinesInAFileWithoutLineBreaksBetweenRecords() throws {
        let base = #"[{"id":1,"v":1},{"id":2,"v":1},{"id":3,"v":1}]"#
        try expectMarkersPickValid(base, base.replacingOccurrences(of: #""id":2,"v":1"#, with: #""id":2,"v":2"#),
                                   base.replacingOccurrences(of: #""id":2,"v":1"#, with: #""id":2,"v":3"#),
                                   ids: ("[[1,1],[2,2],[3,1]]", "[[1,1],[2,3],[3,1]]"))
    }

    @Test func eitherSideOfTheMarkersIsValidWhenEveryRecordIsInConflict() throws {
        try expectMarkersPickValid("[\n  {\"id\":1,\"v\":1},\n  {\"id\":2,\"v\":1}\n]\n", "[\n  {\"id\":2,\"v\":2}\n]\n",
                                   "[\n  {\"id\":1,\"v\":3},\n  {\"id\":2,\"v\":3}\n]\n", ids: ("[[2,2]]", "[[1,3],[2,3]]"))
    }

    @Test func aRecordKeepsTheIndentationOfTheLineItStandsOn() throws {
        // Records hugging their brackets: `[{` and `}, {` on one line, members one level in.
        let base = "[{\n  \"id\": 1,\n  \"v\": 1\n}, {\n  \"id\": 2,\n  \"v\": 1\n}]\n"
        let ours = base.replacingOccurrences(of: "\"id\": 1,\n  \"v\": 1", with: "\"id\": 1,\n  \"v\": 5")
        let theirs = base.replacingOccurrences(of: "\"id\": 2,\n  \"v\": 1", with: "\"id\": 2,\n  \"v\": 7")
        try expectMergeIsGits(base, ours, theirs)
        try expectApplyRebuilds(base, theirs)
        // A record indented unlike the first keeps its own indentation when it changes.
        let irregular = "[\n  {\n    \"id\": 1,\n    \"v\": 1\n  },\n      {\n        \"id\": 2,\n        \"v\": 1\n      }\n]\n"
        try expectApplyRebuilds(irregular, irregular.replacingOccurrences(of: "\"id\": 2,\n        \"v\": 1", with: "\"id\": 2,\n        \"v\": 2"))
        // More than 64 KiB of document before the records array.
        let document = "{\"meta\": \"\(String(repeating: "x", count: 70_000))\",\n  \"items\": [\n    {\"id\": 1, \"v\": 1},\n    {\"id\": 2, \"v\": 1}\n  ]\n}\n"
        let (result, merged) = try inScratch(
            ["b.json": document, "o.json": document.replacingOccurrences(of: "{\"id\": 1, \"v\": 1}", with: "{\"id\": 1, \"v\": 2}"),
             "t.json": document.replacingOccurrences(of: "{\"id\": 2, \"v\": 1}\n", with: "{\"id\": 2, \"v\": 1},\n    {\"id\": 3, \"v\": 1}\n")],
            ["merge", "b.json", "o.json", "t.json", "--id", "id", "--records-at", "items"], output: "m.json")
        #expect(result.status == 0, "\(result)")
        #expect(merged.hasSuffix("\n    {\"id\": 1, \"v\": 2},\n    {\"id\": 2, \"v\": 1},\n    {\"id\": 3, \"v\": 1}\n  ]\n}\n"), "\(merged.suffix(120))")
    }

    @Test func aHugeFirstRecordDoesNotHideTheFilesStyle() throws {
        let blob = String(repeating: "x", count: 70_000)
        let old = "[\n  {\n    \"id\": 0,\n    \"blob\": \"\(blob)\",\n    \"k\": \"\\u00e9\"\n  },\n  {\n    \"id\": 1,\n    \"k\": \"a\"\n  }\n]\n"
        let new = old.replacingOccurrences(of: "\n  }\n]\n", with: "\n  },\n  {\n    \"id\": 9,\n    \"o\": {\n      \"a\": \"\\u00fc\"\n    }\n  }\n]\n")
        try expectApplyRebuilds(old, new)
    }

    @Test func aMemberAddedToAOneMemberObjectTakesTheFilesSeparator() throws {
        try expectApplyRebuilds("{\"id\": 1, \"a\": 1}\n{\"id\": 2}\n", "{\"id\": 1, \"a\": 1}\n{\"id\": 2, \"b\": 2}\n", ext: "ndjson")
    }

    @Test func aRecordAppendedAtTheEndTakesTheSeparatorBeforeTheLastRecord() throws {
        let base = "{\"id\":1,\"v\":1}\n\n{\"id\":2,\"v\":1}\n{\"id\":3,\"v\":1}\n"
        try expectMergeIsGits(base, base.replacingOccurrences(of: "{\"id\":1,\"v\":1}", with: "{\"id\":1,\"v\":2}"),
                              base + "{\"id\":4,\"v\":1}\n", ext: "ndjson")
        try expectApplyRebuilds(base, base + "{\"id\":4,\"v\":1}\n", ext: "ndjson")
    }

    @Test func aSnapshotWithoutRecordsTakesTheLayoutOfTheOtherVersions() throws {
        try expectMergeIsGits("[]\n", "[]\n", "[\n  {\"id\":200,\"b\":2},\n  {\"id\":201}\n]\n")
        let one = "[{\"id\": 0, \"v\": 1}]\n"
        try expectMergeIsGits(one, one, "[{\"id\": 0, \"v\": 1}, {\"id\": 200, \"v\": 2}]\n")
    }

    @Test func aColumnTheirsAddedFollowsItsNeighbourWhenOursRemovedTheColumnBeforeIt() throws {
        let (result, merged) = try inScratch(["b.csv": "id,c0,c1\n0,b,a\n", "o.csv": "id,c0\n0,b\n", "t.csv": "id,c0,c1,n\n0,b,a,x\n"],
                                       ["merge", "b.csv", "o.csv", "t.csv", "--id", "id"], output: "m.csv")
        #expect(result.status == 0, "\(result)")
        #expect(merged == "id,c0,n\n0,b,x\n")
    }
}
