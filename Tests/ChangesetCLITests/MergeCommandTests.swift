import Foundation
import Testing

/// `changeset merge BASE OURS THEIRS`, run as a user runs it.
@Suite struct MergeCommandTests {
    static let csv = ["merge", "merge/base.csv", "merge/ours.csv", "merge/theirs.csv", "--id", "sku"]
    static let conflicting = ["merge", "merge/base.csv", "merge/ours.csv", "merge/conflicting.csv", "--id", "sku"]
    static let json = ["merge", "merge/base.json", "merge/ours.json", "merge/theirs.json", "--id", "sku", "--records-at", "data.items"]

    func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("changeset-merge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func editsOfDifferentRecordsAndFieldsMergeCleanly() throws {
        let result = try changeset(Self.csv)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        try expectGolden(result.stdout, "merge.csv")
        // THEIRS's column, THEIRS's deletion and both sides' insertions, OURS's order.
        #expect(result.stdout.hasPrefix("sku,name,price,stock,origin\n"))
    }

    @Test func aJSONDocumentKeepsOursAroundTheRecordsAndNestedFieldsMerge() throws {
        let result = try changeset(Self.json)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        try expectGolden(result.stdout, "merge.json")
        let dims = try run("jq", ["-c", #"[.version, (.data.items[] | select(.sku == "A1") | .dims)]"#], input: result.stdout)
        #expect(dims == #"[2,{"w":10,"h":20}]"# + "\n")
    }

    @Test func conflictsAreListedAndNothingIsWritten() throws {
        let directory = try scratch()
        let out = directory.appendingPathComponent("merged.csv").path
        let result = try changeset(Self.conflicting + ["-o", out])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(result.stderr.contains("conflict: id A1, field price: base 1.00, ours 1.10, theirs 1.25"), "\(result)")
        #expect(result.stderr.contains("conflict: id F6: inserted by both"), "\(result)")
        #expect(result.stderr.contains("2 conflicts; nothing was written"), "\(result)")
    }

    @Test func markersWriteTheResultWithBothVersionsOfEachConflict() throws {
        let directory = try scratch()
        let conflicts = directory.appendingPathComponent("conflicts.json")
        let result = try changeset(Self.conflicting + ["--markers", "--conflicts", conflicts.path])
        #expect(result.status == 1, "\(result)")
        try expectGolden(result.stdout, "merge-markers.csv")
        let json = try String(contentsOf: conflicts, encoding: .utf8)
        try expectGolden(json, "merge-conflicts.json")
        let kinds = try run("jq", ["-r", ".conflicts[] | [.kind, .id, .path // \"-\"] | join(\" \")"], input: json)
        #expect(kinds == "field A1 price\ninserted-by-both F6 -\n")
    }

    @Test func preferResolvesOnPurposeAndStillSaysSo() throws {
        let ours = try changeset(Self.conflicting + ["--prefer", "ours"])
        #expect(ours.status == 0, "\(ours)")
        #expect(ours.stdout.contains("A1,apple,1.10,10,NZ\n") && ours.stdout.contains("F6,fig,6.00,60,\n"), "\(ours)")
        #expect(ours.stderr.contains("(resolved with --prefer ours)"), "\(ours)")
        let theirs = try changeset(Self.conflicting + ["--prefer", "theirs"])
        #expect(theirs.status == 0, "\(theirs)")
        #expect(theirs.stdout.contains("A1,apple,1.25,10,NZ\n") && theirs.stdout.contains("F6,fig,6.50,60,\n"), "\(theirs)")
    }

    @Test func withoutConflictsTheConflictsFileIsAnEmptyList() throws {
        let directory = try scratch()
        let conflicts = directory.appendingPathComponent("conflicts.json")
        let result = try changeset(Self.csv + ["--conflicts", conflicts.path])
        #expect(result.status == 0, "\(result)")
        #expect(try String(contentsOf: conflicts, encoding: .utf8) == "{\"resolvedBy\":null,\"conflicts\":[]}\n")
    }

    @Test func badInputIsExitTwoWithNothingWritten() throws {
        let directory = try scratch()
        let broken = directory.appendingPathComponent("broken.json")
        try Data("[{\"sku\": 1,}]".utf8).write(to: broken)
        let out = directory.appendingPathComponent("merged.json").path
        let base = fixtures.appendingPathComponent("merge/base.json").path
        let result = try changeset(["merge", base, broken.path, base, "--id", "sku", "--records-at", "data.items", "-o", out])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("broken.json:1:"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func mixingJSONAndCSVIsRefused() throws {
        let result = try changeset(["merge", "merge/base.csv", "merge/ours.json", "merge/theirs.csv", "--id", "sku"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("a merge needs three JSON/NDJSON snapshots or three CSV/TSV ones"), "\(result)")
    }

    @Test func outputNeverNamesAnInput() throws {
        let directory = try scratch()
        let ours = directory.appendingPathComponent("ours.csv")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("merge/ours.csv"), to: ours)
        let before = try Data(contentsOf: ours)
        let result = try changeset(["merge", fixtures.appendingPathComponent("merge/base.csv").path, ours.path,
                                    fixtures.appendingPathComponent("merge/theirs.csv").path, "--id", "sku", "-o", ours.path])
        #expect(result.status == 2, "\(result)")
        #expect(try Data(contentsOf: ours) == before)
    }

    @Test func renamedColumnsMatchAndTheResultUsesTheNewName() throws {
        let paths = try scratchFiles([
            ("base.csv", "sku,qty\n1,5\n2,6\n"), ("ours.csv", "sku,qty\n1,7\n2,6\n"), ("theirs.csv", "sku,quantity\n1,5\n2,6\n3,1\n"),
        ])
        let result = try changeset(["merge"] + paths + ["--id", "sku", "--rename", "qty=quantity"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "sku,quantity\n1,7\n2,6\n3,1\n", "\(result)")
    }

    @Test func aColumnTheirsRemovedStaysWhileOursStillFillsIt() throws {
        let paths = try scratchFiles([
            ("base.csv", "id,a,note\n1,x,\n2,y,\n"), ("ours.csv", "id,a,note\n1,x,\n2,z,\n"), ("theirs.csv", "id,a\n1,x\n2,y\n"),
            ("ours2.csv", "id,a,note\n1,x,\n2,y,\n3,w,keep me\n"),
        ])
        let removed = try changeset(["merge"] + paths[0...2] + ["--id", "id"])
        #expect(removed.stdout == "id,a\n1,x\n2,z\n", "\(removed)")
        let kept = try changeset(["merge", paths[0], paths[3], paths[2], "--id", "id"])
        #expect(kept.status == 0, "\(kept)")
        #expect(kept.stdout == "id,a,note\n1,x,\n2,y,\n3,w,keep me\n", "\(kept)")
    }

    /// Found by the documentation review: a kept column went in at its index
    /// in OURS's header, which after THEIRS's changes put it between other columns.
    @Test func aKeptColumnStaysAfterItsNeighbourInOursHeader() throws {
        let paths = try scratchFiles([
            ("base.csv", "sku,name,price,fax\n1,a,1,\n"), ("ours.csv", "sku,name,price,fax\n1,a,1,\n2,b,2,555\n"),
            ("theirs.csv", "sku,name,colour,price\n1,a,red,1\n"),
        ])
        let result = try changeset(["merge"] + paths + ["--id", "sku"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "sku,name,colour,price,fax\n1,a,red,1,\n2,b,,2,555\n", "\(result)")
    }

    @Test func ndjsonAndStandardInputWork() throws {
        let base = Data("{\"id\":1,\"x\":1}\n{\"id\":2,\"x\":2}\n".utf8)
        let directory = try scratch()
        let ours = directory.appendingPathComponent("ours.ndjson")
        let theirs = directory.appendingPathComponent("theirs.ndjson")
        try Data("{\"id\":1,\"x\":5}\n{\"id\":2,\"x\":2}\n".utf8).write(to: ours)
        try Data("{\"id\":1,\"x\":1}\n{\"id\":2,\"x\":7}\n{\"id\":3}\n".utf8).write(to: theirs)
        let result = try changeset(["merge", "-", ours.path, theirs.path, "--id", "id"], input: base)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "{\"id\":1,\"x\":5}\n{\"id\":2,\"x\":7}\n{\"id\":3}\n", "\(result)")
    }

    @Test func helpNamesTheMergeAndItsOptions() throws {
        let help = try changeset(["help", "merge"])
        #expect(help.status == 0)
        for option in ["--prefer", "--conflicts", "--markers", "--id", "--output"] {
            #expect(help.stdout.contains(option), "\(option) missing from\n\(help.stdout)")
        }
    }
}

extension MergeCommandTests {
    @Test func theMergeResultAndItsConflictsFileCannotBeOneFile() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try writeFile("id,v\n1,1\n", "base.csv", in: scratch)
        try writeFile("id,v\n1,2\n", "ours.csv", in: scratch)
        try writeFile("id,v\n1,1\n2,2\n", "theirs.csv", in: scratch)
        try FileManager.default.createSymbolicLink(atPath: scratch.appendingPathComponent("link.csv").path, withDestinationPath: "m.csv")
        for conflicts in ["./m.csv", scratch.appendingPathComponent("m.csv").path, "link.csv"] {
            for exists in [false, true] {
                if exists { try writeFile("keep\n", "m.csv", in: scratch) } else { try? FileManager.default.removeItem(at: scratch.appendingPathComponent("m.csv")) }
                let result = try changeset(["merge", "base.csv", "ours.csv", "theirs.csv", "--id", "id", "-o", "m.csv", "--conflicts", conflicts], in: scratch)
                #expect(result.status == 2 && result.stdout.isEmpty
                        && result.stderr == "changeset: -o m.csv and --conflicts \(conflicts) name the same file; give two files (nothing was written)\n",
                        "\(conflicts) \(exists): \(result)")
                let kept = try? String(contentsOf: scratch.appendingPathComponent("m.csv"), encoding: .utf8)
                #expect(kept == (exists ? "keep\n" : nil), "\(conflicts) \(exists)")
            }
        }
    }

    @Test func standardOutputOntoTheConflictsFileIsRefused() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try writeFile("id,v\n1,1\n", "base.csv", in: scratch)
        try writeFile("id,v\n1,2\n", "ours.csv", in: scratch)
        try writeFile("id,v\n1,3\n", "theirs.csv", in: scratch)
        try writeFile("keep\n", "c.json", in: scratch)
        let result = try runShell("\"$CHANGESET\" merge base.csv ours.csv theirs.csv --id id --prefer ours --conflicts c.json 1<>c.json", in: scratch)
        #expect(result.status == 2
                && result.stderr == "changeset: standard output is c.json, the file --conflicts names; give two files (nothing was written)\n", "\(result)")
        #expect(try String(contentsOf: scratch.appendingPathComponent("c.json"), encoding: .utf8) == "keep\n")
    }

    /// Both branches added the same file: git gives the driver an empty BASE.
    @Test func anEmptyBaseIsASnapshotWithoutRecords() throws {
        let paths = try scratchFiles([("base.csv", ""), ("ours.csv", "id,v\n8,a\n"), ("theirs.csv", "id,v\n9,b\n")])
        let result = try changeset(["merge"] + paths + ["--id", "id"])
        #expect(result.status == 0 && result.stdout == "id,v\n8,a\n9,b\n", "\(result)")
    }

    /// OURS dropped a column that was empty in BASE, THEIRS filled it in one
    /// record: the value was dropped with the column.
    @Test func aValueTheirsPutInAColumnOursRemovedKeepsTheColumn() throws {
        let paths = try scratchFiles([
            ("base.csv", "sku,name,note\n1,a,\n2,b,\n"), ("ours.csv", "sku,name\n1,a\n2,b\n"), ("theirs.csv", "sku,name,note\n1,a,hello\n2,b,\n"),
        ])
        let result = try changeset(["merge"] + paths + ["--id", "sku"])
        #expect(result.status == 0 && result.stdout == "sku,name,note\n1,a,hello\n2,b,\n", "\(result)")
    }

    /// Occurrence matching paired different records once a side deleted an
    /// earlier one, and the merge made up a record.
    @Test func duplicateIDsByOccurrenceAreRefused() throws {
        let paths = try scratchFiles([("base.csv", "id,x\na,1\na,2\n"), ("ours.csv", "id,x\na,2\n"), ("theirs.csv", "id,x\na,1\na,2\n")])
        let result = try changeset(["merge"] + paths + ["--id", "id", "--duplicates", "occurrence"])
        #expect(result.status == 2 && result.stdout.isEmpty && result.stderr.hasPrefix("changeset: a merge matches records by unique ids; "
            + "--duplicates occurrence would match different records after a deletion\n"), "\(result)")
    }

    /// `--only prce` (a typo) compared nothing and took OURS silently.
    @Test func fieldOptionsNamingNoFieldAreErrors() throws {
        let paths = try scratchFiles([("base.csv", "id,price\n1,10\n"), ("ours.csv", "id,price\n1,10\n2,5\n"), ("theirs.csv", "id,price\n1,99\n")])
        let files = paths.joined(separator: ", ")
        for (option, message) in [(["--only", "prce"], #"--only "prce": no record of \#(files) has this field; did you mean "price"?"#),
                                  (["--ignore", "nosuch"], #"--ignore "nosuch": no record of \#(files) has this field; the top-level fields are: id, price"#),
                                  (["--rename", "nosuch=x"], #"--rename nosuch=x: no record of \#(files) has the field "nosuch"; the top-level fields are: id, price"#)] {
            let result = try changeset(["merge"] + paths + ["--id", "id"] + option)
            #expect(result.status == 2 && result.stdout.isEmpty && result.stderr == "changeset: \(message)\n", "\(result)")
        }
    }

    /// An id holding U+0000 # collided with the key of a repeated id and crashed.
    @Test func anIDWithANULIsAnOrdinaryID() throws {
        let text = #"[{"id":"a","v":1},{"id":"a\u0000#1","v":2}]"#
        let paths = try scratchFiles([("base.json", text), ("ours.json", text), ("theirs.json", text.replacingOccurrences(of: "\"v\":2", with: "\"v\":3"))])
        let result = try changeset(["merge"] + paths + ["--id", "id"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains(#""v":3"#), "\(result)")
    }

    /// THEIRS's pretty-printed JSON record was copied into an NDJSON result across lines.
    @Test func anNDJSONResultHasOneRecordALine() throws {
        let paths = try scratchFiles([
            ("base.ndjson", "{\"id\":1,\"a\":1}\n"), ("ours.ndjson", "{\"id\":1,\"a\":1}\n"),
            ("theirs.json", "[\n  {\n    \"id\": 1,\n    \"a\": 1\n  },\n  {\n    \"id\": 2,\n    \"a\": 2\n  }\n]\n"),
        ])
        let result = try changeset(["merge"] + paths + ["--id", "id"])
        #expect(result.status == 0 && result.stdout == "{\"id\":1,\"a\":1}\n{\"id\":2,\"a\":2}\n", "\(result)")
    }

    /// A run in trouble wrote the conflicts file anyway; --conflicts naming -o's file was accepted.
    @Test func theConflictsFileIsWrittenOnlyWithTheResult() throws {
        let paths = try scratchFiles([("base.csv", "id,v\n1,1\n"), ("ours.csv", "id,v\n1,2\n"), ("theirs.csv", "id,v\n1,3\n")])
        let conflicts = URL(fileURLWithPath: paths[0]).deletingLastPathComponent().appendingPathComponent("c.json").path
        let trouble = try changeset(["merge"] + paths + ["--id", "id", "--prefer", "ours", "--conflicts", conflicts, "-o", "/nonexistent/out.csv"])
        #expect(trouble.status == 2, "\(trouble)")
        #expect(!FileManager.default.fileExists(atPath: conflicts))
        let same = try changeset(["merge"] + paths + ["--id", "id", "--conflicts", conflicts, "-o", conflicts])
        #expect(same.status == 2 && same.stderr.contains("name the same file"), "\(same)")
        let input = try changeset(["merge"] + paths + ["--id", "id", "--conflicts", paths[1]])
        #expect(input.status == 2 && input.stderr.contains("--conflicts \(paths[1]) names the input"), "\(input)")
    }

    /// A CRLF file came out with LF line endings (every line changed in git), and a byte order mark was lost.
    @Test func oursLineEndingsAndByteOrderMarkAreKept() throws {
        let paths = try scratchFiles([
            ("base.csv", "\u{FEFF}id,v\r\n1,1\r\n2,2\r\n"), ("ours.csv", "\u{FEFF}id,v\r\n1,1\r\n2,2\r\n3,3\r\n"), ("theirs.csv", "\u{FEFF}id,v\r\n1,11\r\n2,2\r\n"),
        ])
        let result = try changeset(["merge"] + paths + ["--id", "id"])
        #expect(result.status == 0 && result.stdout == "\u{FEFF}id,v\r\n1,11\r\n2,2\r\n3,3\r\n", "\(result)")
    }
}
