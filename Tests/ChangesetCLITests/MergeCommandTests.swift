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
