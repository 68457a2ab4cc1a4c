import Foundation
import Testing

/// Which record of OLD a record of NEW is: twins under `--duplicates
/// occurrence`, and a merge asked to match records without `--id`.
@Suite struct RecordPairingTests {
    /// A list with no unique key (two universities of one name): a record
    /// inserted before its unchanged twin is an insertion, not an update of
    /// the twin followed by an insertion of it.
    @Test func aRecordInsertedBeforeItsUnchangedTwinIsOneInsertion() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try "name,city,students\nSaint Mary's College,Notre Dame,1500\nTrinity College,Dublin,18000\n"
            .write(to: scratch.appendingPathComponent("old.csv"), atomically: true, encoding: .utf8)
        try "name,city,students\nSaint Mary's College,Moraga,3500\nSaint Mary's College,Notre Dame,1500\nTrinity College,Dublin,18500\n"
            .write(to: scratch.appendingPathComponent("new.csv"), atomically: true, encoding: .utf8)
        let stat = try changeset(["old.csv", "new.csv", "--id", "name", "--duplicates", "occurrence", "--stat"], in: scratch)
        #expect(stat.status == 1)
        #expect(stat.stdout.hasPrefix("1 inserted, 0 deleted, 1 updated, 0 moved, 1 unchanged\n"), "\(stat)")
        let json = try changeset(["old.csv", "new.csv", "--id", "name", "--duplicates", "occurrence", "--format", "json"], in: scratch)
        #expect(try run("jq", ["-c", "[.changes[] | [.kind, .new.line]]"], input: json.stdout) == #"[["inserted",2],["updated",4]]"# + "\n")
        // The patch of that pairing still rebuilds NEW.
        let patch = try changeset(["old.csv", "new.csv", "--id", "name", "--duplicates", "occurrence", "--format", "patch", "-o", "p.patch"], in: scratch)
        #expect(patch.status == 1)
        let applied = try changeset(["apply", "old.csv", "p.patch", "-o", "rebuilt.csv"], in: scratch)
        #expect(applied.status == 0, "\(applied)")
        #expect(try Data(contentsOf: scratch.appendingPathComponent("rebuilt.csv")) == Data(contentsOf: scratch.appendingPathComponent("new.csv")))
    }

    /// Without `--id` a merge matches whole records, so an edit on each side
    /// of one record keeps both versions: refused when some field could be
    /// the id, named in the message.
    @Test func aMergeWithoutIdIsRefusedWhenAFieldIsUniqueInEachFile() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let base = #"[{"cca3": "FRA", "name": "France", "area": 1}, {"cca3": "DEU", "name": "Germany", "area": 2}]"#
        try base.write(to: scratch.appendingPathComponent("base.json"), atomically: true, encoding: .utf8)
        try base.replacingOccurrences(of: "\"area\": 1", with: "\"area\": 10")
            .write(to: scratch.appendingPathComponent("ours.json"), atomically: true, encoding: .utf8)
        try base.replacingOccurrences(of: "\"France\"", with: "\"French Republic\"")
            .write(to: scratch.appendingPathComponent("theirs.json"), atomically: true, encoding: .utf8)
        let refused = try changeset(["merge", "base.json", "ours.json", "theirs.json", "-o", "m.json"], in: scratch)
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stdout.isEmpty && !FileManager.default.fileExists(atPath: scratch.appendingPathComponent("m.json").path))
        #expect(refused.stderr.contains(#""cca3" is unique in each file: merge with --id cca3"#), "\(refused)")
        // With the id it names, one record, both edits.
        let merged = try changeset(["merge", "base.json", "ours.json", "theirs.json", "--id", "cca3"], in: scratch)
        #expect(merged.status == 0, "\(merged)")
        #expect(try run("jq", ["-c", ".[0]"], input: merged.stdout) == #"{"cca3":"FRA","name":"French Republic","area":10}"# + "\n")
    }

    @Test func aMergeWithoutIdAndWithoutAUniqueFieldSaysItMatchesByContent() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        // "tag" repeats and "n" is missing from one record: no field could be the id.
        let base = "tag,n\na,1\na,2\nb,\n"
        try base.write(to: scratch.appendingPathComponent("base.csv"), atomically: true, encoding: .utf8)
        try (base + "c,4\n").write(to: scratch.appendingPathComponent("ours.csv"), atomically: true, encoding: .utf8)
        try base.replacingOccurrences(of: "a,2", with: "a,3").write(to: scratch.appendingPathComponent("theirs.csv"), atomically: true, encoding: .utf8)
        let merged = try changeset(["merge", "base.csv", "ours.csv", "theirs.csv"], in: scratch)
        #expect(merged.status == 0, "\(merged)")
        #expect(merged.stdout == "tag,n\na,1\na,3\nb,\nc,4\n", "\(merged)")
        #expect(merged.stderr == "changeset: note: without --id, records are matched by their whole content (no field is unique in each file): "
            + "a record edited on both sides is kept in both versions\n")
    }
}
